package io.tlsadmit.gate.source;

/**
 * Which sources keep offering resumptions that turn out false: a ticket or PSK the server cannot
 * resume (forged, foreign, or stale), found out only inside the TLS engine after it has spent CPU on
 * the offer. A source (IPv4 /24, IPv6 /64) whose recent false offers reach {@code threshold} is
 * <em>distrusted</em>: its unverifiable offers are then treated as new handshakes, charged to the
 * budget before any cryptography, until its score decays below the threshold again.
 *
 * <p>Scores decay exponentially with {@code halfLife}, so a source that stops forging is trusted again
 * after a few half-lives, and a legitimate client returning with a stale ticket after a server restart
 * costs its source one point, not a verdict. The table has a fixed size: when a probe run is full, the
 * entry with the lowest decayed score gives way, so a flood of one-off sources cannot push out the
 * ones that keep forging. Thread-safe, allocation-free.
 */
public final class FalseResumptions {

    private static final int PROBES = 8;

    private final long[] sources;
    private final double[] scores;
    private final long[] stamps;
    private final double threshold;
    private final double halfLifeNanos;
    /** Lets the common case (nobody forged recently) skip the lock. */
    private volatile long lastRecordNanos = Long.MIN_VALUE / 2;
    private final long quietAfterNanos;

    /**
     * @param capacity      sources remembered at once, rounded up to a power of two
     * @param threshold     decayed false offers at which a source is distrusted, > 0
     * @param halfLifeNanos how fast a score halves, > 0
     */
    public FalseResumptions(int capacity, double threshold, long halfLifeNanos) {
        if (capacity < PROBES || threshold <= 0 || halfLifeNanos <= 0) {
            throw new IllegalArgumentException("capacity >= " + PROBES + ", threshold > 0, half-life > 0");
        }
        int size = Integer.highestOneBit(capacity - 1) << 1;
        this.sources = new long[size];
        this.scores = new double[size];
        this.stamps = new long[size];
        this.threshold = threshold;
        this.halfLifeNanos = halfLifeNanos;
        // Below threshold for good once even one full threshold's worth has had 20 half-lives to decay.
        this.quietAfterNanos = 20 * halfLifeNanos;
    }

    /** One offer from {@code source} turned out false now. */
    public synchronized void record(long source, long nowNanos) {
        if (source == SourcePrefix.UNKNOWN) {
            return;
        }
        lastRecordNanos = nowNanos;
        int mask = sources.length - 1;
        int home = SourceCounts.mix(source) & mask;
        int weakest = home;
        double weakestScore = Double.MAX_VALUE;
        for (int p = 0; p < PROBES; p++) {
            int i = (home + p) & mask;
            if (sources[i] == source || sources[i] == SourcePrefix.UNKNOWN) {
                scores[i] = (sources[i] == source ? decayed(i, nowNanos) : 0) + 1;
                sources[i] = source;
                stamps[i] = nowNanos;
                return;
            }
            double score = decayed(i, nowNanos);
            if (score < weakestScore) {
                weakestScore = score;
                weakest = i;
            }
        }
        sources[weakest] = source;
        scores[weakest] = 1;
        stamps[weakest] = nowNanos;
    }

    public boolean isDistrusted(long source, long nowNanos) {
        if (source == SourcePrefix.UNKNOWN || nowNanos - lastRecordNanos > quietAfterNanos) {
            return false;
        }
        return score(source, nowNanos) >= threshold;
    }

    /** The decayed score of a source now; 0 when it is not remembered. */
    public synchronized double score(long source, long nowNanos) {
        int mask = sources.length - 1;
        int home = SourceCounts.mix(source) & mask;
        for (int p = 0; p < PROBES; p++) {
            int i = (home + p) & mask;
            if (sources[i] == source) {
                return decayed(i, nowNanos);
            }
        }
        return 0;
    }

    /** Sources distrusted now (a scan of the table: for metrics, not the hot path). */
    public synchronized int distrustedSources(long nowNanos) {
        int count = 0;
        for (int i = 0; i < sources.length; i++) {
            if (sources[i] != SourcePrefix.UNKNOWN && decayed(i, nowNanos) >= threshold) {
                count++;
            }
        }
        return count;
    }

    public double threshold() {
        return threshold;
    }

    private double decayed(int slot, long nowNanos) {
        long age = Math.max(0, nowNanos - stamps[slot]);
        return scores[slot] * Math.pow(0.5, age / halfLifeNanos);
    }
}

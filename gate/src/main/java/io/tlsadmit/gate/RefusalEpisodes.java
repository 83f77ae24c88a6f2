package io.tlsadmit.gate;

import java.util.concurrent.TimeUnit;

/**
 * Tells when a connector starts refusing handshakes and when it stops, for one log line at each end of
 * an episode instead of one per refused connection. Checked about once a second with the connector's
 * cumulative refusal count: the first check that sees new refusals opens an episode, and an episode
 * closes after {@code quietNanos} without any. Pure and single-threaded (one scheduled task calls it).
 */
public final class RefusalEpisodes {

    /** A transition to log. */
    public record Change(boolean started, long refusedSoFar, long refusedLastCheck, double seconds) {
    }

    private final long quietNanos;
    /** Counts are since the connector started, so the first check compares with zero. */
    private long lastTotal;
    private boolean refusing;
    private long episodeStartNanos;
    private long lastRefusalNanos;
    private long episodeStartTotal;

    public RefusalEpisodes(long quietNanos) {
        if (quietNanos <= 0) {
            throw new IllegalArgumentException("quiet time must be > 0");
        }
        this.quietNanos = quietNanos;
    }

    public RefusalEpisodes() {
        this(TimeUnit.SECONDS.toNanos(30));
    }

    /**
     * @param refusedTotal the connector's refusals since start (monotonic)
     * @return the start or the end of an episode, or null when nothing changed
     */
    public Change check(long refusedTotal, long nowNanos) {
        long previous = lastTotal;
        lastTotal = refusedTotal;
        long fresh = refusedTotal - previous;
        if (fresh > 0) {
            lastRefusalNanos = nowNanos;
            if (!refusing) {
                refusing = true;
                episodeStartNanos = nowNanos;
                episodeStartTotal = previous;
                return new Change(true, fresh, fresh, 0);
            }
            return null;
        }
        if (refusing && nowNanos - lastRefusalNanos >= quietNanos) {
            refusing = false;
            return new Change(false, refusedTotal - episodeStartTotal, 0,
                    (lastRefusalNanos - episodeStartNanos) / 1e9);
        }
        return null;
    }

    public boolean isRefusing() {
        return refusing;
    }
}

package io.tlsadmit.loadtests.run;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Response times at one-millisecond resolution up to a minute (everything longer in the last bucket): exact
 * enough for p99 at the paper's 10 s timeout, lock-free for thousands of users recording at once.
 */
public final class LatencyHistogram {

    private static final int MAX_MILLIS = 60_000;

    private final AtomicLongArray counts = new AtomicLongArray(MAX_MILLIS + 1);

    public void record(long millis) {
        counts.incrementAndGet((int) Math.max(0, Math.min(millis, MAX_MILLIS)));
    }

    public long count() {
        long total = 0;
        for (int i = 0; i < counts.length(); i++) {
            total += counts.get(i);
        }
        return total;
    }

    /** The smallest recorded time that at least {@code quantile} of the recordings do not exceed; -1 when empty. */
    public long percentile(double quantile) {
        long total = count();
        if (total == 0) {
            return -1;
        }
        long rank = (long) Math.ceil(quantile * total);
        long seen = 0;
        for (int i = 0; i < counts.length(); i++) {
            seen += counts.get(i);
            if (seen >= Math.max(rank, 1)) {
                return i;
            }
        }
        return MAX_MILLIS;
    }

    public double mean() {
        long total = 0;
        double sum = 0;
        for (int i = 0; i < counts.length(); i++) {
            long n = counts.get(i);
            total += n;
            sum += (double) n * i;
        }
        return total == 0 ? -1 : sum / total;
    }
}

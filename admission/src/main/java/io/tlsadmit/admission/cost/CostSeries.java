package io.tlsadmit.admission.cost;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The CPU cost of one class of handshake: count, total, maximum, an exponentially weighted moving
 * average and a histogram for percentiles. Thread-safe; recording allocates nothing.
 *
 * <p>The EWMA is what the controller divides by: it follows a change of certificate or cipher
 * within a few dozen handshakes, yet one slow handshake (a page fault, a GC) moves it only by
 * {@code alpha}. For the first {@value #WARM_UP_SAMPLES} samples it is the median of the samples so
 * far instead: the first sample still replaces a wrong start-up estimate at once, but the first
 * handshakes of a cold JVM (class loading, interpreter: 30-60 ms measured against 1-2 ms warm) are
 * outvoted within a few handshakes instead of holding the budget down for hundreds of them.
 */
final class CostSeries {
    /** Samples over which the estimate is the running median before the EWMA takes over. */
    static final int WARM_UP_SAMPLES = 16;

    private final double alpha;
    private final LongAdder count = new LongAdder();
    private final LongAdder totalNanos = new LongAdder();
    private final AtomicLong maxNanos = new AtomicLong();
    /** The EWMA as double bits; NaN until the first sample. */
    private final AtomicLong ewmaBits = new AtomicLong(Double.doubleToRawLongBits(Double.NaN));
    private final LogHistogram histogram = new LogHistogram();
    /** Samples per bucket of {@link CpuTimeBuckets} (not cumulative); above the last bound only in {@link #count}. */
    private final AtomicLongArray buckets = new AtomicLongArray(CpuTimeBuckets.size());
    private final long[] firstSamples = new long[WARM_UP_SAMPLES];
    private int firstCount;
    private volatile boolean warm;

    CostSeries(double alpha) {
        this.alpha = alpha;
    }

    void record(long cpuNanos) {
        count.increment();
        totalNanos.add(cpuNanos);
        maxNanos.accumulateAndGet(cpuNanos, Math::max);
        histogram.record(cpuNanos);
        int bucket = CpuTimeBuckets.index(cpuNanos);
        if (bucket < CpuTimeBuckets.size()) {
            buckets.incrementAndGet(bucket);
        }
        if (!warm && warmUp(cpuNanos)) {
            return;
        }
        while (true) {
            long bits = ewmaBits.get();
            double old = Double.longBitsToDouble(bits);
            double next = Double.isNaN(old) ? cpuNanos : old + alpha * (cpuNanos - old);
            if (ewmaBits.compareAndSet(bits, Double.doubleToRawLongBits(next))) {
                return;
            }
        }
    }

    /** During warm-up: keeps the first samples sorted and makes the estimate their exact median. */
    private boolean warmUp(long cpuNanos) {
        synchronized (firstSamples) {
            if (firstCount == WARM_UP_SAMPLES) {
                warm = true;
                return false;
            }
            int i = firstCount++;
            while (i > 0 && firstSamples[i - 1] > cpuNanos) {
                firstSamples[i] = firstSamples[i - 1];
                i--;
            }
            firstSamples[i] = cpuNanos;
            int middle = firstCount / 2;
            double median = (firstCount & 1) == 1 ? firstSamples[middle]
                    : (firstSamples[middle - 1] + firstSamples[middle]) / 2.0;
            ewmaBits.set(Double.doubleToRawLongBits(median));
            return true;
        }
    }

    long count() {
        return count.sum();
    }

    long totalNanos() {
        return totalNanos.sum();
    }

    /** NaN until the first sample. */
    double ewmaNanos() {
        return Double.longBitsToDouble(ewmaBits.get());
    }

    /**
     * Cumulative counts at each bound of {@link CpuTimeBuckets}, then the total ({@code +Inf}): one
     * longer than {@code CpuTimeBuckets.size()}. Read while samples arrive, so the total is taken last
     * and never less than the last bucket, which keeps the counts a valid histogram.
     */
    long[] cumulativeBucketCounts() {
        long[] cumulative = new long[CpuTimeBuckets.size() + 1];
        long running = 0;
        for (int i = 0; i < CpuTimeBuckets.size(); i++) {
            running += buckets.get(i);
            cumulative[i] = running;
        }
        cumulative[CpuTimeBuckets.size()] = Math.max(running, count.sum());
        return cumulative;
    }

    CostSnapshot snapshot() {
        long[] counts = histogram.counts();
        long n = count.sum();
        long total = totalNanos.sum();
        return new CostSnapshot(n, total, n == 0 ? 0 : (double) total / n, ewmaNanos(),
                LogHistogram.quantile(counts, 0.50), LogHistogram.quantile(counts, 0.90),
                LogHistogram.quantile(counts, 0.99), maxNanos.get());
    }
}

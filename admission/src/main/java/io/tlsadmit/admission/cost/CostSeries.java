package io.tlsadmit.admission.cost;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The CPU cost of one class of handshake: count, total, maximum, an exponentially weighted moving
 * average and a histogram for percentiles. Thread-safe; recording allocates nothing.
 *
 * <p>The EWMA is what the controller divides by: it follows a change of certificate or cipher
 * within a few dozen handshakes, yet one slow handshake (a cold JIT, a page fault) moves it only by
 * {@code alpha}. The first sample sets it outright so a wrong start-up estimate is dropped at once.
 */
final class CostSeries {

    private final double alpha;
    private final LongAdder count = new LongAdder();
    private final LongAdder totalNanos = new LongAdder();
    private final AtomicLong maxNanos = new AtomicLong();
    /** The EWMA as double bits; NaN until the first sample. */
    private final AtomicLong ewmaBits = new AtomicLong(Double.doubleToRawLongBits(Double.NaN));
    private final LogHistogram histogram = new LogHistogram();

    CostSeries(double alpha) {
        this.alpha = alpha;
    }

    void record(long cpuNanos) {
        count.increment();
        totalNanos.add(cpuNanos);
        maxNanos.accumulateAndGet(cpuNanos, Math::max);
        histogram.record(cpuNanos);
        while (true) {
            long bits = ewmaBits.get();
            double old = Double.longBitsToDouble(bits);
            double next = Double.isNaN(old) ? cpuNanos : old + alpha * (cpuNanos - old);
            if (ewmaBits.compareAndSet(bits, Double.doubleToRawLongBits(next))) {
                return;
            }
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

    CostSnapshot snapshot() {
        long[] counts = histogram.counts();
        long n = count.sum();
        long total = totalNanos.sum();
        return new CostSnapshot(n, total, n == 0 ? 0 : (double) total / n, ewmaNanos(),
                LogHistogram.quantile(counts, 0.50), LogHistogram.quantile(counts, 0.90),
                LogHistogram.quantile(counts, 0.99), maxNanos.get());
    }
}

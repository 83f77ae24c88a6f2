package io.tlsadmit.admission.cost;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A lock-free histogram of non-negative {@code long} values with logarithmic buckets: 16 buckets
 * per power of two, so any percentile it reports is within 1/32 (about 3%) of a value that was
 * recorded. Recording is one array increment, with no allocation, which is what a per-handshake
 * hot path can afford; the fixed 960 buckets cover 0 to {@code Long.MAX_VALUE}.
 */
final class LogHistogram {

    private static final int SUB_BITS = 4;
    private static final int SUB_BUCKETS = 1 << SUB_BITS;
    /** Values below 16 get a bucket each; each higher power of two gets 16. */
    static final int BUCKETS = (63 - SUB_BITS + 1) * SUB_BUCKETS;

    private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);

    void record(long value) {
        counts.incrementAndGet(index(Math.max(0, value)));
    }

    static int index(long value) {
        if (value < SUB_BUCKETS) {
            return (int) value;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(value);
        int sub = (int) (value >>> (exponent - SUB_BITS)) & (SUB_BUCKETS - 1);
        return (exponent - SUB_BITS + 1) * SUB_BUCKETS + sub;
    }

    /** The smallest value that falls in bucket {@code index}. */
    static long lowerBound(int index) {
        if (index < SUB_BUCKETS) {
            return index;
        }
        int exponent = index / SUB_BUCKETS + SUB_BITS - 1;
        long sub = index % SUB_BUCKETS;
        return (SUB_BUCKETS + sub) << (exponent - SUB_BITS);
    }

    /** How many consecutive values bucket {@code index} holds. */
    static long width(int index) {
        if (index < SUB_BUCKETS) {
            return 1;
        }
        return 1L << (index / SUB_BUCKETS - 1);
    }

    /** A consistent-enough copy of the counts: each bucket is read once. */
    long[] counts() {
        long[] copy = new long[BUCKETS];
        for (int i = 0; i < BUCKETS; i++) {
            copy[i] = counts.get(i);
        }
        return copy;
    }

    /**
     * The value at quantile {@code q} of the given counts: the middle of the bucket holding the
     * {@code ceil(q × total)}-th smallest value; 0 when nothing was recorded.
     */
    static long quantile(long[] counts, double q) {
        long total = 0;
        for (long c : counts) {
            total += c;
        }
        if (total == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(q * total));
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return lowerBound(i) + (width(i) - 1) / 2;
            }
        }
        return lowerBound(counts.length - 1);
    }
}

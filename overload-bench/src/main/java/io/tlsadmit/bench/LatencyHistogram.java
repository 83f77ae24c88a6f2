package io.tlsadmit.bench;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Latencies in microseconds in log-linear buckets (16 per power of two, so within ~6 %), lock-free,
 * so hundreds of client threads can record without contending on a list.
 */
final class LatencyHistogram {
    private static final int SUB_BUCKETS = 16;
    private static final int POWERS = 40;

    private final AtomicLongArray counts = new AtomicLongArray(POWERS * SUB_BUCKETS);

    void record(long nanos) {
        long micros = Math.max(1, nanos / 1000);
        counts.incrementAndGet(index(micros));
    }

    static int index(long micros) {
        int power = 63 - Long.numberOfLeadingZeros(micros);
        if (power < 4) {
            return (int) micros; // 1..15 µs are exact
        }
        int sub = (int) ((micros >>> (power - 4)) & (SUB_BUCKETS - 1));
        return Math.min(power * SUB_BUCKETS + sub, POWERS * SUB_BUCKETS - 1);
    }

    /** The lower edge of bucket {@code i}, in microseconds. */
    static long lowerBound(int i) {
        if (i < SUB_BUCKETS * 4 && i < 16) {
            return i;
        }
        int power = i / SUB_BUCKETS;
        int sub = i % SUB_BUCKETS;
        return ((long) (SUB_BUCKETS + sub)) << (power - 4);
    }

    long count() {
        long n = 0;
        for (int i = 0; i < counts.length(); i++) {
            n += counts.get(i);
        }
        return n;
    }

    /** The {@code q} quantile in milliseconds, NaN without samples. */
    double quantileMillis(double q) {
        long total = count();
        if (total == 0) {
            return Double.NaN;
        }
        long rank = (long) Math.ceil(q * total);
        long seen = 0;
        for (int i = 0; i < counts.length(); i++) {
            seen += counts.get(i);
            if (seen >= rank && counts.get(i) > 0) {
                return lowerBound(i) / 1000.0;
            }
        }
        return lowerBound(counts.length() - 1) / 1000.0;
    }
}

package io.tlsadmit.admission.cost;

/**
 * The fixed upper bounds of the handshake CPU histogram that metrics export (a Prometheus histogram's
 * {@code le} values). Fixed, and the same in every JVM, so that bucket counts of many servers can be
 * added up and a percentile computed over a whole fleet; percentiles kept per JVM cannot be combined.
 * From 50 µs (a TLS 1.2 resumption) to 1 s (a cold JVM's first RSA-4096 handshakes on a loaded CPU),
 * about three bounds per factor of ten, so a percentile read from them is off by at most that step.
 */
public final class CpuTimeBuckets {

    private static final long[] UPPER_BOUNDS_NANOS = {
        50_000, 100_000, 250_000, 500_000,
        1_000_000, 2_500_000, 5_000_000, 10_000_000, 25_000_000, 50_000_000,
        100_000_000, 250_000_000, 500_000_000, 1_000_000_000,
    };

    private CpuTimeBuckets() {
    }

    /** How many finite bounds there are; a histogram adds {@code +Inf} after them. */
    public static int size() {
        return UPPER_BOUNDS_NANOS.length;
    }

    /** The {@code i}-th upper bound, inclusive, in seconds. */
    public static double upperBoundSeconds(int i) {
        return UPPER_BOUNDS_NANOS[i] / 1e9;
    }

    /** The first bucket whose bound is at least {@code nanos}; {@link #size()} when above every bound. */
    static int index(long nanos) {
        int i = 0;
        while (i < UPPER_BOUNDS_NANOS.length && nanos > UPPER_BOUNDS_NANOS[i]) {
            i++;
        }
        return i;
    }
}

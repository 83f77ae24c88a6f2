package io.tlsadmit.admission.cost;

/**
 * The CPU cost of one class of handshake as of one moment, for metrics. All values in nanoseconds
 * of server CPU time; percentiles are within about 3% of a recorded value.
 *
 * @param count      handshakes recorded with a known CPU time
 * @param totalNanos their CPU time summed
 * @param meanNanos  {@code totalNanos / count}, 0 when empty
 * @param ewmaNanos  the smoothed cost the controller uses, NaN when empty
 */
public record CostSnapshot(long count, long totalNanos, double meanNanos, double ewmaNanos,
                           long p50Nanos, long p90Nanos, long p99Nanos, long maxNanos) {
}

package io.tlsadmit.gate;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Which resumptions of a connector have their handshake CPU timed: the first, then the first to arrive at least an
 * interval after the last one drawn. Lock-free; one per connector.
 *
 * <p>Why by time and not one in {@code n}: a timed handshake costs two readings of the thread CPU clock per step,
 * system calls with no vDSO path (1.47 µs of CPU each on the AMD guest of docs/benchmarks.md section 7, eight for a
 * TLS 1.2 resumption), so one in eight cost the adaptive budget a share of every resumed connection however many there
 * were. What the budget needs of resumptions is their mean cost, for {@code cpusRequested} and the metrics; a few
 * samples a second give it at any rate. Bounded in time, the readings cost a fixed CPU per second, which at the rates
 * where the gate's cost per connection matters is a smaller share of each connection the faster they come.
 */
final class ResumptionTimingSample {

    private static final long NONE = Long.MIN_VALUE;

    private final long intervalNanos;
    private final AtomicLong lastDrawnNanos = new AtomicLong(NONE);

    ResumptionTimingSample(long intervalNanos) {
        if (intervalNanos < 0) {
            throw new IllegalArgumentException("interval must be ≥ 0 ns, was " + intervalNanos);
        }
        this.intervalNanos = intervalNanos;
    }

    /**
     * Whether the resumption that arrived at {@code nowNanos} is timed. Arrival times of concurrent connections may
     * come slightly out of order; one that lost the race to another drawn at about the same time is not timed, so
     * the bound holds within the clock's jitter.
     */
    boolean draw(long nowNanos) {
        long last = lastDrawnNanos.get();
        if (last != NONE && nowNanos - last < intervalNanos) {
            return false;
        }
        return lastDrawnNanos.compareAndSet(last, nowNanos);
    }
}

package io.tlsadmit.bench;

import java.util.concurrent.atomic.LongAdder;
import io.tlsadmit.testing.LatencyRecording;
import org.HdrHistogram.Histogram;

/** What the clients saw during one measured step; written by many client threads at once. */
final class StepCounters {
    // established clients: every connection after their first resumes its TLS session
    final LongAdder resumedCompleted = new LongAdder();
    final LongAdder resumedRefused = new LongAdder();
    final LongAdder resumedTimedOut = new LongAdder();
    /**
     * Established clients' connections that ended, whatever the outcome, while these counters were current: the
     * share that succeeded is taken of these, not of the attempts, since attempts still under way when a step's
     * counters are read would otherwise count as failures (the more of them, the slower the server answers).
     */
    final LongAdder resumedFinished = new LongAdder();
    /** Connections whose handshake completed but whose request did not (reset, closed, an error): neither kind is hidden. */
    final LongAdder newFailedAfterHandshake = new LongAdder();
    final LongAdder resumedFailedAfterHandshake = new LongAdder();
    // new clients: a full handshake each
    final LongAdder newArrivals = new LongAdder();
    final LongAdder newCompleted = new LongAdder();
    final LongAdder newRefused = new LongAdder();
    final LongAdder newTimedOut = new LongAdder();
    /** Arrivals the driver could not start because all its client threads were busy: a driver limit, reported. */
    final LongAdder newDroppedByDriver = new LongAdder();
    final LongAdder requestsCompleted = new LongAdder();

    // microseconds; hundreds of client threads record at once, and still do when the step's figures are taken
    final LatencyRecording fullHandshake = new LatencyRecording();
    final LatencyRecording resumedHandshake = new LatencyRecording();
    final LatencyRecording request = new LatencyRecording();

    static void record(LatencyRecording micros, long nanos) {
        micros.record(Math.max(1, nanos / 1000));
    }

    /** The {@code q} quantile in milliseconds, NaN without samples. */
    static double millis(Histogram micros, double q) {
        return micros.getTotalCount() == 0 ? Double.NaN : micros.getValueAtPercentile(100 * q) / 1000.0;
    }
}

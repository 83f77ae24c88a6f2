package io.tlsadmit.bench;

import java.util.concurrent.atomic.LongAdder;

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

    final LatencyHistogram fullHandshake = new LatencyHistogram();
    final LatencyHistogram resumedHandshake = new LatencyHistogram();
    final LatencyHistogram request = new LatencyHistogram();
}

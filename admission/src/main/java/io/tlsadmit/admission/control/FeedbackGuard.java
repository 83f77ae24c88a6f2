package io.tlsadmit.admission.control;

/**
 * Shrinks the computed rate when new connections wait too long, and lets it grow back slowly.
 *
 * <p>Why the controller needs this on top of its model: the model is only as good as its inputs.
 * A cost estimate that is wrong at start, CPU the gate cannot see (another process on the same
 * CPUs, work not reported as "other"), a host that steals cycles — each makes the model admit more
 * than the CPUs absorb. The symptom is always the same: new connections queue for a worker before
 * their handshake starts. So the guard watches that delay and, like TCP's congestion control,
 * cuts multiplicatively (fast enough to stop a queue growing) and recovers additively (slow enough
 * not to refill it at once). It scales the model's output, so it adapts in proportion whatever the
 * absolute rate, and when the model is right it sits at 1 and costs nothing.
 *
 * <p>It cuts only while the delay is over the target <em>and not falling</em>. A falling delay
 * means the queue already drains at the current rate; cutting further would only leave CPUs idle
 * once it is empty (a backlog left by a CPU reduction or a start-up burst drains on its own).
 */
final class FeedbackGuard {

    /** Multiplier applied in each period whose mean queue delay is over the target. */
    static final double DECREASE = 0.7;
    /** Added back in each period under the target: from 0.7 to 1 in three periods. */
    static final double RECOVERY = 0.1;
    /** Never below this: the floor keeps a trickle of admissions whose delay shows the queue drained. */
    static final double FLOOR = 0.02;

    private double factor = 1;
    private double previousDelayNanos = -1;

    /**
     * @param meanQueueDelayNanos mean queue delay of new connections over the last period;
     *                            negative when no connection started a handshake in it
     * @return the factor for the next period, in [{@link #FLOOR}, 1]
     */
    double update(double meanQueueDelayNanos, double targetNanos) {
        if (meanQueueDelayNanos > targetNanos) {
            boolean falling = previousDelayNanos >= 0 && meanQueueDelayNanos < previousDelayNanos;
            if (!falling) {
                factor = Math.max(FLOOR, factor * DECREASE);
            }
        } else {
            factor = Math.min(1, factor + RECOVERY);
        }
        previousDelayNanos = meanQueueDelayNanos;
        return factor;
    }

    double factor() {
        return factor;
    }
}

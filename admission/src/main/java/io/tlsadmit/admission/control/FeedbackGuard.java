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
 *
 * <p>A value: {@link #update} returns the guard for the next period and changes nothing.
 *
 * @param factor             the multiplier, in [{@link #FLOOR}, 1]
 * @param previousDelayNanos the last period's mean queue delay, negative when it had none
 */
record FeedbackGuard(double factor, double previousDelayNanos) {

    /** Multiplier applied in each period whose mean queue delay is over the target. */
    static final double DECREASE = 0.7;
    /** Added back in each period under the target: from 0.7 to 1 in three periods. */
    static final double RECOVERY = 0.1;
    /** Never below this: the floor keeps a trickle of admissions whose delay shows the queue drained. */
    static final double FLOOR = 0.02;

    static final FeedbackGuard OPEN = new FeedbackGuard(1, -1);

    /**
     * @param meanQueueDelayNanos mean queue delay of new connections over the last period;
     *                            negative when no connection started a handshake in it
     * @return the guard for the next period
     */
    FeedbackGuard update(double meanQueueDelayNanos, double targetNanos) {
        double next = factor;
        if (meanQueueDelayNanos > targetNanos) {
            boolean falling = previousDelayNanos >= 0 && meanQueueDelayNanos < previousDelayNanos;
            if (!falling) {
                next = Math.max(FLOOR, factor * DECREASE);
            }
        } else {
            next = Math.min(1, factor + RECOVERY);
        }
        return new FeedbackGuard(next, meanQueueDelayNanos);
    }

    /** Whether the last period's queue was over the target: the CPUs were not spare after all. */
    boolean queueOver(double targetNanos) {
        return previousDelayNanos > targetNanos;
    }
}

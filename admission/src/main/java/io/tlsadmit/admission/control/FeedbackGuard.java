package io.tlsadmit.admission.control;

/**
 * Shrinks the computed rate when new connections wait too long, and lets it grow back slowly.
 *
 * <p>Why the controller needs this on top of its model: the model is only as good as its inputs.
 * A cost estimate that is wrong at start, CPU the gate cannot see (another process on the same
 * CPUs, work not reported as "other"), a host that steals cycles — each makes the model admit more
 * than the CPUs absorb. The symptom is always the same: new connections queue for a worker before
 * their handshake starts. So the guard watches that delay and, like TCP's congestion control,
 * cuts multiplicatively, fast enough to stop a queue growing. It scales the model's output, so it adapts
 * in proportion whatever the absolute rate, and when the model is right it sits at 1 and costs nothing.
 *
 * <p>How it recovers is what decides how much a cut costs. A climb by a fixed step (TCP's) left the CPUs
 * idle for a second or more after each deep cut. Instead, once the queue is under its target, the guard
 * looks at how much room the CPUs had in that period for the new handshakes it admitted: with room for
 * 1.4 times the full-handshake CPU it ran, it raises the factor 1.4 times (at most 1.5 per period, at
 * least by 0.1), and with no room it holds; a period without measured full-handshake CPU gives no
 * evidence of room, and the factor climbs by 0.1. Room is a measurement, not the model's estimate, so a model
 * that is wrong (the reason the guard cut) cannot talk it into refilling the queue.
 *
 * <p>It cuts only while the delay is over the target <em>and not falling</em>. A falling delay
 * means the queue already drains at the current rate; cutting further would only leave CPUs idle
 * once it is empty (a backlog left by a CPU reduction or a start-up burst drains on its own). The
 * delays themselves say so late: a connection admitted after a cut starts only once the queue ahead
 * of it is gone, so they keep rising for as long as the queue is deep, and each period of them used
 * to cut again (to a quarter of the rate after a flash crowd, and the CPUs then idled). So the queue
 * also counts as falling when the work let in during the period (busy CPUs plus the admitted full
 * handshakes at their measured cost) was less than the CPUs serve.
 *
 * <p>A value: {@link #update} returns the guard for the next period and changes nothing.
 *
 * @param factor             the multiplier, in [{@link #FLOOR}, 1]
 * @param previousDelayNanos the last period's mean queue delay, negative when it had none
 */
record FeedbackGuard(double factor, double previousDelayNanos) {

    /** Multiplier applied in each period whose mean queue delay is over the target. */
    static final double DECREASE = 0.7;
    /** Added back at least, in each period under the target in which the CPUs had room. */
    static final double RECOVERY = 0.1;
    /** The most the factor is multiplied by in one period: the measurement of room lags by a period. */
    static final double MAX_RAISE = 1.5;
    /** Never below this: the floor keeps a trickle of admissions whose delay shows the queue drained. */
    static final double FLOOR = 0.02;

    static final FeedbackGuard OPEN = new FeedbackGuard(1, -1);

    /**
     * @param meanQueueDelayNanos mean queue delay of new connections over the last period;
     *                            negative when no connection started a handshake in it
     * @param room                how many times the full-handshake CPU of the last period the CPUs had room
     *                            for at their target ({@code (cpus × target − busy) / full-handshake CPU});
     *                            NaN when no full-handshake CPU was measured, and the factor then climbs by
     *                            {@link #RECOVERY} alone
     * @param draining            whether the work let in during the period was less than the CPUs serve (known
     *                            only from a measured cost): the queue then drains, whatever its delays say
     * @return the guard for the next period
     */
    FeedbackGuard update(double meanQueueDelayNanos, double targetNanos, double room, boolean draining) {
        double next = factor;
        if (meanQueueDelayNanos > targetNanos) {
            boolean falling = draining || previousDelayNanos >= 0 && meanQueueDelayNanos < previousDelayNanos;
            if (!falling) {
                next = Math.max(FLOOR, factor * DECREASE);
            }
        } else if (Double.isNaN(room)) {
            next = Math.min(1, factor + RECOVERY);
        } else if (room > 1) {
            next = Math.min(1, Math.max(factor + RECOVERY, factor * Math.min(MAX_RAISE, room)));
        }
        return new FeedbackGuard(next, meanQueueDelayNanos);
    }

    /** Whether the last period's queue was over the target: the CPUs were not spare after all. */
    boolean queueOver(double targetNanos) {
        return previousDelayNanos > targetNanos;
    }
}

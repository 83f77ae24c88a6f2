package io.tlsadmit.admission.control;

/**
 * The adaptive budget's control law: from what a period measured, the rate of new full handshakes for
 * the next. A pure function; {@link AdmissionController} reads the counters and applies the result.
 *
 * <pre>
 *   busy       ← busy + ½ (measured busy − busy)
 *   occupied   = used + compiling                       (this period)
 *   smoothed   ← smoothed + ½ (occupied − smoothed)
 *   idle       = cpus × target − occupied
 *   correction ← correction + ½ min(idle, cpus × target − smoothed)
 *                                        while new clients are refused, the queue is short and that is > 5 % of the CPUs
 *                correction + ½ idle     while new clients are refused and the CPUs are over the target (idle < 0)
 *                0                       when the queue was over its target
 *                correction × 0.9        while no one is refused
 *                within [0, ½ cpus]
 *   perClient  = used / admitted, averaged over 15 s of periods in which the budget bound at a steady rate
 *                with the guard open and the queue short ({@link SessionCost}); unknown before 5 s of those;
 *                × fullHandshakeCost / its average over the same periods (the machine's speed, as it is now)
 *   rate       = min(max(0, cpus × target − busy + correction) / fullHandshakeCost,
 *                    cpus × target / perClient)                              × guard
 * </pre>
 *
 * <p>The first term is the 2005 study's model: new sessions get what the allocated CPUs leave after the
 * sessions already admitted. It acts at once on a change of CPUs or of cost, but it is only as right as its
 * measurements, and each of them errs in a known way: a cold JVM's handshakes cost several times a warm
 * one's, CPU the gate cannot attribute (accepting and refusing connections, the kernel's share, GC driven
 * by new clients) lands in {@code busy} only later, and a model aimed at a utilization below 1 leaves the
 * difference idle for good. The correction is an integral term on the one measurement that needs no model:
 * CPUs used. While clients are being refused and connections do not queue, clearly idle CPU is capacity
 * refused for nothing, so the rate rises until the CPUs are used at the target; when they are over it, the
 * correction is given back. It only ever adds (the {@link FeedbackGuard} is the one that takes away), it
 * learns only while the budget binds (otherwise the rate is not what limits use, and it would wind up) and the
 * guard is open (a rate the guard holds down is meant to leave CPUs idle while a queue drains), it
 * forgets slowly when nobody is refused, and a queue over its target wipes it at once: a queue is the proof
 * that the CPUs were not spare after all.
 *
 * <p>It learns upwards only from idle CPU that shows both in the period and in the smoothed occupation, and
 * counts the compiler's CPU as occupied. Why: a period's CPU readings are noisy (on the real server, per
 * 250 ms period under overload, busy varied by 0.24 CPU and used by 0.07), and an integral that adds each
 * period's idle but is bounded below by 0 turns noise into a steady excess: in a simulated Tomcat under
 * overload with 0.24 CPU of noise on its CPU clock, the CPU ran at 0.96-0.98 with page p99s of 71-602 ms,
 * against 0.92-0.94 and 39-73 ms learning from idle that persists (unloaded: 21-25 ms;
 * {@code AdaptiveTargetsUnderSimulationTest}). The compiler's CPU is left out of the model's load so that a
 * fresh JVM admits as if warm, but it is not room for more clients: learned as idle, the correction averaged
 * a third of a CPU on the real server over ten seconds in which the JIT took 0.18 CPU (2026-11-27, under
 * overload), and the clients it let in found the CPUs full once the JIT stopped. Over the target, the
 * period's own excess is given back at once: taking back needs no evidence that persists.
 *
 * <p>The second term of the minimum is the lag the first cannot see: a new client's session (its pages, its
 * reconnections) reaches the CPUs over seconds after its handshake. Right after CPUs are added, busy is still
 * the sessions admitted for fewer CPUs, so the first term admits for all the spare CPUs at the handshake's cost
 * alone, and the sessions it let in overload the CPUs seconds later (simulated with RUBiS-like sessions: to
 * 205/s against a steady 140, then a guard cut). The all-in cost per client, learned while the rate was steady,
 * gives the rate the new CPUs serve once the sessions have unfolded, at once. It is a cap and never raises
 * the rate: after CPUs are taken away the first term is the lower, rightly, since the sessions already admitted
 * for more CPUs must be served before new ones.
 *
 * <p>Why these gains: the CPU a period's admissions use shows in the next period's measurement, so a gain of
 * ½ closes half the gap per period without overshoot; the bound of {@link #MAX_CORRECTION_SHARE} of the
 * CPUs keeps a runaway measurement from doubling the model.
 */
final class ControlLaw {

    /**
     * How far the estimate of busy CPUs moves towards each period's measurement.
     * Why not all the way: admitting new clients raises that CPU in the next periods (their
     * requests), which lowers the next rate, which lowers the CPU again. With {@code q} the CPU a
     * new client spends after its handshake and {@code c} the handshake's, a full-step estimate
     * makes the rate alternate once {@code q > c}; a gain {@code g} keeps the loop stable while
     * {@code g × (1 + q/c) < 2}, i.e. up to {@code q = 3c} at 0.5. Changes of allocated CPUs or
     * of handshake cost are not smoothed: they act at once.
     */
    static final double BUSY_GAIN = 0.5;
    /**
     * How far the smoothed occupation of the CPUs, which the correction learns upwards from, moves towards each
     * period's: one period's error is halved, and idle CPU that persists is learned at three quarters of the full
     * gain from its second period on.
     */
    static final double OCCUPIED_GAIN = 0.5;
    /** Share of the CPU error closed per period while the budget binds. */
    static final double CORRECTION_GAIN = 0.5;
    /** Per period while nobody is refused: half-life of about 6.6 periods (1.6 s at 250 ms). */
    static final double CORRECTION_DECAY = 0.9;
    /**
     * Idle CPU below this share of the allocation is left to the model: right after a change the model's own
     * smoothing is still moving, and a correction learned from that lag would fight it.
     */
    static final double IDLE_DEADBAND = 0.05;
    /** Work let in below this share of the target means the queue drains (see {@link FeedbackGuard}). */
    static final double DRAINING_SHARE = 0.8;
    /** Compilation using this share of the CPUs or more means the JVM is warming up. */
    static final double WARMUP_TRANSIENT_SHARE = 0.1;
    /** How many times the queue-delay target the guard tolerates while the JVM warms up. */
    static final double WARMUP_QUEUE_FACTOR = 10;
    /** The correction stays within [0, this share of the allocated CPUs]. */
    static final double MAX_CORRECTION_SHARE = 0.5;

    private ControlLaw() {
    }

    /** The state after a period that measured {@code m}. */
    static ControlState next(ControlState s, PeriodMeasurement m, double targetUtilization,
                             double queueDelayTargetNanos, double runQueueTargetPerCpu) {
        double busy = Double.isNaN(s.busyCpus()) ? m.busyCpus() : s.busyCpus() + BUSY_GAIN * (m.busyCpus() - s.busyCpus());
        double fullCpus = m.usedCpus() - m.busyCpus();
        double room = fullCpus > 0 ? (m.cpus() * targetUtilization - m.busyCpus()) / fullCpus : Double.NaN;
        double delayTarget = queueDelayTarget(m, queueDelayTargetNanos);
        double delay = queueing(m, delayTarget, runQueueTargetPerCpu);
        // The work let in during the period against the CPUs: clearly below them, the queue drains whatever
        // its delays still say (they are the delays of connections queued before, and keep rising for a while).
        // "Clearly": the admitted clients' follow-up requests are not in it yet.
        boolean draining = m.busyCpus() + m.admittedFullCpus() < DRAINING_SHARE * m.cpus() * targetUtilization;
        FeedbackGuard guard = s.guard().update(delay, delayTarget, room, draining);
        // Measured against the smaller of the allocations before and after the period: CPUs added during it
        // were not yet offered to anyone (the model adds them at once), and CPUs taken away were not there to use.
        double cpus = Double.isNaN(s.cpus()) ? m.cpus() : Math.min(s.cpus(), m.cpus());
        double occupiedNow = m.usedCpus() + m.transientCpus();
        double occupied = Double.isNaN(s.occupiedCpus()) ? occupiedNow
                : s.occupiedCpus() + OCCUPIED_GAIN * (occupiedNow - s.occupiedCpus());
        double idleNow = cpus * targetUtilization - occupiedNow;
        double idle = Math.min(idleNow, cpus * targetUtilization - occupied);
        // Learned only while the guard is open and the queue short: a rate the guard holds down leaves the CPUs to
        // sessions admitted before (a backlog, or more CPUs than there are now), and CPUs that cannot keep up
        // (a queue over its target) show less than the admitted clients will take.
        boolean clean = m.budgetBinding() && s.guard().factor() == 1 && guard.factor() == 1
                && delay <= delayTarget;
        SessionCost sessionCost = s.sessionCost().update(m.periodNanos() / 1e9, clean, m.usedCpus(),
                m.admittedFullPerSecond(), m.fullHandshakeCostNanos());
        double correction;
        if (guard.queueOver(delayTarget)) {
            correction = 0;
        } else if (m.budgetBinding() && idle > IDLE_DEADBAND * cpus && s.guard().factor() == 1
                && delay <= delayTarget / 2) {
            correction = s.correctionCpus() + CORRECTION_GAIN * idle;
        } else if (m.budgetBinding() && idleNow < 0) {
            correction = s.correctionCpus() + CORRECTION_GAIN * idleNow;
        } else if (m.budgetBinding()) {
            correction = s.correctionCpus();
        } else {
            correction = s.correctionCpus() * CORRECTION_DECAY;
        }
        correction = Math.max(0, Math.min(MAX_CORRECTION_SHARE * m.cpus(), correction));
        return new ControlState(busy, correction, guard, m.cpus(), sessionCost, occupied);
    }

    /**
     * The queue delay the guard tolerates after a period that measured {@code m}. While the JVM is still
     * compiling, the model plans without the compiler's CPU (it stops by itself), so connections queue behind
     * it; that queue drains as the code gets fast, and cutting for it would refuse the very first clients of a
     * fresh instance. The guard then tolerates up to {@link #WARMUP_QUEUE_FACTOR} times the target (the full
     * factor from {@link #WARMUP_TRANSIENT_SHARE} of the CPUs compiling, less in proportion); the automatic
     * burst, sized by the same target, grows with it up to {@link AdmissionController#WARMUP_BURST_FACTOR}.
     */
    static double queueDelayTarget(PeriodMeasurement m, double queueDelayTargetNanos) {
        if (m == null || !(m.transientCpus() > 0)) {
            return queueDelayTargetNanos;
        }
        // In proportion, so that the queue left when compilation ends is not suddenly "over the target".
        double warmth = Math.min(1, m.transientCpus() / (WARMUP_TRANSIENT_SHARE * m.cpus()));
        return queueDelayTargetNanos * (1 + (WARMUP_QUEUE_FACTOR - 1) * warmth);
    }

    /**
     * How long the period's work queued, as the guard compares it with its target: the new connections' mean wait for
     * a worker, or, with a run-queue target and when more, the CPUs' run queue expressed on the same scale (at
     * {@code runQueueTargetPerCpu} threads waiting per CPU it equals {@code delayTargetNanos}). Why both: on workers
     * that share the CPUs an overload shows as every runnable worker waiting for a CPU, which the wait for a worker
     * does not see; a queue of connections for a worker, which the run queue does not see, is the other half.
     * Negative when neither was measured (no connection started, no run-queue target, or too few full handshakes to
     * read the run queue from).
     *
     * <p>The run queue's target is not stretched by the warm-up allowance ({@link #queueDelayTarget}): the allowance is
     * for connections queued behind compilation, while the compiler adds its one or two threads to the run queue, not
     * a multiple of it. Stretched, a target of 3 was held at 24–30 through three-minute runs of fresh servers whose
     * JIT compiled at 0.08–0.10 of the CPU: 10–12 threads waiting, page p99 246–510 ms, against 81–182 ms once not
     * (docs/benchmarks.md section 4, 2026-12-07).
     */
    static double queueing(PeriodMeasurement m, double delayTargetNanos, double runQueueTargetPerCpu) {
        double delay = m.meanQueueDelayNanos();
        double waiting = m.waitingThreads();
        if (!(runQueueTargetPerCpu > 0) || !(waiting >= 0) || !(m.cpus() > 0)) {
            return delay;
        }
        return Math.max(delay, delayTargetNanos * waiting / (runQueueTargetPerCpu * m.cpus()));
    }

    /** The rate the CPU model allows in state {@code s}, before the guard: new full handshakes per second. */
    static double modelRate(ControlState s, PeriodMeasurement m, double targetUtilization) {
        double spare = m.cpus() * targetUtilization - s.busyCpus() + s.correctionCpus();
        double rate = Math.max(0, spare) * 1e9 / m.fullHandshakeCostNanos();
        double perClient = s.sessionCost().cpuSecondsPerClient(m.fullHandshakeCostNanos());
        // The session cost caps what the spare CPUs seem to allow right after they grew (or the sessions shrank):
        // then busy still lacks the sessions being admitted, and the cap is the rate the CPUs serve once they
        // have unfolded. Below it the model rules: after CPUs are taken away, busy is sessions admitted for
        // more CPUs, which must be served before new ones.
        return Double.isNaN(perClient) ? rate : Math.min(rate, m.cpus() * targetUtilization / perClient);
    }

    /** The rate for the next period, before the operator's minimum and maximum. */
    static double rate(ControlState s, PeriodMeasurement m, double targetUtilization) {
        return modelRate(s, m, targetUtilization) * s.guard().factor();
    }
}

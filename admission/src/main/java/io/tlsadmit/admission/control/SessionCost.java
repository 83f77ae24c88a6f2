package io.tlsadmit.admission.control;

/**
 * What a new client costs the CPUs in all: its full handshake and everything its session brings after it
 * (pages, reconnections that resume), learned while the budget binds at a steady rate.
 *
 * <p>Why the controller needs it: the model {@code (cpus × target − busy) / fullHandshakeCost} sees a new
 * client's handshake at once but its session only as the session happens, over seconds (a RUBiS user asks for
 * ten pages over seven). After the CPUs grow, busy is still the sessions admitted for fewer CPUs, the model
 * admits for all the spare CPUs at the handshake's cost, and the sessions it let in arrive seconds later and
 * overload them. While the budget binds at a steady rate the server admits at that rate and uses about its
 * CPUs, so the used CPUs per admitted client, averaged over a window longer than a session, is the all-in cost,
 * and {@code cpus × target / cost} is the rate the CPUs serve once the sessions have unfolded: known at the
 * moment the CPUs change. It needs no model of sessions and is measured, not configured.
 *
 * <p>Why only while the rate is steady and binding: after the rate changes, admissions change at once and the
 * CPU only as the sessions unfold, so the ratio reads wrong for a session's length (low after a rise, high after
 * a cut); below the budget, CPU that no new client causes (established clients, the JVM's own work) is a large
 * share of a small total and would be charged to the few new clients. "Steady": the admissions of the last
 * {@link #RECENT_SECONDS} within {@link #STEADY_TOLERANCE} of those of the last {@link #AVERAGING_SECONDS}.
 *
 * <p>Why it is kept relative to the full handshake's measured cost: the machine's speed changes, and with it the
 * CPU of every page and handshake alike (a neighbour on the host's cache or core; on the development guest, spells of
 * a minute or more with every handshake at 1.4–1.5× its CPU, and the CPU per admitted client up by as much: their
 * ratio 1.61–1.87 in such spells, 1.68–2.08 outside them). An absolute cost learned in a spell outlives it: on the real
 * server, after one ended, the cap held the rate at 58–75 new clients/s while the model's own said 63–101, the CPU used
 * at 0.78 for the 20 s the trace went on; in simulation (every piece of work at 1.5× its CPU for 30 s just over the
 * knee, then 2× the knee) at 47–50/s against a steady 66 for 25 s (docs/benchmarks.md section 3, 2026-12-07). The
 * full handshake is the one piece of work whose CPU the gate measures one by one, many times a second, so its moving
 * cost follows the machine's speed within a second, and the session's cost is taken to follow it in proportion.
 *
 * <p>A value: {@link #update} returns the next one.
 *
 * @param usedCpus          average CPUs used in steady binding periods (transient JVM work excluded)
 * @param admittedPerSecond average new full handshakes admitted per second in the same periods
 * @param handshakeNanos    average measured cost of a full handshake in the same periods
 * @param learnedSeconds    steady binding time averaged into the three, up to {@link #AVERAGING_SECONDS}
 * @param recentAdmitted    admissions per second over about the last {@link #RECENT_SECONDS} of binding
 * @param trendAdmitted     admissions per second over about the last {@link #AVERAGING_SECONDS} of binding
 * @param bindingSeconds    binding time behind the two, up to {@link #AVERAGING_SECONDS}
 */
record SessionCost(double usedCpus, double admittedPerSecond, double handshakeNanos, double learnedSeconds,
                   double recentAdmitted, double trendAdmitted, double bindingSeconds) {

    /** Longer than a session, so that a session's CPU falls in the same average as its admission. */
    static final double AVERAGING_SECONDS = 15;
    /** Steady learning time before the cost is trusted. */
    static final double TRUSTED_AFTER_SECONDS = 5;
    static final double RECENT_SECONDS = 1;
    static final double STEADY_TOLERANCE = 0.15;
    /** Forgotten at this pace while the budget does not bind: the mix of clients may change meanwhile. */
    static final double FORGET_SECONDS = 60;

    static final SessionCost NONE = new SessionCost(0, 0, 0, 0, 0, 0, 0);

    /**
     * After a period of {@code seconds} that used {@code usedCpus} and admitted {@code admittedPerSecond}, with a full
     * handshake measured at {@code handshakeNanos}.
     */
    SessionCost update(double seconds, boolean binding, double usedCpus, double admittedPerSecond,
                       double handshakeNanos) {
        if (!(seconds > 0)) {
            return this;
        }
        if (!binding) {
            double forget = seconds * AVERAGING_SECONDS / FORGET_SECONDS;
            return new SessionCost(this.usedCpus, this.admittedPerSecond, this.handshakeNanos,
                    Math.max(0, learnedSeconds - forget),
                    recentAdmitted, trendAdmitted, Math.max(0, bindingSeconds - forget));
        }
        double span = Math.min(AVERAGING_SECONDS, bindingSeconds + seconds);
        double trend = trendAdmitted + seconds / span * (admittedPerSecond - trendAdmitted);
        double recent = recentAdmitted + Math.min(1, seconds / Math.min(RECENT_SECONDS, span)) * (admittedPerSecond - recentAdmitted);
        boolean steady = span >= RECENT_SECONDS && Math.abs(recent - trend) <= STEADY_TOLERANCE * trend;
        if (!steady || !(handshakeNanos > 0)) {
            return new SessionCost(this.usedCpus, this.admittedPerSecond, this.handshakeNanos, learnedSeconds, recent,
                    trend, span);
        }
        // Weighted by time over at most the last AVERAGING_SECONDS learned: the first periods count as much as
        // later ones instead of standing for the whole window.
        double learned = Math.min(AVERAGING_SECONDS, learnedSeconds + seconds);
        double weight = seconds / learned;
        return new SessionCost(this.usedCpus + weight * (usedCpus - this.usedCpus),
                this.admittedPerSecond + weight * (admittedPerSecond - this.admittedPerSecond),
                this.handshakeNanos + weight * (handshakeNanos - this.handshakeNanos), learned, recent, trend, span);
    }

    /**
     * CPU-seconds one admitted new client costs in all while a full handshake costs {@code handshakeNanosNow}; NaN
     * until learned long enough.
     */
    double cpuSecondsPerClient(double handshakeNanosNow) {
        boolean known = learnedSeconds >= TRUSTED_AFTER_SECONDS && admittedPerSecond > 0 && usedCpus > 0
                && handshakeNanos > 0 && handshakeNanosNow > 0;
        return known ? usedCpus / admittedPerSecond * (handshakeNanosNow / handshakeNanos) : Double.NaN;
    }
}

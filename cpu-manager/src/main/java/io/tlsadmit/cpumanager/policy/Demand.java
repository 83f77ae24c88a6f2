package io.tlsadmit.cpumanager.policy;

/**
 * What a server claims in a period: its gate's request, unless the operating system shows that request cannot
 * be the whole story.
 *
 * <p>Why the gate's word is not enough: a gate estimates its request from what it sees, and a server starved of
 * CPU sees less than there is. Its acceptor runs late, so it counts fewer arrivals; its CPU "used" is what its
 * quota let it use; and it answers the manager late or not at all, so the manager keeps a stale reading. In the
 * 2026-11-25 evening run a light server (24 new users/s, about 0.3 CPUs of work) next to a flooded one was read
 * at 0.2 CPUs, given 0.1–0.2 by the proportional rule, used all of it, stopped answering, and completed no
 * session in two phases of 30 s: each period's request was built on the starvation of the one before.
 *
 * <p>So three pieces of evidence the manager has itself raise the claim:
 * <ul>
 *   <li><b>use</b>: a server claims at least the CPUs its process used in the last period. The gate's request
 *       counts the same work (its busy CPUs) but only as its own clock saw it; without this floor a server that
 *       had just climbed out of starvation fell back to its gate's stale word the first period it was not
 *       saturated, and to the floor (simulated: 0.56 CPUs → 0.1 in one period);</li>
 *   <li><b>saturation</b>: a server that used at least {@link #SATURATED} of its assignment in the last period
 *       may need more than it could show; it claims {@link #PROBE_FACTOR} times its assignment (at least
 *       {@link #PROBE_STEP} CPUs more), so a starved server climbs out in a few periods. Once it has more than it
 *       uses, the gate's request is the claim again;</li>
 *   <li><b>silence</b>: a server whose gate did not answer (still in its grace periods) claims at least what
 *       it had: a missed reading moves no CPU away from it.</li>
 * </ul>
 * A live server silent past its grace ({@link Voice#LOST}) has no gate's word left: its claim is its use, with the
 * saturation rule. It used to be claimed at 0, which is right for a hung server (it uses nothing either)
 * and the trap for a starved one: at the floor its gate is too slow to answer the manager within half a period,
 * so it stayed silent and at the floor for as long as its neighbour was busy (the evening run's 0 sessions).
 *
 * <p>These only raise a claim. Under contention the proportional rule still divides the host by priority and
 * claim, so a saturated low-priority server cannot take more than its weight from a high-priority one.
 */
public final class Demand {

    /** Used/assigned at or above which a server counts as saturated: quota throttling leaves a little unused. */
    public static final double SATURATED = 0.9;
    public static final double PROBE_FACTOR = 1.5;
    public static final double PROBE_STEP = 0.25;

    /** What the manager heard from a server's gate this period. */
    public enum Voice {
        /** It answered: its request is fresh. */
        ANSWERED,
        /** It did not answer, within the grace: its last request and its assignment stand. */
        MISSED,
        /** Silent past the grace: its last request is no evidence any more; what it used is. */
        LOST
    }

    private Demand() {
    }

    /**
     * @param gateRequest the gate's last {@code CpusRequested} (a stale one when it is silent)
     * @param voice       what the gate said this period
     * @param assigned    CPUs assigned in the last period; 0 before the first
     * @param usedCpus    CPUs the process used over the last period (its CPU clock), NaN when unknown
     * @return the request to claim: {@code >= gateRequest} unless {@link Voice#LOST}
     */
    public static double claim(double gateRequest, Voice voice, double assigned, double usedCpus) {
        double claim = switch (voice) {
            case ANSWERED -> gateRequest;
            case MISSED -> Math.max(gateRequest, assigned);
            case LOST -> 0;
        };
        if (usedCpus > claim) {
            claim = usedCpus;
        }
        if (assigned > 0 && usedCpus >= SATURATED * assigned) {
            claim = Math.max(claim, Math.max(PROBE_FACTOR * assigned, assigned + PROBE_STEP));
        }
        return claim;
    }
}

package io.tlsadmit.cpumanager.policy;

import java.util.Arrays;
import java.util.List;

/**
 * Damps a server's claim: the policy weighs the median of its last {@link #PERIODS} claims while its gate answers.
 *
 * <p>Why: a gate's request is an estimate from its last second of arrivals and CPU costs, and on a saturated host it
 * jumps. In the 2026-11-25 night run the assignments moved by a median 0.14 CPUs and up to 0.9 from one period to
 * the next (p90 0.47), and 1,328 assignment changes were replaced by another within 2 periods, before a gate could
 * act on them: each gate planned on a share that was gone again. The median of three ignores a claim that stands
 * for one period only, however large, and passes a change that holds for two whole, at the second period: within
 * the 2 periods issue 17 allows for an assignment to reach the gate. Replayed on that run's recorded claims (open
 * loop: the claims did not react to the damped assignments), the median period-to-period change of an assignment
 * fell from 0.14 to 0.04–0.05 CPUs and the changes above 0.25 CPUs from 72–92 to 20–27 per run
 * ({@code DampingReplayTest}). A smoothing average would never pass a step whole (a mean over two periods: half, then
 * three quarters), and a dead band would hold a server 0.1 CPUs off its due for good.
 *
 * <p>The cost: a server whose claim rises for real (its arrivals, or the manager's saturation rule climbing out of
 * starvation) gets it one period later. Claims of a silent server are not damped: the grace and what follows it
 * ({@link Demand.Voice}) have their own timing.
 */
public final class Damping {

    /** Claims the median is over. */
    public static final int PERIODS = 3;

    private Damping() {
    }

    /**
     * @param claims the server's last claims, oldest first, since its gate last answered continuously
     * @return the median of the last {@link #PERIODS}; with fewer, the latest (a new server, or one that has just
     *         answered again, is not held back by claims from before)
     */
    public static double claim(List<Double> claims) {
        if (claims.isEmpty()) {
            throw new IllegalArgumentException("no claim to damp");
        }
        if (claims.size() < PERIODS) {
            return claims.get(claims.size() - 1);
        }
        double[] last = claims.subList(claims.size() - PERIODS, claims.size()).stream().mapToDouble(Double::doubleValue)
                .toArray();
        Arrays.sort(last);
        return last[PERIODS / 2];
    }
}

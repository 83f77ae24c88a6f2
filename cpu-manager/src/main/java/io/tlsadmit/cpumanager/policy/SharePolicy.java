package io.tlsadmit.cpumanager.policy;

import java.util.List;

/**
 * The CPU manager's decision, as pure functions of the claims (after Guitart's CPU manager, thesis §5.3).
 *
 * <ol>
 *   <li>A request above what a server could get at all ({@code capacity} less the others' floors) counts as
 *       that much. Not in the study's formula: there, a server whose estimate spikes to several times the host
 *       (a gate's request is an estimate from a second of arrivals; we saw 8 CPUs requested on a 2-CPU host in
 *       the experiment's lightest phase) takes CPUs from every other server in proportion to a number no
 *       assignment could meet, the high-priority one included.</li>
 *   <li>The floor: every server first gets {@code floor} CPUs, so a server the others crowd out still
 *       serves a few clients and keeps measuring its costs (without it its request would be built on
 *       nothing).</li>
 *   <li>When the requests above the floor fit in what is left, each server gets its request, and the
 *       spare is split by priority: a quota is a ceiling, not a reservation, so a CPU no one asked for
 *       is better as headroom for the next burst than throttled away.</li>
 *   <li>Otherwise each gets {@code prio_i·req_i·capacity / Σ prio_j·req_j}.</li>
 *   <li>The sharing rule: a server that got more than it asked keeps what it asked, and the rest goes
 *       to the servers that got less, again by {@code prio·req}. Without sharing ({@code share: false})
 *       the rest goes only to servers of the same or a higher priority; if there is none, the server
 *       keeps it, i.e. a high-priority server never lends a CPU downwards.</li>
 * </ol>
 */
public final class SharePolicy {

    private static final double EPSILON = 1e-12;

    private SharePolicy() {
    }

    /**
     * @param capacity CPUs to distribute
     * @param floor    CPUs every claim gets first; {@code claims.size() × floor <= capacity}
     * @param share    the sharing rule; false = never downwards
     * @return CPUs per claim, in the claims' order, summing to {@code capacity}
     */
    public static double[] assign(List<Claim> claims, double capacity, double floor, boolean share) {
        int n = claims.size();
        if (n == 0) {
            return new double[0];
        }
        double aboveFloor = capacity - n * floor;
        if (aboveFloor < -EPSILON) {
            throw new IllegalArgumentException("a floor of " + floor + " for " + n + " claims exceeds " + capacity + " CPUs");
        }
        double[] demand = new double[n];
        int[] priority = new int[n];
        double most = capacity - (n - 1) * floor;
        for (int i = 0; i < n; i++) {
            demand[i] = Math.max(0, Math.min(claims.get(i).requested(), most) - floor);
            priority[i] = claims.get(i).priority();
        }
        double[] shares = fits(demand, aboveFloor)
                ? withSpare(demand, priority, Math.max(0, aboveFloor))
                : shareSurplus(proportional(demand, priority, aboveFloor), demand, priority, share);
        for (int i = 0; i < n; i++) {
            shares[i] += floor;
        }
        return shares;
    }

    static boolean fits(double[] demand, double capacity) {
        return sum(demand) <= capacity + EPSILON;
    }

    /** Everyone gets its demand; what is left is split by priority. */
    static double[] withSpare(double[] demand, int[] priority, double capacity) {
        double spare = capacity - sum(demand);
        double priorities = 0;
        for (int p : priority) {
            priorities += p;
        }
        double[] shares = demand.clone();
        for (int i = 0; i < shares.length; i++) {
            shares[i] += spare * priority[i] / priorities;
        }
        return shares;
    }

    /** {@code prio_i·d_i·capacity / Σ prio_j·d_j}; equal parts when nobody demands anything. */
    static double[] proportional(double[] demand, int[] priority, double capacity) {
        double weights = 0;
        for (int i = 0; i < demand.length; i++) {
            weights += priority[i] * demand[i];
        }
        double[] shares = new double[demand.length];
        for (int i = 0; i < demand.length; i++) {
            shares[i] = weights == 0 ? capacity / demand.length : priority[i] * demand[i] * capacity / weights;
        }
        return shares;
    }

    /**
     * Moves what servers got above their demand to servers below it, by {@code prio·d}; with
     * {@code share} false only to servers of at least the giver's priority. Repeats because a receiver
     * may in turn pass its demand.
     */
    static double[] shareSurplus(double[] proportional, double[] demand, int[] priority, boolean share) {
        int n = demand.length;
        double[] shares = proportional.clone();
        boolean moved = true;
        for (int round = 0; moved && round < 4 * n + 4; round++) {
            moved = false;
            for (int giver = 0; giver < n; giver++) {
                double surplus = shares[giver] - demand[giver];
                if (surplus <= EPSILON) {
                    continue;
                }
                double weights = 0;
                for (int j = 0; j < n; j++) {
                    if (receives(j, giver, shares, demand, priority, share)) {
                        weights += priority[j] * demand[j];
                    }
                }
                if (weights == 0) {
                    continue; // nobody it may lend to: it keeps the CPU
                }
                shares[giver] = demand[giver];
                for (int j = 0; j < n; j++) {
                    if (receives(j, giver, shares, demand, priority, share)) {
                        shares[j] += surplus * priority[j] * demand[j] / weights;
                    }
                }
                moved = true;
            }
        }
        return shares;
    }

    private static boolean receives(int j, int giver, double[] shares, double[] demand, int[] priority, boolean share) {
        return j != giver && shares[j] < demand[j] - EPSILON && (share || priority[j] >= priority[giver]);
    }

    private static double sum(double[] values) {
        double total = 0;
        for (double v : values) {
            total += v;
        }
        return total;
    }
}

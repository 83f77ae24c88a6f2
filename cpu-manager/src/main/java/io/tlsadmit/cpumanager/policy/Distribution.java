package io.tlsadmit.cpumanager.policy;

import java.util.ArrayList;
import java.util.List;

/**
 * The period's decision for an enforcement mode: fractions for quotas, whole CPUs for affinity, or both.
 *
 * <p>The shares are of the CPUs {@code available} (the {@code cpus} less what other processes use on them,
 * {@code io.tlsadmit.admission.cpu.Capacity}): that is what each gate is told and plans its admission for. The quotas
 * are not cut to it: what the others used is added back to them as headroom, split by priority like the spare. Why: a quota is a
 * ceiling, and a server held at exactly its measured share could never take back what a neighbour took while it
 * did not need it. With a busy neighbour (a batch job, a load generator running behind) every CPU the servers left
 * unused in a period would be the others' in the next measurement, and the servers' share would only ever shrink.
 * With the headroom the servers' weights ({@code weightPerCpu}) still win the CPUs back under contention, the next
 * measurement sees the others' use fall, and the shares rise again. The gate plans with the smaller of its quota
 * and {@code CpusAssigned}, so the headroom does not reach its budget.
 *
 * <p>What a light server leaves to the others it can take back at once: no quota (and so no weight) is below the
 * server's part of the {@code cpus} by priority, what a split by priority would give it. Why: a quota at a light
 * server's average use stops it for the rest of a CFS period after every burst of requests. In the 2026-11-26 run
 * with the clients apart ({@code docs/benchmarks.md} section 6) the high-priority server, light in its phase, had page
 * p99 270–808 ms against 97–112 ms under the static split and left more sessions unfinished. Its gate is still told
 * its assignment, so it admits no more than before; only a server above its part is held to its assignment, and
 * under contention the kernel divides the CPU by the quotas' weights, so a light server's burst takes some of the
 * heavy one's CPU for as long as it lasts. The quotas then sum to more than the {@code cpus}.
 */
public final class Distribution {

    /** A quota read back this close to a part is that part (the kernel stores whole microseconds a period). */
    private static final double PART_TOLERANCE = 1e-3;

    private Distribution() {
    }

    /**
     * @param available the CPUs to share out ({@code cpus.size()} when the manager owns the host), at least the
     *                  claims' floors
     * @param cpus      the host CPUs to distribute
     * @param quota     fractional shares are enforced (quota or both)
     * @param affinity  whole-CPU sets are enforced (affinity or both)
     */
    public static List<Assignment> decide(List<Claim> claims, double available, List<Integer> cpus, double floor,
                                          boolean share, boolean quota, boolean affinity) {
        double[] fractions = SharePolicy.assign(claims, available, floor, share);
        double[] headroom = byPriority(claims, cpus.size() - available);
        double[] part = byPriority(claims, cpus.size());
        List<List<Integer>> sets = null;
        int[] counts = null;
        if (affinity) {
            List<Claim> whole = new ArrayList<>();
            for (Claim claim : claims) {
                whole.add(new Claim(claim.name(), claim.priority(), WholeCpus.ceilRequest(claim.requested())));
            }
            counts = WholeCpus.apportion(SharePolicy.assign(whole, cpus.size(), floor, share), cpus.size());
            sets = WholeCpus.layout(counts, cpus);
        }
        List<Assignment> assignments = new ArrayList<>();
        for (int i = 0; i < claims.size(); i++) {
            double assigned;
            double ceiling;
            if (!affinity) {
                assigned = fractions[i];
                ceiling = Math.max(fractions[i] + headroom[i], part[i]);
            } else if (quota) {
                assigned = Math.min(fractions[i], counts[i]);
                ceiling = Math.min(fractions[i] + headroom[i], counts[i]);
            } else {
                // a whole-CPU set loses to the others in proportion to its size: they run on every CPU
                assigned = counts[i] * available / cpus.size();
                ceiling = counts[i];
            }
            assignments.add(new Assignment(claims.get(i).name(), assigned, ceiling,
                    sets == null ? List.of() : sets.get(i)));
        }
        return assignments;
    }

    /**
     * What a manager that starts while servers run takes as their requests until their gates answer, from the quotas
     * their cgroups hold ({@code NaN}: none; it then counts as an even share of the {@code cpus}). A quota above the
     * server's part by priority is its last assignment and headroom; one at its part says only that the assignment was
     * no more than that, so the servers at their parts share what the others' quotas leave, by priority, each up to its
     * part; a quota below its part (written by a manager before parts were kept) is the assignment. Why: taking a
     * light server's part as its request would, for the first period, take CPUs from the heavy one it had lent them to.
     */
    public static double[] adoptedRequests(List<Integer> priorities, double[] quotas, double cpus) {
        int n = priorities.size();
        double[] part = shares(priorities, cpus);
        double[] requests = new double[n];
        boolean[] atPart = new boolean[n];
        double left = cpus;
        double atPartPriorities = 0;
        for (int i = 0; i < n; i++) {
            if (Double.isNaN(quotas[i])) {
                requests[i] = cpus / n;
            } else if (Math.abs(quotas[i] - part[i]) <= PART_TOLERANCE) {
                atPart[i] = true;
                atPartPriorities += priorities.get(i);
                continue;
            } else {
                requests[i] = quotas[i];
            }
            left -= requests[i];
        }
        for (int i = 0; i < n; i++) {
            if (atPart[i]) {
                requests[i] = Math.min(part[i], Math.max(0, left) * priorities.get(i) / atPartPriorities);
            }
        }
        return requests;
    }

    /** {@code cpus} CPUs (what other processes used, or all of them) split among the claims by priority. */
    static double[] byPriority(List<Claim> claims, double cpus) {
        return shares(claims.stream().map(Claim::priority).toList(), cpus);
    }

    private static double[] shares(List<Integer> priorities, double cpus) {
        double sum = 0;
        for (int priority : priorities) {
            sum += priority;
        }
        double[] share = new double[priorities.size()];
        for (int i = 0; i < share.length; i++) {
            share[i] = Math.max(0, cpus) * priorities.get(i) / sum;
        }
        return share;
    }
}

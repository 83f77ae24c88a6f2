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
 */
public final class Distribution {

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
        double[] headroom = headroom(claims, cpus.size() - available);
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
                ceiling = fractions[i] + headroom[i];
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

    /** What other processes used, split among the claims by priority. */
    static double[] headroom(List<Claim> claims, double others) {
        double priorities = 0;
        for (Claim claim : claims) {
            priorities += claim.priority();
        }
        double[] headroom = new double[claims.size()];
        for (int i = 0; i < headroom.length; i++) {
            headroom[i] = Math.max(0, others) * claims.get(i).priority() / priorities;
        }
        return headroom;
    }
}

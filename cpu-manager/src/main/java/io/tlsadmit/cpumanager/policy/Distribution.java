package io.tlsadmit.cpumanager.policy;

import java.util.ArrayList;
import java.util.List;

/** The period's decision for an enforcement mode: fractions for quotas, whole CPUs for affinity, or both. */
public final class Distribution {

    private Distribution() {
    }

    /**
     * @param cpus     the host CPUs to distribute
     * @param quota    fractional shares are enforced (quota or both)
     * @param affinity whole-CPU sets are enforced (affinity or both)
     */
    public static List<Assignment> decide(List<Claim> claims, List<Integer> cpus, double floor, boolean share,
                                          boolean quota, boolean affinity) {
        double[] fractions = SharePolicy.assign(claims, cpus.size(), floor, share);
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
            double share_i = !affinity ? fractions[i] : quota ? Math.min(fractions[i], counts[i]) : counts[i];
            assignments.add(new Assignment(claims.get(i).name(), share_i, sets == null ? List.of() : sets.get(i)));
        }
        return assignments;
    }
}

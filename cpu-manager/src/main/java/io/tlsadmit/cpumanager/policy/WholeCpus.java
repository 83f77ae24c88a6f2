package io.tlsadmit.cpumanager.policy;

import java.util.ArrayList;
import java.util.List;

/**
 * Shares as whole CPUs, for affinity: a thread runs on a CPU or it does not, so the study's manager
 * rounds. Largest remainders keep the rounding fair (the total stays the CPUs there are, and no
 * server loses more than it would by plain rounding), and every server keeps at least one CPU.
 */
public final class WholeCpus {

    private WholeCpus() {
    }

    /**
     * @param shares fractional shares summing to {@code cpus}
     * @return whole CPUs per share, each at least 1, summing to {@code cpus}
     */
    public static int[] apportion(double[] shares, int cpus) {
        int n = shares.length;
        if (n > cpus) {
            throw new IllegalArgumentException(n + " servers cannot each have a whole CPU of " + cpus);
        }
        int[] whole = new int[n];
        int given = 0;
        for (int i = 0; i < n; i++) {
            whole[i] = Math.max(1, (int) Math.floor(shares[i] + 1e-9));
            given += whole[i];
        }
        while (given > cpus) { // the minimum of one pushed the total over: the largest set gives one back
            int largest = 0;
            for (int i = 1; i < n; i++) {
                if (whole[i] > whole[largest]) {
                    largest = i;
                }
            }
            whole[largest]--;
            given--;
        }
        while (given < cpus) {
            int best = 0;
            for (int i = 1; i < n; i++) {
                if (shares[i] - whole[i] > shares[best] - whole[best]) {
                    best = i;
                }
            }
            whole[best]++;
            given++;
        }
        return whole;
    }

    /**
     * Lays the counts out on the CPUs in order: the first server gets the first {@code counts[0]}
     * CPUs, and so on. A stable order means a server that keeps its count keeps its CPUs (and its
     * caches) from one period to the next.
     */
    public static List<List<Integer>> layout(int[] counts, List<Integer> cpus) {
        List<List<Integer>> sets = new ArrayList<>();
        int next = 0;
        for (int count : counts) {
            sets.add(List.copyOf(cpus.subList(next, next + count)));
            next += count;
        }
        return sets;
    }

    /** What a server needs in whole CPUs: 1.2 CPUs of work does not fit on one. */
    public static double ceilRequest(double requested) {
        return Math.ceil(requested - 1e-9);
    }
}

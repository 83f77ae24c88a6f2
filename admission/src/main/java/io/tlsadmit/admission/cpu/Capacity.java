package io.tlsadmit.admission.cpu;

import java.util.List;

/**
 * How many of some CPUs a server can count on: all of them, less what other processes used on them. Two users: the
 * CPU manager's {@code capacity: measured} (the host's {@code cpus} less what the processes it does not manage used),
 * and a gate's {@code cpuCapacity="measured"} ({@link NeighbourCpus}: the CPUs of its affinity mask less what the
 * processes other than its own JVM used).
 *
 * <p>Why: the study's manager owned its host, so it distributed every CPU. Ours often does not. In the 2026-11-25
 * night run the load generators and MariaDB took about one of the two CPUs; the manager still distributed two, and a
 * gate told it had 1.31–1.59 CPUs (its quota and {@code CpusAssigned}) got 0.61–0.80, planned its admission for
 * CPUs it never got, and over-admitted (docs/benchmarks.md section 6, "night"). A quota is only a ceiling: it
 * cannot give a server what another process takes first.
 *
 * <p>What the others used is measured, not configured: each period, the busy time of the CPUs
 * ({@link CpuTicks}) less the CPU time of the servers' own processes. It is smoothed as the largest of the
 * last {@link #WINDOW} periods: a neighbour's burst is planned for at once (a server told too much over-admits,
 * which is what went wrong), and the CPUs come back only once the neighbour has been quiet for that long.
 */
public final class Capacity {

    /** Periods the others' largest use is held for. */
    public static final int WINDOW = 3;

    private Capacity() {
    }

    /**
     * What other processes used of the CPUs in one period.
     *
     * @param busyCpus    the CPUs' busy time over the period, in CPUs ({@link CpuTicks#busyCpusSince})
     * @param managedCpus the servers' own processes' CPU time over the same period, in CPUs
     * @return at least 0 (servers may also run on host CPUs outside {@code cpus}, whose time is in
     *         {@code managedCpus} but not in {@code busyCpus}); NaN when either is unknown
     */
    public static double others(double busyCpus, double managedCpus) {
        if (Double.isNaN(busyCpus) || Double.isNaN(managedCpus)) {
            return Double.NaN;
        }
        return Math.max(0, busyCpus - managedCpus);
    }

    /**
     * @param cpus   the number of CPUs
     * @param floors never less than this (the manager: {@code minCpus × servers})
     * @param others the others' use in the last periods, oldest first; NaN where unknown (the first period)
     * @return {@code cpus} less the largest of the last {@link #WINDOW} known values, within [{@code floors},
     *         {@code cpus}]; all of {@code cpus} while nothing is known yet
     */
    public static double available(int cpus, double floors, List<Double> others) {
        double largest = 0;
        for (int i = Math.max(0, others.size() - WINDOW); i < others.size(); i++) {
            double used = others.get(i);
            if (!Double.isNaN(used)) {
                largest = Math.max(largest, used);
            }
        }
        return Math.min(cpus, Math.max(floors, cpus - largest));
    }
}

package io.tlsadmit.cpumanager.experiment;

import io.tlsadmit.admission.cpu.CpuList;
import java.util.List;

/**
 * Where the two servers run in an arrangement, from the CPUs they share: every arrangement but the static split puts
 * both on all of them; the static split gives each half, by affinity when the CPUs divide into two whole sets and
 * by quota alone otherwise (two servers on one CPU get half of it each, which affinity cannot express).
 *
 * @param first  the first server's CPU list, for {@code taskset}
 * @param second the second's
 * @param quota  the CPUs each may use under a baseline's cgroup quota
 */
record ServerCpus(String first, String second, double quota) {

    static ServerCpus of(List<Integer> cpus, boolean staticSplit) {
        if (cpus.isEmpty()) {
            throw new IllegalArgumentException("--server-cpus lists no CPU");
        }
        String all = CpuList.format(cpus);
        if (!staticSplit) {
            return new ServerCpus(all, all, cpus.size());
        }
        if (cpus.size() % 2 == 0) {
            int half = cpus.size() / 2;
            return new ServerCpus(CpuList.format(cpus.subList(0, half)), CpuList.format(cpus.subList(half, cpus.size())),
                    half);
        }
        return new ServerCpus(all, all, cpus.size() / 2.0);
    }
}

package io.tlsadmit.cpumanager.policy;

import java.util.List;

/**
 * One server's share for a period.
 *
 * @param name   the application
 * @param cpus   CPUs it may use: the quota, and what its gate is told ({@code CpusAssigned})
 * @param cpuSet the whole CPUs it runs on with affinity; empty when only a quota is enforced
 */
public record Assignment(String name, double cpus, List<Integer> cpuSet) {

    public Assignment {
        cpuSet = List.copyOf(cpuSet);
    }
}

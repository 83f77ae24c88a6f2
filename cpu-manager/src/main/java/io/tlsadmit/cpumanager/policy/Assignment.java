package io.tlsadmit.cpumanager.policy;

import java.util.List;

/**
 * One server's share for a period.
 *
 * @param name    the application
 * @param cpus    CPUs it is assigned: what its gate is told ({@code CpusAssigned}) and plans its admission for
 * @param ceiling its quota: {@code cpus} plus its part of what other processes used ({@link Distribution}); equal
 *                to {@code cpus} when the manager distributes all of its CPUs; never below its part of the CPUs by
 *                priority, so that what a light server leaves to the others it can take back at once
 * @param cpuSet  the whole CPUs it runs on with affinity; empty when only a quota is enforced
 */
public record Assignment(String name, double cpus, double ceiling, List<Integer> cpuSet) {

    public Assignment {
        cpuSet = List.copyOf(cpuSet);
    }
}

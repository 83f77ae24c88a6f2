package io.tlsadmit.cpumanager.metrics;

import java.util.List;

/**
 * One server at the end of a period, as exported and written to the run's CSV.
 *
 * @param name       the application
 * @param pid        its process, -1 when none is running
 * @param answering  whether its gate answered this period
 * @param requested  its request as used by the policy (the last known one while it does not answer)
 * @param assigned   CPUs assigned to it (what its gate is told), 0 when it is out of the pool
 * @param quota      its quota: the assignment and its part of what other processes used ({@code policy.Distribution})
 * @param allocated  what its gate reported it plans for ({@code CpusAllocated}), NaN when unknown
 * @param cpuSeconds CPU time its processes used since the manager started, across restarts
 * @param claimed    what the policy weighed: the request, raised when the server was saturated or silent
 *                   ({@code policy.Demand})
 * @param usedCpus   CPUs its process used over the last period, NaN until measured
 * @param cpuSet     its whole CPUs with affinity, else empty
 */
public record ServerSample(String name, long pid, boolean answering, double requested, double assigned, double quota,
                           double allocated, double cpuSeconds, double claimed, double usedCpus, List<Integer> cpuSet) {
}

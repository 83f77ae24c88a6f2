package io.tlsadmit.cpumanager.probe;

/**
 * What a server's gate says in one period (largest over its adaptive connectors, as its own
 * {@code tlsadmit_cpus_*} gauges: the connectors of one JVM share its CPUs).
 *
 * @param requested CPUs its arrivals would need ({@code CpusRequested})
 * @param allocated CPUs its budget plans for now ({@code CpusAllocated})
 * @param assigned  what it was last told ({@code CpusAssigned}, 0 = never)
 */
public record GateReading(double requested, double allocated, double assigned) {
}

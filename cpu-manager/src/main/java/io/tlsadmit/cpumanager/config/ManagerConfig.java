package io.tlsadmit.cpumanager.config;

import java.time.Duration;
import java.util.List;

/**
 * The manager's configuration file, validated. The keys are those of {@code cpu-manager/README.md};
 * {@link ConfigFile} builds it and names the key of anything wrong.
 *
 * @param cpus         the host CPUs it distributes
 * @param period       how often requests are read and CPUs redistributed
 * @param enforcement  quota, affinity or both
 * @param share        the study's sharing rule; false: a server never lends CPUs to a lower priority
 * @param minCpus      floor per server, so that a server starved by the others keeps measuring its costs
 * @param metricsPort  Prometheus text on 127.0.0.1 at this port; 0 picks a free one
 * @param quotaPeriod  the CFS period the quotas are written for (1 ms to 1 s)
 * @param weightPerCpu the quota groups' CPU weight per assigned CPU, in busy nice-0 threads (1 = the kernel's default)
 * @param capacity     all of {@code cpus}, or those less what other processes use on them
 * @param applications the gated servers, in the order their affinity sets are laid out
 */
public record ManagerConfig(List<Integer> cpus, Duration period, Enforcement enforcement, boolean share,
                            double minCpus, int metricsPort, Duration quotaPeriod, int weightPerCpu,
                            ShareableCpus capacity, List<Application> applications) {

    public ManagerConfig {
        cpus = List.copyOf(cpus);
        applications = List.copyOf(applications);
    }
}

package io.tlsadmit.admission.cpu;

import java.util.Locale;

/** Which CPUs the adaptive budget plans for (the {@code cpuCapacity} setting; see {@link CpuAllocation}). */
public enum CpuCapacity {
    /** What this JVM is allowed: the cgroup quota, the affinity mask, {@code cpusAssigned}. */
    ALLOCATION,
    /**
     * That, and at most the affinity mask's CPUs less what other processes used of them ({@link NeighbourCpus}): a
     * mask of two CPUs shared with a busy neighbour is not two CPUs.
     */
    MEASURED;

    /** The setting's name, as the Tomcat connector attribute and every adapter call it. */
    public static final String ATTRIBUTE = "cpuCapacity";

    /** The value as a connector attribute or property writes it. */
    public String attributeValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}

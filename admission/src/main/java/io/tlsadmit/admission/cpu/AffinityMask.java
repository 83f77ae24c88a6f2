package io.tlsadmit.admission.cpu;

import java.io.IOException;

/**
 * The CPUs this process may run on now, e.g. {@code sched_getaffinity} through native-peek. Given one
 * ({@link CpuAllocation#setAffinityMask}), the allocation takes both the affinity count and the CPUs whose neighbours
 * it measures from it, rather than the count from its {@code IntSupplier} and the CPUs from {@code /proc/self/status}.
 */
@FunctionalInterface
public interface AffinityMask {

    /**
     * @return the CPUs' numbers, ascending, at least one
     * @throws IOException when the mask cannot be read; the allocation then reads it as without this source
     */
    int[] cpus() throws IOException;
}

package io.tlsadmit.loadtests.run;

import io.tlsadmit.admission.cpu.TaskStat;
import java.lang.management.ManagementFactory;

/**
 * CPU time used so far by this JVM (the load generator) and, when its pid is known, by the server process —
 * to show which side was the bottleneck.
 */
public final class CpuClock {

    private CpuClock() {
    }

    public static double loadGeneratorSeconds() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime() / 1e9;
        }
        return -1;
    }

    /** CPU seconds of a process from /proc, children not included; -1 when unknown. */
    public static double processSeconds(long pid) {
        if (pid <= 0) {
            return -1;
        }
        return TaskStat.readIfPresent(TaskStat.ofProcess(pid)).map(TaskStat::cpuSeconds).orElse(-1.0);
    }
}

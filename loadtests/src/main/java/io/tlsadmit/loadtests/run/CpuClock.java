package io.tlsadmit.loadtests.run;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time used so far by this JVM (the load generator) and, when its pid is known, by the server process —
 * to show which side was the bottleneck.
 */
public final class CpuClock {

    /** Linux reports utime/stime in clock ticks; USER_HZ is 100 on every mainstream kernel build. */
    private static final double TICKS_PER_SECOND = 100;

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
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // the command name (field 2) may contain spaces: count fields after its closing parenthesis
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long utime = Long.parseLong(fields[11]);
            long stime = Long.parseLong(fields[12]);
            return (utime + stime) / TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}

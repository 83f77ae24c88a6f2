package io.tlsadmit.experiment.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU seconds (user + system, all threads) a process has used, from {@code /proc/PID/stat}. */
public final class ProcessCpu {

    private static final double TICKS_PER_SECOND = 100.0; // USER_HZ on Linux

    private ProcessCpu() {
    }

    public static double seconds(long pid) {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        try {
            String line = Files.readString(stat);
            // the command name may hold spaces and parentheses: the fields we need follow its last ')'
            String[] fields = line.substring(line.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot read " + stat + ": " + e.getMessage(), e);
        }
    }

    /** The 1-minute load average: the machine is shared, so every figure is recorded with it. */
    public static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }
}

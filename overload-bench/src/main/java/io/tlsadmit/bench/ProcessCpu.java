package io.tlsadmit.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time of another process (user + system, all threads) from {@code /proc/PID/stat}. */
final class ProcessCpu {
    private static final double TICKS_PER_SECOND = 100.0; // USER_HZ on Linux

    private final Path stat;

    ProcessCpu(long pid) {
        this.stat = Path.of("/proc", Long.toString(pid), "stat");
    }

    /** Seconds of CPU used so far. */
    double seconds() {
        try {
            String line = Files.readString(stat);
            // the command name may hold spaces: the fields we need follow its closing parenthesis
            String[] fields = line.substring(line.lastIndexOf(')') + 2).split(" ");
            long utime = Long.parseLong(fields[11]);
            long stime = Long.parseLong(fields[12]);
            return (utime + stime) / TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot read " + stat + ": " + e.getMessage(), e);
        }
    }
}

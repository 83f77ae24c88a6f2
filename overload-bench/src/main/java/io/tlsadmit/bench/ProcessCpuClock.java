package io.tlsadmit.bench;

import io.tlsadmit.admission.cpu.TaskStat;
import java.io.IOException;
import java.nio.file.Path;

/** CPU time of another process (user + system, all threads), read from its {@code /proc} stat file. */
final class ProcessCpuClock {

    private final Path stat;

    ProcessCpuClock(long pid) {
        this.stat = TaskStat.ofProcess(pid);
    }

    /** Seconds of CPU used so far. */
    double seconds() {
        try {
            return TaskStat.read(stat).cpuSeconds();
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot read " + stat + ": " + e.getMessage(), e);
        }
    }
}

package io.tlsadmit.experiment.server;

import io.tlsadmit.admission.cpu.CpuList;
import io.tlsadmit.admission.cpu.CpuTicks;
import io.tlsadmit.admission.cpu.TaskStat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU seconds (user + system, all threads) a process has used, from {@code /proc/PID/stat}. */
public final class ProcessCpu {

    private ProcessCpu() {
    }

    public static double seconds(long pid) {
        Path stat = TaskStat.ofProcess(pid);
        try {
            return TaskStat.read(stat).cpuSeconds();
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

    /** The host's ticks on the CPUs of {@code cpuList} ({@code taskset} syntax); null where /proc/stat cannot be read. */
    public static CpuTicks cpus(String cpuList) {
        try {
            return CpuTicks.read(Path.of("/"), CpuList.parse(cpuList));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}

package io.tlsadmit.cpumanager.metrics;

import io.tlsadmit.admission.cpu.CpuList;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The run's time series: one row per server per period, flushed every period so a killed run keeps its data.
 * {@code cpu_set} stays last: it is quoted and may hold commas.
 */
public final class RunCsv implements AutoCloseable {

    static final String HEADER = "epoch_millis,app,pid,answering,cpus_requested,cpus_assigned,cpus_allocated,cpu_seconds,cpus_claimed,cpus_used,cpus_quota,cpus_available,cpu_set";

    private final BufferedWriter out;

    public RunCsv(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        out.write(HEADER);
        out.newLine();
        out.flush();
    }

    public void append(long epochMillis, double cpusAvailable, List<ServerSample> servers) {
        try {
            for (ServerSample s : servers) {
                out.write(epochMillis + "," + s.name() + "," + s.pid() + "," + s.answering() + ","
                        + MetricsExposition.number(s.requested()) + "," + MetricsExposition.number(s.assigned()) + ","
                        + MetricsExposition.number(s.allocated()) + "," + MetricsExposition.number(s.cpuSeconds()) + ","
                        + MetricsExposition.number(s.claimed()) + "," + MetricsExposition.number(s.usedCpus()) + ","
                        + MetricsExposition.number(s.quota()) + "," + MetricsExposition.number(cpusAvailable) + ","
                        + (s.cpuSet().isEmpty() ? "" : "\"" + CpuList.format(s.cpuSet()) + "\""));
                out.newLine();
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}

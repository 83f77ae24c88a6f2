package io.tlsadmit.cpumanager.experiment;

import io.tlsadmit.cpumanager.enforcement.QuotaCgroups;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The experiment's load generators in a cgroup of their own, {@code tlsadmit-load} beside the manager's
 * {@code tlsadmit}, with a fixed CPU weight in every arrangement. Why: this machine has no CPU to spare for the
 * generators, and the servers' cgroups are weighted ({@code weightPerCpu} busy threads per CPU) while each
 * generator's threads, left in the root group, would count one by one. Who won that contention then decided the
 * figures (in the 2026-11-25 run the managed Tomcats got 0.15–0.45 CPUs less than the unweighted static split's);
 * with the generators weighted as a fixed number of CPUs against the servers' group, every arrangement divides
 * the machine between servers and generators the same way under contention, and differs only in how the servers
 * share their part.
 */
final class LoadGeneratorGroup implements AutoCloseable {

    static final String NAME = "tlsadmit-load";

    private final Path group;
    private final boolean v2;

    /**
     * @param cgroups the host's hierarchy (the manager's own detection)
     * @param weight  the group's weight in nice-0 threads (v1 {@code cpu.shares} = 1024 × weight)
     */
    LoadGeneratorGroup(QuotaCgroups cgroups, long weight) throws IOException {
        this.group = cgroups.cgroup("x").getParent().getParent().resolve(NAME);
        this.v2 = cgroups.version().equals("v2");
        Files.createDirectories(group);
        if (v2) {
            write(group.resolve("cpu.weight"), Long.toString(Math.max(1, Math.min(10_000, 100 * weight))));
        } else {
            write(group.resolve("cpu.shares"), Long.toString(Math.max(2, Math.min(262_144, 1024 * weight))));
        }
    }

    /** Moves a generator (every thread of it) into the group. */
    void add(Process generator) throws IOException {
        write(group.resolve("cgroup.procs"), Long.toString(generator.pid()));
    }

    private static void write(Path file, String value) throws IOException {
        Files.writeString(file, value + "\n", StandardCharsets.UTF_8);
    }

    /** Moves what is left back to the root and removes the group. */
    @Override
    public void close() throws IOException {
        Path root = group.getParent().resolve("cgroup.procs");
        for (int attempt = 0; attempt < 50 && Files.isDirectory(group); attempt++) {
            for (String pid : Files.readAllLines(group.resolve("cgroup.procs"))) {
                if (!pid.isBlank()) {
                    try {
                        write(root, pid.trim());
                    } catch (IOException exited) {
                        // it is leaving by itself
                    }
                }
            }
            try {
                Files.delete(group);
            } catch (IOException notYet) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}

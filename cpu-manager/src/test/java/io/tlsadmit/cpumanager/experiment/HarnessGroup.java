package io.tlsadmit.cpumanager.experiment;

import io.tlsadmit.cpumanager.enforcement.QuotaCgroups;
import io.tlsadmit.testing.CgroupRemoval;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A cgroup of the experiment's own beside the manager's {@code tlsadmit}, with a fixed CPU weight in every
 * arrangement. Why: this machine has no CPU to spare, and the servers' cgroups are weighted ({@code weightPerCpu}
 * busy threads per CPU) while anything left in the root group counts one thread at a time. Who won that contention
 * then decided the figures: in the 2026-11-25 run the managed Tomcats got 0.15–0.45 CPUs less than the unweighted
 * static split's, and once the servers were weighted everything else waited behind them (in a smoke run MariaDB,
 * the harness and the manager itself stood still for most of a phase). Two such groups: {@code tlsadmit-load}, the
 * load generators, weighted as a fixed number of CPUs against the servers' group, so that every arrangement divides
 * the machine between servers and generators the same way under contention; and {@code tlsadmit-support}, what the
 * servers depend on and the harness itself (MariaDB, this JVM), which use little but must run when they wake.
 */
final class HarnessGroup implements AutoCloseable {

    static final String LOAD = "tlsadmit-load";
    static final String SUPPORT = "tlsadmit-support";

    private final Path hierarchy;
    private final Path group;
    /** Processes moved in that were not started for it, and the group each came from. */
    private final Map<Long, String> origins = new LinkedHashMap<>();

    /**
     * @param cgroups the host's hierarchy (the manager's own detection)
     * @param weight  the group's weight in nice-0 threads (v1 {@code cpu.shares} = 1024 × weight, v2
     *                {@code cpu.weight} = 100 × weight)
     */
    HarnessGroup(QuotaCgroups cgroups, String name, long weight) throws IOException {
        this.hierarchy = cgroups.cgroup("x").getParent().getParent();
        this.group = hierarchy.resolve(name);
        Files.createDirectories(group);
        if (cgroups.version().equals("v2")) {
            write(group.resolve("cpu.weight"), Long.toString(Math.max(1, Math.min(10_000, 100 * weight))));
        } else {
            write(group.resolve("cpu.shares"), Long.toString(Math.max(2, Math.min(262_144, 1024 * weight))));
        }
    }

    /** Moves a process (every thread of it) into the group; {@link #close} leaves it in the root group. */
    void add(Process process) throws IOException {
        write(group.resolve("cgroup.procs"), Long.toString(process.pid()));
    }

    /** Moves a process that was running before the experiment into the group; {@link #close} moves it back. */
    void borrow(long pid) throws IOException {
        origins.put(pid, currentGroup(pid));
        write(group.resolve("cgroup.procs"), Long.toString(pid));
    }

    /** The process's group in this hierarchy, from {@code /proc/<pid>/cgroup} (v1: the line naming {@code cpu}). */
    private static String currentGroup(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/cgroup"))) {
            String[] f = line.split(":", 3);
            if (f.length == 3 && (f[0].equals("0") && f[1].isEmpty() || java.util.List.of(f[1].split(",")).contains("cpu"))) {
                return f[2];
            }
        }
        return "/";
    }

    private static void write(Path file, String value) throws IOException {
        Files.writeString(file, value + "\n", StandardCharsets.UTF_8);
    }

    /** Moves borrowed processes back where they were, the rest to the root, and removes the group. */
    @Override
    public void close() throws IOException {
        for (Map.Entry<Long, String> borrowed : origins.entrySet()) {
            try {
                write(hierarchy.resolve(borrowed.getValue().replaceFirst("^/+", "")).resolve("cgroup.procs"),
                        Long.toString(borrowed.getKey()));
            } catch (IOException exited) {
                // gone, or its old group is: it stays where it is until the group is removed below
            }
        }
        CgroupRemoval.remove(hierarchy, group);
    }
}

package io.tlsadmit.experiment.server;

import io.tlsadmit.admission.cpu.MountTable;
import io.tlsadmit.testing.CgroupRemoval;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A cgroup of the experiment's own, holding the server's processes (every thread: a pid written to
 * {@code cgroup.procs} moves its whole thread group) under a CFS quota, for the quota CPU change. Found where the
 * gate looks for its quota, by admission's {@link MountTable}: cgroup v2 when its root offers the {@code cpu}
 * controller, else v1's {@code cpu} hierarchy (this machine). Closing moves the processes back to the root and
 * removes the cgroup, so a failed run leaves nothing behind.
 *
 * <p>Not cpu-manager's {@code QuotaCgroups}: cpu-manager's tests depend on this module, so this module cannot
 * depend on cpu-manager (a Maven cycle); what is written here is the few file writes a quota needs.
 */
public final class ServerQuotaCgroup implements AutoCloseable {

    /** The CFS period: the kernel's default, 100 ms. */
    static final long PERIOD_MICROS = 100_000;

    private final Path hierarchy;
    private final Path group;
    private final boolean v2;

    private ServerQuotaCgroup(Path hierarchy, String name, boolean v2) {
        this.hierarchy = hierarchy;
        this.group = hierarchy.resolve(name);
        this.v2 = v2;
    }

    /** Creates cgroup {@code name} at the root of the hierarchy with the cpu controller, with no quota yet. */
    public static ServerQuotaCgroup create(String name) {
        List<MountTable.Mount> mounts;
        try {
            mounts = MountTable.cgroupMounts(Files.readAllLines(Path.of("/proc/self/mountinfo")));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /proc/self/mountinfo", e);
        }
        Optional<Path> unified = mounts.stream().filter(m -> m.fsType().equals("cgroup2") && m.root().equals("/"))
                .map(m -> Path.of(m.mountPoint())).filter(p -> words(read(p.resolve("cgroup.controllers")))
                        .contains("cpu")).findFirst();
        ServerQuotaCgroup cgroup;
        if (unified.isPresent()) {
            cgroup = new ServerQuotaCgroup(unified.get(), name, true);
            if (!words(read(unified.get().resolve("cgroup.subtree_control"))).contains("cpu")) {
                write(unified.get().resolve("cgroup.subtree_control"), "+cpu");
            }
        } else {
            Path v1 = mounts.stream().filter(m -> m.fsType().equals("cgroup") && m.superOptions().contains("cpu")
                    && m.root().equals("/")).map(m -> Path.of(m.mountPoint())).findFirst()
                    .orElseThrow(() -> new IllegalStateException("--cpu-change-kind quota: no cgroup hierarchy with"
                            + " the cpu controller is mounted (cgroup2 with cpu in cgroup.controllers, or v1 'cpu')"));
            cgroup = new ServerQuotaCgroup(v1, name, false);
        }
        try {
            Files.createDirectories(cgroup.group);
        } catch (IOException e) {
            throw new IllegalStateException("--cpu-change-kind quota: cannot create cgroup " + cgroup.group + ": "
                    + e.getMessage() + " (needs root, or a delegated cgroup)", e);
        }
        return cgroup;
    }

    public Path path() {
        return group;
    }

    /** Moves a process, all its threads, into the cgroup. */
    public void adopt(long pid) {
        write(group.resolve("cgroup.procs"), Long.toString(pid));
    }

    /** The CFS quota in CPUs (0.5: 50 ms of CPU time per 100 ms). */
    public void limit(double cpus) {
        long quota = Math.max(1_000, Math.round(cpus * PERIOD_MICROS));
        if (v2) {
            write(group.resolve("cpu.max"), quota + " " + PERIOD_MICROS);
        } else {
            write(group.resolve("cpu.cfs_period_us"), Long.toString(PERIOD_MICROS));
            write(group.resolve("cpu.cfs_quota_us"), Long.toString(quota));
        }
    }

    /** The quota in force, as the kernel reports it, e.g. {@code "50000 100000"}; for the run's log. */
    public String describe() {
        return v2 ? read(group.resolve("cpu.max")).strip()
                : String.format(Locale.ROOT, "%s %s", read(group.resolve("cpu.cfs_quota_us")).strip(),
                        read(group.resolve("cpu.cfs_period_us")).strip());
    }

    /** Moves every process still inside back to the root, then removes the cgroup (retrying while one exits). */
    @Override
    public void close() {
        CgroupRemoval.remove(hierarchy, group);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private static void write(Path file, String value) {
        try {
            // cgroup files take one value per write(2)
            Files.writeString(file, value + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write '" + value + "' to " + file + ": " + e.getMessage(), e);
        }
    }

    private static List<String> words(String text) {
        return List.of(text.strip().split("\\s+"));
    }
}

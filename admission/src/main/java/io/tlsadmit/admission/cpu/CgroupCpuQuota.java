package io.tlsadmit.admission.cpu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The CFS bandwidth limit on this process as a number of CPUs, from cgroup v2 {@code cpu.max} and
 * cgroup v1 {@code cpu.cfs_quota_us}/{@code cpu.cfs_period_us}.
 *
 * <p>A quota is fractional by nature ({@code 50000 100000} is half a CPU), which is why this is a
 * {@code double}: rounding it up, as {@code availableProcessors()} does, would let the controller
 * budget for CPU time the kernel will throttle away.
 *
 * <p>Every ancestor up to the mount point is read and the smallest limit wins, because a parent's
 * quota throttles all its children (a pod limit above a container without one). A file that is
 * missing, unreadable or malformed means "no limit at that level": a read that fails must not make
 * the server refuse everything.
 *
 * <p>Which directories hold the limits is worked out from {@code /proc/self/cgroup} and the mount table, and kept:
 * the limit files are read at every call (a quota changed in place, as {@code docker update --cpus}, {@code systemctl
 * set-property} and a Kubernetes resize do, is seen at once), the memberships once in {@link #MEMBERSHIPS_REREAD_NANOS}
 * (a process moved to another cgroup is seen within a second), and the mount table only when they change or
 * {@link #MOUNTS_REREAD_NANOS} have passed (and with it which levels have a limit file: the
 * controller enabled below a parent that had none), since mounts seldom change and the table is the
 * costliest file of the call (on 2026-11-28, read every 250 ms by the control loop, about 200 µs of CPU of a 1.5 ms
 * tick: a {@code /proc} file read once in a quarter second costs several times what it costs in a tight loop, from C
 * 70-180 µs of CPU against 10-28 µs on that guest). The memberships were next: the kernel generates
 * {@code /proc/self/cgroup} by walking every hierarchy, and a read of it held open cost 137–171 µs of CPU once in 250
 * ms (2026-11-28, AMD guest, cgroup v1 and v2 mounted) against 26–31 for the limit file; moves are rare (a process is
 * placed in its cgroup when it starts), in-place changes are what follows load. The memberships and the limit files
 * are kept open between calls and read again from their start ({@link ProcFile}), which costs a fifth to a third of
 * opening them each time; a level that is no longer found releases its files.
 *
 * <p>All paths are resolved under an injectable file-system root so tests run on real files. Thread-safe.
 */
public final class CgroupCpuQuota {

    /** What the cgroup hierarchies say; {@code +Infinity} where there is no limit or no hierarchy. */
    public record Limits(double cgroupV2Cpus, double cgroupV1Cpus) {
        public double min() {
            return Math.min(cgroupV2Cpus, cgroupV1Cpus);
        }
    }

    /** How long the mount table is trusted while the memberships stay the same. */
    public static final long MOUNTS_REREAD_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** How long the memberships ({@code /proc/self/cgroup}) are trusted: a move is seen within this. */
    public static final long MEMBERSHIPS_REREAD_NANOS = TimeUnit.SECONDS.toNanos(1);

    /**
     * A cgroup directory with a limit file, the file kept open ({@link ProcFile}): {@code cpu.max} (v2) or
     * {@code cpu.cfs_quota_us} (v1, and {@code cpu.cfs_period_us}, opened only under a quota).
     */
    private static final class Level {
        final Path directory;
        final boolean unified;
        final ProcFile limit;
        ProcFile period;

        Level(Path directory, boolean unified) {
            this.directory = directory;
            this.unified = unified;
            this.limit = new ProcFile(directory.resolve(unified ? "cpu.max" : "cpu.cfs_quota_us"));
        }

        boolean sameAs(Path otherDirectory, boolean otherUnified) {
            return directory.equals(otherDirectory) && unified == otherUnified;
        }

        double cpus() {
            if (unified) {
                return v2Limit(firstLine(limit));
            }
            String quota = firstLine(limit);
            if (quota == null || quota.trim().startsWith("-")) {
                return Double.POSITIVE_INFINITY; // the period is not read: nothing to divide
            }
            if (period == null) {
                period = new ProcFile(directory.resolve("cpu.cfs_period_us"));
            }
            return v1Limit(quota, firstLine(period));
        }

        void close() {
            limit.close();
            if (period != null) {
                period.close();
            }
        }
    }

    private final Path fsRoot;
    private final LongSupplier nanoClock;
    private final ProcFile membershipFile;
    /** The text of {@code /proc/self/cgroup} the levels were worked out from; {@code null}: not yet. */
    private String resolvedMemberships;
    private long resolvedAt;
    private long membershipsReadAt;
    private List<Level> levels = List.of();

    /** @param fsRoot where {@code /proc} and {@code /sys} are found: {@code /} in production */
    public CgroupCpuQuota(Path fsRoot) {
        this(fsRoot, System::nanoTime);
    }

    /** @param nanoClock when the mount table was read, for {@link #MOUNTS_REREAD_NANOS} */
    public CgroupCpuQuota(Path fsRoot, LongSupplier nanoClock) {
        this.fsRoot = fsRoot;
        this.nanoClock = nanoClock;
        this.membershipFile = new ProcFile(under("/proc/self/cgroup"));
    }

    /**
     * Reads the limits now: a limit may have changed, or (seen within {@link #MEMBERSHIPS_REREAD_NANOS}) the process
     * moved between cgroups.
     */
    public synchronized Limits read() {
        long now = nanoClock.getAsLong();
        boolean mountsDue = now - resolvedAt >= MOUNTS_REREAD_NANOS;
        if (resolvedMemberships == null || mountsDue || now - membershipsReadAt >= MEMBERSHIPS_REREAD_NANOS) {
            String memberships = text(membershipFile);
            membershipsReadAt = now;
            if (mountsDue || !memberships.equals(resolvedMemberships)) {
                levels = levels(memberships.lines().toList(), lines(under("/proc/self/mountinfo")));
                resolvedMemberships = memberships;
                resolvedAt = now;
            }
        }
        double v2 = Double.POSITIVE_INFINITY;
        double v1 = Double.POSITIVE_INFINITY;
        for (Level level : levels) {
            if (level.unified) {
                v2 = Math.min(v2, level.cpus());
            } else {
                v1 = Math.min(v1, level.cpus());
            }
        }
        return new Limits(v2, v1);
    }

    /** Releases the files kept open; a later {@link #read()} opens them again. */
    public synchronized void close() {
        membershipFile.close();
        levels.forEach(Level::close);
        levels = List.of();
        resolvedMemberships = null;
    }

    /** Every directory from each of the process's cgroups with a CPU controller up to its mount's top. */
    private List<Level> levels(List<String> memberships, List<String> mounts) {
        List<Level> found = new ArrayList<>();
        List<MountTable.Mount> cgroupMounts = MountTable.cgroupMounts(mounts);
        for (CgroupMembership membership : CgroupMembership.parse(memberships)) {
            for (MountTable.Mount mount : cgroupMounts) {
                if (membership.isUnified() ? mount.fsType().equals("cgroup2")
                        : membership.controllers().contains("cpu") && mount.fsType().equals("cgroup")
                                && mount.superOptions().contains("cpu")) {
                    upTheTree(mount, membership.path(), membership.isUnified(), found);
                }
            }
        }
        // the levels found again keep their open files; the others' are released
        for (Level old : levels) {
            if (!found.contains(old)) {
                old.close();
            }
        }
        return List.copyOf(found);
    }

    private void upTheTree(MountTable.Mount mount, String cgroupPath, boolean unified, List<Level> found) {
        Path top = under(mount.mountPoint());
        Path directory = under(mount.mountPoint() + "/" + relativeToMount(mount.root(), cgroupPath));
        if (!Files.isDirectory(directory) || !directory.startsWith(top)) {
            // Our path is outside what the mount shows (a cgroup namespace, a moved process):
            // the mount's own top is the closest thing we can read.
            directory = top;
        }
        for (Path level = directory; level != null && level.startsWith(top); level = level.getParent()) {
            // Levels without the file (the root cgroup has no cpu.max) are left out now rather than failing to open
            // at every read: a missing file costs an exception each time.
            if (Files.isRegularFile(level.resolve(unified ? "cpu.max" : "cpu.cfs_quota_us"))) {
                found.add(known(level, unified));
            }
        }
    }

    private Level known(Path directory, boolean unified) {
        for (Level level : levels) {
            if (level.sameAs(directory, unified)) {
                return level;
            }
        }
        return new Level(directory, unified);
    }

    /**
     * The part of {@code cgroupPath} below the mount's root: a container that sees only its
     * subtree mounts it with that subtree as root, while {@code /proc/self/cgroup} may still show
     * the full path.
     */
    static String relativeToMount(String mountRoot, String cgroupPath) {
        String path = cgroupPath.endsWith(" (deleted)") ? cgroupPath.substring(0, cgroupPath.length() - 10) : cgroupPath;
        if (mountRoot.equals("/")) {
            return path;
        }
        if (path.equals(mountRoot)) {
            return "";
        }
        if (path.startsWith(mountRoot + "/")) {
            return path.substring(mountRoot.length());
        }
        return "";
    }

    /** {@code cpu.max}: {@code "max 100000"} (no limit) or {@code "50000 100000"} (0.5 CPU); null: no file. */
    static double v2Limit(String cpuMax) {
        if (cpuMax == null) {
            return Double.POSITIVE_INFINITY;
        }
        String[] fields = cpuMax.trim().split("\\s+");
        if (fields.length != 2 || fields[0].equals("max")) {
            return Double.POSITIVE_INFINITY;
        }
        return ratio(fields[0], fields[1]);
    }

    /** {@code cpu.cfs_quota_us} is {@code -1} for no limit, else microseconds per {@code cpu.cfs_period_us}. */
    static double v1Limit(String quota, String period) {
        if (quota == null || period == null || quota.trim().startsWith("-")) {
            return Double.POSITIVE_INFINITY;
        }
        return ratio(quota.trim(), period.trim());
    }

    private static double ratio(String quota, String period) {
        try {
            long q = Long.parseLong(quota);
            long p = Long.parseLong(period);
            if (q <= 0 || p <= 0) {
                return Double.POSITIVE_INFINITY;
            }
            return (double) q / p;
        } catch (NumberFormatException e) {
            return Double.POSITIVE_INFINITY;
        }
    }

    private Path under(String absolute) {
        String relative = absolute;
        while (relative.startsWith("/")) {
            relative = relative.substring(1);
        }
        return fsRoot.resolve(relative).normalize();
    }

    /** The file's first line, null where it cannot be read (a level without a limit: no limit there). */
    private static String firstLine(ProcFile file) {
        // read in place, not through a stream of lines: a stream's code is most of a cold read's CPU (a profile of
        // the control loop's tick, 2026-11-28: a third of the quota's samples in String.lines().toList())
        String text = text(file);
        int end = text.indexOf('\n');
        return text.isEmpty() ? null : end < 0 ? text : text.substring(0, end);
    }

    /** The file's text, empty where it cannot be read. */
    private static String text(ProcFile file) {
        try {
            return file.read();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }
}

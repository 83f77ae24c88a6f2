package io.tlsadmit.admission.cpu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

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
 * <p>All paths are resolved under an injectable file-system root so tests run on real files.
 */
public final class CgroupCpuQuota {

    /** What the cgroup hierarchies say; {@code +Infinity} where there is no limit or no hierarchy. */
    public record Limits(double cgroupV2Cpus, double cgroupV1Cpus) {
        public double min() {
            return Math.min(cgroupV2Cpus, cgroupV1Cpus);
        }
    }

    private final Path fsRoot;

    /** @param fsRoot where {@code /proc} and {@code /sys} are found: {@code /} in production */
    public CgroupCpuQuota(Path fsRoot) {
        this.fsRoot = fsRoot;
    }

    /** Reads the limits now: the process may have moved between cgroups, or a limit changed. */
    public Limits read() {
        List<String> memberships = lines(under("/proc/self/cgroup"));
        List<String> mounts = lines(under("/proc/self/mountinfo"));
        double v2 = Double.POSITIVE_INFINITY;
        double v1 = Double.POSITIVE_INFINITY;
        List<MountTable.Mount> cgroupMounts = MountTable.cgroupMounts(mounts);
        for (CgroupMembership membership : CgroupMembership.parse(memberships)) {
            if (membership.isUnified()) {
                for (MountTable.Mount mount : cgroupMounts) {
                    if (mount.fsType().equals("cgroup2")) {
                        v2 = Math.min(v2, smallestUpTheTree(mount, membership.path(), CgroupCpuQuota::v2Limit));
                    }
                }
            } else if (membership.controllers().contains("cpu")) {
                for (MountTable.Mount mount : cgroupMounts) {
                    if (mount.fsType().equals("cgroup") && mount.superOptions().contains("cpu")) {
                        v1 = Math.min(v1, smallestUpTheTree(mount, membership.path(), CgroupCpuQuota::v1Limit));
                    }
                }
            }
        }
        return new Limits(v2, v1);
    }

    private interface LevelLimit {
        double cpus(Path cgroupDirectory);
    }

    private double smallestUpTheTree(MountTable.Mount mount, String cgroupPath, LevelLimit limit) {
        Path top = under(mount.mountPoint());
        Path directory = under(mount.mountPoint() + "/" + relativeToMount(mount.root(), cgroupPath));
        if (!Files.isDirectory(directory) || !directory.startsWith(top)) {
            // Our path is outside what the mount shows (a cgroup namespace, a moved process):
            // the mount's own top is the closest thing we can read.
            directory = top;
        }
        double smallest = Double.POSITIVE_INFINITY;
        for (Path level = directory; level != null && level.startsWith(top); level = level.getParent()) {
            smallest = Math.min(smallest, limit.cpus(level));
        }
        return smallest;
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

    /** {@code cpu.max}: {@code "max 100000"} (no limit) or {@code "50000 100000"} (0.5 CPU). */
    static double v2Limit(Path directory) {
        String text = firstLine(directory.resolve("cpu.max"));
        if (text == null) {
            return Double.POSITIVE_INFINITY;
        }
        String[] fields = text.trim().split("\\s+");
        if (fields.length != 2 || fields[0].equals("max")) {
            return Double.POSITIVE_INFINITY;
        }
        return ratio(fields[0], fields[1]);
    }

    /** {@code cpu.cfs_quota_us} is {@code -1} for no limit, else microseconds per {@code cpu.cfs_period_us}. */
    static double v1Limit(Path directory) {
        String quota = firstLine(directory.resolve("cpu.cfs_quota_us"));
        String period = firstLine(directory.resolve("cpu.cfs_period_us"));
        if (quota == null || period == null) {
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

    private static String firstLine(Path file) {
        List<String> lines = lines(file);
        return lines.isEmpty() ? null : lines.get(0);
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }
}

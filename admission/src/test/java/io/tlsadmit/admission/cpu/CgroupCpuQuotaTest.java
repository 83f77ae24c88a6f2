package io.tlsadmit.admission.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What is read again at every call and what is kept: real files under a temporary root, a simulated clock. */
class CgroupCpuQuotaTest {

    @TempDir
    Path root;

    private final AtomicLong clock = new AtomicLong();

    private void write(String absolutePath, String content) throws IOException {
        Path file = root.resolve(absolutePath.substring(1));
        Files.createDirectories(file.getParent());
        Files.writeString(file, content + "\n");
    }

    private static String v2MountAt(String mountPoint) {
        return "30 24 0:26 / " + mountPoint + " rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw";
    }

    @Test
    void aChangedQuotaIsSeenAtTheNextReadAMoveWithinASecondAChangedMountTableWithinTenSeconds() throws IOException {
        write("/proc/self/mountinfo", v2MountAt("/sys/fs/cgroup"));
        write("/proc/self/cgroup", "0::/app");
        write("/sys/fs/cgroup/app/cpu.max", "50000 100000");
        write("/sys/fs/cgroup/other/cpu.max", "150000 100000");
        write("/mnt/cgroup2/other/cpu.max", "25000 100000");
        CgroupCpuQuota quota = new CgroupCpuQuota(root, clock::get);
        assertEquals(0.5, quota.read().cgroupV2Cpus(), 1e-9);

        write("/sys/fs/cgroup/app/cpu.max", "100000 100000");
        assertEquals(1.0, quota.read().cgroupV2Cpus(), 1e-9, "a quota changed in place (docker update --cpus)");

        write("/proc/self/cgroup", "0::/other");
        clock.addAndGet(CgroupCpuQuota.MEMBERSHIPS_REREAD_NANOS - 1);
        assertEquals(1.0, quota.read().cgroupV2Cpus(), 1e-9, "the memberships are kept a second");
        clock.addAndGet(1);
        assertEquals(1.5, quota.read().cgroupV2Cpus(), 1e-9, "the process moved to another cgroup");

        write("/proc/self/mountinfo", v2MountAt("/mnt/cgroup2"));
        clock.addAndGet(CgroupCpuQuota.MOUNTS_REREAD_NANOS - 1);
        assertEquals(1.5, quota.read().cgroupV2Cpus(), 1e-9, "the mount table is kept ten seconds");
        clock.addAndGet(1);
        assertEquals(0.25, quota.read().cgroupV2Cpus(), 1e-9, "and read again after them");
    }

    @Test
    void aLimitFileThatAppearsWhereThereWasNoneIsSeenWithinTenSeconds() throws IOException {
        write("/proc/self/mountinfo", v2MountAt("/sys/fs/cgroup"));
        write("/proc/self/cgroup", "0::/app");
        Files.createDirectories(root.resolve("sys/fs/cgroup/app"));
        CgroupCpuQuota quota = new CgroupCpuQuota(root, clock::get);
        assertEquals(Double.POSITIVE_INFINITY, quota.read().cgroupV2Cpus(), "no cpu.max: the cpu controller is off");
        write("/sys/fs/cgroup/app/cpu.max", "50000 100000"); // the controller enabled in the parent, a limit set
        assertEquals(Double.POSITIVE_INFINITY, quota.read().cgroupV2Cpus(), "levels without the file are left out");
        clock.addAndGet(CgroupCpuQuota.MOUNTS_REREAD_NANOS);
        assertEquals(0.5, quota.read().cgroupV2Cpus(), 1e-9);
    }

    @Test
    void aV1QuotaSetWhereThereWasNoneIsSeenAtTheNextRead() throws IOException {
        write("/proc/self/mountinfo",
                "25 20 0:22 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid shared:9 - cgroup cgroup rw,cpu,cpuacct");
        write("/proc/self/cgroup", "5:cpu,cpuacct:/docker/abc\n2:pids:/docker/abc");
        write("/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "-1");
        write("/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us", "100000");
        CgroupCpuQuota quota = new CgroupCpuQuota(root, clock::get);
        assertEquals(Double.POSITIVE_INFINITY, quota.read().cgroupV1Cpus());
        write("/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "50000");
        clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(250));
        assertEquals(0.5, quota.read().cgroupV1Cpus(), 1e-9);
    }

    @Test
    void aLevelsFileStaysOpenAcrossMountTableReadsAndIsClosedWhenTheProcessLeavesTheLevel() throws IOException {
        assumeTrue(OpenFiles.visible(), "Linux /proc");
        write("/proc/self/mountinfo", v2MountAt("/sys/fs/cgroup"));
        write("/proc/self/cgroup", "0::/app");
        write("/sys/fs/cgroup/app/cpu.max", "50000 100000");
        write("/sys/fs/cgroup/other/cpu.max", "150000 100000");
        CgroupCpuQuota quota = new CgroupCpuQuota(root, clock::get);
        assertEquals(0.5, quota.read().cgroupV2Cpus(), 1e-9);
        assertEquals(Set.of("proc/self/cgroup", "sys/fs/cgroup/app/cpu.max"), OpenFiles.under(root).keySet());

        // Another file put in its place shows whether the open one is kept: the kernel never replaces a limit file,
        // so a held descriptor goes on reading the one it opened, and a file opened again would read the new one.
        Path limit = root.resolve("sys/fs/cgroup/app/cpu.max");
        Files.delete(limit);
        Files.writeString(limit, "100000 100000\n");
        clock.addAndGet(CgroupCpuQuota.MOUNTS_REREAD_NANOS);
        assertEquals(0.5, quota.read().cgroupV2Cpus(), 1e-9,
                "the levels worked out again from the mount table: the level's file kept open, not opened again");

        write("/proc/self/cgroup", "0::/other");
        clock.addAndGet(CgroupCpuQuota.MEMBERSHIPS_REREAD_NANOS);
        assertEquals(1.5, quota.read().cgroupV2Cpus(), 1e-9);
        assertEquals(Set.of("proc/self/cgroup", "sys/fs/cgroup/other/cpu.max"), OpenFiles.under(root).keySet(),
                "the level left behind is closed");
        quota.close();
        assertEquals(Set.of(), OpenFiles.under(root).keySet());
    }
}

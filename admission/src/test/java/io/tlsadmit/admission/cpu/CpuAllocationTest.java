package io.tlsadmit.admission.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real files laid out as the kernel does, under a temporary file-system root. */
class CpuAllocationTest {

    private static final String V2_MOUNT = "30 24 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate";
    /** This development machine: cgroup v1 controllers plus v2 at /sys/fs/cgroup/unified. */
    private static final String HYBRID_MOUNTS = String.join("\n",
            "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755",
            "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu",
            "33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct",
            "34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset",
            "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw");

    @TempDir
    Path root;

    private final AtomicInteger affinity = new AtomicInteger(4);

    private CpuAllocation allocation() {
        return new CpuAllocation(root, affinity::get);
    }

    private void write(String absolutePath, String content) throws IOException {
        Path file = root.resolve(absolutePath.substring(1));
        Files.createDirectories(file.getParent());
        Files.writeString(file, content + "\n");
    }

    private void cgroupV2Process(String cgroupPath) throws IOException {
        write("/proc/self/mountinfo", "22 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n" + V2_MOUNT);
        write("/proc/self/cgroup", "0::" + cgroupPath);
    }

    @Test
    void fractionalCgroupV2QuotaIsTheAllocation() throws IOException {
        cgroupV2Process("/system.slice/tomcat.service");
        write("/sys/fs/cgroup/system.slice/tomcat.service/cpu.max", "50000 100000");
        CpuAllocation.Reading reading = allocation().refresh();
        assertEquals(0.5, reading.cpus());
        assertEquals(CpuAllocation.Source.CGROUP_V2, reading.source());
    }

    @Test
    void cgroupV2MaxMeansNoQuotaSoAffinityDecides() throws IOException {
        cgroupV2Process("/system.slice/tomcat.service");
        write("/sys/fs/cgroup/system.slice/tomcat.service/cpu.max", "max 100000");
        CpuAllocation.Reading reading = allocation().refresh();
        assertEquals(4.0, reading.cpus());
        assertEquals(CpuAllocation.Source.AFFINITY, reading.source());
        assertEquals(Double.POSITIVE_INFINITY, reading.cgroupV2Cpus());
    }

    @Test
    void aParentQuotaLimitsTheChildCgroup() throws IOException {
        cgroupV2Process("/kubepods/pod1/container1");
        write("/sys/fs/cgroup/kubepods/pod1/cpu.max", "150000 100000");
        write("/sys/fs/cgroup/kubepods/pod1/container1/cpu.max", "max 100000");
        assertEquals(1.5, allocation().refresh().cpus());

        write("/sys/fs/cgroup/kubepods/pod1/container1/cpu.max", "300000 100000");
        assertEquals(1.5, allocation().refresh().cpus(), "the smaller parent still wins");

        write("/sys/fs/cgroup/kubepods/pod1/container1/cpu.max", "25000 100000");
        assertEquals(0.25, allocation().refresh().cpus());
    }

    @Test
    void containerSeeingItsOwnSubtreeReadsTheMountTop() throws IOException {
        // No cgroup namespace: /proc/self/cgroup shows the host path, the mount's root is that path.
        write("/proc/self/mountinfo",
                "30 24 0:26 /docker/abc123 /sys/fs/cgroup ro,nosuid - cgroup2 cgroup2 rw");
        write("/proc/self/cgroup", "0::/docker/abc123");
        write("/sys/fs/cgroup/cpu.max", "200000 100000");
        assertEquals(2.0, allocation().refresh().cpus());
    }

    @Test
    void cgroupNamespaceShowsTheContainerAsRoot() throws IOException {
        cgroupV2Process("/");
        write("/sys/fs/cgroup/cpu.max", "75000 100000");
        assertEquals(0.75, allocation().refresh().cpus());
    }

    @Test
    void cgroupV1QuotaOfMinusOneIsNoLimit() throws IOException {
        write("/proc/self/mountinfo", HYBRID_MOUNTS);
        write("/proc/self/cgroup", "4:memory:/x\n3:cpuset:/\n1:cpu:/\n0::/");
        write("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "-1");
        write("/sys/fs/cgroup/cpu/cpu.cfs_period_us", "100000");
        Files.createDirectories(root.resolve("sys/fs/cgroup/unified"));
        affinity.set(2);
        CpuAllocation.Reading reading = allocation().refresh();
        assertEquals(2.0, reading.cpus());
        assertEquals(CpuAllocation.Source.AFFINITY, reading.source());
        assertEquals(Double.POSITIVE_INFINITY, reading.cgroupV1Cpus());
    }

    @Test
    void cgroupV1QuotaOnACombinedCpuHierarchyIsHonoured() throws IOException {
        write("/proc/self/mountinfo",
                "25 20 0:22 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid shared:9 - cgroup cgroup rw,cpu,cpuacct");
        write("/proc/self/cgroup", "5:cpu,cpuacct:/docker/abc\n2:pids:/docker/abc");
        write("/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "150000");
        write("/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us", "100000");
        CpuAllocation.Reading reading = allocation().refresh();
        assertEquals(1.5, reading.cpus());
        assertEquals(CpuAllocation.Source.CGROUP_V1, reading.source());
    }

    @Test
    void aResizeIsSeenOnTheNextRefresh() throws IOException {
        cgroupV2Process("/app");
        write("/sys/fs/cgroup/app/cpu.max", "100000 100000");
        CpuAllocation allocation = allocation();
        assertEquals(1.0, allocation.cpus());
        write("/sys/fs/cgroup/app/cpu.max", "200000 100000");
        assertEquals(1.0, allocation.cpus(), "cpus() reports the last refresh");
        allocation.refresh();
        assertEquals(2.0, allocation.cpus());
    }

    @Test
    void narrowerAffinityThanQuotaWinsAndFollowsTaskset() throws IOException {
        cgroupV2Process("/app");
        write("/sys/fs/cgroup/app/cpu.max", "300000 100000");
        CpuAllocation allocation = allocation();
        affinity.set(1);
        assertEquals(1.0, allocation.refresh().cpus());
        affinity.set(2);
        assertEquals(2.0, allocation.refresh().cpus());
    }

    @Test
    void explicitCpusOverridesEverySourceAndZeroRestoresDetection() throws IOException {
        cgroupV2Process("/app");
        write("/sys/fs/cgroup/app/cpu.max", "50000 100000");
        CpuAllocation allocation = allocation();
        allocation.setCpus(3);
        CpuAllocation.Reading reading = allocation.refresh();
        assertEquals(3.0, reading.cpus());
        assertEquals(CpuAllocation.Source.OVERRIDE, reading.source());
        allocation.setCpus(0);
        assertEquals(0.5, allocation.refresh().cpus());
    }

    @Test
    void anAssignmentFromACpuManagerCanOnlyNarrowTheAllocation() {
        CpuAllocation allocation = allocation();
        allocation.setCpusAssigned(1.25);
        CpuAllocation.Reading reading = allocation.refresh();
        assertEquals(1.25, reading.cpus());
        assertEquals(CpuAllocation.Source.ASSIGNED, reading.source());
        allocation.setCpusAssigned(16);
        assertEquals(4.0, allocation.refresh().cpus(), "a manager cannot grant CPUs the kernel withholds");
    }

    @Test
    void withoutProcOrCgroupFilesTheAffinityDecides() {
        assertEquals(4.0, allocation().refresh().cpus());
    }

    @Test
    void malformedQuotaFilesAreIgnored() throws IOException {
        cgroupV2Process("/app");
        write("/sys/fs/cgroup/app/cpu.max", "garbage");
        assertEquals(4.0, allocation().refresh().cpus());
        write("/sys/fs/cgroup/app/cpu.max", "0 100000");
        assertEquals(4.0, allocation().refresh().cpus());
        write("/sys/fs/cgroup/app/cpu.max", "");
        assertEquals(4.0, allocation().refresh().cpus());
    }

    @Test
    void aFailingAffinityProbeFallsBackToTheJvm() {
        CpuAllocation allocation = new CpuAllocation(root, () -> {
            throw new IllegalStateException("native probe unavailable");
        });
        assertEquals(Runtime.getRuntime().availableProcessors(), allocation.cpus());
    }

    @Test
    void escapedMountPointsAreDecoded() throws IOException {
        write("/proc/self/mountinfo", "30 24 0:26 / /srv/my\\040cgroups rw - cgroup2 cgroup2 rw");
        write("/proc/self/cgroup", "0::/app");
        write("/srv/my cgroups/app/cpu.max", "50000 100000");
        assertEquals(0.5, allocation().refresh().cpus());
    }

    @Test
    void invalidAttributesNameThemselves() {
        CpuAllocation allocation = allocation();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> allocation.setCpus(-1));
        assertTrue(e.getMessage().startsWith("cpus "), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> allocation.setCpusAssigned(Double.NaN));
        assertTrue(e.getMessage().startsWith("cpusAssigned "), e.getMessage());
    }

    @Test
    void thisMachineReportsAPositiveAllocationNoLargerThanItsProcessors() {
        CpuAllocation.Reading reading = new CpuAllocation().refresh();
        assertTrue(reading.cpus() > 0 && reading.cpus() <= Runtime.getRuntime().availableProcessors(), reading.toString());
    }

    @Test
    void keepsItsFilesOpenBetweenRefreshesAndReleasesThemOnClose() throws IOException {
        assumeTrue(OpenFiles.visible(), "Linux /proc");
        cgroupV2Process("/system.slice/tomcat.service");
        write("/sys/fs/cgroup/system.slice/tomcat.service/cpu.max", "50000 100000");
        write("/proc/stat", "cpu  0 0 0 0 0 0 0 0\ncpu0 1 0 1 8 0 0 0 0\n");
        write("/proc/self/stat", "42 (java) S 1 42 42 0 -1 4194560 100 0 0 0 1 1 0 0 20 0 42 0 100 0 0");
        write("/proc/self/status", "Name:\tjava\nCpus_allowed_list:\t0");
        CpuAllocation allocation = allocation();
        allocation.setCapacity(CpuCapacity.MEASURED);
        allocation.refresh();
        assertEquals(Set.of("proc/self/cgroup", "proc/self/stat", "proc/self/status", "proc/stat",
                "sys/fs/cgroup/system.slice/tomcat.service/cpu.max"), OpenFiles.under(root).keySet());

        write("/sys/fs/cgroup/system.slice/tomcat.service/cpu.max", "25000 100000");
        assertEquals(0.25, allocation.refresh().cgroupV2Cpus(), "read again through the open file");

        allocation.close();
        assertEquals(Set.of(), OpenFiles.under(root).keySet());
        assertEquals(0.25, allocation.refresh().cgroupV2Cpus(), "opened again");
        allocation.close();
    }
}

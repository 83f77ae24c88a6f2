package io.tlsadmit.cpumanager.enforcement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.admission.cpu.CgroupCpuQuota;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cgroup version this host cannot show: a mount tree of plain files laid out as the kernel's, the
 * manager's writes checked by admission's {@link CgroupCpuQuota} as the gate in that cgroup would read
 * them. What plain files cannot show is the kernel's side (moving the process, the throttling): that is
 * {@link QuotaOnThisHostTest}'s, for the version this host has.
 */
class FakeCgroupTreeTest {

    @TempDir
    Path root;

    @Test
    void cgroupV2QuotaGoesToCpuMaxWithTheControllerEnabledDownTheTree() throws Exception {
        mountinfo("30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw");
        Path hierarchy = Files.createDirectories(root.resolve("sys/fs/cgroup"));
        Files.writeString(hierarchy.resolve("cgroup.controllers"), "cpuset cpu io memory pids\n");
        Files.writeString(hierarchy.resolve("cgroup.subtree_control"), "memory\n");

        QuotaCgroups cgroups = QuotaCgroups.detect(root);
        assertInstanceOf(QuotaCgroups.V2.class, cgroups);
        cgroups.adopt("shop", 4242);
        cgroups.limit("shop", 1.5);

        assertEquals("+cpu", Files.readString(hierarchy.resolve("cgroup.subtree_control")).trim());
        assertEquals("+cpu", Files.readString(hierarchy.resolve("tlsadmit/cgroup.subtree_control")).trim());
        assertEquals("4242", Files.readString(hierarchy.resolve("tlsadmit/shop/cgroup.procs")).trim());
        assertEquals("150000 100000", Files.readString(hierarchy.resolve("tlsadmit/shop/cpu.max")).trim());
        assertEquals("150", Files.readString(hierarchy.resolve("tlsadmit/shop/cpu.weight")).trim(),
                "weight 1 per CPU: as many threads' weight as CPUs");

        Files.writeString(root.resolve("proc/self/cgroup"), "0::/tlsadmit/shop\n");
        CgroupCpuQuota.Limits seen = new CgroupCpuQuota(root).read();
        assertEquals(1.5, seen.cgroupV2Cpus(), 1e-9, "the gate in that cgroup reads its share");

        assertEquals(1.5, QuotaCgroups.detect(root).limit("shop").orElseThrow(), 1e-9, "a restarted manager adopts it");
        cgroups.limit("shop", 0.001);
        assertEquals("1000 100000", Files.readString(hierarchy.resolve("tlsadmit/shop/cpu.max")).trim(),
                "never under the kernel's 1 ms minimum");
    }

    @Test
    void cgroupV1QuotaOnAHybridHostWhereV2HasNoCpuController() throws Exception {
        mountinfo("30 23 0:26 / /sys/fs/cgroup/unified rw,nosuid - cgroup2 cgroup2 rw",
                "31 23 0:27 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid - cgroup cgroup rw,cpu,cpuacct");
        Files.createDirectories(root.resolve("sys/fs/cgroup/unified"));
        Files.writeString(root.resolve("sys/fs/cgroup/unified/cgroup.controllers"), "\n");
        Path hierarchy = Files.createDirectories(root.resolve("sys/fs/cgroup/cpu,cpuacct"));

        QuotaCgroups cgroups = QuotaCgroups.detect(root);
        assertInstanceOf(QuotaCgroups.V1.class, cgroups);
        cgroups.adopt("blog", 77);
        cgroups.limit("blog", 0.25);
        assertEquals("25000", Files.readString(hierarchy.resolve("tlsadmit/blog/cpu.cfs_quota_us")).trim());
        assertEquals("100000", Files.readString(hierarchy.resolve("tlsadmit/blog/cpu.cfs_period_us")).trim());
        assertEquals("256", Files.readString(hierarchy.resolve("tlsadmit/blog/cpu.shares")).trim(), "0.25 of 1024");
        QuotaCgroups.detect(root, 100_000, 64).limit("blog", 0.25);
        assertEquals("16384", Files.readString(hierarchy.resolve("tlsadmit/blog/cpu.shares")).trim(), "0.25 × 64 × 1024");
        QuotaCgroups.detect(root, 100_000, 64).weighParent(2);
        assertEquals("131072", Files.readString(hierarchy.resolve("tlsadmit/cpu.shares")).trim(),
                "the parent weighs the 2 CPUs it holds, against the root group's threads");

        Files.writeString(root.resolve("proc/self/cgroup"), "4:cpu,cpuacct:/tlsadmit/blog\n0::/\n");
        assertEquals(0.25, new CgroupCpuQuota(root).read().cgroupV1Cpus(), 1e-9);
    }

    @Test
    void aShorterCfsPeriodScalesTheQuotaAndReadsBackAsTheSameCpus() throws Exception {
        mountinfo("30 23 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw");
        Path v2 = Files.createDirectories(root.resolve("sys/fs/cgroup"));
        Files.writeString(v2.resolve("cgroup.controllers"), "cpu\n");
        QuotaCgroups cgroups = QuotaCgroups.detect(root, 20_000, 64);
        cgroups.adopt("shop", 4242);
        cgroups.limit("shop", 1.5);
        assertEquals("30000 20000", Files.readString(v2.resolve("tlsadmit/shop/cpu.max")).trim());
        assertEquals("9600", Files.readString(v2.resolve("tlsadmit/shop/cpu.weight")).trim(),
                "1.5 CPUs at 64 threads each, a thread weighing 100");
        Files.writeString(v2.resolve("tlsadmit/shop/cpu.max.burst"), "0\n"); // a kernel with CFS burst
        cgroups.limit("shop", 2);
        assertEquals("10000", Files.readString(v2.resolve("tlsadmit/shop/cpu.weight")).trim(), "v2's largest weight");
        assertEquals("40000", Files.readString(v2.resolve("tlsadmit/shop/cpu.max.burst")).trim(), "burst = quota");
        cgroups.weighParent(1);
        assertEquals("6400", Files.readString(v2.resolve("tlsadmit/cpu.weight")).trim(), "the parent: 1 CPU × 64 × 100");
        cgroups.limit("shop", 1.5);
        Files.writeString(root.resolve("proc/self/cgroup"), "0::/tlsadmit/shop\n");
        assertEquals(1.5, new CgroupCpuQuota(root).read().cgroupV2Cpus(), 1e-9, "the gate sees the same CPUs");
        assertEquals(1.5, QuotaCgroups.detect(root).limit("shop").orElseThrow(), 1e-9,
                "a restarted manager adopts it whatever period it writes");
        cgroups.limit("shop", 0.01);
        assertEquals("1000 20000", Files.readString(v2.resolve("tlsadmit/shop/cpu.max")).trim(),
                "never under the kernel's 1 ms, so at a short period the floor is higher in CPUs");

        assertThrows(IllegalArgumentException.class, () -> QuotaCgroups.detect(root, 500, 1));
        assertThrows(IllegalArgumentException.class, () -> QuotaCgroups.detect(root, 2_000_000, 1));
        assertThrows(IllegalArgumentException.class, () -> QuotaCgroups.detect(root, 20_000, 0));
    }

    @Test
    void throttlingCountersOfBothVersions() throws Exception {
        mountinfo("30 23 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw");
        Path v2 = Files.createDirectories(root.resolve("sys/fs/cgroup"));
        Files.writeString(v2.resolve("cgroup.controllers"), "cpu\n");
        QuotaCgroups cgroups = QuotaCgroups.detect(root);
        assertTrue(cgroups.throttling("shop").isEmpty(), "no cgroup yet");
        Files.createDirectories(v2.resolve("tlsadmit/shop"));
        Files.writeString(v2.resolve("tlsadmit/shop/cpu.stat"), "usage_usec 5000000\nuser_usec 4000000\n"
                + "system_usec 1000000\nnr_periods 500\nnr_throttled 120\nthrottled_usec 2500000\n");
        assertEquals(new QuotaCgroups.Throttling(500, 120, 2.5), cgroups.throttling("shop").orElseThrow());

        Files.writeString(v2.resolve("tlsadmit/shop/cpu.stat"), "nr_periods 40\nnr_throttled 3\n"
                + "throttled_time 1500000000\n");
        assertEquals(new QuotaCgroups.Throttling(40, 3, 1.5), cgroups.throttling("shop").orElseThrow(),
                "v1 counts nanoseconds");
        Files.writeString(v2.resolve("tlsadmit/shop/cpu.stat"), "nr_periods 40\nnr_throttled many\n"
                + "throttled_time 1500000000\n");
        assertTrue(cgroups.throttling("shop").isEmpty(), "a counter that is not a number is no reading");
    }

    @Test
    void noCpuControllerAnywhereSaysToUseAffinity() throws Exception {
        mountinfo("30 23 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw");
        Files.createDirectories(root.resolve("sys/fs/cgroup"));
        Files.writeString(root.resolve("sys/fs/cgroup/cgroup.controllers"), "memory pids\n");
        EnforcementException e = assertThrows(EnforcementException.class, () -> QuotaCgroups.detect(root));
        assertTrue(e.getMessage().contains("enforce: affinity"), e.getMessage());
    }

    private void mountinfo(String... lines) throws Exception {
        Files.createDirectories(root.resolve("proc/self"));
        Files.writeString(root.resolve("proc/self/mountinfo"), String.join("\n", lines) + "\n");
    }
}

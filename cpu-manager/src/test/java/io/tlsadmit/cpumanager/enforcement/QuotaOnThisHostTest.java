package io.tlsadmit.cpumanager.enforcement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Quota enforcement on this machine's real cgroup hierarchy (v1 {@code cpu} on our hybrid CI hosts, v2
 * where the unified hierarchy has the controller), on a real process: the manager's cgroup is created,
 * the process moved in, the quota written, and admission's own reader, run as the process would, sees
 * it. Needs root, as the manager does.
 */
class QuotaOnThisHostTest {

    @Test
    void aRealProcessGetsItsQuotaAndTheKernelThrottlesIt() throws Exception {
        assumeTrue(Files.isWritable(Path.of("/sys/fs/cgroup")) || "root".equals(System.getProperty("user.name")),
                "needs root to create cgroups");
        QuotaCgroups cgroups = QuotaCgroups.detect(Path.of("/"));
        String app = "test-" + ProcessHandle.current().pid();
        try (ChildJvm busy = ChildJvm.start(true)) {
            cgroups.adopt(app, busy.pid());
            cgroups.limit(app, 0.2);
            assertEquals(List.of(busy.pid()), cgroups.members(app));
            assertEquals(0.2, cgroups.limit(app).orElseThrow(), 1e-9);
            assertEquals(0.2, ProcessCgroupView.cpuLimit(Path.of("/"), busy.pid()), 1e-9,
                    "what the process's own gate would read");

            cgroups.limit(app, 1.5);
            assertEquals(1.5, ProcessCgroupView.cpuLimit(Path.of("/"), busy.pid()), 1e-9);
            Path burst = cgroups.cgroup(app).resolve(cgroups.version().equals("v1") ? "cpu.cfs_burst_us" : "cpu.max.burst");
            if (Files.isRegularFile(burst)) { // kernel 5.14+
                assertEquals("150000", Files.readString(burst).trim(), "a period's quota may be saved up");
            }
            cgroups.limit(app, 0.2); // the kernel refuses a quota under the burst: the burst comes down first
            if (Files.isRegularFile(burst)) {
                assertEquals("20000", Files.readString(burst).trim());
            }
            Thread.sleep(1_500);
            String stat = Files.readString(cgroups.cgroup(app).resolve("cpu.stat"));
            assertTrue(throttled(stat) > 0, "a spinning process at 0.2 CPU is throttled: " + stat);
            assertEquals(throttled(stat), cgroups.throttling(app).orElseThrow().throttledPeriods(), 5,
                    "the manager's own reading of cpu.stat");

            QuotaCgroups shortPeriod = QuotaCgroups.detect(Path.of("/"), 20_000, 64);
            long periodsBefore = shortPeriod.throttling(app).orElseThrow().periods();
            shortPeriod.limit(app, 0.2);
            assertEquals(0.2, ProcessCgroupView.cpuLimit(Path.of("/"), busy.pid()), 1e-9,
                    "the same CPUs at a 20 ms CFS period, as the gate reads them");
            boolean v1 = cgroups.version().equals("v1");
            assertEquals(v1 ? "13107" : "1280", Files.readString(cgroups.cgroup(app).resolve(v1 ? "cpu.shares"
                    : "cpu.weight")).trim(), "the kernel took the weight: 0.2 CPUs × 64 threads");
            shortPeriod.weighParent(2);
            assertEquals(v1 ? "131072" : "10000", Files.readString(cgroups.cgroup(app).getParent().resolve(v1 ? "cpu.shares"
                    : "cpu.weight")).trim(), "and the parent's: 2 CPUs × 64 threads (v2 at its largest)");
            Thread.sleep(1_000);
            long periods = shortPeriod.throttling(app).orElseThrow().periods() - periodsBefore;
            assertTrue(periods > 20, "the kernel runs 20 ms periods now (50 a second), counted " + periods + " in 1 s");

            QuotaCgroups restarted = QuotaCgroups.detect(Path.of("/"));
            restarted.adopt(app, busy.pid());
            assertEquals(0.2, restarted.limit(app).orElseThrow(), 1e-9, "adopting keeps the quota in place");
        } finally {
            cgroups.remove(app);
        }
        assertFalse(Files.exists(cgroups.cgroup(app)));
    }

    private static long throttled(String cpuStat) {
        for (String line : cpuStat.split("\n")) {
            if (line.startsWith("nr_throttled")) {
                return Long.parseLong(line.split("\\s+")[1]);
            }
        }
        throw new AssertionError("no nr_throttled in cpu.stat: " + cpuStat);
    }
}

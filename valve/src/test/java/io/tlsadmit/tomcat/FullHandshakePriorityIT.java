package io.tlsadmit.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tlsadmit.admission.cpu.CpuList;
import io.tlsadmit.admission.cpu.TaskStat;
import io.tlsadmit.testing.JdkHttpsGet;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import io.tlsadmit.testing.TomcatServer;
import io.tlsadmit.testing.TomcatStartException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code fullHandshakeNice}: the signatures of new clients run on threads of the Tomcat process at that nice value,
 * every handshake still completes, and the budget still learns their cost. What the priority buys under load is a
 * benchmark's question (docs/benchmarks.md), not a test's.
 */
class FullHandshakePriorityIT {

    private final TomcatDistribution distribution = GatedTomcat.distribution();
    private final TestKeystore keystore = GatedTomcat.keystore(distribution);

    @Test
    void newClientsSignaturesRunOnThreadsAtTheNiceValue() throws Exception {
        try (TomcatServer tomcat = GatedTomcat.base(distribution, "handshake-nice")
                .connector(GatedTomcat.gated("gate", keystore, "1000", "1000")
                        .attribute("budget", "adaptive").attribute("fullHandshakeNice", "19"))
                .engineXml("<Valve className=\"" + GatedTomcat.VALVE + "\"/>")
                .controlTrace()
                .build()
                .start()) {
            int base = TaskStat.read(TaskStat.ofProcess(tomcat.pid())).nice();
            assumeTrue(base < 19, "Tomcat itself runs at nice " + base + ": nothing to tell apart");
            int port = tomcat.port("gate");
            assertTrue(tomcat.catalinaOut().contains("run on " + hostCpus() + " threads at nice 19"),
                    tomcat.catalinaOut());
            long before = niceThreadsCpuTicks(tomcat.pid(), 19);

            int clients = 60;
            for (int i = 0; i < clients; i++) {
                String reply = JdkHttpsGet.get(keystore.clientContext("TLSv1.3"), port, "/");
                assertTrue(reply.startsWith("HTTP/1.1 200"), reply);
            }

            GateMXBean gate = GatedTomcat.gate(tomcat, port);
            assertEquals(clients, gate.getFullHandshakes());
            List<Path> lowered = niceThreads(tomcat.pid(), 19);
            assertEquals(hostCpus(), lowered.size(), "one thread per host CPU, all lowered: " + names(lowered));
            long ticks = niceThreadsCpuTicks(tomcat.pid(), 19) - before;
            // 60 signatures (RSA-2048, C1 code) take well over 50 ms: the clock charges them to the lowered threads
            assertTrue(ticks >= 5, "CPU ticks of the nice-19 threads: " + ticks);

            // timed on the thread that ran them, the handshakes still read the run queue (before: NaN in every period)
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            List<String> stretches = List.of();
            while (stretches.stream().noneMatch(stretch -> Double.parseDouble(stretch) >= 1)
                    && System.nanoTime() < deadline) {
                Thread.sleep(250); // the trace's handler writes asynchronously
                stretches = tomcat.controlTrace().stream()
                        .map(line -> line.replaceAll(".* stretch=(\\S+) .*", "$1")).toList();
            }
            assertTrue(stretches.stream().anyMatch(stretch -> Double.parseDouble(stretch) >= 1), stretches.toString());
        }
    }

    @Test
    void aNiceValueOutsideLinuxsRangeFailsTheStartNamingTheAttribute() {
        TomcatStartException e = GatedTomcat.failedStart(GatedTomcat.base(distribution, "bad-nice")
                .connector(GatedTomcat.gated("gate", keystore, "10", "20").attribute("fullHandshakeNice", "20"))
                .engineXml("<Valve className=\"" + GatedTomcat.VALVE + "\"/>"));
        assertTrue(e.catalinaOut().contains("fullHandshakeNice must be a Linux nice value in [0, 19] (0 = full"
                + " handshakes run on the workers, 19 = the lowest priority), was \"20\""), e.getMessage());
    }

    private static List<Path> niceThreads(long pid, int nice) throws IOException {
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            return tasks.map(task -> task.resolve("stat"))
                    .filter(stat -> TaskStat.readIfPresent(stat).map(TaskStat::nice).orElse(Integer.MIN_VALUE) == nice)
                    .toList();
        }
    }

    private static List<String> names(List<Path> stats) {
        return stats.stream().map(stat -> {
            try {
                return Files.readString(stat.resolveSibling("comm")).strip();
            } catch (IOException e) {
                return "(gone)";
            }
        }).toList();
    }

    private static long niceThreadsCpuTicks(long pid, int nice) throws IOException {
        long ticks = 0;
        for (Path stat : niceThreads(pid, nice)) {
            ticks += TaskStat.readIfPresent(stat).map(TaskStat::cpuTicks).orElse(0L);
        }
        return ticks;
    }

    /** One lowered thread per CPU the kernel can bring online, as the pool is sized. */
    private static long hostCpus() throws IOException {
        return CpuList.parse(Files.readString(Path.of("/sys/devices/system/cpu/possible")).strip()).size();
    }
}

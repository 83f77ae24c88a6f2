package io.tlsadmit.cpumanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.cpumanager.config.Application;
import io.tlsadmit.cpumanager.config.ShareableCpus;
import io.tlsadmit.cpumanager.config.Enforcement;
import io.tlsadmit.cpumanager.config.ManagerConfig;
import io.tlsadmit.cpumanager.enforcement.ChildJvm;
import io.tlsadmit.cpumanager.enforcement.ProcessCgroupView;
import io.tlsadmit.cpumanager.enforcement.QuotaCgroups;
import io.tlsadmit.cpumanager.metrics.ServerSample;
import io.tlsadmit.cpumanager.probe.GateProbe;
import io.tlsadmit.cpumanager.probe.GateReading;
import io.tlsadmit.testing.PrometheusScrape;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The period loop on real processes and this host's real cgroups, with the gates' answers scripted (the
 * real gates over JMX are {@code TwoGatedTomcatsIT}'s): enforcement, the grace for a silent server, a
 * dead server's CPUs back to the pool, a restarted manager adopting the quotas in place, the metrics
 * endpoint and the CSV.
 */
class CpuManagerTest {

    @TempDir
    Path dir;

    private final String shop = "shop-" + ProcessHandle.current().pid();
    private final String blog = "blog-" + ProcessHandle.current().pid();
    /** What each pid's gate answers; absent = it does not answer. */
    private final Map<Long, Double> requests = new ConcurrentHashMap<>();
    private final Map<Long, Double> told = new ConcurrentHashMap<>();

    @AfterEach
    void removeCgroups() throws Exception {
        QuotaCgroups cgroups = QuotaCgroups.detect(Path.of("/"));
        cgroups.remove(shop);
        cgroups.remove(blog);
        cgroups.removeManagerGroup(); // the manager moved this JVM there
    }

    @Test
    void enforcesGracesReleasesAndAdopts() throws Exception {
        ManagerConfig config = new ManagerConfig(List.of(0, 1), Duration.ofMillis(200), Enforcement.QUOTA, true, 0.1, 0,
                Duration.ofMillis(20), 64, ShareableCpus.ALL,
                List.of(new Application(shop, dir.resolve("shop.pid"), 2), new Application(blog, dir.resolve("blog.pid"), 1)));
        Path csv = dir.resolve("run.csv");
        try (ChildJvm shopJvm = ChildJvm.start(false); ChildJvm blogJvm = ChildJvm.start(false)) {
            Files.writeString(dir.resolve("shop.pid"), shopJvm.pid() + "\n");
            Files.writeString(dir.resolve("blog.pid"), blogJvm.pid() + "\n");
            requests.put(shopJvm.pid(), 3.0);
            requests.put(blogJvm.pid(), 3.0);
            try (CpuManager manager = manager(config, csv)) {
                // overload at 2:1: (2·2.9, 1·2.9) of the 1.8 above the floors
                List<ServerSample> first = manager.period();
                assertEquals(1.3, assigned(first, shop), 1e-9);
                assertEquals(0.7, assigned(first, blog), 1e-9);
                // its quota is its part by priority, 2/3 of the CPUs, where the floor of the other left it less
                assertEquals(4 / 3.0, ProcessCgroupView.cpuLimit(Path.of("/"), shopJvm.pid()), 1e-4, "enforced");
                assertTrue(Files.readString(Path.of("/proc/self/cgroup")).contains(QuotaCgroups.MANAGER),
                        "the manager runs in its own weighted group");
                assertEquals(0.7, ProcessCgroupView.cpuLimit(Path.of("/"), blogJvm.pid()), 1e-9, "enforced");
                awaitTold(blogJvm.pid(), 0.7);

                // blog stops answering: it keeps its request for the grace, then only the floor and the spare
                requests.remove(blogJvm.pid());
                for (int i = 1; i <= CpuManager.GRACE_PERIODS; i++) {
                    List<ServerSample> silent = manager.period();
                    assertFalse(sample(silent, blog).answering());
                    assertEquals(0.7, assigned(silent, blog), 1e-9, "period " + i + " of the grace");
                }
                List<ServerSample> released = manager.period();
                assertEquals(0.1, assigned(released, blog), 1e-9, "silent past the grace: its CPUs back to the pool");
                assertEquals(1.9, assigned(released, shop), 1e-9);

                String metrics = scrape(manager.metricsPort());
                PrometheusScrape scrape = PrometheusScrape.parse(metrics);
                assertEquals(1.9, scrape.value("tlsadmit_manager_cpus_assigned", "app", shop), 1e-9, metrics);
                assertEquals(3.0, scrape.value("tlsadmit_manager_cpus_requested", "app", shop), 1e-9, metrics);
                assertEquals(0, scrape.value("tlsadmit_manager_server_up", "app", blog), metrics);
                assertTrue(scrape.value("tlsadmit_manager_cpu_seconds_total", "app", shop) > 0, metrics);
                assertTrue(scrape.value("tlsadmit_manager_process_cpu_seconds_total") > 0, metrics);
                assertTrue(metrics.contains("# TYPE tlsadmit_manager_cpu_seconds_total counter"), metrics);

                // A manager restarted now, whose first readings fail, starts from the quotas in place: no dip.
                Map<Long, Double> answering = Map.copyOf(requests);
                requests.clear();
                try (CpuManager restarted = manager(config, null)) {
                    List<ServerSample> adopted = restarted.period();
                    assertEquals(1.9, assigned(adopted, shop), 1e-9);
                    assertEquals(0.1, assigned(adopted, blog), 1e-9);
                }
                requests.putAll(answering);

                // blog dies: after the grace it leaves the pool altogether
                blogJvm.close();
                requests.put(shopJvm.pid(), 1.0);
                List<ServerSample> alone = manager.period();
                assertEquals(-1, sample(alone, blog).pid());
                assertEquals(0, assigned(alone, blog));
                assertEquals(2.0, assigned(alone, shop), 1e-9, "the only server left gets every CPU");
                assertEquals(2.0, ProcessCgroupView.cpuLimit(Path.of("/"), shopJvm.pid()), 1e-9);
            }
            List<String> rows = Files.readAllLines(csv);
            assertTrue(rows.get(0).startsWith("epoch_millis,app,pid,answering,cpus_requested,cpus_assigned"), rows.get(0));
            assertEquals(1 + 2 * (2 + CpuManager.GRACE_PERIODS + 1), rows.size(), String.join("\n", rows));
        }
    }

    /**
     * @param silent whether the starved server's gate does not answer at all (the evening run: at the floor its gate
     *               was too slow for the manager), so that it is past its grace for most of the test
     */
    @ParameterizedTest(name = "gate silent: {0}")
    @ValueSource(booleans = {false, true})
    void aServerThatUsesAllItIsGivenClimbsOutOfARequestItsStarvationMadeTooSmall(boolean silent) throws Exception {
        ManagerConfig config = new ManagerConfig(List.of(0, 1), Duration.ofMillis(300), Enforcement.QUOTA, true, 0.1, 0,
                Duration.ofMillis(20), 64, ShareableCpus.ALL,
                List.of(new Application(shop, dir.resolve("shop.pid"), 1), new Application(blog, dir.resolve("blog.pid"), 1)));
        try (ChildJvm spinning = ChildJvm.start(true); ChildJvm idle = ChildJvm.start(false)) {
            Files.writeString(dir.resolve("shop.pid"), spinning.pid() + "\n");
            Files.writeString(dir.resolve("blog.pid"), idle.pid() + "\n");
            // shop's gate, starved, reads its need as nothing; blog's asks for the whole host
            if (!silent) {
                requests.put(spinning.pid(), 0.0);
            }
            requests.put(idle.pid(), 3.0);
            try (CpuManager manager = manager(config, null)) {
                List<ServerSample> first = manager.period();
                if (!silent) {
                    assertEquals(0.1, assigned(first, shop), 1e-9, "the gate's word alone: the floor");
                }
                double most = 0;
                double mostUsed = 0;
                StringBuilder path = new StringBuilder();
                for (int i = 0; i < 12; i++) {
                    Thread.sleep(config.period().toMillis());
                    ServerSample next = sample(manager.period(), shop);
                    // silent, it keeps its first (even) share through the grace: only what comes after counts
                    if (!silent || i > CpuManager.GRACE_PERIODS) {
                        most = Math.max(most, next.assigned());
                        mostUsed = Math.max(mostUsed, next.usedCpus());
                    }
                    path.append(String.format(java.util.Locale.ROOT, " %.2f/%.2f", next.usedCpus(), next.assigned()));
                    if (!silent) {
                        assertEquals(0.0, next.requested(), "the gate's request is reported as it is");
                        assertTrue(next.claimed() >= next.requested());
                    }
                }
                // One spinning thread uses up to a whole CPU: it climbs while it uses all it has (to about 0.75
                // against a neighbour claiming the host, less on a host too busy to give it its quota). Without the
                // claim it would stay at the floor; silent past its grace, it used to be put there as if it were hung.
                // The highest point, since a busy test host can take a period away.
                assertTrue(most > 0.4 && mostUsed > 0.3, "shop, using every CPU-second it got, climbed to " + most
                        + "; used/assigned:" + path);
            }
        }
    }

    /**
     * {@code capacity: measured} in the loop, on a {@code /proc/stat} the test writes (a dry run: nothing else is read
     * from that root) and two servers that use no CPU ({@code sleep}): what the CPUs did beside them is the others'.
     */
    @Test
    void theCpusOthersUsedAreNotSharedOutButKeptAsHeadroomUntilTheyHaveBeenFreeForTheWindow() throws Exception {
        ManagerConfig config = new ManagerConfig(List.of(0, 1), Duration.ofMillis(200), Enforcement.QUOTA, true, 0.1, 0,
                Duration.ofMillis(100), 64, ShareableCpus.MEASURED,
                List.of(new Application(shop, dir.resolve("shop.pid"), 2), new Application(blog, dir.resolve("blog.pid"), 1)));
        Path root = Files.createDirectories(dir.resolve("root"));
        Files.createDirectories(root.resolve("proc"));
        Process shopProcess = new ProcessBuilder("sleep", "60").start();
        Process blogProcess = new ProcessBuilder("sleep", "60").start();
        try {
            Files.writeString(dir.resolve("shop.pid"), shopProcess.pid() + "\n");
            Files.writeString(dir.resolve("blog.pid"), blogProcess.pid() + "\n");
            requests.put(shopProcess.pid(), 3.0);
            requests.put(blogProcess.pid(), 3.0);
            try (CpuManager manager = manager(config, root, true, null)) {
                long[] busy = {0, 0};
                long ticks = 0;
                // per period: CPU 0's busy ticks of 100 (CPU 1 idle), and the CPUs shared out
                double[][] periods = {{0, 2}, {100, 1}, {0, 1}, {0, 1}, {0, 2}};
                for (double[] period : periods) {
                    busy[0] += (long) period[0];
                    ticks += 100;
                    Files.writeString(root.resolve("proc/stat"), "cpu  0 0 0 0 0 0 0 0 0 0\n"
                            + "cpu0 " + busy[0] + " 0 0 " + (ticks - busy[0]) + " 0 0 0 0 0 0\n"
                            + "cpu1 0 0 0 " + ticks + " 0 0 0 0 0 0\n");
                    List<ServerSample> samples = manager.period();
                    double available = PrometheusScrape.parse(scrape(manager.metricsPort()))
                            .value("tlsadmit_manager_cpus_available");
                    assertEquals(period[1], available, 1e-9, "available after " + period[0] + " busy ticks");
                    assertEquals(available, assigned(samples, shop) + assigned(samples, blog), 1e-9, "told");
                    assertTrue(sample(samples, shop).quota() + sample(samples, blog).quota() >= 2.0 - 1e-9, "quotas");
                }
            }
        } finally {
            shopProcess.destroy();
            blogProcess.destroy();
        }
    }

    private CpuManager manager(ManagerConfig config, Path csv) throws IOException {
        return manager(config, Path.of("/"), false, csv);
    }

    private CpuManager manager(ManagerConfig config, Path fsRoot, boolean dryRun, Path csv) throws IOException {
        return new CpuManager(config, fsRoot, dryRun, null, pid -> new GateProbe() {
            @Override
            public GateReading read() throws IOException {
                Double request = requests.get(pid);
                if (request == null) {
                    throw new IOException("process " + pid + " does not answer");
                }
                return new GateReading(request, told.getOrDefault(pid, 0.0), told.getOrDefault(pid, 0.0));
            }

            @Override
            public void assign(double cpus) {
                told.put(pid, cpus);
            }

            @Override
            public void close() {
            }
        }, csv, new PrintStream(new ByteArrayOutputStream()));
    }

    private void awaitTold(long pid, double cpus) throws InterruptedException {
        for (int i = 0; i < 100 && !Double.valueOf(cpus).equals(told.get(pid)); i++) {
            Thread.sleep(20);
        }
        assertEquals(cpus, told.get(pid), 1e-9, "CpusAssigned written to the gate");
    }

    private static ServerSample sample(List<ServerSample> samples, String name) {
        return samples.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    private static double assigned(List<ServerSample> samples, String name) {
        return sample(samples, name).assigned();
    }

    private static String scrape(int port) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        return response.body();
    }
}

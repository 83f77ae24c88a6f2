package io.tlsadmit.cpumanager;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.cpumanager.enforcement.QuotaCgroups;
import io.tlsadmit.testing.ConnectorSpec;
import io.tlsadmit.testing.PrometheusScrape;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import io.tlsadmit.testing.TomcatServer;
import io.tlsadmit.tomcat.AdaptiveBudgetMXBean;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.JMX;
import javax.management.ObjectName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon jar with two real gated Tomcats (adaptive budgets) on this host's cgroups: it reads each
 * gate's request over the Attach API, and when one is flooded by new TLS clients its request and its
 * assignment rise and the other's allocation (its gate's own {@code CpusAllocated}) shrinks.
 */
class TwoGatedTomcatsIT {

    private static final Pattern METRICS_URL = Pattern.compile("metrics http://127\\.0\\.0\\.1:(\\d+)/metrics");

    @TempDir
    Path dir;

    @Test
    void aFloodOnOneServerMovesCpusToIt() throws Exception {
        TomcatDistribution distribution = TomcatDistribution.fromBuild();
        TestKeystore keystore = TestKeystore.create(distribution.home().getParent().resolve("keystores"));
        String shop = "it-shop-" + ProcessHandle.current().pid();
        String blog = "it-blog-" + ProcessHandle.current().pid();
        Process manager = null;
        try (TomcatServer shopTomcat = gated(distribution, keystore, "shop").start();
             TomcatServer blogTomcat = gated(distribution, keystore, "blog").start()) {
            Files.writeString(dir.resolve("shop.pid"), shopTomcat.pid() + "\n");
            Files.writeString(dir.resolve("blog.pid"), blogTomcat.pid() + "\n");
            // capacity: all. This test's own flood (its client threads) and whatever else runs on a shared test host
            // are "other processes" that a measured capacity would rightly take out, by an amount no assertion here
            // could name; what is checked is that a flood moves a request, an assignment and the other gate's
            // allocation. The measured capacity is CpuManagerTest's, on a /proc/stat it writes.
            Path config = Files.writeString(dir.resolve("manager.yaml"), """
                    cpus: "0-1"
                    capacity: all
                    period: 500ms
                    enforce: quota
                    share: true
                    minCpus: 0.1
                    metricsPort: 0
                    applications:
                      - name: %s
                        pidFile: shop.pid
                        priority: 1
                      - name: %s
                        pidFile: blog.pid
                        priority: 1
                    """.formatted(shop, blog));
            manager = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m",
                    "-jar", managerJar().toString(), "--config", config.toString(), "--csv", dir.resolve("run.csv").toString())
                    .redirectErrorStream(true).start();
            StringBuilder managerOut = new StringBuilder();
            int metricsPort = metricsPort(manager, managerOut);

            AdaptiveBudgetMXBean blogBudget = budget(blogTomcat);
            AdaptiveBudgetMXBean shopBudget = budget(shopTomcat);
            await(() -> scrape(metricsPort).value("tlsadmit_manager_server_up", "app", blog) == 1
                    && scrape(metricsPort).value("tlsadmit_manager_server_up", "app", shop) == 1
                    // idle, both request next to nothing: an even split
                    && Math.abs(blogBudget.getCpusAllocated() - 1) < 0.15,
                    Duration.ofSeconds(20), () -> managerOut + "\n" + scrapeText(metricsPort));
            double blogBefore = blogBudget.getCpusAllocated();
            double shopAssignedBefore = scrape(metricsPort).value("tlsadmit_manager_cpus_assigned", "app", shop);

            AtomicBoolean flooding = new AtomicBoolean(true);
            AtomicLong handshakes = new AtomicLong();
            ExecutorService clients = Executors.newFixedThreadPool(6);
            List<CompletableFuture<Void>> flood = new ArrayList<>();
            int shopPort = shopTomcat.port("tls");
            for (int i = 0; i < 6; i++) {
                flood.add(CompletableFuture.runAsync(() -> newClients(keystore, shopPort, flooding, handshakes), clients));
            }
            try {
                await(() -> {
                    PrometheusScrape m = scrape(metricsPort);
                    return m.value("tlsadmit_manager_cpus_assigned", "app", shop) > Math.max(1.1, shopAssignedBefore + 0.1)
                            && m.value("tlsadmit_manager_cpus_requested", "app", shop)
                            > m.value("tlsadmit_manager_cpus_requested", "app", blog)
                            && blogBudget.getCpusAllocated() < Math.min(0.9, blogBefore - 0.1);
                }, Duration.ofSeconds(30), () -> handshakes.get() + " handshakes; shop " + explain(shopBudget)
                        + "; blog " + explain(blogBudget) + "\n" + scrapeText(metricsPort) + managerOut);
                System.out.printf("flood: %d handshakes; shop %s; blog %s (was %.2f)%n", handshakes.get(),
                        explain(shopBudget), explain(blogBudget), blogBefore);
            } finally {
                flooding.set(false);
                clients.shutdown();
                clients.awaitTermination(10, TimeUnit.SECONDS);
            }
            assertTrue(Files.readAllLines(dir.resolve("run.csv")).size() > 4, "the run's CSV is written");
        } finally {
            if (manager != null) {
                manager.destroy();
                manager.waitFor(10, TimeUnit.SECONDS);
            }
            removeCgroups(shop, blog);
        }
    }

    private static TomcatServer gated(TomcatDistribution distribution, TestKeystore keystore, String name) {
        return TomcatServer.builder(distribution).name(name)
                .lib(Path.of(System.getProperty("tlsadmit.gate.jar")))
                .file("webapps/ROOT/index.html", "gated\n")
                .catalinaOpt("-Xmx256m")
                .catalinaOpt("-XX:TieredStopAtLevel=1")
                .jmx()
                .connector(ConnectorSpec.https("tls", keystore).protocol("io.tlsadmit.tomcat.AdmissionNioProtocol")
                        .attribute("budget", "adaptive").attribute("controlPeriod", "200")
                        .sslHostConfig("protocols", "TLSv1.2+TLSv1.3"))
                .engineXml("<Valve className=\"io.tlsadmit.tomcat.TlsAdmissionValve\"/>")
                .build();
    }

    /** New TLS clients, one after the other: each connection a full handshake (its session is dropped). */
    private static void newClients(TestKeystore keystore, int port, AtomicBoolean flooding, AtomicLong handshakes) {
        SSLContext tls = keystore.clientContext("TLSv1.3");
        while (flooding.get()) {
            try (SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket("127.0.0.1", port)) {
                socket.setSoTimeout(5_000);
                socket.startHandshake();
                socket.getSession().invalidate();
                handshakes.incrementAndGet();
            } catch (IOException refused) {
                // over the budget: the gate closed it before any crypto, the next client comes anyway
            }
        }
    }

    private static AdaptiveBudgetMXBean budget(TomcatServer tomcat) throws Exception {
        ObjectName name = tomcat.jmx().queryNames(new ObjectName("io.tlsadmit:type=AdaptiveBudget,*"),
                null).iterator().next();
        return JMX.newMXBeanProxy(tomcat.jmx(), name, AdaptiveBudgetMXBean.class);
    }

    private static String explain(AdaptiveBudgetMXBean budget) {
        return String.format("requested %.2f allocated %.2f (%s) assigned %.2f", budget.getCpusRequested(),
                budget.getCpusAllocated(), budget.getCpuSource(), budget.getCpusAssigned());
    }

    private static Path managerJar() {
        Path jar = Path.of(System.getProperty("tlsadmit.cpu-manager.jar", "target/tlsadmit-cpu-manager.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("No manager jar at " + jar + ": run the integration tests with mvn verify");
        }
        return jar;
    }

    /** Reads the manager's first line for the port it bound, then keeps its output for failure messages. */
    private static int metricsPort(Process manager, StringBuilder output) throws IOException {
        BufferedReader lines = new BufferedReader(new InputStreamReader(manager.getInputStream(), StandardCharsets.UTF_8));
        String first = lines.readLine();
        Matcher m = first == null ? null : METRICS_URL.matcher(first);
        if (m == null || !m.find()) {
            throw new AssertionError("the manager did not start: " + first + "\n" + lines.lines().limit(40).toList());
        }
        output.append(first).append('\n');
        Thread drain = new Thread(() -> {
            try {
                lines.lines().forEach(line -> {
                    synchronized (output) {
                        output.append(line).append('\n');
                    }
                });
            } catch (java.io.UncheckedIOException closed) {
                // the manager was stopped
            }
        });
        drain.setDaemon(true);
        drain.start();
        return Integer.parseInt(m.group(1));
    }

    private static PrometheusScrape scrape(int port) {
        return PrometheusScrape.parse(scrapeText(port));
    }

    private static String scrapeText(int port) {
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/metrics")).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.body();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    private static void await(BooleanSupplier condition, Duration deadline, java.util.function.Supplier<String> explanation)
            throws InterruptedException {
        long end = System.nanoTime() + deadline.toNanos();
        while (true) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
            } catch (RuntimeException notYet) {
                // a series not exported yet
            }
            if (System.nanoTime() > end) {
                throw new AssertionError("not within " + deadline.toSeconds() + " s: " + explanation.get());
            }
            Thread.sleep(200);
        }
    }

    private static void removeCgroups(String... apps) throws InterruptedException {
        QuotaCgroups cgroups = QuotaCgroups.detect(Path.of("/"));
        for (String app : apps) {
            cgroups.remove(app);
        }
        cgroups.removeManagerGroup();
    }
}

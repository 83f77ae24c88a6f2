package io.tlsadmit.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tlsadmit.gate.ConnectionAdmission;
import io.tlsadmit.testing.Promtool;
import io.tlsadmit.testing.ConnectorSpec;
import io.tlsadmit.testing.OpenSslClient;
import io.tlsadmit.testing.PrometheusScrape;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import io.tlsadmit.testing.TomcatServer;
import io.tlsadmit.testing.TomcatStartException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.JMX;
import javax.management.ObjectName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code budget="adaptive"}, the default, in the real Tomcat distribution: the budget follows the CPUs
 * the process holds, handshake CPU is measured and exported, a cap of 0 still admits every
 * resumption, and the valve turns away new HTTP sessions while the budget is exhausted.
 */
class AdaptiveBudgetIT {

    private static final long CONTROL_PERIOD_MILLIS = 200;

    private static TomcatServer tomcat;
    private static TestKeystore keystore;
    private static int adaptivePort;
    private static int scenarioPort;
    private static int closedPort;
    private static int sessionsPort;
    private static int slowClientsPort;
    private static HttpClient metricsClient;
    /** The {@code connector} label of the connector on adaptivePort: each connector has its own series. */
    private static String adaptiveConnector;

    @TempDir
    static Path sessions;

    @BeforeAll
    static void start() {
        TomcatDistribution distribution = GatedTomcat.distribution();
        keystore = GatedTomcat.keystore(distribution);
        tomcat = GatedTomcat.base(distribution, "adaptive")
                // these two follow taskset and cpusAssigned exactly: the CPUs they may use, not what this busy test
                // machine's other processes leave (cpuCapacity="measured", the default, which "sessions" keeps)
                .connector(adaptive("adaptive").attribute("cpuCapacity", "allocation"))
                .connector(adaptive("scenario").attribute("cpuCapacity", "allocation"))
                .connector(adaptive("closed").attribute("maxFullHandshakesPerSecond", "0")
                        .attribute("minFullHandshakesPerSecond", "5"))
                .connector(adaptive("sessions"))
                .connector(adaptive("slow-clients").attribute("queueDelayTarget", Long.toString(SLOW_CLIENT_TARGET_MILLIS)))
                .engineXml("<Valve className=\"" + GatedTomcat.VALVE + "\" newSessionPolicy=\"on\"/>")
                .controlTrace()
                .build()
                .start();
        adaptivePort = tomcat.port("adaptive");
        scenarioPort = tomcat.port("scenario");
        closedPort = tomcat.port("closed");
        sessionsPort = tomcat.port("sessions");
        slowClientsPort = tomcat.port("slow-clients");
        adaptiveConnector = GatedTomcat.gate(tomcat, adaptivePort).getConnector();
        metricsClient = HttpClient.newBuilder().sslContext(keystore.clientContext("TLSv1.3"))
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    @AfterAll
    static void stop() {
        if (tomcat != null) {
            tomcat.close();
        }
    }

    /** No budget attribute: adaptive is the default. */
    private static ConnectorSpec adaptive(String name) {
        return ConnectorSpec.https(name, keystore)
                .protocol(GatedTomcat.PROTOCOL)
                .attribute("controlPeriod", Long.toString(CONTROL_PERIOD_MILLIS))
                .attribute("connectionTimeout", "2000")
                .sslHostConfig("protocols", "TLSv1.2+TLSv1.3");
    }

    /** The valve README's logging.properties lines, through Tomcat's JULI: every connector's periods, named. */
    @Test
    void theControllersTraceHasALinePerPeriodForEachAdaptiveConnector() throws InterruptedException, IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        List<String> lines = tomcat.controlTrace();
        while (lines.stream().filter(line -> line.startsWith("connector=" + adaptiveConnector + " ")).count() < 3
                && System.nanoTime() < deadline) {
            Thread.sleep(200); // the handler writes asynchronously
            lines = tomcat.controlTrace();
        }
        List<String> adaptive = lines.stream().filter(line -> line.startsWith("connector=" + adaptiveConnector + " "))
                .toList();
        assertTrue(adaptive.size() >= 3, "trace lines of " + adaptiveConnector + ": " + lines);
        String last = adaptive.get(adaptive.size() - 1);
        assertTrue(last.matches("connector=\\S+ t=\\d+ period_ms=\\d+\\.\\d cpus=\\d+\\.\\d{3} cpu_source=[A-Z_0-9]+ .*"
                + " rate=\\d+\\.\\d burst=\\d+"), last);
        assertEquals(5, lines.stream().map(line -> line.substring(0, line.indexOf(' '))).distinct().count(),
                "one controller per adaptive connector, each named: " + lines);
        // What the benchmarks keep of it: the same lines in the same order, and those written since. The last line read
        // may have been read while the handler wrote it.
        Path copy = Files.createTempDirectory("trace-copy").resolve("runs/control-trace.log");
        assertTrue(tomcat.copyControlTraceTo(copy));
        List<String> copied = Files.readAllLines(copy);
        int whole = lines.size() - 1;
        assertTrue(copied.size() >= whole, copied.size() + " lines copied of " + lines.size());
        assertEquals(lines.subList(0, whole), copied.subList(0, whole));
    }

    /**
     * The guard's run-queue reading (runQueueTarget) comes from the full handshakes' wall time over their CPU time on
     * Tomcat's workers: read in a period whose ended full handshakes took 10 ms of CPU or more, as the trace shows.
     */
    @Test
    void fullHandshakesOnTheWorkersTellTheRunQueueThroughTheirStretch() throws Exception {
        Pattern fields = Pattern.compile(" cpus=(\\S+) .* run_queue=(\\S+) stretch=(\\S+) ");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                // a burst of new clients, each with its own session cache: full handshakes enough for one period
                List<Future<Boolean>> burst = new ArrayList<>();
                for (int i = 0; i < 24; i++) {
                    burst.add(pool.submit(() -> fullHandshakeAdmitted(adaptivePort)));
                }
                long admitted = 0;
                for (Future<Boolean> handshake : burst) {
                    admitted += handshake.get() ? 1 : 0;
                }
                Thread.sleep(3 * CONTROL_PERIOD_MILLIS); // the handler writes asynchronously
                List<String> lines = tomcat.controlTrace().stream()
                        .filter(line -> line.startsWith("connector=" + adaptiveConnector + " ")).toList();
                for (String line : lines) {
                    Matcher m = fields.matcher(line);
                    assertTrue(m.find(), line);
                    double stretch = Double.parseDouble(m.group(3));
                    if (!Double.isNaN(stretch)) {
                        assertTrue(stretch >= 1, "wall time never under CPU time: " + line);
                        double cpus = Double.parseDouble(m.group(1));
                        assertEquals(cpus * (stretch - 1), Double.parseDouble(m.group(2)), 0.02,
                                "threads waiting = cpus × (stretch − 1): " + line);
                        // periods without a full handshake since: exported as not measured, not as 0 waiting
                        Thread.sleep(3 * CONTROL_PERIOD_MILLIS);
                        PrometheusScrape metrics = scrape();
                        assertEquals(5, metrics.series("tlsadmit_cpu_threads_waiting"), "one per adaptive connector");
                        assertTrue(Double.isNaN(adaptive(metrics, "tlsadmit_cpu_threads_waiting")), metrics.text());
                        assertEquals(-1, adaptiveBudget(adaptivePort).getCpuThreadsWaiting());
                        return;
                    }
                }
                assertTrue(System.nanoTime() < deadline, "no period read a stretch (last burst: " + admitted
                        + " of 24 admitted): " + lines);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** A full TLS 1.3 handshake of a client with a session cache of its own; false when refused. */
    private static boolean fullHandshakeAdmitted(int port) throws Exception {
        SSLSocketFactory factory = keystore.clientContext("TLSv1.3").getSocketFactory();
        try (SSLSocket tls = (SSLSocket) factory.createSocket("127.0.0.1", port)) {
            tls.setSoTimeout(10_000);
            tls.startHandshake();
            return true;
        } catch (IOException refused) {
            return false;
        }
    }

    @Test
    void theDefaultBudgetIsAdaptiveAndExportsCpusAndRate() {
        GateMXBean gate = GatedTomcat.gate(tomcat, adaptivePort);
        assertEquals("adaptive", gate.getBudget());
        AdaptiveBudgetMXBean budget = adaptiveBudget(adaptivePort);
        // The cap and the live rate are two attributes: writing back the value read changes nothing.
        assertEquals(budget.getMaxFullHandshakesPerSecond(), gate.getMaxFullHandshakesPerSecond(), 1e-9);
        assertTrue(gate.getFullHandshakesPerSecond() <= gate.getMaxFullHandshakesPerSecond());
        gate.setMaxFullHandshakesPerSecond(gate.getMaxFullHandshakesPerSecond());
        assertEquals(budget.getMaxFullHandshakesPerSecond(), gate.getMaxFullHandshakesPerSecond(), 1e-9);
        PrometheusScrape metrics = scrape();
        assertTrue(metrics.has("tlsadmit_cpus_allocated"), metrics.text());
        assertTrue(metrics.has("tlsadmit_cpus_requested"), metrics.text());
        assertTrue(metrics.has("tlsadmit_budget_full_handshakes_per_second"), metrics.text());
        assertTrue(metrics.has("tlsadmit_cpus_busy"), metrics.text());
        assertEquals(1, metrics.series("tlsadmit_cpu_run_queue_wait_seconds_total"), "one for the process");
        double waited = metrics.value("tlsadmit_cpu_run_queue_wait_seconds_total");
        assertTrue(waited >= 0 && scrape().value("tlsadmit_cpu_run_queue_wait_seconds_total") >= waited, "a counter");
        assertTrue(metrics.has("tlsadmit_full_handshake_cost_seconds"), metrics.text());
        double guard = adaptive(metrics, "tlsadmit_budget_guard_ratio");
        assertTrue(guard > 0 && guard <= 1, metrics.text());
        assertEquals(guard, adaptive(metrics, "tlsadmit_budget_guard_factor"), "the deprecated name, same value");
        assertTrue(adaptive(metrics, "tlsadmit_cpus_allocated") > 0, metrics.text());
        assertEquals(budget.getCpusAllocated(), adaptive(metrics, "tlsadmit_cpus_allocated"), 1e-9);
        assertEquals(5, metrics.series("tlsadmit_cpus_allocated"), "one series per adaptive connector");
    }

    @Test
    void theBudgetStartsFromTheServersHandshakeCostThatTheWarmUpMeasured() {
        AdaptiveBudgetMXBean budget = adaptiveBudget(adaptivePort);
        double atStart = budget.getFullHandshakeCostAtStartMicros();
        // The server's side of a warm full handshake on the test key: well under the cold first one, never a guess of 0.
        assertTrue(atStart > 10 && atStart < 200_000, "measured at start: " + atStart + " µs");
        String log = tomcat.catalinaOut();
        assertTrue(log.lines().anyMatch(l -> l.contains("TLS warm-up on") && l.contains("-" + adaptivePort + " ")
                && l.contains(String.format(java.util.Locale.ROOT, "once warm %.1f ms", atStart / 1000))), log);
    }

    @Test
    void handshakeCpuIsMeasuredByTruthAndVersion() throws InterruptedException {
        Path saved = sessions.resolve("cpu-13.pem");
        OpenSslClient.Result full = OpenSslClient.to(adaptivePort, keystore).tls13().saveSession(saved).run();
        assertTrue(full.fullHandshake(), full.output());
        OpenSslClient.Result resumed = OpenSslClient.to(adaptivePort, keystore).tls13().resume(saved).run();
        assertTrue(resumed.reused(), resumed.output());
        OpenSslClient.Result full12 = OpenSslClient.to(adaptivePort, keystore).tls12().run();
        assertTrue(full12.fullHandshake(), full12.output());

        PrometheusScrape metrics = scrape();
        String cpu = "tlsadmit_handshake_cpu_seconds";
        assertTrue(metrics.value(cpu + "_count", "kind", "full", "version", "TLSv1.3") >= 1, metrics.text());
        assertTrue(metrics.value(cpu + "_count", "kind", "resumed", "version", "TLSv1.3") >= 1, metrics.text());
        assertTrue(metrics.value(cpu + "_count", "kind", "full", "version", "TLSv1.2") >= 1, metrics.text());
        double fullSeconds = metrics.value(cpu + "_sum", "kind", "full", "version", "TLSv1.3")
                / metrics.value(cpu + "_count", "kind", "full", "version", "TLSv1.3");
        // Thread CPU of a real RSA-2048 handshake: far above zero, far below a second.
        assertTrue(fullSeconds > 20e-6 && fullSeconds < 1, "mean full TLS 1.3 handshake CPU " + fullSeconds + " s");
        // A histogram: every handshake in +Inf, as many as counted; the controller's smoothed cost beside it.
        assertEquals(metrics.value(cpu + "_count", "kind", "full", "version", "TLSv1.3"),
                metrics.value(cpu + "_bucket", "kind", "full", "version", "TLSv1.3", "le", "+Inf"), metrics.text());
        assertTrue(metrics.value(cpu + "_bucket", "kind", "full", "version", "TLSv1.3", "le", "1.0") >= 1, metrics.text());
        // The controller's gauge is NaN until its first period ends, which this test, run first, may beat.
        double cost = adaptive(metrics, "tlsadmit_full_handshake_cost_seconds");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (Double.isNaN(cost) && System.nanoTime() < deadline) {
            Thread.sleep(CONTROL_PERIOD_MILLIS / 4);
            cost = adaptive(scrape(), "tlsadmit_full_handshake_cost_seconds");
        }
        assertTrue(cost > 20e-6 && cost < 1, "smoothed full-handshake cost " + cost + " s");
    }

    @Test
    void tls12SessionIdResumptionsAreTimedAtMostOncePerIntervalAndTheOthersRecordNoCost() throws Exception {
        Path saved = sessions.resolve("cpu-12-session-id.pem");
        OpenSslClient.Result full = OpenSslClient.to(adaptivePort, keystore).tls12().noTicket().saveSession(saved).run();
        assertTrue(full.fullHandshake(), full.output());
        String cpu = "tlsadmit_handshake_cpu_seconds";
        PrometheusScrape before = scrape();
        // Four clients at once, so that many resumptions fall within one interval on any machine.
        int clients = 4;
        int resumptions = 32;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        long start = System.nanoTime();
        try {
            List<Future<OpenSslClient.Result>> results = new ArrayList<>();
            for (int i = 0; i < resumptions; i++) {
                results.add(pool.submit(() -> OpenSslClient.to(adaptivePort, keystore).tls12().noTicket().resume(saved).run()));
            }
            for (Future<OpenSslClient.Result> result : results) {
                OpenSslClient.Result resumed = result.get(60, TimeUnit.SECONDS);
                assertTrue(resumed.reused(), resumed.output());
            }
        } finally {
            pool.shutdownNow();
        }
        long elapsed = System.nanoTime() - start;
        PrometheusScrape after = scrape();
        String[] resumed12 = {"connector", adaptiveConnector, "kind", "resumed", "version", "TLSv1.2"};
        assertEquals(resumptions, after.value("tlsadmit_handshakes_total", resumed12)
                - before.value("tlsadmit_handshakes_total", resumed12), after.text());
        // The session ids are in the cache, so the untimed ones are decided at the hello and leave no partial cost:
        // what is counted is one per interval at most (and one more for the draw just before the first client).
        double timed = after.value(cpu + "_count", resumed12) - before.value(cpu + "_count", resumed12);
        long mostTimed = 2 + elapsed / ConnectionAdmission.RESUMPTION_TIMING_INTERVAL_NANOS;
        assertTrue(timed >= 1 && timed <= mostTimed, timed + " of " + resumptions + " resumptions timed in "
                + elapsed / 1_000_000 + " ms, at most " + mostTimed + " expected\n" + after.text());
        double mean = (after.value(cpu + "_sum", resumed12) - before.value(cpu + "_sum", resumed12)) / timed;
        assertTrue(mean > 1e-6 && mean < 0.1, "mean timed TLS 1.2 resumption CPU " + mean + " s");
    }

    /** Prometheus's linter on the live exposition of adaptive connectors with measured handshakes. */
    @Test
    void promtoolFindsNothingToCriticiseInTheLiveScrape() throws Exception {
        assertTrue(OpenSslClient.to(adaptivePort, keystore).tls13().run().fullHandshake());
        PrometheusScrape metrics = scrape();
        assertTrue(metrics.has("tlsadmit_handshake_cpu_seconds_bucket"), metrics.text());
        Promtool.checkMetrics(metrics.text());
    }

    @Test
    void allocationAndBudgetFollowTasksetWithinTwoControlPeriods() throws Exception {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "needs two CPUs to take one away");
        long pid = tomcat.pid();
        AdaptiveBudgetMXBean budget = adaptiveBudget(adaptivePort);
        awaitMetric("tlsadmit_cpus_allocated", v -> v >= 2, Duration.ofSeconds(10));
        double rateOnAll = adaptive(scrape(), RATE);
        String before = explain(budget);
        try {
            taskset(pid, "0");
            long pinned = System.nanoTime();
            PrometheusScrape onOne = awaitScrape(m -> adaptive(m, "tlsadmit_cpus_allocated") == 1
                    && adaptive(m, RATE) < 0.75 * rateOnAll, followDeadline(), () -> before + " | now " + explain(budget));
            long followedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - pinned);
            double rateOnOne = adaptive(onOne, RATE);
            assertEquals(1, budget.getCpusAllocated(), "JMX agrees");
            String pinnedState = explain(budget);

            taskset(pid, "0,1");
            long unpinned = System.nanoTime();
            awaitScrape(m -> adaptive(m, "tlsadmit_cpus_allocated") == 2 && adaptive(m, RATE) > 1.3 * rateOnOne,
                    followDeadline(), () -> pinnedState + " | now " + explain(budget));
            long backMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - unpinned);
            System.out.printf("taskset followed: 2 -> 1 CPU in %d ms (%.0f -> %.0f /s), back in %d ms%n",
                    followedMillis, rateOnAll, rateOnOne, backMillis);
        } finally {
            taskset(pid, "0-" + (Runtime.getRuntime().availableProcessors() - 1));
        }
    }

    private static final long SLOW_CLIENT_TARGET_MILLIS = 200;

    /**
     * Clients that connect and then wait a second before their ClientHello (a loaded load generator, a
     * long path, or an attacker trickling on purpose) are not a server queue: the guard must not cut the
     * budget of everyone else for them. Measured from accept, each of these handshakes would start five
     * times the target late.
     */
    @Test
    void clientsSlowToSendTheirHelloDoNotCutTheBudget() throws Exception {
        AdaptiveBudgetMXBean budget = adaptiveBudget(slowClientsPort);
        awaitJmx(() -> budget.getGuardFactor() == 1.0, Duration.ofSeconds(5), () -> explain(budget));
        int clients = 6;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<String>> handshakes = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                handshakes.add(pool.submit(() -> slowClientHandshake(slowClientsPort, 5 * SLOW_CLIENT_TARGET_MILLIS)));
            }
            double lowestGuard = 1.0;
            long watchUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(5 * SLOW_CLIENT_TARGET_MILLIS
                    + 3 * CONTROL_PERIOD_MILLIS);
            while (System.nanoTime() < watchUntil || !handshakes.stream().allMatch(Future::isDone)) {
                lowestGuard = Math.min(lowestGuard, budget.getGuardFactor());
                Thread.sleep(10);
            }
            for (Future<String> handshake : handshakes) {
                assertEquals("TLSv1.3", handshake.get(), "every slow client was admitted and completed");
            }
            assertEquals(1.0, lowestGuard, "the guard cut the rate for slow clients; " + explain(budget));
        } finally {
            pool.shutdownNow();
        }
    }

    /** Connects, waits {@code silentMillis} with nothing sent, then does a full TLS 1.3 handshake. */
    private static String slowClientHandshake(int port, long silentMillis) throws Exception {
        try (Socket raw = new Socket("127.0.0.1", port)) {
            raw.setSoTimeout(10_000);
            Thread.sleep(silentMillis);
            SSLSocketFactory factory = keystore.clientContext("TLSv1.3").getSocketFactory(); // its own session cache
            try (SSLSocket tls = (SSLSocket) factory.createSocket(raw, "127.0.0.1", port, false)) {
                tls.startHandshake();
                return tls.getSession().getProtocol();
            }
        }
    }

    @Test
    void theDefaultCapacityIsWhatTheNeighboursLeave() throws Exception {
        AdaptiveBudgetMXBean budget = adaptiveBudget(sessionsPort);
        assertEquals("measured", budget.getCpuCapacity());
        assertEquals("allocation", adaptiveBudget(adaptivePort).getCpuCapacity(), "as the attribute asked");
        // measured from the first full period on: what the others used, and a plan within the mask
        awaitJmx(() -> !Double.isNaN(budget.getNeighbourCpus()), followDeadline(), () -> explain(budget));
        assertTrue(budget.getNeighbourCpus() >= 0, () -> "neighbours " + budget.getNeighbourCpus());
        assertTrue(budget.getCpusAllocated() > 0 && budget.getCpusAllocated() <= 2, explain(budget));
    }

    @Test
    void anExternalCpuManagerNarrowsTheAllocationThroughJmx() throws Exception {
        // Per connector (the exported gauge is the largest over the service's connectors).
        AdaptiveBudgetMXBean budget = adaptiveBudget(scenarioPort);
        budget.setCpusAssigned(0.5);
        try {
            awaitJmx(() -> budget.getCpusAllocated() == 0.5, followDeadline(), () -> explain(budget));
            assertEquals("ASSIGNED", budget.getCpuSource());
        } finally {
            budget.setCpusAssigned(0);
        }
        awaitJmx(() -> budget.getCpusAllocated() >= 1, followDeadline(), () -> explain(budget));
    }

    private static void awaitJmx(java.util.function.BooleanSupplier condition, Duration deadline,
            java.util.function.Supplier<String> explanation) throws InterruptedException {
        long end = System.nanoTime() + deadline.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within " + deadline.toMillis() + " ms; " + explanation.get());
            }
            Thread.sleep(50);
        }
    }

    @Test
    void anInvalidAdaptiveAttributeFailsTheStartNamingIt() {
        TomcatServer broken = GatedTomcat.base(GatedTomcat.distribution(), "bad-adaptive")
                .connector(adaptive("gate").attribute("targetUtilization", "1.5"))
                .engineXml("<Valve className=\"" + GatedTomcat.VALVE + "\"/>")
                .startTimeout(Duration.ofSeconds(40))
                .build();
        try (broken) {
            TomcatStartException e = org.junit.jupiter.api.Assertions.assertThrows(TomcatStartException.class,
                    broken::start);
            assertTrue(e.catalinaOut().contains("targetUtilization must be a fraction"), e.getMessage());
        }
    }

    /**
     * Two periods, plus what a loaded two-CPU CI machine may add to scheduling the control thread and
     * answering a scrape from a Tomcat that was just pinned to one CPU.
     */
    private static Duration followDeadline() {
        return Duration.ofMillis(2 * CONTROL_PERIOD_MILLIS + 1_000);
    }

    @Test
    void capZeroStillAdmitsEveryResumptionAndRefusesEveryNewHandshake() {
        new AdmissionScenarios(scenarioPort, keystore, GatedTomcat.gate(tomcat, scenarioPort), sessions)
                .budgetZeroAdmitsEveryResumptionAndRefusesEveryNewHandshake(true);
    }

    @Test
    void aConfiguredCapOfZeroWinsOverTheMinimum() {
        GateMXBean gate = GatedTomcat.gate(tomcat, closedPort);
        long refused = gate.getNewRefused();
        OpenSslClient.Result result = OpenSslClient.to(closedPort, keystore).tls13().run();
        assertFalse(result.handshakeCompleted(), result.output());
        assertEquals(refused + 1, gate.getNewRefused());
        assertEquals(0, adaptiveBudget(closedPort).getFullHandshakesPerSecond());
    }

    @Test
    void whileTheBudgetIsExhaustedRequestsThatWouldStartASessionAreRefused() throws Exception {
        SSLContext tls = keystore.clientContext("TLSv1.3");
        AdaptiveBudgetMXBean budget = adaptiveBudget(sessionsPort);
        // The JSP starts a session for a request that has none: the valve learns that here.
        HttpResponse<String> first = send(tls, "/attributes.jsp", null);
        assertEquals(200, first.statusCode(), first.body());
        String cookie = first.headers().firstValue("Set-Cookie").orElseThrow().split(";", 2)[0];
        assertTrue(cookie.startsWith("JSESSIONID="), cookie);
        assertEquals(200, send(tls, "/attributes.jsp", null).statusCode(), "tokens left: new sessions are welcome");

        budget.setMaxFullHandshakesPerSecond(0);
        try {
            assertTrue(budget.getAvailableTokens() < 1);
            // Each request is a new connection that resumes the client's TLS session: admitted at cap 0.
            HttpResponse<String> existing = send(tls, "/attributes.jsp", cookie);
            assertEquals(200, existing.statusCode(), existing.body());
            assertTrue(existing.body().contains("handshake=RESUMED"), existing.body());

            HttpResponse<String> newSession = send(tls, "/attributes.jsp", null);
            assertEquals(429, newSession.statusCode(), newSession.body());
            long retryAfter = Long.parseLong(newSession.headers().firstValue("Retry-After").orElseThrow());
            assertEquals(60, retryAfter, "no token will come at rate 0: the longest advice");

            HttpResponse<String> expired = send(tls, "/attributes.jsp", "JSESSIONID=0123456789ABCDEF0123456789ABCDEF");
            assertEquals(429, expired.statusCode(), "an unknown session id starts a new session");

            HttpResponse<String> sessionless = send(tls, "/index.html", null);
            assertEquals(200, sessionless.statusCode(), "a request that starts no session is no new session");
        } finally {
            budget.setMaxFullHandshakesPerSecond(100_000);
        }
    }

    /** A request on a new connection (a fresh client sharing the TLS session cache of {@code tls}). */
    private static HttpResponse<String> send(SSLContext tls, String path, String cookie)
            throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().sslContext(tls).connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + sessionsPort + path))
                .timeout(Duration.ofSeconds(10));
        if (cookie != null) {
            request.header("Cookie", cookie);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static AdaptiveBudgetMXBean adaptiveBudget(int port) {
        try {
            Set<ObjectName> names = tomcat.jmx().queryNames(
                    new ObjectName(AdmissionNioProtocol.JMX_DOMAIN + ":type=AdaptiveBudget,*"), null);
            for (ObjectName name : names) {
                if (ObjectName.unquote(name.getKeyProperty("connector")).endsWith("-" + port)) {
                    return JMX.newMXBeanProxy(tomcat.jmx(), name, AdaptiveBudgetMXBean.class);
                }
            }
            throw new IllegalStateException("No adaptive budget MBean for port " + port + " among " + names);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (javax.management.MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        }
    }

    private static PrometheusScrape scrape() {
        try {
            HttpResponse<String> response = metricsClient.send(
                    HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + adaptivePort + "/tlsadmit/metrics"))
                            .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());
            return PrometheusScrape.parse(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static final String RATE = "tlsadmit_budget_full_handshakes_per_second";

    private static String explain(AdaptiveBudgetMXBean budget) {
        return String.format("cpus %.2f busy %.3f cost %.0f µs guard %.2f rate %.1f/s", budget.getCpusAllocated(),
                budget.getBusyCpus(), budget.getFullHandshakeCostMicros(), budget.getGuardFactor(),
                budget.getFullHandshakesPerSecond());
    }

    private static double awaitMetric(String name, Predicate<Double> condition, Duration deadline)
            throws InterruptedException {
        return adaptive(awaitScrape(m -> condition.test(adaptive(m, name)), deadline, () -> ""), name);
    }

    /** Scrapes until the condition holds; fails with the last scrape when the deadline passes. */
    private static PrometheusScrape awaitScrape(Predicate<PrometheusScrape> condition, Duration deadline,
            java.util.function.Supplier<String> explanation) throws InterruptedException {
        long end = System.nanoTime() + deadline.toNanos();
        PrometheusScrape last;
        do {
            last = scrape();
            if (condition.test(last)) {
                return last;
            }
            Thread.sleep(50);
        } while (System.nanoTime() < end);
        throw new AssertionError("not within " + deadline.toMillis() + " ms; " + explanation.get() + "; last metrics:\n"
                + adaptiveLines(last));
    }

    /** The value of the connector on adaptivePort. */
    private static double adaptive(PrometheusScrape scrape, String name) {
        return scrape.value(name, "connector", adaptiveConnector);
    }

    private static String adaptiveLines(PrometheusScrape scrape) {
        StringBuilder lines = new StringBuilder();
        for (String line : scrape.text().split("\n")) {
            if (line.startsWith("tlsadmit_cpus") || line.startsWith("tlsadmit_budget")) {
                lines.append(line).append('\n');
            }
        }
        return lines.toString();
    }

    private static void taskset(long pid, String cpuList) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("taskset", "-a", "-cp", cpuList, Long.toString(pid))
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(10, TimeUnit.SECONDS), "taskset hung");
        assertEquals(0, process.exitValue(), "taskset -a -cp " + cpuList + " " + pid + ": " + output);
    }
}

package io.tlsadmit.bench;

import io.tlsadmit.testing.CpuPinning;
import io.tlsadmit.testing.Jdk;
import io.tlsadmit.testing.PrometheusScrape;
import io.tlsadmit.testing.TestKeystore;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SSLContext;

/**
 * The controlled overload benchmark of issue 5: the server under test (Tomcat, or the Netty example server on
 * either TLS engine) pinned to CPU 0, this driver to CPU 1; an established population that keeps resuming plus new
 * clients arriving at multiples of the server's measured new-client capacity; gate off, static cap and adaptive
 * budget side by side in one run. Writes {@code results.csv}, {@code summary.md}, {@code timeline.csv} and PNG
 * charts to {@code --out}.
 */
public final class OverloadBenchmark {
    /** Enough concurrent new clients to keep one server CPU busy while each waits for the network. */
    private static final int CALIBRATION_CLIENTS = 16;
    /** A server still busy this long after its clients stopped is reported as such, not waited for. */
    private static final long MAX_SETTLE_MILLIS = 60_000;

    private final BenchOptions options;
    private final TestKeystore keystore;
    private final ServerUnderTest server;
    private final ProcessCpuClock driverCpu = new ProcessCpuClock(ProcessHandle.current().pid());
    private final long started = System.nanoTime();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private OverloadBenchmark(BenchOptions options) throws IOException {
        this.options = options;
        Path root = Path.of(System.getProperty("tlsadmit.root", ".")).toAbsolutePath().normalize();
        Files.createDirectories(options.out());
        TestKeystore.KeyType type = switch (options.key()) {
            case "rsa4096" -> TestKeystore.KeyType.RSA_4096;
            case "ec" -> TestKeystore.KeyType.EC_P256;
            default -> TestKeystore.KeyType.RSA_2048;
        };
        this.keystore = TestKeystore.create(root.resolve("overload-bench/target/keystores"), type);
        Jdk jdk = Jdk.find(options.jdk()).orElseThrow(() -> new IllegalStateException("no JDK " + options.jdk()));
        this.server = options.server().equals("netty") ? new NettyUnderTest(options, root, keystore, jdk)
                : new TomcatUnderTest(options, root, keystore, jdk);
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        BenchOptions options;
        try {
            if (BenchOptions.wantsHelp(args)) {
                System.out.println(BenchOptions.USAGE);
                return;
            }
            options = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage() + "\n" + BenchOptions.USAGE);
            System.exit(2);
            return;
        }
        if (!options.clientGroups().equals(BenchOptions.JDK_GROUPS)) {
            // Read by JSSE once, when it first builds a client configuration: before any context is made.
            System.setProperty("jdk.tls.namedGroups", options.clientGroups());
        }
        new OverloadBenchmark(options).run();
    }

    private void run() throws Exception {
        CpuPinning.pin(ProcessHandle.current().pid(), "1");
        log("driver pinned to CPU 1; %s will be pinned to CPU 0; key %s, TLS %s, client groups %s",
                server.description(), options.key(), options.tls(), options.clientGroups());
        double capacity = options.capacity() > 0 ? options.capacity() : calibrate();
        List<OverloadStep> results = new ArrayList<>();
        List<String> timeline = new ArrayList<>();
        timeline.add("mode,second,cpus,goodput_req_per_s,new_admitted_per_s,new_refused_per_s,budget_per_s");
        for (int round = 1; round <= options.rounds(); round++) {
            // Reversed every other round, so that no mode always runs first or last in a drifting machine's run.
            List<String> modes = new ArrayList<>(options.modes());
            if (round % 2 == 0) {
                Collections.reverse(modes);
            }
            String suffix = options.rounds() > 1 ? "-" + round : "";
            for (String mode : modes) {
                try (ServerUnderTest.Running running = start(mode, capacity)) {
                    running.keepControlTraceAt(options.out().resolve("control-trace-" + mode + suffix + ".log"));
                    results.addAll(sweep(mode, running, capacity, round));
                    if (options.cpuChange()) {
                        timeline.addAll(cpuChange(mode + suffix, running, capacity));
                    }
                    Files.writeString(options.out().resolve("metrics-" + mode + suffix + ".txt"), scrape(running));
                }
            }
        }
        Report.write(options, capacity, results, timeline, server.description());
        log("done: %s", options.out().resolve("summary.md"));
    }

    /**
     * The established population plus as many back-to-back new clients as keep the server busy: new
     * clients completed per second is the capacity, the headroom the server has for newcomers while it
     * serves the clients it already has.
     */
    private double calibrate() throws Exception {
        log("calibrating: established population + back-to-back new clients, gate off, saturating CPU 0");
        try (ServerUnderTest.Running running = start("off", 0); LoadDriver driver = driver(running, 1)) {
            ProcessCpuClock serverCpu = new ProcessCpuClock(running.pid());
            driver.startEstablished(options.established(), options.thinkMillis(), 7);
            driver.startBackToBackNewClients(CALIBRATION_CLIENTS);
            sleepSeconds(options.warmupSeconds());
            driver.swapCounters();
            double cpuBefore = serverCpu.seconds();
            long t0 = System.nanoTime();
            sleepSeconds(Math.max(10, options.stepSeconds() / 3));
            StepCounters c = driver.swapCounters();
            double seconds = (System.nanoTime() - t0) / 1e9;
            double capacity = c.newCompleted.sum() / seconds;
            log("capacity: %.0f new clients/s (full handshake + one request) on one CPU beside %.0f resumed requests/s;"
                            + " server CPU %.0f%%", capacity, c.resumedCompleted.sum() / seconds,
                    100 * (serverCpu.seconds() - cpuBefore) / seconds);
            return capacity;
        }
    }

    private List<OverloadStep> sweep(String mode, ServerUnderTest.Running running, double capacity, int round)
            throws Exception {
        List<OverloadStep> results = new ArrayList<>();
        ProcessCpuClock serverCpu = new ProcessCpuClock(running.pid());
        try (LoadDriver driver = driver(running, options.maxConcurrentNewClients())) {
            driver.startEstablished(options.established(), options.thinkMillis(), 11);
            sleepSeconds(options.warmupSeconds());
            int step = 0;
            for (double multiplier : options.multipliers()) {
                if (step > 0) {
                    settle(driver, serverCpu);
                }
                step++;
                double offered = multiplier * capacity;
                driver.setArrivalRate(offered, 1000L * step);
                log("round %d/%d, mode %-8s step %d/%d: %.1fx capacity = %.0f new clients/s (warm-up %d s, measure"
                        + " %d s)", round, options.rounds(), mode, step, options.multipliers().length, multiplier,
                        offered, options.warmupSeconds(), options.stepSeconds());
                sleepSeconds(options.warmupSeconds());
                GateTruth truthBefore = GateTruth.of(PrometheusScrape.parse(scrape(running)));
                driver.swapCounters();
                double serverBefore = serverCpu.seconds();
                double driverBefore = driverCpu.seconds();
                long t0 = System.nanoTime();
                sleepSeconds(options.stepSeconds());
                StepCounters c = driver.swapCounters();
                double seconds = (System.nanoTime() - t0) / 1e9;
                double serverSeconds = serverCpu.seconds() - serverBefore;
                double driverSeconds = driverCpu.seconds() - driverBefore;
                GateTruth truth = GateTruth.of(PrometheusScrape.parse(scrape(running))).since(truthBefore);
                OverloadStep r = OverloadStep.of(mode, multiplier, offered, seconds, c, serverSeconds, driverSeconds,
                        truth, round);
                results.add(r);
                log("  goodput %.0f req/s, new admitted %.0f/s refused %.0f/s timed out %.0f/s, resumed ok %.1f%%,"
                                + " server CPU %.0f%%, driver CPU %.0f%%, request p99 %s; gate: %s",
                        r.goodput(), r.newAdmittedPerSecond(), r.newRefusedPerSecond(), r.newTimedOutPerSecond(),
                        r.resumedAdmittedPercent(), r.serverCpuPercent(), r.driverCpuPercent(),
                        Report.millis(r.requestP99()), truth);
            }
            driver.setArrivalRate(0, 0);
        }
        return results;
    }

    /**
     * Between steps: no arrivals, established clients on hold, until every new client has finished and
     * the server's CPU is idle. Each step then starts from a server that is not already collapsed under
     * the previous step's backlog (connections whose clients gave up still cost a handshake each).
     */
    private void settle(LoadDriver driver, ProcessCpuClock serverCpu) throws InterruptedException {
        long t0 = System.nanoTime();
        driver.setArrivalRate(0, 0);
        driver.pauseEstablished(true);
        long deadline = t0 + (options.timeoutMillis() + MAX_SETTLE_MILLIS) * 1_000_000L;
        while (driver.newClientsInFlight() > 0 && System.nanoTime() < deadline) {
            sleepSeconds(0.2);
        }
        awaitIdle(serverCpu, deadline);
        driver.pauseEstablished(false);
        log("  settled in %.0f s", (System.nanoTime() - t0) / 1e9);
    }

    /** Until the server used under 10% of a CPU over one second, or the deadline. */
    private static void awaitIdle(ProcessCpuClock serverCpu, long deadlineNanos) throws InterruptedException {
        double before = serverCpu.seconds();
        while (System.nanoTime() < deadlineNanos) {
            sleepSeconds(1);
            double now = serverCpu.seconds();
            if (now - before < 0.10) {
                return;
            }
            before = now;
        }
    }

    /** 2x the one-CPU capacity while the server gets CPU 0, then CPUs 0-1, then CPU 0 again. */
    private List<String> cpuChange(String mode, ServerUnderTest.Running running, double capacity) throws Exception {
        List<String> rows = new ArrayList<>();
        String[] phases = {"0", "0,1", "0"};
        int phaseSeconds = Math.max(10, options.stepSeconds() / 2);
        awaitIdle(new ProcessCpuClock(running.pid()), System.nanoTime() + MAX_SETTLE_MILLIS * 1_000_000L);
        log("mode %-8s CPU change: 1 -> 2 -> 1 CPUs, %d s each, at 2x capacity", mode, phaseSeconds);
        try (LoadDriver driver = driver(running, options.maxConcurrentNewClients())) {
            driver.startEstablished(options.established(), options.thinkMillis(), 23);
            driver.setArrivalRate(2 * capacity, 99);
            sleepSeconds(options.warmupSeconds());
            int second = 0;
            for (String cpus : phases) {
                CpuPinning.pin(running.pid(), cpus);
                for (int s = 0; s < phaseSeconds; s += 2) {
                    driver.swapCounters();
                    sleepSeconds(2);
                    StepCounters c = driver.swapCounters();
                    second += 2;
                    rows.add(String.format(Locale.ROOT, "%s,%d,%d,%.1f,%.1f,%.1f,%s", mode, second,
                            cpus.split(",").length, c.requestsCompleted.sum() / 2.0, c.newCompleted.sum() / 2.0,
                            c.newRefused.sum() / 2.0, budgetRate(running)));
                }
            }
            CpuPinning.pin(running.pid(), "0");
        }
        return rows;
    }

    private ServerUnderTest.Running start(String mode, double capacity) throws Exception {
        ServerUnderTest.Running running = server.start(mode, capacity);
        try {
            warmUp(mode, running);
            return running;
        } catch (Exception | Error e) {
            running.close();
            throw e;
        }
    }

    /**
     * A fresh JVM on one CPU serves a fraction of its later rate while the JIT compiles; measured or
     * not, arrivals at a cold server would start a backlog that the steps then inherit. Closed-loop
     * load (it cannot build a backlog) until the compiled code is in place, then idle.
     */
    private void warmUp(String mode, ServerUnderTest.Running running) throws Exception {
        if (options.serverWarmupSeconds() <= 0) {
            return;
        }
        log("mode %-8s server warm-up: %d s of closed-loop new and resumed clients", mode,
                options.serverWarmupSeconds());
        try (LoadDriver driver = driver(running, 1)) {
            driver.startEstablished(Math.min(8, options.established()), 50, 3);
            driver.startBackToBackNewClients(CALIBRATION_CLIENTS);
            sleepSeconds(options.serverWarmupSeconds());
        }
        awaitIdle(new ProcessCpuClock(running.pid()), System.nanoTime() + MAX_SETTLE_MILLIS * 1_000_000L);
    }

    private LoadDriver driver(ServerUnderTest.Running running, int maxNewInFlight) {
        String protocol = options.tls().equals("1.3") ? "TLSv1.3" : "TLSv1.2";
        SSLContext established = keystore.clientContext(protocol);
        SSLContext fresh = keystore.clientContext(protocol);
        return new LoadDriver(established, fresh, running.tlsPort(), server.requestPath(options.workIterations()),
                options.timeoutMillis(), maxNewInFlight);
    }

    /** The gate's Prometheus text; empty without a gate or when the server does not answer. */
    private String scrape(ServerUnderTest.Running running) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(running.metrics()).timeout(Duration.ofSeconds(5))
                    .build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? r.body() : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** The budget's current rate, empty without a gate. */
    private String budgetRate(ServerUnderTest.Running running) {
        PrometheusScrape metrics = PrometheusScrape.parse(scrape(running));
        String name = "tlsadmit_budget_full_handshakes_per_second";
        return metrics.has(name) ? String.format(Locale.ROOT, "%.1f", metrics.value(name)) : "";
    }

    private void log(String format, Object... args) {
        long elapsed = (System.nanoTime() - started) / 1_000_000_000L;
        System.out.printf(Locale.ROOT, "[%s +%dm%02ds] %s%n", Instant.now().toString().substring(11, 19),
                elapsed / 60, elapsed % 60, String.format(Locale.ROOT, format, args));
    }

    private static void sleepSeconds(double seconds) throws InterruptedException {
        Thread.sleep((long) (seconds * 1000));
    }
}

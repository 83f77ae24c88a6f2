package io.tlsadmit.bench;

import io.tlsadmit.testing.ConnectorSpec;
import io.tlsadmit.testing.CpuPinning;
import io.tlsadmit.testing.Jdk;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import io.tlsadmit.testing.TomcatServer;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;

/**
 * The controlled overload benchmark of issue 5: Tomcat pinned to CPU 0, this driver to CPU 1; an
 * established population that keeps resuming plus new clients arriving at multiples of the server's
 * measured new-client capacity; gate off, static cap and adaptive budget side by side in one run.
 * Writes {@code results.csv}, {@code summary.md}, {@code timeline.csv} and PNG charts to {@code --out}.
 */
public final class OverloadBenchmark {
    private static final String WORK_JSP = String.join("\n",
            "<%@ page session=\"false\" contentType=\"text/plain\" import=\"java.security.MessageDigest\" %><%",
            "  String p = request.getParameter(\"n\");",
            "  int n = p == null ? 0 : Integer.parseInt(p);",
            "  byte[] block = new byte[4096];",
            "  MessageDigest sha = MessageDigest.getInstance(\"SHA-256\");",
            "  for (int i = 0; i < n; i++) { sha.update(block); block[i % 4096] = sha.digest()[0]; }",
            "  out.print(\"ok \" + block[0]);",
            "%>");

    /** Enough concurrent new clients to keep one server CPU busy while each waits for the network. */
    private static final int CALIBRATION_CLIENTS = 16;
    /** A server still busy this long after its clients stopped is reported as such, not waited for. */
    private static final long MAX_SETTLE_MILLIS = 60_000;

    private final BenchOptions options;
    private final Path root;
    private final TomcatDistribution distribution;
    private final TestKeystore keystore;
    private final ProcessCpu driverCpu = new ProcessCpu(ProcessHandle.current().pid());
    private final long started = System.nanoTime();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private OverloadBenchmark(BenchOptions options) throws IOException {
        this.options = options;
        this.root = Path.of(System.getProperty("tlsadmit.root", ".")).toAbsolutePath().normalize();
        this.distribution = TomcatDistribution.fromBuild();
        Files.createDirectories(options.out());
        TestKeystore.KeyType type = switch (options.key()) {
            case "rsa4096" -> TestKeystore.KeyType.RSA_4096;
            case "ec" -> TestKeystore.KeyType.EC_P256;
            default -> TestKeystore.KeyType.RSA_2048;
        };
        this.keystore = TestKeystore.create(distribution.home().getParent().resolve("keystores"), type);
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
        new OverloadBenchmark(options).run();
    }

    private void run() throws Exception {
        CpuPinning.pin(ProcessHandle.current().pid(), "1");
        log("driver pinned to CPU 1; Tomcat %s on JDK %d will be pinned to CPU 0; key %s, TLS %s",
                distribution.version(), options.jdk(), options.key(), options.tls());
        double capacity = options.capacity() > 0 ? options.capacity() : calibrate();
        List<StepResult> results = new ArrayList<>();
        List<String> timeline = new ArrayList<>();
        timeline.add("mode,second,cpus,goodput_req_per_s,new_admitted_per_s,new_refused_per_s,budget_per_s");
        for (String mode : options.modes()) {
            try (TomcatServer tomcat = start(mode, capacity)) {
                results.addAll(sweep(mode, tomcat, capacity));
                if (options.cpuChange()) {
                    timeline.addAll(cpuChange(mode, tomcat, capacity));
                }
                Files.writeString(options.out().resolve("metrics-" + mode + ".txt"), scrape(tomcat));
            }
        }
        Report.write(options, capacity, results, timeline, distribution.version());
        log("done: %s", options.out().resolve("summary.md"));
    }

    /**
     * The established population plus as many back-to-back new clients as keep the server busy: new
     * clients completed per second is the capacity, the headroom the server has for newcomers while it
     * serves the clients it already has.
     */
    private double calibrate() throws Exception {
        log("calibrating: established population + back-to-back new clients, gate off, saturating CPU 0");
        try (TomcatServer tomcat = start("off", 0); LoadDriver driver = driver(tomcat, 1)) {
            ProcessCpu serverCpu = new ProcessCpu(tomcat.pid());
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

    private List<StepResult> sweep(String mode, TomcatServer tomcat, double capacity) throws Exception {
        List<StepResult> results = new ArrayList<>();
        ProcessCpu serverCpu = new ProcessCpu(tomcat.pid());
        try (LoadDriver driver = driver(tomcat, options.maxConcurrentNewClients())) {
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
                log("mode %-8s step %d/%d: %.1fx capacity = %.0f new clients/s (warm-up %d s, measure %d s)",
                        mode, step, options.multipliers().length, multiplier, offered, options.warmupSeconds(),
                        options.stepSeconds());
                sleepSeconds(options.warmupSeconds());
                driver.swapCounters();
                double serverBefore = serverCpu.seconds();
                double driverBefore = driverCpu.seconds();
                long t0 = System.nanoTime();
                sleepSeconds(options.stepSeconds());
                StepCounters c = driver.swapCounters();
                double seconds = (System.nanoTime() - t0) / 1e9;
                StepResult r = StepResult.of(mode, multiplier, offered, seconds, c,
                        serverCpu.seconds() - serverBefore, driverCpu.seconds() - driverBefore);
                results.add(r);
                log("  goodput %.0f req/s, new admitted %.0f/s refused %.0f/s timed out %.0f/s, resumed ok %.1f%%,"
                                + " server CPU %.0f%%, driver CPU %.0f%%, request p99 %s",
                        r.goodput(), r.newAdmittedPerSecond(), r.newRefusedPerSecond(), r.newTimedOutPerSecond(),
                        r.resumedAdmittedPercent(), r.serverCpuPercent(), r.driverCpuPercent(),
                        Report.millis(r.requestP99()));
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
    private void settle(LoadDriver driver, ProcessCpu serverCpu) throws InterruptedException {
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
    private static void awaitIdle(ProcessCpu serverCpu, long deadlineNanos) throws InterruptedException {
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

    /** 2x the one-CPU capacity while Tomcat gets CPU 0, then CPUs 0-1, then CPU 0 again. */
    private List<String> cpuChange(String mode, TomcatServer tomcat, double capacity) throws Exception {
        List<String> rows = new ArrayList<>();
        String[] phases = {"0", "0,1", "0"};
        int phaseSeconds = Math.max(10, options.stepSeconds() / 2);
        awaitIdle(new ProcessCpu(tomcat.pid()), System.nanoTime() + MAX_SETTLE_MILLIS * 1_000_000L);
        log("mode %-8s CPU change: 1 -> 2 -> 1 CPUs, %d s each, at 2x capacity", mode, phaseSeconds);
        try (LoadDriver driver = driver(tomcat, options.maxConcurrentNewClients())) {
            driver.startEstablished(options.established(), options.thinkMillis(), 23);
            driver.setArrivalRate(2 * capacity, 99);
            sleepSeconds(options.warmupSeconds());
            int second = 0;
            for (String cpus : phases) {
                CpuPinning.pin(tomcat.pid(), cpus);
                for (int s = 0; s < phaseSeconds; s += 2) {
                    driver.swapCounters();
                    sleepSeconds(2);
                    StepCounters c = driver.swapCounters();
                    second += 2;
                    rows.add(String.format(Locale.ROOT, "%s,%d,%d,%.1f,%.1f,%.1f,%s", mode, second,
                            cpus.split(",").length, c.requestsCompleted.sum() / 2.0, c.newCompleted.sum() / 2.0,
                            c.newRefused.sum() / 2.0, metric(tomcat, "tlsadmit_budget_full_handshakes_per_second")));
                }
            }
            CpuPinning.pin(tomcat.pid(), "0");
        }
        return rows;
    }

    private TomcatServer start(String mode, double capacity) throws Exception {
        ConnectorSpec tls = ConnectorSpec.https("tls", keystore)
                .sslHostConfig("protocols", options.tls().equals("1.3") ? "TLSv1.3" : "TLSv1.2")
                .attribute("maxThreads", "200")
                .attribute("connectionTimeout", Integer.toString(options.timeoutMillis()));
        TomcatServer.Builder builder = TomcatServer.builder(distribution)
                .name("overload-" + mode)
                .jdk(Jdk.find(options.jdk()).orElseThrow(() -> new IllegalStateException("no JDK " + options.jdk())))
                .connector(tls)
                .connector(ConnectorSpec.http("plain"))
                .file("webapps/ROOT/work.jsp", WORK_JSP)
                .catalinaOpt("-Xmx1g");
        if (!mode.equals("off")) {
            Path jar = root.resolve("valve/target/tlsadmit-tomcat.jar");
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException(jar + " is missing: build the valve first (mvn -pl valve -am package)");
            }
            builder.lib(jar).engineXml("<Valve className=\"io.tlsadmit.tomcat.TlsAdmissionValve\"/>");
            tls.protocol("io.tlsadmit.tomcat.AdmissionNioProtocol").attribute("budget", mode);
            if (mode.equals("static")) {
                // the cap an operator would tune by hand: the measured knee
                tls.attribute("maxFullHandshakesPerSecond", String.format(Locale.ROOT, "%.0f", Math.max(1, capacity)))
                        .attribute("fullHandshakeBurst", Long.toString(Math.max(1, Math.round(capacity * 0.05))));
            }
        }
        TomcatServer tomcat = builder.build().start();
        CpuPinning.pin(tomcat.pid(), "0");
        warmJsp(tomcat);
        warmUp(mode, tomcat);
        return tomcat;
    }

    /**
     * A fresh JVM on one CPU serves a fraction of its later rate while the JIT compiles; measured or
     * not, arrivals at a cold server would start a backlog that the steps then inherit. Closed-loop
     * load (it cannot build a backlog) until the compiled code is in place, then idle.
     */
    private void warmUp(String mode, TomcatServer tomcat) throws Exception {
        if (options.serverWarmupSeconds() <= 0) {
            return;
        }
        log("mode %-8s server warm-up: %d s of closed-loop new and resumed clients", mode,
                options.serverWarmupSeconds());
        try (LoadDriver driver = driver(tomcat, 1)) {
            driver.startEstablished(Math.min(8, options.established()), 50, 3);
            driver.startBackToBackNewClients(CALIBRATION_CLIENTS);
            sleepSeconds(options.serverWarmupSeconds());
        }
        awaitIdle(new ProcessCpu(tomcat.pid()), System.nanoTime() + MAX_SETTLE_MILLIS * 1_000_000L);
    }

    private LoadDriver driver(TomcatServer tomcat, int maxNewInFlight) {
        String protocol = options.tls().equals("1.3") ? "TLSv1.3" : "TLSv1.2";
        SSLContext established = keystore.clientContext(protocol);
        SSLContext fresh = keystore.clientContext(protocol);
        return new LoadDriver(established, fresh, tomcat.port("tls"), "/work.jsp?n=" + options.workIterations(),
                options.timeoutMillis(), maxNewInFlight);
    }

    /** Compiles the JSP before measuring, over the plain connector. */
    private void warmJsp(TomcatServer tomcat) {
        URI uri = URI.create("http://127.0.0.1:" + tomcat.port("plain") + "/work.jsp?n=1");
        for (int i = 0; i < 3; i++) {
            try {
                http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).build(),
                        HttpResponse.BodyHandlers.discarding());
            } catch (IOException e) {
                log("warm-up request failed: %s", e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private String scrape(TomcatServer tomcat) {
        URI uri = URI.create("http://127.0.0.1:" + tomcat.port("plain") + "/tlsadmit/metrics");
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? r.body() : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    private String metric(TomcatServer tomcat, String name) {
        Matcher m = Pattern.compile("(?m)^" + name + "(\\{[^}]*})? ([0-9.eE+-]+)").matcher(scrape(tomcat));
        return m.find() ? m.group(2) : "";
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

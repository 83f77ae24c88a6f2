package io.tlsadmit.bench;

import io.tlsadmit.bench.ProcessCpuClock.ThreadRole;
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
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import javax.net.ssl.SSLContext;

/**
 * What the gate itself costs (issue 14): server CPU per resumed connection, stock Tomcat against the gate
 * with a budget that never binds. Every variant's Tomcat runs at once, pinned to CPU 0 (this driver on
 * CPU 1); the measured windows are interleaved (stock, gated, stock, gated, ..., the order reversed every
 * other round) so that the machine's drift falls on all of them alike, or, with {@code --schedule concurrent},
 * every variant is loaded in the same window. Why the second: on a shared guest the speed of the CPU moves by
 * ±10–25 % from one 8 s window to the next, more than the few percent being measured; loaded together, the
 * variants share the same seconds of the same CPU, and what one round's ratio holds is their difference (what it
 * does not hold is the JIT's: each run's JVMs compile differently, so compare runs, not only rounds). Each window:
 * {@code --clients} loops doing a TLS resumption, one small request, close; server CPU from {@code /proc/PID/stat}
 * over the window divided by the connections completed in it, and split by thread role. Reports the medians per
 * variant and each gated variant's ratio to stock (ratio of medians, and the median of the per-round ratios with
 * its bootstrap interval).
 */
public final class GateCostBenchmark {
    static final String USAGE = """
            usage: bin/gate-cost-benchmark [--tls 1.2|1.3] [--variants stock,static,adaptive,static-nopeek]
                   [--rounds 3] [--seconds 15] [--warmup-seconds 20] [--clients 4] [--key rsa2048|rsa4096|ec]
                   [--jdk 17] [--jfr DIR] [--async-profiler DIR] [--compare-jar JAR] [--perf-events LIST]
                   [--schedule interleaved|concurrent] [--idle-seconds 10] [--out DIR]
              --tls 1.2 is session-id resumption (the driver turns its session-ticket extension off); 1.3 is PSK.
              --schedule interleaved measures one variant at a time, --clients loops against it, the order reversed
                        every other round; concurrent loads every variant at once, --clients loops each, the Tomcats
                        sharing CPU 0, so that a change of the machine's speed falls on all of them in the same
                        seconds and each round's ratios compare like with like; the warm-up too loads them
                        together (--warmup-seconds in all, so each Tomcat gets its share of CPU 0), where the
                        interleaved schedule warms one after the other.
              --jfr DIR records a JFR profile of every Tomcat (settings=profile) into DIR/<variant>.jfr;
                        profile and measure in separate runs: the recording costs CPU itself.
              --async-profiler DIR samples every Tomcat's CPU with async-profiler (perf events, Java and native
                        frames, every 200 µs of CPU) over the measured rounds only, the warm-up left out, and writes
                        DIR/<variant>.collapsed (one line per stack with its sample count; also a separate run).
              --compare-jar JAR allows the variants "compare" (budget="static" like "static") and "compare-adaptive"
                        (like "adaptive"), but with another build of the gate jar (e.g. before a change),
                        interleaved with the others.
              --idle-seconds N  after the warm-up, measures every Tomcat's CPU for N s with no client (0: not at
                        all): what a server spends per second whatever its load (the adaptive budget's control loop,
                        Tomcat's own background work), which weighs per connection in inverse proportion to the rate.
              --perf-events LIST counts these events of the Tomcat process in every window with `perf stat`
                        (e.g. raw_syscalls:sys_enter,context-switches) and reports them per connection.""";

    private static final String SMALL_FILE = "ok\n";
    private static final String PATH = "/small.txt";

    private final Map<String, String> options;
    private final List<String> variants;
    private final String tls;
    private final int rounds;
    private final int seconds;
    private final int warmupSeconds;
    private final int clients;
    private final int idleSeconds;
    private final Path out;
    private final Path jfr;
    private final Path asyncProfiler;
    private final boolean concurrent;
    private final long started = System.nanoTime();

    GateCostBenchmark(Map<String, String> options) {
        this.options = options;
        this.tls = options.getOrDefault("tls", "1.2");
        if (!tls.equals("1.2") && !tls.equals("1.3")) {
            throw new IllegalArgumentException("--tls must be 1.2 or 1.3, was " + tls);
        }
        this.variants = List.of(options.getOrDefault("variants", "stock,static,adaptive,static-nopeek").split(","));
        for (String v : variants) {
            if (!List.of("stock", "static", "adaptive", "static-nopeek").contains(v)
                    && !((v.equals("compare") || v.equals("compare-adaptive")) && options.containsKey("compare-jar"))) {
                throw new IllegalArgumentException("--variants: unknown variant " + v);
            }
        }
        this.rounds = positive("rounds", 3);
        this.seconds = positive("seconds", 15);
        this.warmupSeconds = positive("warmup-seconds", 20);
        this.clients = positive("clients", 4);
        this.idleSeconds = options.containsKey("idle-seconds") && options.get("idle-seconds").equals("0") ? 0
                : positive("idle-seconds", 10);
        this.out = Path.of(options.getOrDefault("out",
                "docs/results/" + java.time.LocalDate.now() + "-gate-cost-tls" + tls)).toAbsolutePath();
        this.jfr = options.containsKey("jfr") ? Path.of(options.get("jfr")).toAbsolutePath() : null;
        String schedule = options.getOrDefault("schedule", "interleaved");
        if (!schedule.equals("interleaved") && !schedule.equals("concurrent")) {
            throw new IllegalArgumentException("--schedule must be interleaved or concurrent, was " + schedule);
        }
        this.concurrent = schedule.equals("concurrent");
        this.asyncProfiler = options.containsKey("async-profiler")
                ? Path.of(options.get("async-profiler")).toAbsolutePath() : null;
    }

    private int positive(String name, int fallback) {
        String v = options.get(name);
        if (v == null) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(v);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("--" + name + " must be a whole number > 0, was \"" + v + "\"");
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || args[i].equals("--help") || i + 1 >= args.length) {
                System.out.println(USAGE);
                System.exit(args[i].equals("--help") ? 0 : 2);
            }
            options.put(args[i].substring(2), args[++i]);
        }
        GateCostBenchmark benchmark;
        try {
            benchmark = new GateCostBenchmark(options);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage() + "\n" + USAGE);
            System.exit(2);
            return;
        }
        if (benchmark.tls.equals("1.2")) {
            // JSSE offers a TLS 1.2 session ticket by default; without it the server resumes by session id
            System.setProperty("jdk.tls.client.enableSessionTicketExtension", "false");
        }
        benchmark.run();
    }

    private void run() throws Exception {
        CpuPinning.pin(ProcessHandle.current().pid(), "1");
        Files.createDirectories(out);
        if (jfr != null) {
            Files.createDirectories(jfr);
        }
        TomcatDistribution distribution = TomcatDistribution.fromBuild();
        TestKeystore keystore = TestKeystore.create(distribution.home().getParent().resolve("keystores"),
                switch (options.getOrDefault("key", "rsa2048")) {
                    case "rsa4096" -> TestKeystore.KeyType.RSA_4096;
                    case "ec" -> TestKeystore.KeyType.EC_P256;
                    default -> TestKeystore.KeyType.RSA_2048;
                });
        int jdk = Integer.parseInt(options.getOrDefault("jdk", "17"));
        log("Tomcat %s, JDK %d, TLS %s, %s; variants %s; %d rounds of %d s, %d client loops; driver on CPU 1,"
                        + " Tomcats on CPU 0", distribution.version(), jdk, tls, options.getOrDefault("key", "rsa2048"),
                variants, rounds, seconds, clients);
        Map<String, TomcatServer> servers = new LinkedHashMap<>();
        try {
            for (String variant : variants) {
                servers.put(variant, start(distribution, keystore, jdk, variant));
            }
            String protocol = tls.equals("1.3") ? "TLSv1.3" : "TLSv1.2";
            if (concurrent) {
                // Together, as they are measured: warmed one after the other, the order of the warm-up moved their
                // ratios by several points, the order of the starts did not (docs/benchmarks.md section 7, 2026-12-07
                // 19:11).
                log("warm-up of all variants together: %d s", warmupSeconds);
                windows(variants.stream().map(servers::get).toList(), keystore.clientContext(protocol), warmupSeconds);
            } else {
                for (String variant : variants) {
                    log("warm-up %s: %d s", variant, warmupSeconds);
                    windows(List.of(servers.get(variant)), keystore.clientContext(protocol), warmupSeconds);
                }
            }
            String idle = idleSeconds > 0 ? idle(servers) : "";
            Path profilerLibrary = asyncProfiler == null ? null : AsyncProfilerAgent.extract(asyncProfiler);
            if (profilerLibrary != null) {
                for (String variant : variants) {
                    AsyncProfilerAgent.command(servers.get(variant), profilerLibrary, "start,event=cpu,interval=200us");
                }
            }
            List<String> rows = new ArrayList<>();
            rows.add("round,variant,connections,seconds,server_cpu_s,cpu_ms_per_connection,connections_per_s,failed,"
                    + "compiler_cpu_s,gc_cpu_s,control_cpu_s,cpu_ms_per_connection_without_compiler");
            Map<String, List<Double>> perVariant = new LinkedHashMap<>();
            Map<String, List<Double>> withoutCompiler = new LinkedHashMap<>();
            for (int round = 1; round <= rounds; round++) {
                List<String> order = new ArrayList<>(variants);
                if (round % 2 == 0) {
                    java.util.Collections.reverse(order);
                }
                Map<String, Window> measured = new LinkedHashMap<>();
                if (concurrent) {
                    List<Window> all = windows(order.stream().map(servers::get).toList(),
                            keystore.clientContext(protocol), seconds);
                    for (int i = 0; i < order.size(); i++) {
                        measured.put(order.get(i), all.get(i));
                    }
                } else {
                    for (String variant : order) {
                        measured.put(variant, windows(List.of(servers.get(variant)), keystore.clientContext(protocol),
                                seconds).get(0));
                    }
                }
                for (Map.Entry<String, Window> e : measured.entrySet()) {
                    String variant = e.getKey();
                    Window w = e.getValue();
                    perVariant.computeIfAbsent(variant, v -> new ArrayList<>()).add(w.cpuMillisPerConnection());
                    withoutCompiler.computeIfAbsent(variant, v -> new ArrayList<>())
                            .add(w.cpuMillisPerConnectionWithoutCompiler());
                    rows.add(String.format(Locale.ROOT, "%d,%s,%d,%.1f,%.2f,%.4f,%.0f,%d,%.4f,%.4f,%.4f,%.4f", round,
                            variant, w.connections, w.seconds, w.serverCpuSeconds, w.cpuMillisPerConnection(),
                            w.connections / w.seconds, w.failed, w.role(ThreadRole.COMPILER),
                            w.role(ThreadRole.GC), w.role(ThreadRole.CONTROL),
                            w.cpuMillisPerConnectionWithoutCompiler()));
                    log("round %d %-14s %6d connections (%4.0f/s), server CPU %.3f ms/connection (compiler %.0f,"
                                    + " GC %.0f, control loop %.1f ms/s)%s%s", round, variant, w.connections,
                            w.connections / w.seconds, w.cpuMillisPerConnection(),
                            1000 * w.role(ThreadRole.COMPILER) / w.seconds, 1000 * w.role(ThreadRole.GC) / w.seconds,
                            1000 * w.role(ThreadRole.CONTROL) / w.seconds,
                            w.failed > 0 ? ", " + w.failed + " failed" : "", w.perf);
                }
            }
            if (profilerLibrary != null) {
                for (String variant : variants) {
                    AsyncProfilerAgent.command(servers.get(variant), profilerLibrary,
                            "stop,collapsed,file=" + asyncProfiler.resolve(variant + ".collapsed"));
                }
                log("profiles: %s", asyncProfiler);
            }
            Files.write(out.resolve("rounds.csv"), rows);
            String summary = summary(perVariant, "") + "\n" + summary(withoutCompiler,
                    ", less the JIT compiler threads' CPU in the same seconds") + idle;
            Files.writeString(out.resolve("summary.md"), summary);
            System.out.println(summary);
            for (String variant : variants) {
                if (!variant.equals("stock")) {
                    Files.writeString(out.resolve("metrics-" + variant + ".txt"), scrape(servers.get(variant)));
                }
            }
        } finally {
            for (TomcatServer server : servers.values()) {
                server.close();
            }
        }
        log("done: %s", out);
    }

    /**
     * Every Tomcat's CPU over {@link #idleSeconds} without a client, by thread role, measured at once: written to
     * {@code idle.csv} and returned as a table for the summary.
     */
    private String idle(Map<String, TomcatServer> servers) throws Exception {
        log("idle: %d s without clients", idleSeconds);
        Map<String, ProcessCpuClock> clocks = new LinkedHashMap<>();
        Map<String, ProcessCpuClock.ThreadTimes> before = new LinkedHashMap<>();
        for (Map.Entry<String, TomcatServer> e : servers.entrySet()) {
            ProcessCpuClock clock = new ProcessCpuClock(e.getValue().pid());
            clocks.put(e.getKey(), clock);
            before.put(e.getKey(), clock.threads());
        }
        long t0 = System.nanoTime();
        Thread.sleep(idleSeconds * 1000L);
        double elapsed = (System.nanoTime() - t0) / 1e9;
        List<String> rows = new ArrayList<>(List.of("variant,seconds,server_cpu_ms_per_s,compiler_cpu_ms_per_s,"
                + "gc_cpu_ms_per_s,control_cpu_ms_per_s,other_cpu_ms_per_s"));
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT, "%nIdle: no client for %.0f s after the"
                + " warm-up, CPU milliseconds per second%n%n| variant | all | JIT compiler | GC | control loop | the"
                + " rest |%n|---|---|---|---|---|---|%n", elapsed));
        for (Map.Entry<String, ProcessCpuClock> e : clocks.entrySet()) {
            Map<ThreadRole, Double> roles = e.getValue().threads().secondsSince(before.get(e.getKey()));
            double all = roles.values().stream().mapToDouble(Double::doubleValue).sum();
            double[] perSecond = {all, roles.get(ThreadRole.COMPILER), roles.get(ThreadRole.GC),
                roles.get(ThreadRole.CONTROL), roles.get(ThreadRole.SERVER)};
            for (int i = 0; i < perSecond.length; i++) {
                perSecond[i] *= 1000 / elapsed;
            }
            rows.add(String.format(Locale.ROOT, "%s,%.1f,%.2f,%.2f,%.2f,%.2f,%.2f", e.getKey(), elapsed,
                    perSecond[0], perSecond[1], perSecond[2], perSecond[3], perSecond[4]));
            table.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.1f | %.1f | %.1f |%n", e.getKey(),
                    perSecond[0], perSecond[1], perSecond[2], perSecond[3], perSecond[4]));
            log("idle %-14s %.1f ms/s of CPU (compiler %.1f, GC %.1f, control loop %.1f, the rest %.1f)",
                    e.getKey(), perSecond[0], perSecond[1], perSecond[2], perSecond[3], perSecond[4]);
        }
        Files.write(out.resolve("idle.csv"), rows);
        return table.toString();
    }

    private String summary(Map<String, List<Double>> perVariant, String what) {
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
                "TLS %s resumption + one request + close, %d client loops%s, %d rounds of %d s, %s%s (%s)%n%n"
                        + "| variant | CPU ms per connection, each round | median | ratio of medians to stock"
                        + " | median of per-round ratios (95 %% interval) |%n|---|---|---|---|---|%n",
                tls, clients, concurrent ? " per variant" : "", rounds, seconds,
                concurrent ? "variants loaded together" : "variants interleaved", what, Instant.now()));
        List<Double> stock = perVariant.get("stock");
        for (Map.Entry<String, List<Double>> e : perVariant.entrySet()) {
            List<Double> v = e.getValue();
            String ratio = "";
            String roundRatio = "";
            if (stock != null && !e.getKey().equals("stock")) {
                ratio = String.format(Locale.ROOT, "%.3f", median(v) / median(stock));
                List<Double> ratios = new ArrayList<>();
                for (int i = 0; i < v.size(); i++) {
                    ratios.add(v.get(i) / stock.get(i));
                }
                double[] interval = bootstrapInterval(ratios);
                roundRatio = String.format(Locale.ROOT, "%.3f (%.3f–%.3f)", median(ratios), interval[0], interval[1]);
            }
            s.append(String.format(Locale.ROOT, "| %s | %s | %.3f | %s | %s |%n", e.getKey(),
                    v.stream().map(x -> String.format(Locale.ROOT, "%.3f", x)).collect(Collectors.joining(", ")),
                    median(v), ratio, roundRatio));
        }
        return s.toString();
    }

    /**
     * The 95 % percentile bootstrap interval of the median of {@code values}: 10,000 resamples with replacement,
     * from a fixed seed so that the same rounds always give the same interval.
     */
    static double[] bootstrapInterval(List<Double> values) {
        Random random = new Random(1);
        int resamples = 10_000;
        double[] medians = new double[resamples];
        List<Double> sample = new ArrayList<>(values.size());
        for (int r = 0; r < resamples; r++) {
            sample.clear();
            for (int i = 0; i < values.size(); i++) {
                sample.add(values.get(random.nextInt(values.size())));
            }
            medians[r] = median(sample);
        }
        Arrays.sort(medians);
        return new double[] {medians[(int) (0.025 * resamples)], medians[(int) (0.975 * resamples) - 1]};
    }

    static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private record Window(long connections, long failed, double seconds, double serverCpuSeconds,
                          Map<ThreadRole, Double> roleSeconds, String perf) {
        double cpuMillisPerConnection() {
            return connections == 0 ? Double.NaN : 1000 * serverCpuSeconds / connections;
        }

        double role(ThreadRole role) {
            return roleSeconds.get(role);
        }

        /**
         * Why this second figure: minutes after a start the JIT still compiles, more in one server than another and
         * more in one round than the next, and that CPU is neither the gate's per-connection cost nor steady.
         */
        double cpuMillisPerConnectionWithoutCompiler() {
            return connections == 0 ? Double.NaN
                    : 1000 * (serverCpuSeconds - role(ThreadRole.COMPILER)) / connections;
        }
    }

    /**
     * {@code clients} loops of resumption + request + close against each of {@code measured} at once for
     * {@code seconds}; the first second (each loop's first, full handshake) is not measured.
     */
    private List<Window> windows(List<TomcatServer> measured, SSLContext context, int seconds) throws Exception {
        List<LoadDriver> drivers = new ArrayList<>();
        try {
            for (TomcatServer server : measured) {
                LoadDriver driver = new LoadDriver(context, context, server.port("tls"), PATH, 10_000, 1);
                drivers.add(driver);
                driver.startEstablished(clients, 0, 1);
            }
            Thread.sleep(1000);
            List<ProcessCpuClock> cpus = new ArrayList<>();
            List<ProcessCpuClock.ThreadTimes> threadsBefore = new ArrayList<>();
            List<Double> cpuBefore = new ArrayList<>();
            List<Process> perfs = new ArrayList<>();
            for (int i = 0; i < measured.size(); i++) {
                TomcatServer server = measured.get(i);
                drivers.get(i).swapCounters();
                perfs.add(options.containsKey("perf-events") ? new ProcessBuilder("perf", "stat", "-x,", "-e",
                        options.get("perf-events"), "-p", Long.toString(server.pid()), "--", "sleep",
                        Integer.toString(seconds)).redirectOutput(ProcessBuilder.Redirect.DISCARD).start() : null);
                ProcessCpuClock cpu = new ProcessCpuClock(server.pid());
                cpus.add(cpu);
                threadsBefore.add(cpu.threads());
                cpuBefore.add(cpu.seconds());
            }
            long t0 = System.nanoTime();
            Thread.sleep(seconds * 1000L);
            List<Window> windows = new ArrayList<>();
            for (int i = 0; i < measured.size(); i++) {
                StepCounters c = drivers.get(i).swapCounters();
                double elapsed = (System.nanoTime() - t0) / 1e9;
                double cpuSeconds = cpus.get(i).seconds() - cpuBefore.get(i);
                Map<ThreadRole, Double> roles = cpus.get(i).threads().secondsSince(threadsBefore.get(i));
                long connections = c.resumedCompleted.sum();
                windows.add(new Window(connections, c.resumedRefused.sum() + c.resumedTimedOut.sum(), elapsed,
                        cpuSeconds, roles, perfs.get(i) == null ? "" : perPerConnection(perfs.get(i), connections)));
            }
            return windows;
        } finally {
            for (LoadDriver driver : drivers) {
                driver.close();
            }
        }
    }

    /** {@code perf stat -x,} lines are "count,unit,event,...": each event's count divided by the connections. */
    private static String perPerConnection(Process perf, long connections) throws Exception {
        String output = new String(perf.getErrorStream().readAllBytes());
        perf.waitFor();
        StringBuilder s = new StringBuilder();
        for (String line : output.split("\n")) {
            String[] f = line.split(",");
            if (f.length > 2 && !f[0].isBlank() && Character.isDigit(f[0].charAt(0))) {
                s.append(String.format(Locale.ROOT, " %s %.2f/connection", f[2],
                        Double.parseDouble(f[0]) / Math.max(1, connections)));
            }
        }
        return s.length() == 0 ? " perf: " + output.strip() : s.toString();
    }

    private TomcatServer start(TomcatDistribution distribution, TestKeystore keystore, int jdk, String variant)
            throws Exception {
        ConnectorSpec connector = ConnectorSpec.https("tls", keystore)
                .sslHostConfig("protocols", tls.equals("1.3") ? "TLSv1.3" : "TLSv1.2");
        TomcatServer.Builder builder = TomcatServer.builder(distribution)
                .name("gate-cost-" + variant)
                .jdk(Jdk.find(jdk).orElseThrow(() -> new IllegalStateException("no JDK " + jdk)))
                .connector(connector)
                .connector(ConnectorSpec.http("plain"))
                .file("webapps/ROOT" + PATH, SMALL_FILE)
                .catalinaOpt("-Xmx512m");
        if (jfr != null) {
            builder.catalinaOpt("-XX:StartFlightRecording=settings=profile,filename="
                    + jfr.resolve(variant + ".jfr"));
        }
        if (!variant.equals("stock")) {
            Path root = Path.of(System.getProperty("tlsadmit.root", ".")).toAbsolutePath();
            Path jar = variant.startsWith("compare") ? Path.of(options.get("compare-jar")).toAbsolutePath()
                    : root.resolve("valve/target/tlsadmit-tomcat.jar");
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException(jar + " is missing: build the valve first (mvn -pl valve -am package)");
            }
            builder.lib(jar).engineXml("<Valve className=\"io.tlsadmit.tomcat.TlsAdmissionValve\"/>");
            connector.protocol("io.tlsadmit.tomcat.AdmissionNioProtocol");
            if (variant.startsWith("static") || variant.equals("compare")) {
                // a budget that never binds: resumptions are never charged, and the few full handshakes fit
                connector.attribute("budget", "static").attribute("maxFullHandshakesPerSecond", "100000")
                        .attribute("fullHandshakeBurst", "100000");
            } else {
                connector.attribute("budget", "adaptive");
            }
            if (variant.endsWith("-nopeek")) {
                connector.attribute("nativePeek", "false");
            }
        }
        TomcatServer server = builder.build().start();
        CpuPinning.pin(server.pid(), "0");
        log("started %s: pid %d, port %d", variant, server.pid(), server.port("tls"));
        return server;
    }

    private static String scrape(TomcatServer server) throws InterruptedException {
        URI uri = URI.create("http://127.0.0.1:" + server.port("plain") + "/tlsadmit/metrics");
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.body();
        } catch (IOException e) {
            return "# cannot scrape " + uri + ": " + e.getMessage();
        }
    }

    private void log(String format, Object... args) {
        long elapsed = (System.nanoTime() - started) / 1_000_000_000L;
        System.out.printf(Locale.ROOT, "[%s +%dm%02ds] %s%n", Instant.now().toString().substring(11, 19),
                elapsed / 60, elapsed % 60, String.format(Locale.ROOT, format, args));
    }
}

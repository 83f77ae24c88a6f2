package io.tlsadmit.experiment;

import io.tlsadmit.admission.cpu.CpuTicks;
import io.tlsadmit.experiment.flash.FlashCrowdCsv;
import io.tlsadmit.experiment.flash.FlashCrowdResult;
import io.tlsadmit.experiment.flash.Recovery;
import io.tlsadmit.experiment.flash.ServerStart;
import io.tlsadmit.experiment.flash.ServerRecovery;
import io.tlsadmit.experiment.report.Charts;
import io.tlsadmit.experiment.report.CpuChangeTable;
import io.tlsadmit.experiment.report.ResultsCsv;
import io.tlsadmit.experiment.report.SummaryTable;
import io.tlsadmit.testing.CpuPinning;
import io.tlsadmit.testing.PrometheusScrape;
import io.tlsadmit.experiment.server.KeepAliveTimeout;
import io.tlsadmit.experiment.server.ProcessCpu;
import io.tlsadmit.experiment.server.RubisDatabase;
import io.tlsadmit.experiment.server.RubisServer;
import io.tlsadmit.experiment.server.ServerQuotaCgroup;
import io.tlsadmit.experiment.step.GatlingStep;
import io.tlsadmit.experiment.step.KneeSearch;
import io.tlsadmit.experiment.step.RateTuning;
import io.tlsadmit.experiment.step.StepFigures;
import io.tlsadmit.experiment.step.StepResult;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The overload experiment of issue 7: Gatling RUBiS users arriving at rising rates against stock Tomcat, the
 * tlsadmit gate (static budget tuned at the knee, adaptive budget) and HAProxy in three configurations, each
 * with a rate tuned at the knee ({@link Mode#haproxy()}); the server on CPU 0, this JVM (Gatling) on CPU 1. Writes {@code steps.csv}, the charts and
 * {@code summary.md} to {@code --out}.
 */
public final class Experiment {

    static final String LOAD_GENERATOR_CPUS = "1";
    /** Gatling start-up and shutdown around each step, for the time estimate only. */
    private static final int STEP_OVERHEAD_SECONDS = 6;
    private static final int SERVER_START_SECONDS = 25;
    private static final int SERVER_WARMUP_RATE = 5;
    /** The candidates a HAProxy mode's rate is chosen from, for the time estimate: 4, up to 6 ({@link RateTuning}). */
    private static final int HAPROXY_RATE_CANDIDATES = 5;
    /** HAProxy's threads in the CPU change: one per CPU the server may get during it. */
    private static final int CPU_CHANGE_HAPROXY_THREADS = 2;
    /**
     * What {@code --flash-crowd-start warm-up-requests} has the gated connector request at start: RUBiS's pages a
     * browsing session reads (GET only, so the warm-up writes nothing), each of its servlets and static pages once.
     */
    static final List<String> RUBIS_WARM_UP_PAGES = List.of("/rubis/", "/rubis/browse.html",
            "/rubis/servlet/BrowseCategories", "/rubis/servlet/SearchItemsByCategory?category=1",
            "/rubis/servlet/BrowseRegions", "/rubis/servlet/BrowseCategoriesInRegion?region=1",
            "/rubis/servlet/SearchItemsByRegion?category=1&region=1", "/rubis/servlet/ViewItem?itemId=1",
            "/rubis/servlet/ViewUserInfo?userId=1", "/rubis/servlet/ViewBidHistory?itemId=1",
            "/rubis/servlet/PutBidAuth?itemId=1", "/rubis/servlet/BuyNowAuth?itemId=1",
            "/rubis/servlet/PutCommentAuth?to=1&itemId=1", "/rubis/images/logo.jpg");

    /** A fresh server idles this long before the flash crowd: started and healthy, nothing compiled by load. */
    private static final int FLASH_CROWD_IDLE_SECONDS = 5;

    private final ExperimentOptions options;
    private final Path root;
    private final Path out;
    private final Progress progress = new Progress();
    private final List<StepResult> steps = new ArrayList<>();
    private final List<FlashCrowdResult> flashCrowds = new ArrayList<>();
    private final Map<Workload, Double> knees = new java.util.LinkedHashMap<>();
    /** The workload the steps now running belong to. */
    private Workload workload = Workload.STUDY;
    private RubisServer.Setup baseSetup;
    private final long self = ProcessHandle.current().pid();
    private RubisServer.Setup setup;
    private String databaseNote;
    /** The MariaDB data set, restored before each measured step; null with H2 (each Tomcat loads its own). */
    private RubisDatabase database;
    private int stepNumber;
    private final List<Thread> quotaHooks = new ArrayList<>();

    private Experiment(ExperimentOptions options) {
        this.options = options;
        this.root = Path.of(System.getProperty("tlsadmit.root", ".")).toAbsolutePath().normalize();
        this.out = root.resolve(options.out()).normalize();
    }

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        ExperimentOptions options;
        try {
            options = ExperimentOptions.parse(args);
        } catch (ExperimentOptions.HelpRequested help) {
            System.out.print(ExperimentOptions.USAGE);
            return;
        } catch (IllegalArgumentException e) {
            System.err.println("experiment: " + e.getMessage() + "\n\n" + ExperimentOptions.USAGE);
            System.exit(2);
            return;
        }
        try {
            new Experiment(options).run();
        } catch (IllegalStateException | UncheckedIOException e) {
            System.err.println("experiment: " + e.getMessage());
            System.exit(1);
        }
        // Gatling leaves non-daemon threads behind
        System.exit(0);
    }

    private void run() throws IllegalStateException {
        if (Runtime.getRuntime().availableProcessors() < 2) {
            throw new IllegalStateException("needs 2 CPUs: one for the server, one for the load generator");
        }
        CpuPinning.pin(self, LOAD_GENERATOR_CPUS);
        prepare();
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        double startLoad = ProcessCpu.loadAverage();
        if (options.resume()) {
            readEarlierSteps();
        }
        List<String> failed = new ArrayList<>();
        Map<CpuChangeKind, List<String>> cpuChanges = new java.util.EnumMap<>(CpuChangeKind.class);
        for (Workload w : options.workloads()) {
            workload = w;
            setup = baseSetup.withTls(w.tls()).withServerCpus(w.cpuList());
            progress.log("workload: RUBiS %s mix, TLS %s, %s: server on CPU %s, Gatling on CPU %s", w.mix(), w.tls(),
                    w.cpusLabel(), w.cpuList(), LOAD_GENERATOR_CPUS);
            double knee = runWorkload(failed);
            knees.put(w, knee);
            // the CPU change is the study's own workload's (the first one given on one CPU: it starts from one)
            if (options.cpuChange() && w.equals(cpuChangeWorkload())) {
                for (CpuChangeKind kind : options.cpuChangeKinds()) {
                    cpuChanges.put(kind, options.resume() && Files.isRegularFile(csvOf(kind))
                            ? resumedCpuChange(kind) : cpuChange(kind, knee));
                }
            }
        }
        workload = options.workloads().get(0);
        writeResults(knees.get(workload), started, startLoad, cpuChanges);
        if (!failed.isEmpty()) {
            progress.log("these modes failed and are missing from the results: %s", failed);
        }
        progress.log("done. Charts: %s/{throughput,response-time,completed-sessions,refused-connections,resumed-share,"
                + "client-timeouts}.png%s", out, options.flashCrowd() ? ", flash-crowd.png and flash-crowd.csv" : "");
        progress.log("summary: %s; every step: %s", out.resolve("summary.md"), out.resolve("steps.csv"));
    }

    /** The knee search, the sweep of every mode and the flash crowd of the current workload; returns its knee. */
    private double runWorkload(List<String> failed) {
        double knee = options.knee();
        List<Double> rates = options.rates();
        if (knee == 0 && rates.isEmpty()) {
            knee = resumedKnee();
        }
        if (rates.isEmpty() && knee == 0) {
            knee = searchKnee();
        }
        if (rates.isEmpty()) {
            List<Double> fromKnee = new ArrayList<>();
            for (double m : options.multipliers()) {
                fromKnee.add(round(m * knee));
            }
            rates = fromKnee;
        }
        planSweep(rates);
        for (Mode mode : options.modes()) {
            if (ours(steps).anyMatch(s -> s.mode() == mode && s.phase().equals("sweep"))) {
                progress.log("%s: swept in the earlier run, kept from steps.csv", mode.label());
                continue;
            }
            if (mode == Mode.STATIC || (mode.haproxy() && options.haproxyRate(mode) == 0)) {
                knee = kneeSoFar(knee);
            }
            try {
                sweep(mode, rates, knee);
            } catch (RuntimeException e) {
                // one broken leg (e.g. HAProxy missing) must not lose the others' results
                failed.add(mode.label() + " (" + workload.label() + ")");
                progress.failed(mode.label(), e);
            }
        }
        knee = kneeSoFar(knee);
        if (options.flashCrowd()) {
            for (Mode mode : options.modes()) {
                try {
                    flashCrowd(mode, knee);
                } catch (RuntimeException e) {
                    failed.add(mode.label() + " flash crowd (" + workload.label() + ")");
                    progress.failed(mode.label() + " flash crowd", e);
                }
            }
            writeFlashCrowds();
        }
        return knee;
    }

    /** The current workload's steps among {@code all}. */
    private java.util.stream.Stream<StepResult> ours(List<StepResult> all) {
        return all.stream().filter(s -> s.workload().equals(workload));
    }

    /**
     * A fresh server (started, healthy, then 5 s idle; after a warm-up as {@code --flash-crowd-start} says, by
     * default none) receives 4× the knee at once; throughput in 1 s
     * buckets tells how long it took to serve the crowd at the mode's steady rate at that load: its sweep step at
     * the same users/s when the sweep had one, else the tail of a window twice {@code --flash-crowd-seconds} long.
     * The gate's counter of admitted new connections, scraped every 100 ms, gives the server's view.
     */
    private void flashCrowd(Mode mode, double knee) {
        double rate = round(4 * knee);
        java.util.Optional<StepResult> swept = ours(steps).filter(s -> s.mode() == mode && s.phase().equals("sweep")
                && Math.abs(s.usersPerSec() - rate) < 0.05).findFirst();
        int window = swept.isPresent() ? options.flashCrowdSeconds() : 2 * options.flashCrowdSeconds();
        int haproxyRate = mode.haproxy() ? haproxyLimit(mode, knee) : 0;
        ServerStart start = options.flashCrowdStart();
        int warmUp = start == ServerStart.COLD ? 0 : options.serverWarmupSeconds();
        int flashStart = SERVER_START_SECONDS + 5 + stepSeconds(window) + warmUp;
        progress.plan(flashStart);
        freshData();
        Map<String, String> gateAttributes = new java.util.LinkedHashMap<>();
        if (start == ServerStart.WARM_UP_REQUESTS && warmUp > 0) {
            gateAttributes.put("warmUpRequests", String.join(",", RUBIS_WARM_UP_PAGES));
            gateAttributes.put("warmUpSeconds", Integer.toString(warmUp));
        }
        gateAttributes.putAll(options.gateAttributes());
        progress.log("starting %s server for the flash crowd (%s)", mode.label(), switch (start) {
            case COLD -> "cold: no warm-up";
            case WARM -> "warm: " + SERVER_WARMUP_RATE + " users/s for " + warmUp + " s first";
            case WARM_UP_REQUESTS -> mode.gated() ? "its connector requests RUBiS pages for " + warmUp + " s at start"
                    : "cold: no gate, so no warmUpRequests";
        });
        try (RubisServer server = RubisServer.start(mode, setup, mode == Mode.STATIC ? knee : 0, haproxyRate, 1,
                gateAttributes)) {
            if (start == ServerStart.WARM && warmUp > 0) {
                String name = String.format(Locale.ROOT, "flash-%s-%s-tls%s-warmup", mode.label(), workload.mix(),
                        workload.tls());
                GatlingStep.run(out.resolve("runs").resolve(name), name, properties(server, SERVER_WARMUP_RATE, warmUp));
                // the warm-up's users wrote (bids, comments): the crowd meets the data as loaded, as every step does
                freshData();
            }
            sleep(FLASH_CROWD_IDLE_SECONDS);
            progress.log("%s, flash crowd: %.1f new users/s at once for %d s; steady value from %s", mode.label(),
                    rate, window, swept.isPresent() ? "its sweep step at that rate" : "the window's last 10 s");
            String name = String.format(Locale.ROOT, "flash-%s-%s-tls%s-%s%s", mode.label(), workload.mix(),
                    workload.tls(), String.format(Locale.ROOT, "%.1f", rate),
                    workload.serverCpus() == 1 ? "" : "-" + workload.serverCpus() + "cpus");
            Path dir = out.resolve("runs").resolve(name);
            server.keepControlTraceAt(dir.resolve("control-trace.log"));
            // the gate's admitted new connections every 100 ms, from before the crowd to the end of the run
            List<double[]> admitted = java.util.Collections.synchronizedList(new ArrayList<>());
            ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
            long t0 = System.nanoTime();
            if (mode.gated()) {
                clock.scheduleAtFixedRate(() -> {
                    long ms = (System.nanoTime() - t0) / 1_000_000L;
                    String text = server.scrapeMetrics();
                    if (!text.isEmpty()) {
                        // The budget's state beside the counter, so a slow recovery can be read from the run itself.
                        PrometheusScrape scrape = PrometheusScrape.parse(text);
                        admitted.add(new double[] {ms,
                                scrape.value("tlsadmit_connections_total", "decision", "admitted", "verdict", "NEW"),
                                scrape.value("tlsadmit_connections_total", "decision", "refused", "verdict", "NEW"),
                                scrape.value("tlsadmit_budget_full_handshakes_per_second"),
                                scrape.value("tlsadmit_budget_guard_ratio"),
                                scrape.value("tlsadmit_cpus_busy"),
                                scrape.value("tlsadmit_full_handshake_cost_seconds")});
                    }
                }, 0, 100, TimeUnit.MILLISECONDS);
            }
            GatlingStep.run(dir, name, properties(server, rate, window));
            clock.shutdownNow();
            double[] replies = new double[window];
            double[] refused = new double[window];
            long completed = 0;
            long timeouts = 0;
            for (int s = 0; s < window; s++) {
                StepFigures second = GatlingStep.figures(dir, s, s + 1);
                replies[s] = second.perSecond("replies");
                refused[s] = second.perSecond("connections_refused");
                completed += Math.round(second.perSecond("sessions_completed"));
                timeouts += Math.round(second.perSecond("timeouts"));
            }
            Recovery recovery = swept.isPresent() ? Recovery.of(replies, refused, swept.get().throughput())
                    : Recovery.of(replies, refused);
            ServerRecovery serverRecovery = null;
            if (mode.gated()) {
                List<double[]> copy;
                synchronized (admitted) {
                    copy = List.copyOf(admitted);
                }
                double steadyAdmitted = swept.map(s -> s.serverNewAdmitted() / s.stepSeconds()).orElse(Double.NaN);
                serverRecovery = ServerRecovery.of(copy, window * 1000L, steadyAdmitted);
                StringBuilder rows = new StringBuilder("ms,admitted_new_total,refused_new_total,"
                        + "budget_full_handshakes_per_s,guard_ratio,busy_cpus,full_handshake_cost_s\n");
                for (double[] sample : copy) {
                    rows.append(String.format(Locale.ROOT, "%.0f,%.0f,%.0f,%.1f,%.3f,%.3f,%.6f%n", sample[0], sample[1],
                            sample[2], sample[3], sample[4], sample[5], sample[6]));
                }
                write(dir.resolve("admitted-new.csv"), rows.toString());
            }
            String source = swept.isPresent() ? "sweep" : "window-tail";
            flashCrowds.removeIf(f -> f.mode() == mode && f.workload().equals(workload));
            flashCrowds.add(new FlashCrowdResult(mode, workload, rate, replies, recovery, source, serverRecovery,
                    new FlashCrowdResult.Served(completed, timeouts),
                    start == ServerStart.WARM_UP_REQUESTS && !mode.gated() ? ServerStart.COLD : start));
            progress.log("  steady %.0f replies/s (%s); 90 %% of it held %s; %d connections refused meanwhile;"
                            + " %d sessions completed and %d client timeouts in the window%s",
                    recovery.steady(), source, recovery.secondsTo90Percent() < 0 ? "never within the window"
                            : "after " + recovery.secondsTo90Percent() + " s", recovery.refusedMeanwhile(),
                    completed, timeouts,
                    serverRecovery == null ? "" : String.format(Locale.ROOT, "; gate: admitted new %.1f/s steady, 90 %%"
                            + " held %s", serverRecovery.steady(), serverRecovery.secondsTo90Percent() < 0
                            ? "never within the window"
                            : String.format(Locale.ROOT, "after %.1f s", serverRecovery.secondsTo90Percent())));
        }
        progress.done(flashStart);
    }

    /** A HAProxy mode's rate for the flash crowd and the CPU change: the one its sweep used, else the knee. */
    private int haproxyLimit(Mode mode, double knee) {
        if (options.haproxyRate(mode) > 0) {
            return options.haproxyRate(mode);
        }
        return ours(steps).filter(s -> s.mode() == mode && s.phase().equals("sweep")
                && !Double.isNaN(s.limit())).mapToInt(s -> (int) s.limit()).findFirst()
                .orElse((int) Math.max(1, Math.round(knee)));
    }

    private void writeFlashCrowds() {
        write(out.resolve("flash-crowd.csv"), FlashCrowdCsv.format(flashCrowds));
        for (Workload w : options.workloads()) {
            List<FlashCrowdResult> of = flashCrowds.stream().filter(f -> f.workload().equals(w)).toList();
            if (!of.isEmpty()) {
                Charts.flashCrowd(out.resolve("flash-crowd" + w.chartSuffix() + ".png"), String.format(Locale.ROOT,
                        "Flash crowd on a fresh server: %.0f new users/s at once (%s)", of.get(0).usersPerSec(),
                        w.label()), of.stream().map(f -> f.mode().label()).toList(),
                        of.stream().map(FlashCrowdResult::repliesPerSecond).toList());
            }
        }
    }

    /** {@code seconds} with one decimal, or {@code none} when negative (never). */
    private static String seconds(double seconds, String none) {
        return seconds < 0 ? none : String.format(Locale.ROOT, "%.1f", seconds);
    }

    private static void sleep(int seconds) {
        try {
            Thread.sleep(seconds * 1000L);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private void prepare() {
        TomcatDistribution distribution = TomcatDistribution.fromBuild();
        TestKeystore.KeyType type = switch (options.key()) {
            case "rsa4096" -> TestKeystore.KeyType.RSA_4096;
            case "ec" -> TestKeystore.KeyType.EC_P256;
            default -> TestKeystore.KeyType.RSA_2048;
        };
        TestKeystore keystore = TestKeystore.create(distribution.home().getParent().resolve("keystores"), type);
        Path war = existing(root.resolve("rubis-app/target/rubis.war"));
        Path gate = existing(root.resolve("valve/target/tlsadmit-tomcat.jar"));
        Path context = existing(root.resolve("rubis-app/target/rubis-mariadb.xml"));
        String jdbcUrl = null;
        if (options.database().equals("mariadb")) {
            database = new RubisDatabase(options.scale());
            progress.log("preparing RUBiS data (MariaDB, scale %s)", options.scale());
            databaseNote = database.prepare(root.resolve("rubis-app/target/rubis-datagen.jar"));
            jdbcUrl = database.jdbcUrl();
        } else {
            databaseNote = "H2 in each Tomcat's base, loaded by the webapp at scale " + options.scale();
        }
        int keepAlive = KeepAliveTimeout.millis(options.thinkTimeScale());
        progress.log("%s; Tomcat %s, %s, TLS %s; keep-alive timeout %d ms (10 s x think scale %s); server on CPU %s,"
                        + " Gatling (this JVM, pid %d) on CPU %s", databaseNote, distribution.version(), options.key(),
                options.tls(), keepAlive, options.thinkTimeScale(), RubisServer.SERVER_CPUS, self, LOAD_GENERATOR_CPUS);
        // with every user on 127.0.0.1 the gate's session grace would take all users for one host's page: it is
        // then set to what one user opens at once, so that it stays what it is for (see README.md)
        int grace = options.sourceAddresses() > 0 ? 0 : options.connectionsPerUser();
        baseSetup = new RubisServer.Setup(distribution, keystore, options.tlsVersions().get(0), war, gate, context,
                jdbcUrl, options.scale(), keepAlive, grace);
        setup = baseSetup;
        try {
            Files.createDirectories(out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + out, e);
        }
    }

    /** Takes the steps of an interrupted run from {@code steps.csv}. */
    private void readEarlierSteps() {
        Path csv = out.resolve("steps.csv");
        if (!Files.isRegularFile(csv)) {
            throw new IllegalStateException("--resume: no " + csv);
        }
        try {
            steps.addAll(ResultsCsv.parse(Files.readString(csv)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("--resume: " + csv + ": " + e.getMessage(), e);
        }
        // new run directories continue the numbering
        try (var runs = Files.list(out.resolve("runs"))) {
            stepNumber = runs.map(dir -> dir.getFileName().toString()).filter(name -> name.matches("\\d{3}-.*"))
                    .mapToInt(name -> Integer.parseInt(name.substring(0, 3))).max().orElse(0);
        } catch (IOException e) {
            stepNumber = 0;
        }
        progress.log("resuming: %d steps from %s", steps.size(), csv);
        Path flash = out.resolve("flash-crowd.csv");
        if (Files.isRegularFile(flash)) {
            progress.log("note: %s is rewritten with this run's flash crowds only", flash);
        }
    }

    /**
     * The current workload's knee from an earlier run's knee search, 0 if none or if it was interrupted before the
     * end (the search then continues from its steps: the same steps give the same next rate).
     */
    private double resumedKnee() {
        KneeSearch search = earlierKneeSearch();
        if (search == null || !Double.isNaN(search.nextRate())) {
            return 0;
        }
        double knee = search.knee();
        progress.log("knee of stock Tomcat from the earlier knee search: %.1f new users/s", knee);
        return knee;
    }

    /** The knee search replayed from the earlier run's steps, null when there are none. */
    private KneeSearch earlierKneeSearch() {
        List<StepResult> searched = ours(steps).filter(s -> s.phase().equals("knee")).toList();
        if (searched.isEmpty()) {
            return null;
        }
        KneeSearch search = new KneeSearch(options.startRate(), options.kneeResolution());
        for (StepResult s : searched) {
            search.record(s.usersPerSec(), s.throughput(), s.pageP99Millis());
        }
        return search;
    }

    /** The CPU-change run of the interrupted run, kept as it was (its chart too). */
    private List<String> resumedCpuChange(CpuChangeKind kind) {
        progress.log("CPU change (%s): kept from %s", kind.label(), csvOf(kind));
        try {
            return Files.readAllLines(csvOf(kind)).stream().filter(line -> !line.isBlank()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code cpu-change.csv}, {@code cpu-quota-change.csv}. */
    private Path csvOf(CpuChangeKind kind) {
        return out.resolve(kind.files() + ".csv");
    }

    /**
     * Doubles the stock server's load from {@code --start-rate} until throughput has stopped growing or the page p99
     * has left its bound, then bisects the bracket around the knee to {@code --knee-resolution} ({@link KneeSearch}).
     * The steps share a server while they hold; after one that did not, the next starts on a fresh server, not on the
     * queue that step left (which made every bisection step after an overload measure a draining server).
     */
    private double searchKnee() {
        KneeSearch earlier = earlierKneeSearch();
        KneeSearch search = earlier != null ? earlier : new KneeSearch(options.startRate(), options.kneeResolution());
        progress.plan(4L * serverStartSeconds() + 8L * stepSeconds(options.stepSeconds()));
        RubisServer server = null;
        try {
            for (double rate = search.nextRate(); !Double.isNaN(rate); rate = search.nextRate()) {
                if (server == null) {
                    server = start(Mode.STOCK, 0, 0);
                }
                StepResult r = step(server, "knee", rate, Double.NaN, options.stepSeconds(), "knee search");
                search.record(rate, r.throughput(), r.pageP99Millis());
                if (!search.lastHeld()) {
                    server.close();
                    server = null;
                }
            }
        } finally {
            if (server != null) {
                server.close();
            }
        }
        double knee = search.knee();
        progress.log("knee of stock Tomcat: %.1f new users/s (doubling, then bisected to %s)", knee,
                options.kneeResolution());
        return knee;
    }

    private void planSweep(List<Double> rates) {
        for (Mode mode : options.modes()) {
            if (ours(steps).anyMatch(s -> s.mode() == mode && s.phase().equals("sweep"))) {
                continue;
            }
            progress.plan(serverStartSeconds() + (long) rates.size() * stepSeconds(options.stepSeconds()));
            if (mode.haproxy() && options.haproxyRate(mode) == 0) {
                progress.plan(HAPROXY_RATE_CANDIDATES * (serverStartSeconds()
                        + stepSeconds(Math.max(options.warmupSeconds() + 2, options.stepSeconds() / 2))));
            }
        }
        if (options.cpuChange() && workload.equals(cpuChangeWorkload())) {
            for (CpuChangeKind kind : options.cpuChangeKinds()) {
                if (!(options.resume() && Files.isRegularFile(csvOf(kind)))) {
                    progress.plan(cpuChangeModes().size() * (serverStartSeconds()
                            + stepSeconds(3 * options.cpuChangeSeconds())));
                }
            }
        }
    }

    private void sweep(Mode mode, List<Double> rates, double knee) {
        double staticBudget = mode == Mode.STATIC ? knee : 0;
        int haproxyRate = !mode.haproxy() ? 0
                : options.haproxyRate(mode) > 0 ? options.haproxyRate(mode) : tuneHaproxyRate(mode, knee);
        double limit = mode == Mode.STATIC ? staticBudget : mode.haproxy() ? haproxyRate : Double.NaN;
        try (RubisServer server = start(mode, staticBudget, haproxyRate)) {
            int i = 0;
            for (double rate : rates) {
                i++;
                step(server, "sweep", rate, limit, options.stepSeconds(),
                        String.format(Locale.ROOT, "sweep step %d/%d", i, rates.size()));
            }
        }
    }

    /**
     * A HAProxy mode's best rate ({@code maxsslrate}, the rejecting rate, the new-hello rate): candidates around the
     * knee ({@link RateTuning}), each measured at 4× the knee for half a step on a fresh server; the one with the
     * highest throughput wins. The candidate steps are in {@code steps.csv} with the setting's name as their phase.
     */
    private int tuneHaproxyRate(Mode mode, double knee) {
        String setting = mode.rateSetting();
        int stepSeconds = Math.max(options.warmupSeconds() + 2, options.stepSeconds() / 2);
        RateTuning tuning = new RateTuning(knee);
        for (int candidate = tuning.nextRate(); candidate != 0; candidate = tuning.nextRate()) {
            try (RubisServer server = start(mode, 0, candidate)) {
                StepResult r = step(server, setting, round(4 * knee), candidate, stepSeconds,
                        setting + " " + candidate + " at 4x knee");
                tuning.record(candidate, r.throughput());
            }
        }
        progress.log("%s: best %s %d (%.0f replies/s at 4x the knee)", mode.label(), setting, tuning.best(),
                tuning.bestThroughput());
        return tuning.best();
    }

    /**
     * Tomcat's CPUs go 1 -> 2 -> 1 ({@code taskset}) or its cgroup quota 1 -> 0.5 -> 1 CPU ({@code quota}) while users
     * arrive at 2x the (one-CPU) knee.
     */
    private List<String> cpuChange(CpuChangeKind kind, double knee) {
        List<String> rows = new ArrayList<>();
        rows.add("mode,second,server_cpus,replies_per_s,completed_sessions_per_s,refused_connections_per_s,"
                + "budget_full_handshakes_per_s");
        List<double[]> series = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        List<Mode> modes = cpuChangeModes();
        int phase = options.cpuChangeSeconds();
        List<Mode> ran = new ArrayList<>();
        List<String> rateRows = new ArrayList<>(List.of("mode,ms,server_cpus,budget_full_handshakes_per_s"));
        List<String> responseRows = new ArrayList<>(List.of("mode,change,rate_before,steady_rate,seconds_to_within_10pct,"
                + "seconds_to_first_within_10pct,share_within_10pct_after_1s"));
        for (Mode mode : modes) {
            freshData();
            // HAProxy keeps the rate its sweep chose at one CPU, and has a thread for each CPU it may get
            // the quota's cgroup is created first and so closed last, after the server: nothing is left behind
            try (ServerQuotaCgroup cgroup = kind == CpuChangeKind.QUOTA ? quotaCgroup(mode) : null;
                    RubisServer server = start(mode, knee, mode.haproxy() ? haproxyLimit(mode, knee) : 0,
                            kind == CpuChangeKind.TASKSET ? CPU_CHANGE_HAPROXY_THREADS : 1)) {
                if (cgroup != null) {
                    for (long pid : server.pids()) {
                        cgroup.adopt(pid);
                    }
                    cgroup.limit(kind.cpus(0));
                }
                progress.log("CPU change, %s: %.0f new users/s, server %s, %d s each%s", mode.label(),
                        round(2 * knee), kind.describe(), phase, cgroup == null ? ""
                                : " (cgroup " + cgroup.path() + ", quota " + cgroup.describe() + ")");
                Map<Integer, String> budget = new ConcurrentHashMap<>();
                // The budget at 100 ms resolution: how fast it follows the CPUs (issue 14: within 10 % of its new
                // steady value within 1 s). Each sample is one scrape of the gate's metrics, about 1 ms of server CPU.
                List<double[]> samples = java.util.Collections.synchronizedList(new ArrayList<>());
                // two threads: re-pinning every thread of Tomcat takes about half a second, which must not
                // hold up the 100 ms samples around the change they are there to time
                ScheduledExecutorService clock = Executors.newScheduledThreadPool(2);
                long t0 = System.nanoTime();
                if (cgroup == null) {
                    clock.schedule(() -> server.pin("0,1"), phase, TimeUnit.SECONDS);
                    clock.schedule(() -> server.pin(RubisServer.SERVER_CPUS), 2L * phase, TimeUnit.SECONDS);
                } else {
                    clock.schedule(() -> cgroup.limit(kind.cpus(1)), phase, TimeUnit.SECONDS);
                    clock.schedule(() -> cgroup.limit(kind.cpus(2)), 2L * phase, TimeUnit.SECONDS);
                }
                if (!mode.haproxy() && mode != Mode.STOCK) {
                    clock.scheduleAtFixedRate(() -> {
                        String rate = budgetRate(server);
                        long ms = (System.nanoTime() - t0) / 1_000_000L;
                        if (!rate.isEmpty()) {
                            samples.add(new double[] {ms, Double.parseDouble(rate)});
                            budget.putIfAbsent((int) (ms / 1000), rate);
                        }
                    }, 100, 100, TimeUnit.MILLISECONDS);
                }
                String name = kind.files() + "-" + mode.label();
                Path dir = out.resolve("runs").resolve(name);
                GatlingStep.run(dir, name, properties(server, round(2 * knee), 3 * phase));
                clock.shutdownNow();
                if (cgroup == null) {
                    server.pin(RubisServer.SERVER_CPUS);
                }
                progress.done(stepSeconds(3 * phase));
                double[] replies = new double[3 * phase];
                for (int s = 0; s < 3 * phase; s++) {
                    StepFigures second = GatlingStep.figures(dir, s, s + 1);
                    replies[s] = second.perSecond("replies");
                    rows.add(String.format(Locale.ROOT, "%s,%d,%s,%.0f,%.0f,%.0f,%s", mode.label(), s,
                            kind.cpusText(s / phase), replies[s], second.perSecond("sessions_completed"),
                            second.perSecond("connections_refused"), budget.getOrDefault(s, "")));
                }
                if (!samples.isEmpty()) {
                    List<double[]> copy;
                    synchronized (samples) {
                        copy = List.copyOf(samples);
                    }
                    for (double[] sample : copy) {
                        rateRows.add(String.format(Locale.ROOT, "%s,%.0f,%s,%.1f", mode.label(), sample[0],
                                kind.cpusText(Math.min(2, (int) (sample[0] / (phase * 1000.0)))), sample[1]));
                    }
                    for (int change = 1; change <= 2; change++) {
                        BudgetResponse response = BudgetResponse.of(copy, change * phase * 1000L, (change + 1) * phase * 1000L);
                        responseRows.add(String.format(Locale.ROOT, "%s,%s,%.1f,%.1f,%s,%s,%.2f", mode.label(),
                                kind.cpusText(change - 1) + "->" + kind.cpusText(change), response.before(), response.steady(),
                                seconds(response.secondsToWithin10Percent(), ""),
                                seconds(response.secondsToFirstWithin10Percent(), ""), response.shareWithin10Percent()));
                        progress.log("CPU change (%s), %s, %s CPUs: budget %.0f -> %.0f/s, within 10 %% after %s s "
                                        + "and holding after %s s, %.0f %% of the samples after 1 s within 10 %%",
                                kind.label(), mode.label(), kind.cpusText(change - 1) + "->" + kind.cpusText(change),
                                response.before(), response.steady(),
                                seconds(response.secondsToFirstWithin10Percent(), "never"),
                                seconds(response.secondsToWithin10Percent(), "never"),
                                100 * response.shareWithin10Percent());
                    }
                }
                series.add(replies);
                labels.add(mode.label());
                ran.add(mode);
            } catch (RuntimeException e) {
                // one broken leg (e.g. HAProxy missing) must not lose the others' CPU change
                progress.failed("CPU change (" + kind.label() + "), " + mode.label(), e);
            }
        }
        Charts.cpuChange(out.resolve(kind.files() + ".png"), "Tomcat's CPUs change mid-run: " + kind.describe(),
                ran, series, labels);
        if (rateRows.size() > 1) {
            write(out.resolve(kind.files() + "-budget.csv"), String.join("\n", rateRows) + "\n");
            write(out.resolve(kind.files() + "-response.csv"), String.join("\n", responseRows) + "\n");
        }
        return rows;
    }

    /**
     * The quota's cgroup for one mode's run, removed at the end of it, and also if this JVM is stopped meanwhile
     * (Ctrl-C): a shutdown hook closes it (closing twice is harmless).
     */
    private ServerQuotaCgroup quotaCgroup(Mode mode) {
        ServerQuotaCgroup cgroup = ServerQuotaCgroup.create("tlsadmit-experiment-" + self + "-" + mode.label());
        Thread hook = new Thread(cgroup::close, "remove " + cgroup.path());
        Runtime.getRuntime().addShutdownHook(hook);
        quotaHooks.add(hook);
        return cgroup;
    }

    /** The first workload on one server CPU: the CPU change starts from one CPU; null when there is none. */
    private Workload cpuChangeWorkload() {
        return options.workloads().stream().filter(w -> w.serverCpus() == 1).findFirst().orElse(null);
    }

    private List<Mode> cpuChangeModes() {
        return options.modes();
    }

    private static String budgetRate(RubisServer server) {
        for (String line : server.scrapeMetrics().split("\n")) {
            // one gated connector: its series carries a connector label
            if (line.startsWith("tlsadmit_budget_full_handshakes_per_second{")
                    || line.startsWith("tlsadmit_budget_full_handshakes_per_second ")) {
                try {
                    return String.format(Locale.ROOT, "%.1f",
                            Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1).strip()));
                } catch (NumberFormatException e) {
                    return "";
                }
            }
        }
        return "";
    }

    private int serverStartSeconds() {
        return SERVER_START_SECONDS + options.serverWarmupSeconds() + options.drainSeconds() + STEP_OVERHEAD_SECONDS;
    }

    private RubisServer start(Mode mode, double staticBudget, int haproxyRate) {
        return start(mode, staticBudget, haproxyRate, 1);
    }

    private RubisServer start(Mode mode, double staticBudget, int haproxyRate, int haproxyThreads) {
        progress.log("starting %s server%s", mode.label(), mode == Mode.STATIC
                ? String.format(Locale.ROOT, " (budget %.1f full handshakes/s)", staticBudget)
                : mode.haproxy() ? " (" + mode.rateSetting() + " " + haproxyRate + ")" : "");
        RubisServer server = RubisServer.start(mode, setup, staticBudget, haproxyRate, haproxyThreads,
                options.gateAttributes());
        // numbered as the server's first run, so it sorts beside the runs it covers
        server.keepControlTraceAt(out.resolve("runs").resolve(String.format(Locale.ROOT, "control-trace-%03d-%s%s.log",
                stepNumber + 1, mode.label(), workload.chartSuffix())));
        if (options.serverWarmupSeconds() > 0) {
            stepNumber++;
            progress.log("%s: warming up the fresh server, %d users/s for %d s (not recorded)", mode.label(),
                    SERVER_WARMUP_RATE, options.serverWarmupSeconds());
            String name = String.format(Locale.ROOT, "%03d-%s-warmup", stepNumber, mode.label());
            GatlingStep.run(out.resolve("runs").resolve(name), name,
                    properties(server, SERVER_WARMUP_RATE, options.serverWarmupSeconds()));
        }
        progress.done(serverStartSeconds());
        return server;
    }

    /**
     * The RUBiS data as loaded, before a measured step: the bidding mix writes, and a step must not serve what the
     * steps and modes before it added (see {@link RubisDatabase}). No user is inside: steps end with a drain.
     */
    private void freshData() {
        if (database != null) {
            database.restore();
        }
    }

    private StepResult step(RubisServer server, String phase, double rate, double limit, int seconds, String what) {
        stepNumber++;
        String name = String.format(Locale.ROOT, "%03d-%s-%s-%s%s", stepNumber, server.mode().label(), phase,
                String.format(Locale.ROOT, "%.1f", rate), workload.chartSuffix());
        freshData();
        progress.log("%s, %s: %.1f new users/s for %d s", server.mode().label(), what, rate, seconds);
        Path dir = out.resolve("runs").resolve(name);
        int warmup = Math.min(options.warmupSeconds(), seconds - 1);
        CpuReading[] readings = new CpuReading[2];
        ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
        ScheduledFuture<?> start = clock.schedule(() -> readings[0] = CpuReading.now(server, self, workload),
                warmup, TimeUnit.SECONDS);
        ScheduledFuture<?> end = clock.schedule(() -> readings[1] = CpuReading.now(server, self, workload),
                seconds, TimeUnit.SECONDS);
        GatlingStep.run(dir, name, properties(server, rate, seconds));
        clock.shutdown();
        // The readings are awaited, not assumed done: on an overloaded machine (load 20-40, 2026-11-26) a step's
        // figures once showed a negative server CPU, computed before its end reading had run.
        awaitReading(start);
        awaitReading(end);
        CpuReading from = readings[0];
        CpuReading to = readings[1];
        double window = (to.nanos() - from.nanos()) / 1e9;
        double fullHandshakeCpu = server.mode().gated()
                ? StepFigures.fullHandshakeCpuMillis(from.gate(), to.gate(), server.gatedPort()) : Double.NaN;
        StepResult r = StepResult.of(server.mode(), workload, options.connectionsPerUser(), phase, rate, limit, seconds,
                GatlingStep.figures(dir, warmup, seconds), 100 * (to.serverSeconds() - from.serverSeconds()) / window,
                100 * (to.driverSeconds() - from.driverSeconds()) / window, to.loadAverage(),
                from.serverCpus() == null || to.serverCpus() == null ? null
                        : to.serverCpus().splitSince(from.serverCpus()), fullHandshakeCpu,
                from.driverCpus() == null || to.driverCpus() == null ? null
                        : to.driverCpus().splitSince(from.driverCpus()));
        steps.add(r);
        writeSteps();
        progress.done(stepSeconds(seconds));
        progress.log("  %.0f replies/s, %.2f completed sessions/s, %.1f refused conn/s, %.1f timeouts/s, page mean %.0f"
                        + " ms p99 %.0f ms (first pages %.0f ms, later %.0f ms), resumed share %s, server CPU %.0f%%"
                        + " (its CPUs idle %.1f%%, interrupts %.1f%%, steal %.1f%%)%s, Gatling CPU %.0f%%"
                        + " (its CPU %.0f%% busy), load %.1f",
                r.throughput(), r.completedSessionsPerSec(), r.refusedConnectionsPerSec(), r.timeoutsPerSec(),
                r.pageMeanMillis(), r.pageP99Millis(), r.firstPageP99Millis(), r.laterPageP99Millis(),
                Double.isNaN(r.resumedShare()) ? "n/a (no gate)"
                        : String.format(Locale.ROOT, "%.2f", r.resumedShare()),
                r.serverCpuPercent(), r.serverCpusIdlePercent(), r.serverCpusInterruptPercent(),
                r.serverCpusStealPercent(), Double.isNaN(r.serverFullHandshakeCpuMillis()) ? ""
                        : String.format(Locale.ROOT, ", %.1f ms per full handshake", r.serverFullHandshakeCpuMillis()),
                r.driverCpuPercent(), r.driverCpusBusyPercent(), r.loadAverage());
        return r;
    }

    /**
     * CPU the server and this driver had used, the server CPUs' and the load generator's CPU's ticks, at one moment of
     * a step; with the gate's metrics (empty without a gate), read last: a slow scrape must not come between the clock
     * and the CPU figures.
     */
    private record CpuReading(long nanos, double serverSeconds, double driverSeconds, CpuTicks serverCpus,
                              CpuTicks driverCpus, double loadAverage, PrometheusScrape gate) {
        static CpuReading now(RubisServer server, long self, Workload workload) {
            return new CpuReading(System.nanoTime(), server.cpuSeconds(), ProcessCpu.seconds(self),
                    ProcessCpu.cpus(workload.cpuList()), ProcessCpu.cpus(LOAD_GENERATOR_CPUS),
                    ProcessCpu.loadAverage(), PrometheusScrape.parse(server.scrapeMetrics()));
        }
    }

    private static void awaitReading(ScheduledFuture<?> reading) {
        try {
            reading.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the step's CPU", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the step's CPU could not be read: " + e, e);
        }
    }

    private Map<String, String> properties(RubisServer server, double rate, int seconds) {
        Map<String, String> p = new HashMap<>();
        p.put("rubis.baseUrl", server.baseUrl());
        p.put("rubis.metricsUrl", server.metricsUrl());
        p.put("rubis.serverPid", Long.toString(server.tomcatPid()));
        p.put("rubis.mix", workload.mix());
        p.put("rubis.connectionsPerUser", Integer.toString(options.connectionsPerUser()));
        p.put("rubis.sourceAddresses", Integer.toString(options.sourceAddresses()));
        p.put("rubis.model", "open");
        p.put("rubis.poisson", "true");
        p.put("rubis.usersPerSec", Double.toString(rate));
        p.put("rubis.durationSec", Integer.toString(seconds));
        p.put("rubis.drainSec", Integer.toString(options.drainSeconds()));
        p.put("rubis.thinkTimeScale", Double.toString(options.thinkTimeScale()));
        p.put("rubis.maxTransitions", Integer.toString(options.pages()));
        return p;
    }

    private double kneeSoFar(double knee) {
        if (knee > 0) {
            return knee;
        }
        List<double[]> stock = ours(steps).filter(s -> s.mode() == Mode.STOCK)
                .map(s -> new double[] {s.usersPerSec(), s.throughput(), s.pageP99Millis()}).toList();
        double found = KneeSearch.kneeOfSweep(stock);
        progress.log("knee of stock Tomcat: %.0f new users/s (highest throughput of its sweep with page p99 within %.0fx"
                + " its lowest rate's)", found, KneeSearch.LATENCY_FACTOR);
        return found;
    }

    private int stepSeconds(int seconds) {
        return seconds + options.drainSeconds() + STEP_OVERHEAD_SECONDS;
    }

    private void writeSteps() {
        write(out.resolve("steps.csv"), ResultsCsv.format(steps));
    }

    private void writeResults(double knee, Instant started, double startLoad,
            Map<CpuChangeKind, List<String>> cpuChanges) {
        List<StepResult> sweep = ours(steps).filter(s -> s.phase().equals("sweep")).toList();
        StringBuilder tables = new StringBuilder(SummaryTable.markdown(sweep, knee));
        for (Workload w : options.workloads()) {
            List<StepResult> of = steps.stream().filter(s -> s.phase().equals("sweep") && s.workload().equals(w))
                    .toList();
            double k = knees.getOrDefault(w, knee);
            Charts.write(out, of, options.modes(), k, w.chartSuffix(), w.cpusLabel());
            if (!w.equals(workload)) {
                tables.append(String.format(Locale.ROOT, "%n%s (knee %.0f new users/s):%n%n", w.label(), k))
                        .append(SummaryTable.markdown(of, k));
            }
        }
        StringBuilder cpuChangeSection = new StringBuilder();
        cpuChanges.forEach((kind, rows) -> {
            if (rows.size() > 1) {
                write(csvOf(kind), String.join("\n", rows) + "\n");
                cpuChangeSection.append(String.format(Locale.ROOT, kind == CpuChangeKind.TASKSET
                        ? "CPU change at 2× the knee: Tomcat on CPU 0, then CPUs 0–1 (the second one shared with"
                                + " Gatling), then CPU 0 again, %d s each"
                        : "CPU quota change at 2× the knee: Tomcat on CPU 0 in a cgroup of its own, CFS quota 1 CPU,"
                                + " then 0.5, then 1 again, %d s each (`%s.csv`)", options.cpuChangeSeconds(),
                        kind.files()))
                        .append(String.format(Locale.ROOT, "; mean replies/s from the %d-th second of each phase on,"
                                + " and the gate budget's median rate:%n%n", Math.min(5, options.cpuChangeSeconds() / 2)))
                        .append(CpuChangeTable.markdown(rows.subList(1, rows.size()), options.cpuChangeSeconds(), kind))
                        .append('\n');
            }
        });
        write(out.resolve("summary.md"), Summary.markdown(new Summary.Run(options, knee, started, Instant.now()
                .truncatedTo(ChronoUnit.SECONDS), startLoad, ProcessCpu.loadAverage(), databaseNote,
                setup.distribution().version(), root.relativize(out).toString()), steps, sweep,
                tables.toString(), cpuChangeSection.toString()));
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static Path existing(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("no " + file + ": build it first (bin/experiment does:"
                    + " mvn -pl experiment,valve,rubis-app -am package -DskipTests)");
        }
        return file;
    }

    /** Rates are computed from a measured knee; one decimal is all a Poisson arrival rate needs. */
    static double round(double rate) {
        return Math.round(rate * 10) / 10.0;
    }
}

package io.tlsadmit.cpumanager.experiment;

import io.tlsadmit.admission.cpu.CpuList;
import io.tlsadmit.cpumanager.config.ConfigFile;
import io.tlsadmit.cpumanager.enforcement.QuotaCgroups;
import io.tlsadmit.experiment.ExperimentOptions;
import io.tlsadmit.experiment.Mode;
import io.tlsadmit.experiment.server.KeepAliveTimeout;
import io.tlsadmit.experiment.server.ProcessCpu;
import io.tlsadmit.experiment.server.RubisDatabase;
import io.tlsadmit.experiment.server.RubisServer;
import io.tlsadmit.experiment.step.GatlingStep;
import io.tlsadmit.experiment.step.StepFigures;
import io.tlsadmit.testing.CpuPinning;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The thesis's CPU-manager experiment (§5.3, Figures 5.22–5.24) at this machine's scale: two gated RUBiS Tomcats
 * on CPUs 0-1, each driven by its own arrival schedule in phases, under each arrangement of {@link Arrangement};
 * per run a chart of arrivals, throughput and assigned CPUs against time, and completed sessions per instance
 * and phase in {@code sessions.csv}. A command ({@code bin/cpu-manager-experiment}), not a test: it needs a
 * quiet machine.
 */
@Command(name = "cpu-manager-experiment", mixinStandardHelpOptions = true)
public final class SharingExperiment implements Callable<Integer> {

    /**
     * How the two servers get CPUs in a run. The baselines put the servers in cgroups weighted as the manager weighs
     * its own (the static split: one CPU each by affinity, with a quota of 1; no manager: 2 each), so that the servers
     * compete with the load generators as under the manager; the {@code _PLAIN} ones leave servers and generators
     * in the root group, thread for thread, as the 2026-11-25 runs' baselines did.
     */
    enum Arrangement {
        EQUAL(1, true, true), PRIORITY(2, true, true), PRIORITY_NO_SHARING(2, false, true),
        STATIC_SPLIT(0, false, true), NO_MANAGER(0, false, true),
        STATIC_SPLIT_PLAIN(0, false, false), NO_MANAGER_PLAIN(0, false, false);

        final int firstPriority;
        final boolean share;
        final boolean weighted;

        Arrangement(int firstPriority, boolean share, boolean weighted) {
            this.firstPriority = firstPriority;
            this.share = share;
            this.weighted = weighted;
        }

        boolean staticSplit() {
            return this == STATIC_SPLIT || this == STATIC_SPLIT_PLAIN;
        }

        boolean managed() {
            return firstPriority > 0;
        }

        String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    @Option(names = "--runs", split = ",", description = "Arrangements (default: the first five): ${COMPLETION-CANDIDATES}")
    List<Arrangement> runs = List.of(Arrangement.EQUAL, Arrangement.PRIORITY, Arrangement.PRIORITY_NO_SHARING,
            Arrangement.STATIC_SPLIT, Arrangement.NO_MANAGER);

    @Option(names = "--rounds", description = "Run the arrangements this many times in turn, labelled -r2, -r3 after"
            + " the first (default 1): the machine's speed drifts over an hour, and rounds interleave the arrangements"
            + " against it")
    int rounds = 1;

    @Option(names = "--weight-per-cpu", description = "The manager's weightPerCpu, also the baselines' (default: the"
            + " manager's default)")
    int weightPerCpu = ConfigFile.DEFAULT_WEIGHT_PER_CPU;

    @Option(names = "--load-weight", description = "The load generators' cgroup weight, in CPUs at --weight-per-cpu"
            + " (default 1: under full contention a third of the machine against the servers' two CPUs; 0 = generators"
            + " in the root group, thread for thread, as before 2026-11-25 evening). Not used by the _PLAIN baselines")
    double loadWeight = 1;

    @Option(names = "--knee", description = "New users/s one server's static share serves (half of --server-cpus; with"
            + " the default 0-1, one CPU: bin/experiment's knee at this key; default 20)")
    double knee = 20;

    @Option(names = "--server-cpus", description = "The CPUs the two servers share: the manager's cpus, the baselines'"
            + " (default 0-1)")
    String serverCpus = "0-1";

    @Option(names = "--driver-cpus", description = "Run the load generators, MariaDB and this harness on these CPUs"
            + " only, apart from --server-cpus, as the study ran its clients and database on machines of their own"
            + " (default: anywhere, sharing the servers' CPUs). MariaDB's affinity is put back as it was at the end,"
            + " also when the run is interrupted")
    String driverCpus;

    @Option(names = "--phases", description = "Per phase, the two instances' rates as multiples of the knee "
            + "(default: both fit; first heavier; second heavier; both over; first much heavier; second much heavier)")
    String phases = "0.4:0.4,1.5:0.3,0.3:1.5,1.2:1.2,2:0.2,0.2:2";

    @Option(names = "--phase-seconds", description = "Arrivals per phase (default 60)")
    int phaseSeconds = 60;

    @Option(names = "--drain-seconds", description = "How long each phase's generators wait after their last arrival"
            + " for the sessions still running, which count as unfinished after it; a phase ends as soon as none is"
            + " left (default 60: a session here lasts up to 20 pages, whose think times add up to 13 s at the median"
            + " and 25 s in one of a thousand; with 5 s, and still once with 15 s, whether a light instance's last"
            + " arrivals completed decided a phase's comparison by 1-9 sessions)")
    int drainSeconds = 60;

    @Option(names = "--period", description = "The manager's period (default 1s)")
    String period = "1s";

    @Option(names = "--quota-period", split = ",", description = "The manager's quotaPeriod, the CFS period of its"
            + " quotas (default: the manager's default). Several (e.g. 100ms,20ms): each managed arrangement runs once"
            + " per value, labelled with it, for a side-by-side comparison")
    List<String> quotaPeriods = List.of();

    @Option(names = "--baseline-jar", description = "Another build of the manager's jar (e.g. of the main branch): each"
            + " managed arrangement also runs with it, first, labelled <arrangement>-baseline, with no quotaPeriod"
            + " written (a build before that key knows none): a before/after comparison in one run")
    Path baselineJar;

    @Option(names = "--key", description = "Server key: RSA_2048 (default), RSA_4096 (a knee the load generator can"
            + " reach several times over on this machine, as in bin/experiment's committed runs) or EC_P256")
    TestKeystore.KeyType key = TestKeystore.KeyType.RSA_2048;

    @Option(names = "--db", description = "mariadb (default) or h2")
    String db = "mariadb";

    @Option(names = "--scale", description = "RUBiS data scale (default 0.01)")
    double scale = 0.01;

    @Option(names = "--think-scale", description = "Think time scale (default 0.1, as bin/experiment)")
    double thinkScale = 0.1;

    @Option(names = "--out", description = "Results directory (default docs/results/<date>/cpu-manager)")
    Path out;

    @Option(names = "--redraw", description = "Run nothing: draw the charts of every run in --out again from its files")
    boolean redraw;

    /** The variant run with {@link #baselineJar}. */
    private static final String BASELINE = "baseline";

    private final Path root = Path.of(System.getProperty("tlsadmit.root", ".")).toAbsolutePath();
    /** The database's CPUs before {@code --driver-cpus} moved it, given back at the end. */
    private final Map<Long, String> databaseAffinity = new ConcurrentHashMap<>();
    private Path results;

    @Override
    public Integer call() throws Exception {
        if (rounds < 1) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--rounds must be at least 1, got " + rounds);
        }
        results = out != null ? out : root.resolve("docs/results/" + LocalDate.now() + "/cpu-manager");
        if (redraw) {
            redraw(results);
            return 0;
        }
        Files.createDirectories(results);
        List<double[]> schedule = schedule();
        RubisServer.Setup setup = setup();
        placeDrivers();
        // a hook, not a finally: the database must get its CPUs back when the run is interrupted too
        Thread unpin = new Thread(this::unpinDatabase, "unpin-database");
        Runtime.getRuntime().addShutdownHook(unpin);
        runAll(schedule, setup);
        Runtime.getRuntime().removeShutdownHook(unpin);
        unpinDatabase();
        System.out.println("results in " + results);
        return 0;
    }

    /**
     * With {@code --driver-cpus}: this harness (and so the generators it starts) and the database onto those CPUs, none
     * of which may be a server's.
     */
    private void placeDrivers() {
        if (driverCpus == null) {
            return;
        }
        List<Integer> drivers = CpuList.parse(driverCpus);
        String cpus = CpuList.format(drivers);
        List<Integer> servers = CpuList.parse(serverCpus);
        if (drivers.isEmpty() || drivers.stream().anyMatch(servers::contains)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--driver-cpus " + driverCpus
                    + " must list CPUs apart from --server-cpus " + serverCpus);
        }
        CpuPinning.pin(ProcessHandle.current().pid(), cpus);
        for (long pid : databasePids()) {
            databaseAffinity.put(pid, CpuPinning.affinity(pid));
            CpuPinning.pin(pid, cpus);
        }
        System.out.printf("servers on CPUs %s; load generators, database and harness on CPUs %s%n", serverCpus, cpus);
    }

    private void unpinDatabase() {
        databaseAffinity.forEach((pid, cpus) -> {
            if (ProcessHandle.of(pid).isPresent()) {
                CpuPinning.pin(pid, cpus);
            }
        });
    }

    private void runAll(List<double[]> schedule, RubisServer.Setup setup) throws Exception {
        List<String> table = new ArrayList<>(List.of("run,phase,instance,users_per_sec,sessions_completed,replies_per_sec"));
        List<String> cpu = new ArrayList<>(List.of("run,phase,instance,tomcat_cpus,driver_cpus,throttled_period_ratio,"
                + "throttled_seconds,machine_busy_cpus"));
        List<String> delays = new ArrayList<>(List.of("run,instance,changes,within_2_periods,superseded,median_periods,"
                + "max_periods,never,unobserved,via_quota"));
        for (int round = 1; round <= rounds; round++) {
            String suffix = round == 1 ? "" : "-r" + round;
            for (Arrangement arrangement : runs) {
                runVariants(arrangement, suffix, schedule, setup, table, cpu, delays);
            }
        }
    }

    private void runVariants(Arrangement arrangement, String suffix, List<double[]> schedule, RubisServer.Setup setup,
            List<String> table, List<String> cpu, List<String> delays) throws Exception {
        List<String> variants = new ArrayList<>(arrangement.managed() && !quotaPeriods.isEmpty() ? quotaPeriods
                : List.of(""));
        if (arrangement.managed() && baselineJar != null) {
            variants.add(0, BASELINE);
        }
        for (String quotaPeriod : variants) {
            String label = arrangement.label() + (quotaPeriod.equals(BASELINE) ? "-baseline"
                    : variants.size() > 1 && !quotaPeriod.isEmpty() ? "-q" + quotaPeriod : "") + suffix;
            Path runDir = results.resolve(label);
            System.out.printf("== %s%n", label);
            table.addAll(run(arrangement, label, quotaPeriod, setup, schedule, runDir, cpu, delays));
            Files.write(results.resolve("sessions.csv"), table);
            Files.write(results.resolve("cpu.csv"), cpu);
            Files.write(results.resolve("allocation-delay.csv"), delays);
        }
    }

    private List<double[]> schedule() {
        List<double[]> schedule = new ArrayList<>();
        for (String phase : phases.split(",")) {
            String[] rates = phase.trim().split(":");
            schedule.add(new double[] {Double.parseDouble(rates[0]) * knee, Double.parseDouble(rates[1]) * knee});
        }
        return schedule;
    }

    private RubisServer.Setup setup() {
        TomcatDistribution distribution = TomcatDistribution.fromBuild();
        TestKeystore keystore = TestKeystore.create(distribution.home().getParent().resolve("keystores"), key);
        String jdbcUrl = null;
        if (db.equals("mariadb")) {
            RubisDatabase database = new RubisDatabase(scale);
            System.out.println(database.prepare(root.resolve("rubis-app/target/rubis-datagen.jar")));
            jdbcUrl = database.jdbcUrl();
        }
        // every user on its own loopback address (as bin/experiment), so the gate's session grace is off
        return new RubisServer.Setup(distribution, keystore, "1.3", root.resolve("rubis-app/target/rubis.war"),
                root.resolve("valve/target/tlsadmit-tomcat.jar"), root.resolve("rubis-app/target/rubis-mariadb.xml"),
                jdbcUrl, scale, KeepAliveTimeout.millis(thinkScale), 0);
    }

    private List<String> run(Arrangement arrangement, String label, String quotaPeriod, RubisServer.Setup setup,
                             List<double[]> schedule, Path dir, List<String> cpu, List<String> delays) throws Exception {
        Files.createDirectories(dir);
        List<String> rows;
        QuotaCgroups groups = QuotaCgroups.detect(Path.of("/"), QuotaCgroups.DEFAULT_PERIOD_MICROS, weightPerCpu);
        try (RubisServer first = RubisServer.start(Mode.ADAPTIVE, setup, 0, 0);
             RubisServer second = RubisServer.start(Mode.ADAPTIVE, setup, 0, 0);
             HarnessGroup load = arrangement.weighted && loadWeight > 0
                     ? new HarnessGroup(groups, HarnessGroup.LOAD, Math.round(loadWeight * weightPerCpu)) : null;
             HarnessGroup support = arrangement.weighted ? supportGroup(groups) : null) {
            List<Integer> cpus = CpuList.parse(serverCpus);
            ServerCpus split = ServerCpus.of(cpus, arrangement.staticSplit());
            first.pin(split.first());
            second.pin(split.second());
            if (arrangement.weighted && !arrangement.managed()) {
                double each = split.quota();
                groups.weighParent(cpus.size());
                groups.adopt("first", first.tomcatPid());
                groups.limit("first", each);
                groups.adopt("second", second.tomcatPid());
                groups.limit("second", each);
            }
            Process manager = arrangement.managed()
                    ? startManager(arrangement, quotaPeriod, first.tomcatPid(), second.tomcatPid(), dir) : null;
            long managerStart = System.nanoTime();
            try (RunSampler sampler = new RunSampler(dir, first, second, arrangement.weighted ? groups : null)) {
                rows = phases(label, first, second, schedule, dir, sampler, cpu, load);
            } finally {
                // before the servers: it would log their gates vanishing while they shut down
                if (manager != null) {
                    managerCpu(label, manager, managerStart);
                    manager.destroy();
                    manager.waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
        if (arrangement.weighted) {
            removeCgroups();
        }
        if (arrangement.managed()) {
            cpuChart(dir, label);
            long periodMillis = periodMillis();
            for (String instance : List.of("first", "second")) {
                String delay = label + "," + AllocationDelay.summarize(dir.resolve("cpu-manager.csv"),
                        dir.resolve("gate-allocated.csv"), instance, periodMillis, quotaPeriodMicros(quotaPeriod));
                System.out.println("  assignment to the gate's tlsadmit_cpus_allocated: " + delay);
                delays.add(delay);
            }
        }
        return rows;
    }

    /** The charts of every run under {@code results}, from its phases' timelines and the manager's CSV. */
    private static void redraw(Path results) throws IOException {
        try (var runs = Files.list(results)) {
            for (Path dir : runs.filter(d -> Files.isDirectory(d.resolve("phase-1-first"))).sorted().toList()) {
                String label = dir.getFileName().toString();
                List<double[]> replies = new ArrayList<>(List.of(new double[0], new double[0]));
                List<double[]> arrivals = new ArrayList<>(List.of(new double[0], new double[0]));
                for (int p = 1; Files.isDirectory(dir.resolve("phase-" + p + "-first")); p++) {
                    for (int i = 0; i < 2; i++) {
                        Path phase = dir.resolve("phase-" + p + (i == 0 ? "-first" : "-second"));
                        replies.set(i, concat(replies.get(i), column(phase, "replies")));
                        arrivals.set(i, concat(arrivals.get(i), column(phase, "sessions_started")));
                    }
                }
                charts(dir, label, replies, arrivals);
                if (Files.exists(dir.resolve("cpu-manager.csv"))) {
                    cpuChart(dir, label);
                }
                System.out.println("redrew " + dir);
            }
        }
    }

    private static void charts(Path dir, String label, List<double[]> replies, List<double[]> arrivals) {
        RunChart.write(dir.resolve("throughput.png"), label + ": replies/s", "replies/s", List.of("first", "second"),
                replies);
        RunChart.write(dir.resolve("arrivals.png"), label + ": sessions started/s", "sessions started/s",
                List.of("first", "second"), arrivals);
    }

    private static void cpuChart(Path dir, String label) throws IOException {
        RunChart.write(dir.resolve("cpus.png"), label + ": CPUs assigned (one value a period)", "CPUs",
                List.of("first", "second"), List.of(assigned(dir, "first"), assigned(dir, "second")));
    }

    /** Drives both servers through the phases; one row of sessions.csv per instance and phase. */
    private List<String> phases(String label, RubisServer first, RubisServer second, List<double[]> schedule,
                                Path dir, RunSampler sampler, List<String> cpu, HarnessGroup load)
            throws Exception {
        List<String> rows = new ArrayList<>();
        List<double[]> replies = new ArrayList<>(List.of(new double[0], new double[0]));
        List<double[]> arrivals = new ArrayList<>(List.of(new double[0], new double[0]));
        for (int p = 0; p < schedule.size(); p++) {
            double[] rates = schedule.get(p);
            System.out.printf("  phase %d: %.1f and %.1f new users/s for %d s%n", p + 1, rates[0], rates[1], phaseSeconds);
            Path[] phaseDirs = {dir.resolve("phase-" + (p + 1) + "-first"), dir.resolve("phase-" + (p + 1) + "-second")};
            Process a = drive(first, rates[0], phaseDirs[0]);
            Process b = drive(second, rates[1], phaseDirs[1]);
            if (load != null) {
                load.add(a);
                load.add(b);
            }
            sampler.phaseStarted(a, b);
            await(a, phaseDirs[0]);
            await(b, phaseDirs[1]);
            List<String> used = sampler.phaseRows(label, p + 1);
            used.forEach(row -> System.out.println("  cpu: " + row));
            cpu.addAll(used);
            for (int i = 0; i < 2; i++) {
                StepFigures figures = GatlingStep.figures(phaseDirs[i], 0, phaseSeconds);
                rows.add(String.format(Locale.ROOT, "%s,%d,%s,%.1f,%.0f,%.1f", label, p + 1,
                        i == 0 ? "first" : "second", rates[i], figures.figure("sessionsCompleted"),
                        figures.perSecond("replies")));
                replies.set(i, concat(replies.get(i), column(phaseDirs[i], "replies")));
                arrivals.set(i, concat(arrivals.get(i), column(phaseDirs[i], "sessions_started")));
            }
        }
        charts(dir, label, replies, arrivals);
        return rows;
    }

    /**
     * The manager's own CPU over the run ({@code manager-cpu.csv} in the results: the issue asks that it be small and
     * measured), read before it is stopped.
     */
    private void managerCpu(String label, Process manager, long startNanos) throws IOException {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        double cpuSeconds;
        try {
            cpuSeconds = ProcessCpu.seconds(manager.pid());
        } catch (IllegalStateException exited) {
            System.out.println("  the manager had exited before the end of the run; see its log");
            return;
        }
        Path file = results.resolve("manager-cpu.csv");
        if (!Files.exists(file)) {
            Files.writeString(file, "run,seconds,cpu_seconds,cpus\n");
        }
        String row = String.format(Locale.ROOT, "%s,%.1f,%.2f,%.4f%n", label, seconds, cpuSeconds, cpuSeconds / seconds);
        Files.writeString(file, row, StandardOpenOption.APPEND);
        System.out.print("  the manager's own CPU: " + row);
    }

    /**
     * What the servers depend on and the harness itself (MariaDB, this JVM), weighted as one CPU: they use little,
     * but left in the root group at one thread's weight they waited behind the weighted servers. Created after the
     * servers started, so that they are not in it; the generators start in it and move to their own at once.
     */
    private HarnessGroup supportGroup(QuotaCgroups groups) throws IOException {
        HarnessGroup support = new HarnessGroup(groups, HarnessGroup.SUPPORT, weightPerCpu);
        support.borrow(ProcessHandle.current().pid());
        for (long pid : databasePids()) {
            support.borrow(pid);
        }
        return support;
    }

    private List<Long> databasePids() {
        if (!db.equals("mariadb")) {
            return List.of();
        }
        return ProcessHandle.allProcesses().filter(p -> {
            String command = p.info().command().orElse("");
            return command.endsWith("/mariadbd") || command.endsWith("/mysqld");
        }).map(ProcessHandle::pid).toList();
    }

    /** The manager leaves its cgroups for a successor; the next run starts from none. */
    private static void removeCgroups() throws InterruptedException {
        QuotaCgroups cgroups = QuotaCgroups.detect(Path.of("/"));
        cgroups.remove("first");
        cgroups.remove("second");
        cgroups.removeManagerGroup();
    }

    private long periodMillis() {
        return millis(period);
    }

    /** The CFS period a variant's manager writes: the baseline's and the default's are the manager's defaults. */
    private static long quotaPeriodMicros(String quotaPeriod) {
        return quotaPeriod.equals(BASELINE) ? QuotaCgroups.DEFAULT_PERIOD_MICROS
                : quotaPeriod.isEmpty() ? ConfigFile.DEFAULT_QUOTA_PERIOD.toNanos() / 1000 : 1000 * millis(quotaPeriod);
    }

    /** A duration as the manager's configuration writes it: 500ms, 1s, 1m. */
    private static long millis(String duration) {
        String p = duration.trim();
        return p.endsWith("ms") ? Long.parseLong(p.substring(0, p.length() - 2))
                : p.endsWith("s") ? 1000 * Long.parseLong(p.substring(0, p.length() - 1))
                : 60_000 * Long.parseLong(p.substring(0, p.length() - 1));
    }

    private Process startManager(Arrangement arrangement, String quotaPeriod, long firstPid, long secondPid, Path dir)
            throws IOException {
        Files.writeString(dir.resolve("first.pid"), firstPid + "\n");
        Files.writeString(dir.resolve("second.pid"), secondPid + "\n");
        Path config = Files.writeString(dir.resolve("cpu-manager.yaml"), String.format(Locale.ROOT, """
                cpus: "%s"
                period: %s
                enforce: quota
                share: %s
                minCpus: 0.1
                metricsPort: 0
                %s%sapplications:
                  - name: first
                    pidFile: first.pid
                    priority: %d
                  - name: second
                    pidFile: second.pid
                    priority: 1
                """, serverCpus, period, arrangement.share,
                quotaPeriod.isEmpty() || quotaPeriod.equals(BASELINE) ? "" : "quotaPeriod: " + quotaPeriod + "\n",
                quotaPeriod.equals(BASELINE) ? "" : "weightPerCpu: " + weightPerCpu + "\n",
                arrangement.firstPriority));
        Path jar = quotaPeriod.equals(BASELINE) ? baselineJar.toAbsolutePath()
                : root.resolve("cpu-manager/target/tlsadmit-cpu-manager.jar");
        return new ProcessBuilder(java(), "-Xmx64m", "-jar", jar.toString(), "--config", config.toString(), "--csv", dir.resolve("cpu-manager.csv").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("cpu-manager.log").toFile()).start();
    }

    private Process drive(RubisServer server, double rate, Path dir) throws IOException {
        Files.createDirectories(dir);
        // with --driver-cpus the generator inherits this harness's affinity (placeDrivers)
        List<String> command = new ArrayList<>(List.of(java(), "-Xmx1g",
                "--add-opens=java.base/java.lang=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                PhaseDriver.class.getName(), dir.toString(), dir.getFileName().toString()));
        command.add("rubis.baseUrl=" + server.baseUrl());
        command.add("rubis.metricsUrl=" + server.metricsUrl());
        command.add("rubis.serverPid=" + server.tomcatPid());
        command.add("rubis.mix=browsing");
        command.add("rubis.connectionsPerUser=1");
        command.add("rubis.sourceAddresses=" + ExperimentOptions.DEFAULT_SOURCE_ADDRESSES);
        command.add("rubis.model=open");
        command.add("rubis.poisson=true");
        command.add("rubis.usersPerSec=" + rate);
        command.add("rubis.durationSec=" + phaseSeconds);
        command.add("rubis.drainSec=" + drainSeconds);
        command.add("rubis.thinkTimeScale=" + thinkScale);
        command.add("rubis.maxTransitions=20");
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("driver.log").toFile()).start();
    }

    private static void await(Process driver, Path dir) throws InterruptedException {
        if (driver.waitFor() != 0) {
            throw new IllegalStateException("the Gatling run in " + dir + " failed; see driver.log there");
        }
    }

    /** A per-second column of a phase's {@code timeline.csv}. */
    private static double[] column(Path dir, String name) throws IOException {
        List<String> lines = Files.readAllLines(dir.resolve("timeline.csv"));
        int index = List.of(lines.get(0).split(",")).indexOf(name);
        return lines.subList(1, lines.size()).stream().filter(l -> !l.isBlank())
                .mapToDouble(l -> index < 0 ? 0 : Double.parseDouble(l.split(",")[index])).toArray();
    }

    /** The manager's {@code cpus_assigned} series for one application, from its CSV. */
    private static double[] assigned(Path dir, String app) throws IOException {
        List<String> lines = Files.readAllLines(dir.resolve("cpu-manager.csv"));
        List<String> header = List.of(lines.get(0).split(","));
        int appColumn = header.indexOf("app");
        int assignedColumn = header.indexOf("cpus_assigned");
        return lines.subList(1, lines.size()).stream().map(l -> l.split(","))
                .filter(cells -> cells[appColumn].equals(app))
                .mapToDouble(cells -> Double.parseDouble(cells[assignedColumn])).toArray();
    }

    private static double[] concat(double[] a, double[] b) {
        double[] both = new double[a.length + b.length];
        System.arraycopy(a, 0, both, 0, a.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new SharingExperiment()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }
}

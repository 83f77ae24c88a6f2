package io.tlsadmit.attack;

import io.tlsadmit.attack.report.RunDescription;
import io.tlsadmit.attack.report.ScenarioReport;
import io.tlsadmit.attack.report.SummaryWriter;
import io.tlsadmit.attack.scenario.Bench;
import io.tlsadmit.attack.scenario.ForgedHelloScenario;
import io.tlsadmit.attack.scenario.NewClientFloodScenario;
import io.tlsadmit.attack.scenario.RenegotiationScenario;
import io.tlsadmit.attack.scenario.Scenario;
import io.tlsadmit.attack.scenario.SlowHelloScenario;
import io.tlsadmit.attack.server.TlsEngine;
import io.tlsadmit.testing.CpuPinning;
import io.tlsadmit.testing.Jdk;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The attack benchmark: how much server CPU hostile TLS clients can make a gated Tomcat spend, and
 * what that takes from legitimate clients. Each scenario runs its own fresh Tomcat pinned to CPU 0;
 * this driver runs on CPU 1.
 */
@Command(name = "attack-benchmark", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Hostile TLS clients against a gated Tomcat: renegotiation, forged PSK, forged ticket, slow hello.")
public final class AttackBenchmark implements Callable<Integer> {
    private static final Map<String, Scenario> SCENARIOS = Map.of(
            "renegotiation", new RenegotiationScenario(),
            "forged-psk", ForgedHelloScenario.psk(),
            "forged-ticket", ForgedHelloScenario.ticket(),
            "slow-hello", new SlowHelloScenario(),
            "new-client-flood", new NewClientFloodScenario());

    @Option(names = "--scenarios", split = ",", paramLabel = "NAME",
            description = "Scenarios in order (default: ${DEFAULT-VALUE}).",
            defaultValue = "renegotiation,forged-psk,forged-ticket,slow-hello")
    List<String> scenarios;

    @Option(names = "--engines", split = ",", paramLabel = "ENGINE",
            description = "TLS engines of the gated connector, each scenario run once per engine, side by side:"
                    + " jsse (gated, the default), openssl (Tomcat's OpenSSL through FFM with the late gate),"
                    + " openssl-ungated (Tomcat's OpenSSL implementation as it comes, no late gate); openssl needs"
                    + " --jdk 22 or later (default: ${DEFAULT-VALUE}).", defaultValue = "jsse")
    List<String> engines;

    @Option(names = "--jdk", paramLabel = "FEATURE", description = "The JDK release Tomcat runs on, found under"
            + " /usr/lib/jvm (default: the one running this driver).")
    Integer jdkFeature;

    @Option(names = "--budget", description = "static or adaptive (default: ${DEFAULT-VALUE}).", defaultValue = "static")
    String budget;

    @Option(names = "--gate-jar", paramLabel = "PATH", description = "The gate jar to test (default: valve/target/tlsadmit-tomcat.jar).")
    Path gateJar;

    @Option(names = "--seconds", description = "Length of each phase (default: ${DEFAULT-VALUE}).", defaultValue = "20")
    double seconds;

    @Option(names = "--slow-seconds", description = "Length of the slow-hello attack phase (default: ${DEFAULT-VALUE}).",
            defaultValue = "60")
    double slowSeconds;

    @Option(names = "--slow-rate", description = "Slow connections opened per second (default: ${DEFAULT-VALUE}).",
            defaultValue = "140")
    double slowRate;

    @Option(names = "--forged-rate", description = "Forged hellos per second (default: ${DEFAULT-VALUE}).", defaultValue = "400")
    double forgedRate;

    @Option(names = "--ticket-64-sources", description = "Also run forged-ticket from 64 sources (default: one source only).")
    boolean ticketFromManySources;

    @Option(names = "--flood-rate", description = "new-client-flood: new clients per second (default: ${DEFAULT-VALUE}).",
            defaultValue = "2000")
    double floodRate;

    @Option(names = "--flood-rounds", description = "new-client-flood: rounds of close and reset, alternated"
            + " (default: ${DEFAULT-VALUE}).", defaultValue = "2")
    int floodRounds;

    @Option(names = "--out", paramLabel = "DIR", description = "Where summary.md and results.csv go (default: docs/results/<date>-attacks).")
    Path out;

    public static void main(String[] args) {
        System.exit(new CommandLine(new AttackBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        for (String name : scenarios) {
            if (!SCENARIOS.containsKey(name)) {
                throw new CommandLine.ParameterException(new CommandLine(this), "unknown scenario " + name
                        + ", expected some of "
                        + String.join(",", new java.util.TreeSet<>(SCENARIOS.keySet())));
            }
        }
        if (!(floodRate > 0) || floodRounds < 1) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                    "--flood-rate must be > 0 and --flood-rounds ≥ 1");
        }
        if (!budget.equals("static") && !budget.equals("adaptive")) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--budget must be static or adaptive");
        }
        List<TlsEngine> tls = new ArrayList<>();
        for (String label : engines) {
            try {
                tls.add(TlsEngine.of(label));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(new CommandLine(this), "--engines: " + e.getMessage());
            }
        }
        Jdk jdk = jdkFeature == null ? Jdk.current() : Jdk.find(jdkFeature).orElseThrow(() -> new CommandLine.ParameterException(
                new CommandLine(this), "--jdk " + jdkFeature + ": no such JDK under /usr/lib/jvm"));
        if (jdk.feature() < TlsEngine.OPENSSL_MIN_JAVA && tls.stream().anyMatch(TlsEngine::isOpenSsl)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--engines openssl and openssl-ungated need"
                    + " --jdk " + TlsEngine.OPENSSL_MIN_JAVA + " or later (Tomcat's OpenSSL through FFM)");
        }
        Path root = Path.of(System.getProperty("tlsadmit.root", ".")).toAbsolutePath().normalize();
        Path jar = (gateJar != null ? gateJar : root.resolve("valve/target/tlsadmit-tomcat.jar")).toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "no gate jar at " + jar);
        }
        Path dir = (out != null ? out : root.resolve("docs/results/" + LocalDate.now() + "-attacks")).toAbsolutePath();
        Files.createDirectories(dir);
        TomcatDistribution distribution = TomcatDistribution.fromBuild();
        TestKeystore keystore = TestKeystore.create(distribution.home().getParent().resolve("keystores"),
                TestKeystore.KeyType.RSA_2048);
        // described before pinning: availableProcessors() then still counts the machine's CPUs
        RunDescription run = RunDescription.of(jar, distribution.version(), jdk, "bin/attack-benchmark "
                + String.join(" ", ProcessHandle.current().info().arguments().map(a -> argsAfterJar(a)).orElse(new String[0])));
        CpuPinning.pin(ProcessHandle.current().pid(), "1");
        // every scenario gets the same build, even if valve/target is rebuilt while we run
        Path snapshot = Files.createTempFile("attacked-gate-", ".jar");
        snapshot.toFile().deleteOnExit();
        Files.copy(jar, snapshot, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Bench bench = new Bench(distribution, keystore, snapshot, root, dir, budget, seconds, slowSeconds, forgedRate,
                ticketFromManySources, slowRate, floodRate, floodRounds, tls.get(0), jdk);
        List<ScenarioReport> reports = new ArrayList<>();
        for (String name : scenarios) {
            for (TlsEngine engine : tls) {
                reports.add(SCENARIOS.get(name).run(bench.with(engine)));
                SummaryWriter.write(dir, run, reports); // after every pass: a later failure keeps what was measured
            }
        }
        System.out.println();
        System.out.print(SummaryWriter.markdown(run, reports));
        Bench.log("written: %s, %s", dir.resolve("summary.md"), dir.resolve("results.csv"));
        return 0;
    }

    /** The command line as typed: the JVM's own arguments up to the jar are not part of it. */
    private static String[] argsAfterJar(String[] all) {
        for (int i = 0; i < all.length; i++) {
            if (all[i].endsWith(".jar")) {
                return java.util.Arrays.copyOfRange(all, i + 1, all.length);
            }
        }
        return all;
    }
}

package io.tlsadmit.cpumanager;

import io.tlsadmit.cpumanager.config.ConfigException;
import io.tlsadmit.cpumanager.config.ConfigFile;
import io.tlsadmit.cpumanager.config.ManagerConfig;
import io.tlsadmit.cpumanager.enforcement.EnforcementException;
import io.tlsadmit.cpumanager.probe.AttachedGate;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code java -jar tlsadmit-cpu-manager.jar --config FILE}: see {@code cpu-manager/README.md}. */
@Command(name = "tlsadmit-cpu-manager", mixinStandardHelpOptions = true,
        description = "Shares this host's CPUs between gated Tomcats by what each requests and its priority.")
public final class CpuManagerCommand implements Callable<Integer> {

    /** Exit status for a configuration the manager refuses (nothing was touched). */
    static final int BAD_CONFIG = 2;
    /** Exit status when the host cannot enforce what the configuration asks (e.g. no cgroup cpu controller). */
    static final int CANNOT_ENFORCE = 3;

    @Option(names = "--config", required = true, description = "The YAML configuration.")
    Path config;

    @Option(names = "--dry-run", description = "Read requests and print the assignments each period; enforce nothing, "
            + "tell no gate.")
    boolean dryRun;

    @Option(names = "--kubernetes-container", paramLabel = "NAME", description = "With --dry-run: also print, per "
            + "application (= pod name), the in-place resize of this container it would send.")
    String kubernetesContainer;

    @Option(names = "--csv", description = "The run's time series (default: cpu-manager-<start>.csv in the working "
            + "directory; 'none' for no file).")
    String csv;

    @Option(names = "--periods", description = "Stop after this many periods (default 0: run until stopped).")
    long periods;

    @Option(names = "--fs-root", hidden = true, defaultValue = "/", description = "Where /proc and /sys are (tests).")
    Path fsRoot;

    @Override
    public Integer call() throws Exception {
        ManagerConfig parsed;
        try {
            parsed = new ConfigFile(ConfigFile.onlineCpus(fsRoot)).read(config);
        } catch (ConfigException e) {
            System.err.println("tlsadmit cpu-manager: bad configuration " + config + ": " + e.getMessage());
            return BAD_CONFIG;
        }
        if (kubernetesContainer != null && !dryRun) {
            System.err.println("tlsadmit cpu-manager: --kubernetes-container only goes with --dry-run");
            return BAD_CONFIG;
        }
        Path csvFile = "none".equals(csv) ? null : Path.of(csv != null ? csv
                : "cpu-manager-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + ".csv");
        try (CpuManager manager = new CpuManager(parsed, fsRoot, dryRun, kubernetesContainer, AttachedGate::attach,
                csvFile, System.out)) {
            if (periods == 0) {
                Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println(
                        "tlsadmit cpu-manager: stopping; assignments stay in place for the next manager")));
            }
            manager.run(periods);
        } catch (EnforcementException e) {
            System.err.println("tlsadmit cpu-manager: " + e.getMessage());
            return CANNOT_ENFORCE;
        }
        return 0;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new CpuManagerCommand()).execute(args));
    }
}

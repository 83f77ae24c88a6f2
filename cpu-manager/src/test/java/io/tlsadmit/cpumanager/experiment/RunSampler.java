package io.tlsadmit.cpumanager.experiment;

import io.tlsadmit.admission.cpu.CpuList;
import io.tlsadmit.admission.cpu.CpuTicks;
import io.tlsadmit.admission.cpu.TaskStat;
import io.tlsadmit.cpumanager.enforcement.QuotaCgroups;
import io.tlsadmit.experiment.server.ProcessCpu;
import io.tlsadmit.experiment.server.RubisServer;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a run's CPU went, sampled while it runs, so that a figure of the experiment can be explained and not only
 * reported: every 250 ms, each gate's own {@code tlsadmit_cpus_allocated} (from its metrics page: what its budget
 * plans with, whichever path — cgroup quota or {@code CpusAssigned} — brought it), and per phase the CPU seconds of
 * each Tomcat and of each instance's load generator, the kernel's throttling of each manager cgroup, and the whole
 * machine's busy CPU (the machine is shared: what is neither ours nor the generators' is someone else's).
 *
 * <p>Files: {@code gate-allocated.csv} ({@code epoch_millis,instance,cpus_allocated}) and one row per phase and
 * instance in the caller's table ({@link #phaseRows}).
 */
final class RunSampler implements AutoCloseable {

    private static final Pattern ALLOCATED = Pattern.compile("(?m)^tlsadmit_cpus_allocated\\{[^}]*} (\\S+)$");
    private static final String[] NAMES = {"first", "second"};

    private final RubisServer[] servers;
    private final QuotaCgroups cgroups;
    private final BufferedWriter gateCsv;
    private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(2, r -> {
        Thread t = new Thread(r, "run-sampler");
        t.setDaemon(true);
        return t;
    });
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private final Process[] drivers = new Process[2];
    private final double[] driverSeconds = new double[2];
    private Snapshot start;

    /** @param cgroups the manager's cgroups (throttling), or null in an arrangement without a manager */
    RunSampler(Path dir, RubisServer first, RubisServer second, QuotaCgroups cgroups) throws IOException {
        this.servers = new RubisServer[] {first, second};
        this.cgroups = cgroups;
        this.gateCsv = Files.newBufferedWriter(dir.resolve("gate-allocated.csv"), StandardCharsets.UTF_8);
        gateCsv.write("epoch_millis,instance,cpus_allocated\n");
        for (int i = 0; i < 2; i++) {
            int instance = i;
            timer.scheduleWithFixedDelay(() -> scrapeGate(instance), 0, 250, TimeUnit.MILLISECONDS);
        }
        timer.scheduleWithFixedDelay(this::sampleDrivers, 0, 500, TimeUnit.MILLISECONDS);
    }

    /** A phase's generators have started. */
    synchronized void phaseStarted(Process firstDriver, Process secondDriver) {
        drivers[0] = firstDriver;
        drivers[1] = secondDriver;
        driverSeconds[0] = 0;
        driverSeconds[1] = 0;
        start = snapshot();
    }

    /**
     * After both generators of the phase exited: per instance, {@code run,phase,instance,tomcat_cpus,driver_cpus,
     * throttled_period_ratio,throttled_seconds,machine_busy_cpus} (CPUs = CPU seconds over the phase's wall time).
     */
    synchronized List<String> phaseRows(String run, int phase) {
        Snapshot end = snapshot();
        double wall = (end.nanos - start.nanos) / 1e9;
        double machine = (end.machineBusySeconds - start.machineBusySeconds) / wall;
        String[] rows = new String[2];
        for (int i = 0; i < 2; i++) {
            double tomcat = (end.tomcatSeconds[i] - start.tomcatSeconds[i]) / wall;
            // the generator's last reading while it lived (an exited process has no /proc entry)
            double driver = driverSeconds[i] / wall;
            String ratio = "";
            String throttled = "";
            if (end.throttling[i] != null) {
                // no cgroup at the start: the manager (started with the run) created it during this phase
                QuotaCgroups.Throttling from = start.throttling[i] != null ? start.throttling[i]
                        : new QuotaCgroups.Throttling(0, 0, 0);
                long periods = end.throttling[i].periods() - from.periods();
                long periodsThrottled = end.throttling[i].throttledPeriods() - from.throttledPeriods();
                ratio = periods == 0 ? "0" : String.format(Locale.ROOT, "%.3f", (double) periodsThrottled / periods);
                throttled = String.format(Locale.ROOT, "%.2f", end.throttling[i].throttledSeconds() - from.throttledSeconds());
            }
            rows[i] = String.format(Locale.ROOT, "%s,%d,%s,%.2f,%.2f,%s,%s,%.2f", run, phase, NAMES[i], tomcat, driver,
                    ratio, throttled, machine);
        }
        return List.of(rows);
    }

    private Snapshot snapshot() {
        Snapshot s = new Snapshot();
        s.nanos = System.nanoTime();
        s.machineBusySeconds = machineBusySeconds();
        for (int i = 0; i < 2; i++) {
            s.tomcatSeconds[i] = servers[i].cpuSeconds();
            s.throttling[i] = cgroups == null ? null : cgroups.throttling(NAMES[i]).orElse(null);
        }
        return s;
    }

    private synchronized void sampleDrivers() {
        for (int i = 0; i < 2; i++) {
            Process driver = drivers[i];
            if (driver != null && driver.isAlive()) {
                try {
                    driverSeconds[i] = ProcessCpu.seconds(driver.pid());
                } catch (IllegalStateException exited) {
                    // it ended between the check and the read: keep the last reading
                }
            }
        }
    }

    private void scrapeGate(int instance) {
        try {
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(servers[instance].metricsUrl()))
                    .timeout(Duration.ofSeconds(1)).build(), HttpResponse.BodyHandlers.ofString());
            Matcher m = ALLOCATED.matcher(page.body());
            if (page.statusCode() == 200 && m.find()) {
                String row = System.currentTimeMillis() + "," + NAMES[instance] + "," + m.group(1) + "\n";
                synchronized (gateCsv) {
                    gateCsv.write(row);
                }
            }
        } catch (IOException e) {
            // a gate too busy to answer its metrics page within a second: no sample this time
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Busy time of all the host's online CPUs (idle and iowait not), from {@code /proc/stat}, in CPU seconds. */
    private static double machineBusySeconds() {
        try {
            List<Integer> online = CpuList.parse(Files.readString(Path.of("/sys/devices/system/cpu/online")).strip());
            return CpuTicks.read(Path.of("/"), online).busy() / (double) TaskStat.TICKS_PER_SECOND;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws IOException {
        timer.shutdownNow();
        try {
            timer.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (gateCsv) {
            gateCsv.close();
        }
    }

    private static final class Snapshot {
        long nanos;
        double machineBusySeconds;
        final double[] tomcatSeconds = new double[2];
        final QuotaCgroups.Throttling[] throttling = new QuotaCgroups.Throttling[2];
    }
}

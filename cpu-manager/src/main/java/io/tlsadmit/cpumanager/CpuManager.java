package io.tlsadmit.cpumanager;

import io.tlsadmit.admission.cpu.Capacity;
import io.tlsadmit.admission.cpu.CpuTicks;
import io.tlsadmit.cpumanager.config.ShareableCpus;
import io.tlsadmit.admission.cpu.CpuList;
import io.tlsadmit.cpumanager.config.ManagerConfig;
import io.tlsadmit.cpumanager.enforcement.PodResize;
import io.tlsadmit.cpumanager.enforcement.QuotaCgroups;
import io.tlsadmit.cpumanager.enforcement.ThreadAffinity;
import io.tlsadmit.cpumanager.metrics.MetricsEndpoint;
import io.tlsadmit.cpumanager.metrics.MetricsExposition;
import io.tlsadmit.cpumanager.metrics.RunCsv;
import io.tlsadmit.cpumanager.metrics.ServerSample;
import io.tlsadmit.cpumanager.policy.Assignment;
import io.tlsadmit.cpumanager.policy.Claim;
import io.tlsadmit.cpumanager.policy.Damping;
import io.tlsadmit.cpumanager.policy.Demand;
import io.tlsadmit.cpumanager.policy.Distribution;
import io.tlsadmit.cpumanager.probe.GateProbe;
import io.tlsadmit.cpumanager.probe.GateReading;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The period loop: read every server's request, decide by policy, enforce in the operating system, tell
 * each gate its {@code CpusAssigned}, account for use.
 *
 * <p>What a server claims is its gate's request, raised by what the manager sees itself ({@link Demand}): the
 * CPUs its process used against its assignment; while its gate answers, the median of its last claims
 * ({@link Damping}). What is shared out is the {@code cpus} less what other processes used on them
 * ({@link Capacity}, {@code capacity: measured}), or all of them.
 *
 * <p>Resilience: a server whose gate does not answer (dead, restarting, stuck in a GC, starved) claims at least
 * its last request and its assignment for {@link #GRACE_PERIODS} periods, so one missed reading moves no CPU; after that a live but
 * silent server claims what its process uses (a hung one: nothing, so the floor; a starved one climbs, see
 * {@link Demand}) and a dead one leaves the pool. A restarted
 * manager starts from the quota each server's cgroup already has, and nothing is reset on exit, so
 * restarting the manager does not move a CPU.
 */
public final class CpuManager implements AutoCloseable {

    /** Periods a silent server keeps its request before its CPUs return to the pool. */
    static final int GRACE_PERIODS = 3;

    /** Opens the line to a server's gate. */
    @FunctionalInterface
    public interface ProbeFactory {
        GateProbe open(long pid) throws IOException;
    }

    private final ManagerConfig config;
    private final boolean dryRun;
    private final String kubernetesContainer;
    private final ProbeFactory probes;
    private final PrintStream log;
    private final QuotaCgroups cgroups;
    private final ThreadAffinity affinity;
    private final List<ServerState> servers = new ArrayList<>();
    private final ExecutorService gateCalls;
    private final RunCsv csv;
    private final MetricsEndpoint metrics;
    private final Path fsRoot;
    /** The {@code cpus}' ticks at the last period, null until read (or when {@code /proc/stat} cannot be read). */
    private CpuTicks ticksAtMark;
    /** What other processes used of the {@code cpus} in the last periods, newest last (NaN: unknown). */
    private final List<Double> others = new ArrayList<>();
    private double available;
    private volatile String metricsText = "";
    private long periods;

    /**
     * @param fsRoot              where {@code /proc} and {@code /sys} are ({@code /} in production)
     * @param dryRun              decide and print, enforce nothing and tell no gate
     * @param kubernetesContainer with {@code dryRun}: also print the pod resize for this container name, or null
     * @param csvFile             the run's time series, or null
     */
    public CpuManager(ManagerConfig config, Path fsRoot, boolean dryRun, String kubernetesContainer,
                      ProbeFactory probes, Path csvFile, PrintStream log) throws IOException {
        this.config = config;
        this.dryRun = dryRun;
        this.kubernetesContainer = kubernetesContainer;
        this.probes = probes;
        this.log = log;
        this.cgroups = !dryRun && config.enforcement().quota() ? QuotaCgroups.detect(fsRoot, config.quotaPeriod().toNanos() / 1000,
                config.weightPerCpu())
                : null;
        if (cgroups != null) {
            cgroups.weighParent(config.cpus().size());
            cgroups.weighManager(ProcessHandle.current().pid());
        }
        this.affinity = new ThreadAffinity(fsRoot);
        this.fsRoot = fsRoot;
        this.available = config.cpus().size();
        this.gateCalls = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "tlsadmit-cpu-manager-gate");
            t.setDaemon(true);
            return t;
        });
        // Adopt: what the servers' cgroups hold now stands for their requests until their gates answer.
        double[] quotas = new double[config.applications().size()];
        List<Integer> priorities = new ArrayList<>();
        for (int i = 0; i < quotas.length; i++) {
            var application = config.applications().get(i);
            OptionalDouble existing = cgroups == null ? OptionalDouble.empty() : cgroups.limit(application.name());
            quotas[i] = existing.orElse(Double.NaN);
            priorities.add(application.priority());
        }
        double[] adopted = Distribution.adoptedRequests(priorities, quotas, config.cpus().size());
        for (int i = 0; i < quotas.length; i++) {
            servers.add(new ServerState(config.applications().get(i), adopted[i]));
        }
        this.csv = csvFile == null ? null : new RunCsv(csvFile);
        this.metrics = new MetricsEndpoint(config.metricsPort(), () -> metricsText);
        log.printf(Locale.ROOT, "tlsadmit cpu-manager: %d CPUs (%s, capacity %s), enforce %s%s, period %d ms, metrics "
                        + "http://127.0.0.1:%d/metrics%s%n", config.cpus().size(), CpuList.format(config.cpus()),
                config.capacity().key(),
                config.enforcement().key(), cgroups == null ? "" : " (cgroup " + cgroups.version() + ", CFS period "
                        + config.quotaPeriod().toMillis() + " ms, weight " + config.weightPerCpu() + " per CPU)",
                config.period().toMillis(), metrics.port(), dryRun ? ", DRY RUN: nothing is enforced" : "");
    }

    public int metricsPort() {
        return metrics.port();
    }

    /** Runs {@code count} periods (0 = until interrupted). */
    public void run(long count) throws InterruptedException {
        long periodNanos = config.period().toNanos();
        long next = System.nanoTime();
        for (long i = 0; count == 0 || i < count; i++) {
            period();
            next += periodNanos;
            long sleep = next - System.nanoTime();
            if (sleep > 0) {
                TimeUnit.NANOSECONDS.sleep(sleep);
            } else {
                next = System.nanoTime(); // a slow period does not make the next ones run back to back
            }
        }
    }

    /** One period; public for tests that step the manager. */
    public List<ServerSample> period() {
        for (ServerState server : servers) {
            long pid = server.readPid();
            if (pid != server.pid) {
                server.pidChanged(pid);
            }
        }
        long now = System.nanoTime();
        for (ServerState server : servers) {
            server.markUse(now);
        }
        measureOthers();
        readGates();
        List<ServerState> pool = new ArrayList<>();
        List<Claim> claims = new ArrayList<>();
        for (ServerState server : servers) {
            boolean inGrace = server.silentPeriods <= GRACE_PERIODS;
            if (server.pid > 0 || inGrace) {
                pool.add(server);
                Demand.Voice voice = server.answering ? Demand.Voice.ANSWERED
                        : inGrace ? Demand.Voice.MISSED : Demand.Voice.LOST;
                double claim = Demand.claim(server.request, voice, server.assigned, server.usedCpus);
                if (voice == Demand.Voice.ANSWERED) {
                    server.recentClaims.add(claim);
                    if (server.recentClaims.size() > Damping.PERIODS) {
                        server.recentClaims.remove(0);
                    }
                    claim = Damping.claim(server.recentClaims);
                } else {
                    server.recentClaims.clear(); // the grace and what follows it have their own timing
                }
                server.claimed = claim;
                claims.add(new Claim(server.name(), server.application.priority(), server.claimed));
            } else {
                server.assigned = 0;
                server.quota = 0;
                server.cpuSet = List.of();
                server.recentClaims.clear();
            }
        }
        available = config.capacity() == ShareableCpus.ALL ? config.cpus().size()
                : Capacity.available(config.cpus().size(), pool.size() * config.minCpus(), others);
        if (!claims.isEmpty()) {
            List<Assignment> decided = Distribution.decide(claims, available, config.cpus(), config.minCpus(),
                    config.share(), config.enforcement().quota(), config.enforcement().affinity());
            for (int i = 0; i < pool.size(); i++) {
                pool.get(i).assigned = decided.get(i).cpus();
                pool.get(i).quota = decided.get(i).ceiling();
                pool.get(i).cpuSet = decided.get(i).cpuSet();
            }
        }
        if (dryRun) {
            print();
        } else {
            enforce();
        }
        List<ServerSample> samples = new ArrayList<>();
        for (ServerState server : servers) {
            server.account();
            samples.add(new ServerSample(server.name(), server.pid, server.answering, server.request, server.assigned,
                    server.quota,
                    server.lastReading == null ? Double.NaN : server.lastReading.allocated(), server.cpuSeconds(),
                    server.claimed, server.usedCpus,
                    server.cpuSet));
        }
        periods++;
        double own = ProcessHandle.current().info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(Double.NaN);
        metricsText = MetricsExposition.render(samples, available, own, periods);
        if (csv != null) {
            csv.append(System.currentTimeMillis(), available, samples);
        }
        return samples;
    }

    /**
     * What processes the manager does not manage used of the {@code cpus} since the last period: their busy time less
     * the servers' own CPU time, read right after {@link ServerState#markUse} so that both cover the same interval.
     * Kept for {@link Capacity#WINDOW} periods. Not read with {@code capacity: all}.
     */
    private void measureOthers() {
        if (config.capacity() == ShareableCpus.ALL) {
            return;
        }
        CpuTicks now;
        try {
            now = CpuTicks.read(fsRoot, config.cpus());
        } catch (IOException | RuntimeException e) {
            if (ticksAtMark != null || others.isEmpty()) {
                log.println("cpu-manager: cannot read " + fsRoot.resolve("proc/stat") + " (" + e.getMessage()
                        + "): sharing out all the cpus until it can");
            }
            ticksAtMark = null;
            others.add(Double.NaN);
            trimOthers();
            return;
        }
        double busy = ticksAtMark == null ? Double.NaN : now.busyCpusSince(ticksAtMark, config.cpus().size());
        double managed = 0;
        for (ServerState server : servers) {
            if (server.pid > 0) {
                managed += server.usedCpus; // NaN for a server measured once only: then nothing is known
            }
        }
        others.add(Capacity.others(busy, managed));
        trimOthers();
        ticksAtMark = now;
    }

    private void trimOthers() {
        while (others.size() > Capacity.WINDOW) {
            others.remove(0);
        }
    }

    /**
     * Asks every live server's gate at once, each bounded by the time left in the period. Attaching to a JVM
     * the first time starts its management agent, which may take longer than a period on a busy host: an
     * attach not done by the deadline is left running and the server counts as silent this period.
     */
    private void readGates() {
        long deadline = System.nanoTime() + answerTimeout().toNanos();
        for (ServerState server : servers) {
            if (server.pid > 0 && server.probe == null && server.attaching == null) {
                long pid = server.pid;
                server.attaching = gateCalls.submit(() -> probes.open(pid));
            }
        }
        Map<ServerState, Future<GateReading>> calls = new HashMap<>();
        for (ServerState server : servers) {
            if (server.attaching != null) {
                try {
                    server.probe = server.attaching.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    server.attaching = null;
                } catch (TimeoutException e) {
                    continue; // still attaching
                } catch (ExecutionException e) {
                    server.attaching = null;
                    if (server.answering || server.silentPeriods == 0) {
                        log.println("cpu-manager: " + server.name() + " (pid " + server.pid + "): " + e.getCause());
                    }
                    continue;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            if (server.probe != null) {
                GateProbe probe = server.probe;
                calls.put(server, gateCalls.submit(probe::read));
            }
        }
        for (ServerState server : servers) {
            Future<GateReading> call = calls.get(server);
            if (call == null) {
                server.answering = false;
                server.silentPeriods++;
                continue;
            }
            try {
                GateReading reading = call.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                server.lastReading = reading;
                server.request = reading.requested();
                server.answering = true;
                server.silentPeriods = 0;
            } catch (TimeoutException e) {
                // slow, not broken (a loaded host, a GC pause): the connection is kept for the next period
                call.cancel(true);
                server.answering = false;
                server.silentPeriods++;
                if (server.silentPeriods == CpuManager.GRACE_PERIODS + 1) {
                    log.println("cpu-manager: " + server.name() + " (pid " + server.pid + ") has not answered for "
                            + server.silentPeriods + " periods: it claims only what it uses");
                }
            } catch (ExecutionException e) {
                if (server.answering || server.silentPeriods == 0) {
                    log.println("cpu-manager: " + server.name() + " (pid " + server.pid + ") did not answer: " + e.getCause());
                }
                server.answering = false;
                server.silentPeriods++;
                server.closeProbe(); // a failed connection is not reused: reattach next period
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private Duration answerTimeout() {
        return Duration.ofMillis(Math.min(config.period().toMillis() / 2, 5_000));
    }

    private void enforce() {
        for (ServerState server : servers) {
            if (server.pid <= 0 || server.assigned <= 0) {
                continue;
            }
            try {
                if (cgroups != null) {
                    cgroups.adopt(server.name(), server.pid);
                    cgroups.limit(server.name(), server.quota);
                }
                if (config.enforcement().affinity()
                        && (server.pinnedPid != server.pid || !server.pinnedSet.equals(server.cpuSet))) {
                    affinity.pin(server.pid, server.cpuSet);
                    server.pinnedPid = server.pid;
                    server.pinnedSet = server.cpuSet;
                }
            } catch (RuntimeException e) {
                log.println("cpu-manager: enforcing " + server.name() + ": " + e.getMessage());
            }
            if (server.probe != null) {
                tell(server, server.probe, server.assigned);
            }
        }
    }

    /**
     * Sets the gate's {@code CpusAssigned}, not awaited: a slow gate delays only its own budget, not the next period.
     * Also when this period's reading timed out: a gate that is slow to answer under load is exactly the one whose
     * share is moving, and the gate takes the smaller of its cgroup quota and {@code CpusAssigned}, so a quota that
     * went up reaches its budget only through this call (one that went down, through the quota at once). One call
     * per server at a time, with the newest value.
     */
    private void tell(ServerState server, GateProbe probe, double cpus) {
        if (server.unsentAssignment.getAndSet(cpus) != null) {
            return; // a call is under way and takes the newest value when it is done
        }
        gateCalls.submit(() -> {
            Double value = server.unsentAssignment.get();
            while (value != null) {
                try {
                    probe.assign(value);
                } catch (IOException | RuntimeException e) {
                    log.println("cpu-manager: telling " + server.name() + " its CpusAssigned: " + e.getMessage());
                    server.unsentAssignment.set(null); // the next period sends again (over a new connection if needed)
                    return null;
                }
                if (server.unsentAssignment.compareAndSet(value, null)) {
                    return null;
                }
                value = server.unsentAssignment.get();
            }
            return null;
        });
    }

    private void print() {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "assign (of %.2f CPUs)", available));
        for (ServerState server : servers) {
            line.append(String.format(Locale.ROOT, "  %s: requested %.2f assigned %.2f%s%s", server.name(), server.request,
                    server.assigned, server.cpuSet.isEmpty() ? "" : " cpus " + CpuList.format(server.cpuSet),
                    server.pid > 0 ? (server.answering ? "" : " (silent)") : " (not running)"));
        }
        log.println(line);
        if (kubernetesContainer != null) {
            for (ServerState server : servers) {
                if (server.assigned > 0) {
                    log.println("  " + PodResize.kubectl(server.name(), kubernetesContainer, server.assigned));
                }
            }
        }
    }

    @Override
    public void close() throws IOException {
        metrics.close();
        gateCalls.shutdownNow();
        servers.forEach(ServerState::closeProbe);
        if (csv != null) {
            csv.close();
        }
    }
}

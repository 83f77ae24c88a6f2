package io.tlsadmit.cpumanager.enforcement;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One cgroup per application, {@code tlsadmit/<name>} under the hierarchy with the CPU controller,
 * holding the server's process and its CFS quota. Both versions share the layout; they differ in the
 * files ({@code cpu.max} against {@code cpu.cfs_quota_us}) and in v2's rule that a controller must be
 * enabled in every parent's {@code cgroup.subtree_control}.
 *
 * <p>Paths are resolved under a file-system root ({@code /} in production) so that tests can run the
 * same code on a mount tree of plain files.
 */
public abstract sealed class QuotaCgroups permits QuotaCgroups.V1, QuotaCgroups.V2 {

    /** The kernel's default CFS period, 100 ms: what {@link #detect(Path)} writes quotas for. */
    public static final long DEFAULT_PERIOD_MICROS = 100_000;
    /** The kernel accepts CFS periods of 1 ms to 1 s. */
    public static final long MIN_PERIOD_MICROS = 1_000;
    public static final long MAX_PERIOD_MICROS = 1_000_000;
    public static final int MAX_WEIGHT_PER_CPU = 256;
    /** The kernel refuses quotas under 1 ms. */
    static final long MIN_QUOTA_MICROS = 1_000;
    static final String PARENT = "tlsadmit";
    /** The manager's own group, beside {@link #PARENT}. */
    public static final String MANAGER = "tlsadmit-manager";

    protected final Path hierarchy;
    /**
     * The CFS period the quotas are written for. A fractional quota lets the group run for {@code quota} of every
     * period and then stops all its threads until the next: with the default 100 ms and 0.4 CPUs of a busy JVM on
     * two CPUs, 20 ms of running and 80 ms of standing still, added to every request in flight. A shorter period
     * spreads the same share in finer slices (at a little scheduler cost).
     */
    protected final long periodMicros;
    /**
     * The group's CPU weight per assigned CPU, in busy nice-0 threads. A quota is only a ceiling: below it the
     * group competes with everything outside the manager's cgroups, and the kernel weighs a whole cgroup as one
     * thread by default ({@code cpu.shares} 1024, {@code cpu.weight} 100). A Tomcat moved into its cgroup then
     * loses against a busy process with many threads outside (a load generator, a build) although it had
     * been holding its own there thread for thread; weighted by its assignment, it gets what it was assigned
     * first. 1 = the kernel's default.
     */
    protected final int weightPerCpu;

    QuotaCgroups(Path hierarchy, long periodMicros, int weightPerCpu) {
        if (periodMicros < MIN_PERIOD_MICROS || periodMicros > MAX_PERIOD_MICROS) {
            throw new IllegalArgumentException("a CFS period must be 1 ms to 1 s, was " + periodMicros + " us");
        }
        if (weightPerCpu < 1 || weightPerCpu > MAX_WEIGHT_PER_CPU) {
            throw new IllegalArgumentException("a weight per CPU must be 1 to " + MAX_WEIGHT_PER_CPU + ", was " + weightPerCpu);
        }
        this.hierarchy = hierarchy;
        this.periodMicros = periodMicros;
        this.weightPerCpu = weightPerCpu;
    }

    /**
     * The hierarchy this host offers: v2 when its root lists the {@code cpu} controller, else v1's
     * {@code cpu} hierarchy (hybrid hosts keep the controller in v1).
     */
    public static QuotaCgroups detect(Path fsRoot) {
        return detect(fsRoot, DEFAULT_PERIOD_MICROS, 1);
    }

    /**
     * As {@link #detect(Path)}, writing quotas for a CFS period of {@code periodMicros} (1 ms to 1 s) and weights of
     * {@code weightPerCpu} busy threads per assigned CPU (1 to {@link #MAX_WEIGHT_PER_CPU}; 1 = the kernel's default).
     */
    public static QuotaCgroups detect(Path fsRoot, long periodMicros, int weightPerCpu) {
        List<String> mountinfo;
        try {
            mountinfo = Files.readAllLines(fsRoot.resolve("proc/self/mountinfo"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new EnforcementException("cannot read " + fsRoot.resolve("proc/self/mountinfo") + ": " + e.getMessage(), e);
        }
        Optional<String> unified = CgroupMounts.unified(mountinfo);
        if (unified.isPresent()) {
            Path root = under(fsRoot, unified.get());
            if (words(read(root.resolve("cgroup.controllers"))).contains("cpu")) {
                return new V2(root, periodMicros, weightPerCpu);
            }
        }
        Optional<String> v1 = CgroupMounts.cpuV1(mountinfo);
        if (v1.isPresent()) {
            return new V1(under(fsRoot, v1.get()), periodMicros, weightPerCpu);
        }
        throw new EnforcementException("no cgroup hierarchy with the cpu controller is mounted (cgroup2 with cpu in "
                + "cgroup.controllers, or a v1 'cpu' hierarchy): use enforce: affinity");
    }

    /** {@code "v1"} or {@code "v2"}. */
    public abstract String version();

    /** The application's cgroup directory. */
    public Path cgroup(String application) {
        return hierarchy.resolve(PARENT).resolve(application);
    }

    /** Creates the application's cgroup if needed (keeping an existing one and its quota) and moves the process in. */
    public void adopt(String application, long pid) {
        Path group = cgroup(application);
        try {
            prepareParent();
            Files.createDirectories(group);
        } catch (IOException e) {
            throw new EnforcementException("cannot create cgroup " + group + ": " + e.getMessage(), e);
        }
        if (!members(application).contains(pid)) {
            write(group.resolve("cgroup.procs"), Long.toString(pid));
        }
    }

    /** The processes in the application's cgroup. */
    public List<Long> members(String application) {
        return read(cgroup(application).resolve("cgroup.procs")).lines().map(String::trim).filter(s -> !s.isEmpty())
                .map(Long::valueOf).toList();
    }

    /**
     * Removes the application's cgroup, moving any process still in it back to the hierarchy's root first. The
     * manager itself never does this (a successor adopts the quotas in place); tests and the experiment do.
     * Retries for a few seconds: a process that was just killed stays listed until it has exited.
     */
    public void remove(String application) throws InterruptedException {
        removeGroup(cgroup(application));
    }

    /** Moves the processes still in {@code group} to the hierarchy's root and removes it, retrying while one exits. */
    private void removeGroup(Path group) throws InterruptedException {
        for (int attempt = 0; attempt < 50 && Files.isDirectory(group); attempt++) {
            for (String pid : read(group.resolve("cgroup.procs")).lines().map(String::trim).filter(l -> !l.isEmpty()).toList()) {
                try {
                    write(hierarchy.resolve("cgroup.procs"), pid);
                } catch (EnforcementException exited) {
                    // it is leaving by itself
                }
            }
            try {
                Files.delete(group);
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
    }

    /** Sets the quota to {@code cpus} CPUs. */
    public abstract void limit(String application, double cpus);

    /** The quota the application's cgroup has now, if it has one: what a restarted manager adopts. */
    public abstract OptionalDouble limit(String application);

    protected void prepareParent() throws IOException {
        Files.createDirectories(hierarchy.resolve(PARENT));
    }

    /**
     * Weighs the manager's parent group as the {@code cpus} it distributes. Why: the kernel shares CPU among the
     * parent's siblings first, and a parent at the default weight counts as one busy thread however its children
     * are weighted. In the 2026-11-25 evening run the {@code tlsadmit} group kept {@code cpu.shares} 1024 while
     * its two Tomcats' groups had 24,690 and 106,382: both servers together competed as a single thread with the
     * load generators' threads in the root group, and a server assigned 0.14 CPUs used 0.00–0.09 of them.
     */
    public void weighParent(double cpus) {
        try {
            prepareParent();
        } catch (IOException e) {
            throw new EnforcementException("cannot create cgroup " + hierarchy.resolve(PARENT) + ": " + e.getMessage(), e);
        }
        writeWeight(hierarchy.resolve(PARENT), cpus);
    }

    /**
     * Moves the manager's own process into a group of its own beside the servers' parent, weighted as one CPU. Why:
     * the weights it gives the servers are a claim on the host against everything in the root group, the manager
     * included: a manager left there at one thread's weight got about 0.5 % of a CPU while its servers were busy,
     * and in a smoke run of 2026-11-25 wrote its last period 5 s into a 25 s phase. Its use is small (about 0.04
     * CPUs), so the weight costs the servers nothing; it only lets the manager run when it wakes.
     */
    public void weighManager(long pid) {
        Path group = hierarchy.resolve(MANAGER);
        try {
            prepareParent();
            Files.createDirectories(group);
        } catch (IOException e) {
            throw new EnforcementException("cannot create cgroup " + group + ": " + e.getMessage(), e);
        }
        writeWeight(group, 1);
        write(group.resolve("cgroup.procs"), Long.toString(pid));
    }

    /**
     * Moves whatever is in the manager's own group back to the hierarchy's root and removes the group (tests and the
     * experiment; the manager leaves it in place).
     */
    public void removeManagerGroup() throws InterruptedException {
        removeGroup(hierarchy.resolve(MANAGER));
    }

    /*
     * The CFS burst (kernel 5.14+: v1 cpu.cfs_burst_us, v2 cpu.max.burst) is set to the quota: a server may spend
     * in one period what it left unused in earlier ones, up to one period's quota. Why: a Tomcat's many threads use a
     * fractional quota on all the host's CPUs at once and then stand still for the rest of the period, even while
     * using far less than its quota on average. In the 2026-11-25 evening run, with the servers weighted above the
     * load generators, a server assigned about 1 CPU used 0.58 and was throttled in 29 % of its 100 ms periods, and
     * the sessions completed fell to a third of the unweighted run's. The average stays bounded by the quota. The
     * kernel takes a burst only up to the quota, so it is lowered before a smaller quota and raised after a larger
     * one; a kernel without the file has no burst and is left as it is.
     */
    private static void lowerBurst(Path burst, long quotaMicros) {
        if (Files.isRegularFile(burst)) {
            try {
                if (Long.parseLong(read(burst).trim()) > quotaMicros) {
                    write(burst, Long.toString(quotaMicros));
                }
            } catch (NumberFormatException e) {
                write(burst, "0");
            }
        }
    }

    private static void raiseBurst(Path burst, long quotaMicros) {
        if (Files.isRegularFile(burst)) {
            write(burst, Long.toString(quotaMicros));
        }
    }

    /** Writes the group's CPU weight for {@code cpus} CPUs at {@link #weightPerCpu} busy threads each. */
    protected abstract void writeWeight(Path group, double cpus);

    long quotaMicros(double cpus) {
        return Math.max(MIN_QUOTA_MICROS, Math.round(cpus * periodMicros));
    }

    /**
     * The kernel's bandwidth counters of the application's cgroup, {@code nr_periods}, {@code nr_throttled} and the
     * time throttled in seconds, from {@code cpu.stat}; empty when it has none (no cgroup, no quota support).
     */
    public Optional<Throttling> throttling(String application) {
        long periods = -1;
        long throttled = -1;
        double seconds = -1;
        for (String line : read(cgroup(application).resolve("cpu.stat")).lines().toList()) {
            List<String> f = words(line);
            if (f.size() != 2) {
                continue;
            }
            try {
                switch (f.get(0)) {
                    case "nr_periods" -> periods = Long.parseLong(f.get(1));
                    case "nr_throttled" -> throttled = Long.parseLong(f.get(1));
                    case "throttled_time" -> seconds = Long.parseLong(f.get(1)) / 1e9; // v1: nanoseconds
                    case "throttled_usec" -> seconds = Long.parseLong(f.get(1)) / 1e6; // v2: microseconds
                    default -> { }
                }
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
        return periods >= 0 && throttled >= 0 && seconds >= 0
                ? Optional.of(new Throttling(periods, throttled, seconds)) : Optional.empty();
    }

    /** {@code cpu.stat}'s bandwidth counters: CFS periods with the group runnable, periods it was throttled in, time. */
    public record Throttling(long periods, long throttledPeriods, double throttledSeconds) {
    }

    static Path under(Path fsRoot, String absolute) {
        return fsRoot.resolve(absolute.replaceFirst("^/+", "")).normalize();
    }

    static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    static void write(Path file, String value) {
        try {
            // cgroup files take one value per write(2), no truncation semantics to rely on
            Files.writeString(file, value + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new EnforcementException("cannot write '" + value + "' to " + file + ": " + e.getMessage(), e);
        }
    }

    static List<String> words(String text) {
        return List.of(text.trim().split("\\s+"));
    }

    /** cgroup v2: {@code cpu.max} = {@code "<quota> <period>"}, cpu enabled down the tree. */
    static final class V2 extends QuotaCgroups {

        V2(Path hierarchy, long periodMicros, int weightPerCpu) {
            super(hierarchy, periodMicros, weightPerCpu);
        }

        @Override
        public String version() {
            return "v2";
        }

        @Override
        protected void prepareParent() throws IOException {
            super.prepareParent();
            enableCpu(hierarchy);
            enableCpu(hierarchy.resolve(PARENT));
        }

        private static void enableCpu(Path group) {
            Path control = group.resolve("cgroup.subtree_control");
            if (!words(read(control)).contains("cpu")) {
                write(control, "+cpu");
            }
        }

        @Override
        public void limit(String application, double cpus) {
            long quota = quotaMicros(cpus);
            Path burst = cgroup(application).resolve("cpu.max.burst");
            lowerBurst(burst, quota);
            write(cgroup(application).resolve("cpu.max"), quota + " " + periodMicros);
            raiseBurst(burst, quota);
            writeWeight(cgroup(application), cpus);
        }

        @Override
        protected void writeWeight(Path group, double cpus) {
            // a thread at nice 0 weighs 100 in v2 (1-10000)
            write(group.resolve("cpu.weight"), Long.toString(Math.max(1, Math.min(10_000, Math.round(100.0 * weightPerCpu * cpus)))));
        }

        @Override
        public OptionalDouble limit(String application) {
            List<String> fields = words(read(cgroup(application).resolve("cpu.max")));
            try {
                return fields.size() == 2 && !fields.get(0).equals("max")
                        ? OptionalDouble.of(Double.parseDouble(fields.get(0)) / Double.parseDouble(fields.get(1)))
                        : OptionalDouble.empty();
            } catch (NumberFormatException e) {
                return OptionalDouble.empty();
            }
        }
    }

    /** cgroup v1: {@code cpu.cfs_period_us} and {@code cpu.cfs_quota_us} in the {@code cpu} hierarchy. */
    static final class V1 extends QuotaCgroups {

        V1(Path hierarchy, long periodMicros, int weightPerCpu) {
            super(hierarchy, periodMicros, weightPerCpu);
        }

        @Override
        public String version() {
            return "v1";
        }

        @Override
        public void limit(String application, double cpus) {
            Path group = cgroup(application);
            if (!read(group.resolve("cpu.cfs_period_us")).trim().equals(Long.toString(periodMicros))) {
                write(group.resolve("cpu.cfs_period_us"), Long.toString(periodMicros));
            }
            long quota = quotaMicros(cpus);
            Path burst = group.resolve("cpu.cfs_burst_us");
            lowerBurst(burst, quota);
            write(group.resolve("cpu.cfs_quota_us"), Long.toString(quota));
            raiseBurst(burst, quota);
            writeWeight(group, cpus);
        }

        @Override
        protected void writeWeight(Path group, double cpus) {
            // a thread at nice 0 weighs 1024 in v1 (2-262144)
            write(group.resolve("cpu.shares"), Long.toString(Math.max(2, Math.min(262_144, Math.round(1024.0 * weightPerCpu * cpus)))));
        }

        @Override
        public OptionalDouble limit(String application) {
            Path group = cgroup(application);
            try {
                long quota = Long.parseLong(read(group.resolve("cpu.cfs_quota_us")).trim());
                long period = Long.parseLong(read(group.resolve("cpu.cfs_period_us")).trim());
                return quota > 0 && period > 0 ? OptionalDouble.of((double) quota / period) : OptionalDouble.empty();
            } catch (NumberFormatException e) {
                return OptionalDouble.empty();
            }
        }
    }
}

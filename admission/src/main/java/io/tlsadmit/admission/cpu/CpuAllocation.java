package io.tlsadmit.admission.cpu;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * How many CPUs this JVM may use <em>now</em>, as a real number.
 *
 * <p>The answer is the smallest of what the kernel enforces — the cgroup v2 {@code cpu.max} quota,
 * the cgroup v1 CFS quota, the CPUs in the affinity mask (which reflects the cpuset) — and of the
 * share an external CPU manager has assigned ({@link #setCpusAssigned}). With {@link CpuCapacity#MEASURED} it is
 * also at most the affinity mask's CPUs less what other processes used of them ({@link NeighbourCpus}): the
 * others are the one thing none of the limits sees. An explicit {@link #setCpus cpus} overrides all of it, for hosts
 * where none of these sources tells the truth.
 *
 * <p>Why re-read on every {@link #refresh()}: the 2005 paper's admission control recomputes how
 * many new sessions the <em>allocated</em> processors can absorb each period, and allocations move
 * while the server runs — {@code taskset -p}, a cgroup update, a container resize, a manager
 * rebalancing CPUs between servers. A value read once at start-up would keep admitting for CPUs
 * that are gone, or leave new ones idle.
 *
 * <p>{@code cpusAssigned} is one half of the paper's manager interface; the other,
 * {@code cpusRequested}, is computed by the admission controller from arrival rates and costs.
 */
public final class CpuAllocation {

    public static final String CPUS_ATTRIBUTE = "cpus";
    public static final String CPUS_ASSIGNED_ATTRIBUTE = "cpusAssigned";

    /** Where the number came from, for metrics and for explaining a surprising budget. */
    public enum Source {
        OVERRIDE, CGROUP_V2, CGROUP_V1, AFFINITY, ASSIGNED,
        /** The affinity mask's CPUs less what other processes used of them ({@link CpuCapacity#MEASURED}). */
        NEIGHBOURS
    }

    /**
     * One refresh: the effective {@code cpus} and every input, {@code +Infinity} where a source sets
     * no limit, {@code 0} where an attribute is unset.
     *
     * @param neighbourCpus what other processes used of the affinity mask's CPUs (the largest of the last
     *                      {@link Capacity#WINDOW} intervals); NaN with {@link CpuCapacity#ALLOCATION}, before the
     *                      first interval, or when {@code /proc} cannot be read
     */
    public record Reading(double cpus, Source source, double cgroupV2Cpus, double cgroupV1Cpus,
                          int affinityCpus, double cpusAssigned, double cpusOverride, double neighbourCpus) {
    }

    private final CgroupCpuQuota quota;
    private final NeighbourCpus neighbours;
    private volatile CpuCapacity capacity = CpuCapacity.ALLOCATION;
    private volatile IntSupplier affinity;
    private volatile AffinityMask affinityMask;
    private volatile double cpusOverride;
    private volatile double cpusAssigned;
    private volatile Reading last;
    /** The share of the planned CPUs the budget leaves idle on purpose: {@code 1 - targetUtilization}. */
    private volatile double headroomShare;

    /** Reads the real {@code /proc} and {@code /sys}; affinity from {@code availableProcessors()}. */
    public CpuAllocation() {
        this(Path.of("/"), () -> Runtime.getRuntime().availableProcessors());
    }

    /**
     * @param fsRoot   where {@code /proc} and {@code /sys} are found, {@code /proc/self} being this process
     * @param affinity the number of CPUs in this process's affinity mask, e.g. from
     *                 {@code sched_getaffinity}; a value {@code <= 0} means unknown
     */
    public CpuAllocation(Path fsRoot, IntSupplier affinity) {
        this.quota = new CgroupCpuQuota(Objects.requireNonNull(fsRoot, "fsRoot"));
        this.neighbours = new NeighbourCpus(fsRoot);
        this.affinity = Objects.requireNonNull(affinity, "affinity");
        refresh();
    }

    /** Reads every source again and returns the result, which {@link #cpus()} then reports. */
    public Reading refresh() {
        return refresh(null);
    }

    /**
     * As {@link #refresh()}, with this process's CPU clock as the caller reads it for its own use (the control loop
     * does every period): {@link CpuCapacity#MEASURED} then need not read {@code /proc/self/stat} for the same
     * number. Why it matters: each file read once a period costs tens of microseconds of CPU (see {@link ProcFile}),
     * and the control loop's CPU is what the adaptive budget costs a server beyond the static one.
     *
     * <p>A clock, not a value the caller read earlier: the others' use is the CPUs' busy time less this process's,
     * and the two must cover the same interval. Read at the start of the control loop's period, the process's time
     * left out whatever its workers ran while the loop read its other files (the compiler threads', the cgroup's;
     * under overload the loop shares the CPU with every runnable worker). That work of its own read as a neighbour's
     * whenever it grew from one period to the next, and the window's largest held it for three periods. On the real
     * server (RUBiS at 2–4× the knee on one CPU, 2026-11-28, docs/benchmarks.md section 4) the periods planned below
     * 0.75 of the CPU went from 0.7–2.3 % (the lowest 0.22–0.59 CPU, six runs) to 0–1.1 % (0.61–0.79, five runs);
     * planned for 0.48 CPU, the budget had admitted 1 new client/s for three periods.
     *
     * @param processCpuNanos this process's user + system CPU time, e.g. {@code getProcessCpuTime()} (which on
     *                        Linux is the same {@code utime + stime} in USER_HZ ticks), read right after the CPUs'
     *                        counters; {@code null}, or a value {@code < 0}: unknown, read {@code /proc/self/stat}
     */
    public Reading refresh(LongSupplier processCpuNanos) {
        CgroupCpuQuota.Limits limits = quotaNow();
        List<Integer> mask = maskNow();
        int affinityCpus = mask != null ? mask.size() : affinityNow();
        double override = cpusOverride;
        double assigned = cpusAssigned;
        // measured even under an override, so that the others' use is known (and the window full) the moment the
        // override is taken away
        NeighbourCpus.Usable usable = capacity == CpuCapacity.MEASURED ? neighboursNow(processCpuNanos, mask) : null;

        double cpus;
        Source source;
        if (override > 0) {
            cpus = override;
            source = Source.OVERRIDE;
        } else {
            cpus = affinityCpus > 0 ? affinityCpus : Runtime.getRuntime().availableProcessors();
            source = Source.AFFINITY;
            if (limits.cgroupV2Cpus() < cpus) {
                cpus = limits.cgroupV2Cpus();
                source = Source.CGROUP_V2;
            }
            if (limits.cgroupV1Cpus() < cpus) {
                cpus = limits.cgroupV1Cpus();
                source = Source.CGROUP_V1;
            }
            if (assigned > 0 && assigned < cpus) {
                cpus = assigned;
                source = Source.ASSIGNED;
            }
            // A min with the quota too, though a quota already bounds the CPU time: the others take from the
            // mask's CPUs whatever the quota allows, so a quota of 1.5 on two CPUs one of which is taken still
            // leaves one. Not under a CPU manager's assignment: the manager has already taken what the processes it
            // does not manage use out of what it shares, and the other servers it manages, which this JVM would
            // count as neighbours, hold assignments of their own.
            if (usable != null && assigned <= 0 && usable.usableCpus() < cpus) {
                cpus = usable.usableCpus();
                source = Source.NEIGHBOURS;
            }
        }
        Reading reading = new Reading(cpus, source, limits.cgroupV2Cpus(), limits.cgroupV1Cpus(),
                affinityCpus, assigned, override, usable == null ? Double.NaN : usable.othersCpus());
        last = reading;
        return reading;
    }

    private CgroupCpuQuota.Limits quotaNow() {
        try {
            return quota.read();
        } catch (RuntimeException e) {
            // A path the file system refuses must not stop the control loop: no cgroup limit known.
            return new CgroupCpuQuota.Limits(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY);
        }
    }

    private NeighbourCpus.Usable neighboursNow(LongSupplier processCpuNanos, List<Integer> mask) {
        try {
            Reading planned = last;
            return neighbours.measure(headroomShare * (planned == null ? 0 : planned.cpus()), processCpuNanos, mask);
        } catch (IOException | RuntimeException e) {
            // Not Linux, or /proc hidden: plan as with cpuCapacity="allocation" (start-up said so, see
            // measuredCapacityProblem); the control loop must go on.
            return null;
        }
    }

    /** The mask from {@link #setAffinityMask}, or {@code null} when there is none or it cannot be read now. */
    private List<Integer> maskNow() {
        AffinityMask source = affinityMask;
        if (source == null) {
            return null;
        }
        try {
            int[] cpus = source.cpus();
            if (cpus.length == 0) {
                return null;
            }
            List<Integer> mask = new ArrayList<>(cpus.length);
            for (int i = 0; i < cpus.length; i++) {
                if (i > 0 && cpus[i] <= cpus[i - 1]) {
                    return null; // not the ascending list promised: the other sources decide
                }
                mask.add(cpus[i]);
            }
            return mask;
        } catch (IOException | RuntimeException e) {
            // a probe that fails must not stop the control loop: the count and /proc/self/status, as without it
            return null;
        }
    }

    private int affinityNow() {
        try {
            return affinity.getAsInt();
        } catch (RuntimeException e) {
            // A native probe that fails must not stop the control loop; fall back below.
            return 0;
        }
    }

    /**
     * Releases the files kept open between refreshes ({@link ProcFile}); a later {@link #refresh()} opens them again.
     */
    public void close() {
        quota.close();
        neighbours.close();
    }

    /** The CPUs found by the last {@link #refresh()}. */
    public double cpus() {
        return last.cpus();
    }

    public Reading lastReading() {
        return last;
    }

    /** Replaces the affinity probe, e.g. with native-peek's {@code sched_getaffinity} once loaded. */
    public void setAffinity(IntSupplier affinity) {
        this.affinity = Objects.requireNonNull(affinity, "affinity");
    }

    /**
     * Reads the affinity mask itself from {@code mask} (native-peek's {@code sched_getaffinity}), for both the count
     * and the CPUs {@link CpuCapacity#MEASURED} measures; when it fails, the count probe and {@code /proc/self/status}
     * answer as before. Why: {@code /proc/self/status} was the largest file the control loop read every period, read
     * only for one line (docs/benchmarks.md section 7); {@code null} removes the source.
     */
    public void setAffinityMask(AffinityMask mask) {
        this.affinityMask = mask;
    }

    /** @param cpus CPUs to assume regardless of what the system says; 0 = find out */
    public void setCpus(double cpus) {
        if (!(cpus >= 0 && cpus <= 1_000_000)) {
            throw new IllegalArgumentException(CPUS_ATTRIBUTE
                    + " must be a number of CPUs >= 0 (0 = detect from cgroups and affinity), was " + cpus);
        }
        this.cpusOverride = cpus;
    }

    public double getCpus() {
        return cpusOverride;
    }

    /** @param cpus the share an external CPU manager grants this server; 0 = no manager */
    public void setCpusAssigned(double cpus) {
        if (!(cpus >= 0 && cpus <= 1_000_000)) {
            throw new IllegalArgumentException(CPUS_ASSIGNED_ATTRIBUTE
                    + " must be a number of CPUs >= 0 (0 = no external assignment), was " + cpus);
        }
        this.cpusAssigned = cpus;
    }

    public double getCpusAssigned() {
        return cpusAssigned;
    }

    /**
     * The share of the planned CPUs the budget leaves idle ({@code 1 - targetUtilization}); with
     * {@link CpuCapacity#MEASURED}, the neighbours' use up to it is not planned away
     * ({@link NeighbourCpus#beyondHeadroom}). Applies from the next {@link #refresh()}.
     */
    public void setHeadroom(double share) {
        if (!(share >= 0 && share < 1)) {
            throw new IllegalArgumentException("headroom must be a share in [0, 1), was " + share);
        }
        this.headroomShare = share;
    }

    public void setCapacity(CpuCapacity capacity) {
        this.capacity = Objects.requireNonNull(capacity, CpuCapacity.ATTRIBUTE);
    }

    public CpuCapacity getCapacity() {
        return capacity;
    }

    /**
     * Why {@link CpuCapacity#MEASURED} cannot work here, for the adapter to log once at start-up (each refresh
     * falls back silently to the allocation); empty when it can, or when it is not asked for.
     */
    public Optional<String> measuredCapacityProblem() {
        if (capacity != CpuCapacity.MEASURED) {
            return Optional.empty();
        }
        try {
            neighbours.measure(0, null, maskNow());
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.of(CpuCapacity.ATTRIBUTE + "=\"" + CpuCapacity.MEASURED.attributeValue()
                    + "\" cannot read what other processes use of this JVM's CPUs (" + e
                    + "); planning for the allocation only");
        }
    }
}

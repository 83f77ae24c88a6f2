package io.tlsadmit.admission.cpu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The CPUs of this JVM's affinity mask less what other processes used of them, measured between two calls of
 * {@link #measure()} ({@code cpuCapacity="measured"}).
 *
 * <p>Why: an affinity mask, a quota and {@code cpusAssigned} say what the JVM may use, not what it gets. On
 * 2026-11-25 a Tomcat pinned to CPUs 0-1 while the load generator busied CPU 1 got 1.3–1.4 CPUs; the budget planned
 * for 2, over-admitted, and kept 0.74 of its peak at twice the knee where a static cap kept all of it
 * (docs/benchmarks.md section 4). The others' use is what the CPU manager's {@code capacity: measured} subtracts
 * too, and is read the same way ({@link CpuTicks}); only the window is summed up differently (below).
 *
 * <p>All three inputs are in the kernel's USER_HZ ticks, so no clock and no tick rate is needed: the mask's CPUs'
 * busy ticks in {@code /proc/stat} (steal counted: the hypervisor gave that time to someone else), this process's
 * {@code utime + stime} in {@code /proc/self/stat}, and the mask's elapsed ticks, idle included, as the time
 * base. The mask is {@code Cpus_allowed_list} of {@code /proc/self/status}, the same the affinity count comes from.
 *
 * <p>How the last {@link Capacity#WINDOW} intervals become one figure ({@link #othersOver}) differs from the CPU
 * manager's largest-of-the-window: its periods are usually a second or more, the control period here is 250 ms,
 * and over 25 ticks a CPU the tick-sampled busy count and the process's own time disagree by a few ticks either
 * way ({@link #NOISE_TICKS_PER_CPU}). The largest of three such readings is biased upward by that noise alone.
 *
 * <p>Thread-safe: {@link CpuAllocation#refresh()} runs on the control thread and, at start-up, on the thread
 * applying the settings.
 */
final class NeighbourCpus {

    /**
     * The CPU never planned below, per CPU of the mask. A budget planned for nothing would admit only its minimum
     * rate, and a neighbour that took a CPU while the JVM was idle need not hold it once the JVM competes (the
     * scheduler shares a CPU between the runnable), so the floor leaves the budget something to measure its own
     * cost with. 10 % matches the CPU manager's usual {@code minCpus: 0.1} per server.
     */
    static final double FLOOR_PER_CPU = 0.1;

    /**
     * The shortest interval measured, in ticks per CPU of the mask (100 ms at USER_HZ 100). Settings applied at
     * start-up refresh the allocation moments apart; over a few ticks one tick more or less is a large share, and
     * the window would hold such an error for three periods.
     */
    static final long MIN_TICKS_PER_CPU = 10;

    /**
     * How many ticks per CPU of the mask one interval's reading of the others may be off by, either way, with no
     * neighbour at all. Why: the busy ticks of {@code /proc/stat} are sampled (the task running at each tick is
     * charged the whole tick) while {@code utime + stime} is the scheduler's exact run time cut into ticks, and the
     * two files are read moments apart. Measured 2026-11-26 on a 2-vCPU KVM guest (USER_HZ 100, tick accounting),
     * a process busy 60 % in 2 ms bursts and nothing else on its CPUs, 160 intervals of 250 ms: the others read
     * -3 to +4 ticks on one CPU and -4 to +5 on two, mean within 0.1 tick of 0; the largest of each three read
     * +1.1 and +1.7 ticks, i.e. 4 % and 3 % of the CPUs planned away for nothing. That night's experiment had
     * 6 % of the server's CPU idle at 4–8× the knee while clients were refused, and read 0.08–0.14 CPU of others
     * where they used 0.01–0.05 (docs/benchmarks.md section 4, "night").
     */
    static final long NOISE_TICKS_PER_CPU = 2;

    /**
     * @param maskCpus    the CPUs in the affinity mask
     * @param othersCpus  what the other processes used in the last {@link Capacity#WINDOW} intervals, in CPUs
     *                    ({@link #othersOver}); NaN before the first interval
     * @param usableCpus  {@code maskCpus} less {@code othersCpus}, at least the floor; {@code maskCpus} before the
     *                    first interval
     */
    record Usable(int maskCpus, double othersCpus, double usableCpus) {
    }

    private final Path fsRoot;
    private List<Integer> mask;
    private CpuTicks mark;
    private long ownMark;
    private final List<Interval> others = new ArrayList<>();

    /**
     * One interval's reading of the others.
     *
     * @param othersCpus busy less this JVM's less what was lent, in CPUs: not clamped at 0, so that the noise of
     *                   successive intervals cancels in their mean
     * @param noiseCpus  {@link #NOISE_TICKS_PER_CPU} in CPUs over this interval's length
     */
    record Interval(double othersCpus, double noiseCpus) {
    }

    NeighbourCpus(Path fsRoot) {
        this.fsRoot = Objects.requireNonNull(fsRoot, "fsRoot");
    }

    /**
     * Reads the counters again and, when at least {@link #MIN_TICKS_PER_CPU} passed since the last interval
     * ended, adds one more interval to the window.
     *
     * @param headroomCpus the CPUs the budget leaves idle on purpose ({@code (1 - targetUtilization)} of what it
     *                     plans for): a neighbour that takes them is lent them, not counted as taking them
     *
     * @throws IOException when {@code /proc} cannot be read (not Linux, a restricted container)
     * @throws RuntimeException when it reads as something unexpected
     */
    synchronized Usable measure(double headroomCpus) throws IOException {
        List<Integer> maskNow = CpuList.parse(allowedCpus());
        if (!maskNow.equals(mask)) {
            // Other CPUs, other neighbours: what was seen on the old mask says nothing about the new one.
            mask = maskNow;
            mark = null;
            others.clear();
        }
        int cpus = mask.size();
        CpuTicks now = CpuTicks.read(fsRoot, mask);
        long own = ownTicks();
        if (mark == null || now.total() < mark.total() || now.busy() < mark.busy() || own < ownMark) {
            // The first reading, or counters that went backwards (a CPU taken offline loses its line, and with it
            // its counts): start a new interval rather than measure across the jump.
            mark = now;
            ownMark = own;
        } else if (now.total() - mark.total() >= MIN_TICKS_PER_CPU * cpus) {
            double busy = now.busyCpusSince(mark, cpus);
            double mine = now.cpusSince(mark, cpus, own - ownMark);
            // At most the mask: a CPU coming online adds its counts since boot to one interval, busy and idle in
            // proportion, so the interval reads the right order of magnitude but may not be exact.
            others.add(new Interval(Math.min(cpus, busy - mine - lent(headroomCpus, busy, mine, cpus)),
                    now.cpusSince(mark, cpus, NOISE_TICKS_PER_CPU * cpus)));
            while (others.size() > Capacity.WINDOW) {
                others.remove(0);
            }
            mark = now;
            ownMark = own;
        }
        double used = othersOver(others);
        double floor = FLOOR_PER_CPU * cpus;
        return new Usable(cpus, used, Double.isNaN(used) ? cpus : Math.min(cpus, Math.max(floor, cpus - used)));
    }

    /**
     * What the others used over the window: the mean of its intervals, or, when more, the largest interval less its
     * noise; at least 0, NaN for an empty window.
     *
     * <p>Why both: the mean is what the others used, read with the noise of one interval's ends rather than of each
     * interval; the largest less its noise plans for a neighbour's burst in the interval it starts (all of it
     * beyond a few ticks, the rest as the mean catches up), as the largest alone did, without planning for the
     * noise.
     */
    static double othersOver(List<Interval> window) {
        if (window.isEmpty()) {
            return Double.NaN;
        }
        double sum = 0;
        double burst = Double.NEGATIVE_INFINITY;
        for (Interval interval : window) {
            sum += interval.othersCpus();
            burst = Math.max(burst, interval.othersCpus() - interval.noiseCpus());
        }
        return Math.max(0, Math.max(sum / window.size(), burst));
    }

    /**
     * What the others took of the headroom the budget left: the headroom less what stayed idle.
     *
     * <p>Why: a neighbour that always has work (a batch job, a busy-looping process) takes every CPU cycle the JVM
     * leaves. Counted as the neighbour's, the headroom would shrink the plan by {@code 1 - targetUtilization} each
     * period, the JVM would then leave less, the neighbour take more, and the plan sink to the floor: measured on
     * 2026-11-26 against a loop on one of two CPUs, the plan went from 0.92 to 0.63 CPUs in three minutes while
     * the JVM was refusing clients. A neighbour whose use does not grow into the headroom (a load generator, a
     * database serving this server) leaves it idle, and nothing is lent. The price: no CPU idle can also be a
     * neighbour that needs what it uses while the JVM wants more than its share; lent the headroom, the plan is
     * then {@code 1 / targetUtilization} of what is left (3 % over), which the queue-delay guard answers.
     */
    static double lent(double headroomCpus, double busyCpus, double ownCpus, int cpus) {
        double idle = Math.max(0, cpus - busyCpus);
        double others = Math.max(0, busyCpus - ownCpus);
        return Math.max(0, Math.min(others, headroomCpus - idle));
    }

    private String allowedCpus() throws IOException {
        for (String line : Files.readAllLines(fsRoot.resolve("proc/self/status"))) {
            if (line.startsWith("Cpus_allowed_list:")) {
                return line.substring("Cpus_allowed_list:".length()).trim();
            }
        }
        throw new IOException("no Cpus_allowed_list in " + fsRoot.resolve("proc/self/status"));
    }

    /** This process's {@code utime + stime}. */
    private long ownTicks() throws IOException {
        return TaskStat.read(fsRoot.resolve("proc/self/stat")).cpuTicks();
    }
}

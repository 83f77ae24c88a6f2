package io.tlsadmit.admission.cpu;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The CPUs of this JVM's affinity mask less what other processes used of them, measured between two calls of
 * {@link #measure} ({@code cpuCapacity="measured"}).
 *
 * <p>Why: an affinity mask, a quota and {@code cpusAssigned} say what the JVM may use, not what it gets. On
 * 2026-11-25 a Tomcat pinned to CPUs 0-1 while the load generator busied CPU 1 got 1.3–1.4 CPUs; the budget planned
 * for 2, over-admitted, and kept 0.74 of its peak at twice the knee where a static cap kept all of it
 * (docs/benchmarks.md section 4). The others' use is what the CPU manager's {@code capacity: measured} subtracts
 * too, and is computed the same way ({@link Capacity}, {@link CpuTicks}).
 *
 * <p>All three inputs are in the kernel's USER_HZ ticks, so no clock is needed: the mask's CPUs'
 * busy ticks in {@code /proc/stat} (steal counted: the hypervisor gave that time to someone else), this process's
 * {@code utime + stime}, and the mask's elapsed ticks, idle included, as the time base. The process's time is the
 * control loop's own clock when it passes one ({@code getProcessCpuTime()}, which HotSpot on Linux takes from
 * {@code times()}: the same {@code utime + stime} in ticks), otherwise {@code /proc/self/stat}, read right after
 * {@code /proc/stat} in either case. The mask is the
 * allocation's when it has one ({@link AffinityMask}, {@code sched_getaffinity}), otherwise {@code Cpus_allowed_list}
 * of {@code /proc/self/status}.
 * The files are kept open between calls ({@link ProcFile}): opening them was most of what reading them cost.
 *
 * <p>The largest of the window also holds the readings' noise, and that is kept on purpose for now. Over a 250 ms
 * period the sampled busy ticks and the process's exact time disagree by a few ticks either way (measured
 * 2026-11-26 with nothing else on the CPUs: -3 to +4 ticks on one CPU, -4 to +5 on two), so the largest of three
 * reads 1.1 and 1.7 ticks high on average: 3–4 % of the CPUs planned away. The unbiased reading (the window's mean,
 * or its largest less 2 ticks per CPU) was tried side by side in five alternated rounds: 14–17 % more sessions at
 * 2–4× the knee, but 21 % fewer at 8×, where it admitted 10 % more and clients timed out in every round
 * (docs/benchmarks.md section 4, "late night"). The controller, blind to the CPUs' run queue (its guard sees only
 * the wait for a worker), needs that margin at deep overload; remove it together with a signal that replaces it.
 * Since 2026-12-07 the budget's headroom is lent against it ({@link #beyondHeadroom}): the reading's excess is the
 * margin, no longer the excess and the headroom both.
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
     * the others' largest of the window would hold such an error for three periods.
     */
    static final long MIN_TICKS_PER_CPU = 10;

    /**
     * @param maskCpus    the CPUs in the affinity mask
     * @param othersCpus  the largest the other processes used in the last {@link Capacity#WINDOW} intervals, in
     *                    CPUs; NaN before the first interval
     * @param usableCpus  {@code maskCpus} less {@code othersCpus}, at least the floor; {@code maskCpus} before the
     *                    first interval
     */
    record Usable(int maskCpus, double othersCpus, double usableCpus) {
    }

    private final ProcFile status;
    private final ProcFile cpuStat;
    private final ProcFile ownStat;
    private List<Integer> mask;
    private CpuTicks mark;
    private long ownMark;
    private final List<Double> others = new ArrayList<>();

    NeighbourCpus(Path fsRoot) {
        Objects.requireNonNull(fsRoot, "fsRoot");
        this.status = new ProcFile(fsRoot.resolve("proc/self/status"));
        this.cpuStat = new ProcFile(fsRoot.resolve("proc/stat"));
        this.ownStat = new ProcFile(fsRoot.resolve("proc/self/stat"));
    }

    /**
     * Reads the counters again and, when at least {@link #MIN_TICKS_PER_CPU} passed since the last interval
     * ended, adds one more interval to the window.
     *
     * @param headroomCpus the CPUs the budget leaves idle on purpose ({@code (1 - targetUtilization)} of what it
     *                     plans for): lent to the others, not counted as taken by them ({@link #beyondHeadroom})
     * @param processCpuNanos this process's CPU clock, read right after {@code /proc/stat} so that both cover the
     *                     same interval; {@code null}, or a value {@code < 0}: read {@code /proc/self/stat}
     * @param maskCpus     the affinity mask as the caller read it just now; {@code null}: read {@code /proc/self/status}
     *
     * @throws IOException when {@code /proc} cannot be read (not Linux, a restricted container)
     * @throws RuntimeException when it reads as something unexpected
     */
    synchronized Usable measure(double headroomCpus, LongSupplier processCpuNanos, List<Integer> maskCpus)
            throws IOException {
        List<Integer> maskNow;
        if (maskCpus != null) {
            maskNow = maskCpus;
            status.close(); // read at start-up, before the mask's source was set: not held for nothing
        } else {
            maskNow = CpuList.parse(allowedCpus());
        }
        if (!maskNow.equals(mask)) {
            // Other CPUs, other neighbours: what was seen on the old mask says nothing about the new one.
            mask = maskNow;
            mark = null;
            others.clear();
        }
        int cpus = mask.size();
        String stat = cpuStat.read();
        // Next to the CPUs' counters, before parsing them: any time between the two readings, this process's
        // workers running, would read as a neighbour's.
        long nanos = processCpuNanos == null ? -1 : processCpuNanos.getAsLong();
        long own;
        if (nanos >= 0) {
            own = nanos / TaskStat.NANOS_PER_TICK;
            ownStat.close(); // likewise: the start-up refresh reads it, the control loop passes its own clock
        } else {
            own = ownTicks();
        }
        CpuTicks now = CpuTicks.parse(stat, mask);
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
            others.add(Math.min(cpus, beyondHeadroom(Capacity.others(busy, mine), headroomCpus)));
            while (others.size() > Capacity.WINDOW) {
                others.remove(0);
            }
            mark = now;
            ownMark = own;
        }
        double largest = others.isEmpty() ? Double.NaN : others.get(0);
        for (int i = 1; i < others.size(); i++) {
            largest = Math.max(largest, others.get(i)); // a NaN stays NaN, as a stream's max would leave it
        }
        return new Usable(cpus, largest, Capacity.available(cpus, FLOOR_PER_CPU * cpus, others));
    }

    /**
     * What the others used beyond the headroom the budget leaves ({@code headroomCpus}): their use up to it is lent
     * to them, not planned away, whether or not they took it.
     *
     * <p>Why lent: a neighbour that always has work (a batch job, a busy-looping process) takes every CPU cycle the
     * JVM leaves. Counted as the neighbour's, the headroom would shrink the plan by {@code 1 - targetUtilization}
     * each period, the JVM would then leave less, the neighbour take more, and the plan sink to the floor: measured
     * on 2026-11-26 against a loop on one of two CPUs, the plan went from 0.92 to 0.63 CPUs in three minutes while
     * the JVM was refusing clients.
     *
     * <p>Why also when the headroom stays idle (until 2026-12-07 it was lent only as far as it was taken): the
     * others' reading is the largest of a window of noisy intervals, so it reads high (by 4 % of one CPU with no
     * neighbour at all, see above), and on loopback the kernel's work for the JVM's own connections reads as a
     * neighbour's (2.5–2.9 % of the CPU at 1,270 refusals a second). Lent only what was taken, a plan short by that
     * excess left the CPU idle by more than the headroom, so nothing was lent, and the plan stayed short: a resting
     * point with 3–4 % of the CPU idle while clients were refused, left only when something else filled the CPU
     * (docs/benchmarks.md section 4, 2026-12-07, 11:49). And as each interval was judged alone and the largest of
     * the window kept, one interval with the CPU idle for a moment held the plan short for three periods: with
     * 0–0.3 % of the CPU idle over the step, the plan at 8× the knee was 0.89–0.96 CPUs, against 0.92–0.99 lent
     * regardless (section 4, 2026-12-07, 13:42). Lent regardless, the JVM plans for what the others leave, and the
     * reading's excess over their real use is margin enough. The price is the one the taken headroom always had: a
     * neighbour that needs what it uses (a database serving this server) shares a full CPU with a JVM that wants
     * more, which the queue-delay guard answers.
     */
    static double beyondHeadroom(double othersCpus, double headroomCpus) {
        return Math.max(0, othersCpus - Math.max(0, headroomCpus));
    }

    private String allowedCpus() throws IOException {
        for (String line : status.read().split("\n")) {
            if (line.startsWith("Cpus_allowed_list:")) {
                return line.substring("Cpus_allowed_list:".length()).trim();
            }
        }
        throw new IOException("no Cpus_allowed_list in " + status.path());
    }

    /** This process's {@code utime + stime}. */
    private long ownTicks() throws IOException {
        return TaskStat.parse(ownStat.read()).cpuTicks();
    }

    /** Releases the files; a later {@link #measure} opens them again. */
    synchronized void close() {
        status.close();
        cpuStat.close();
        ownStat.close();
    }
}

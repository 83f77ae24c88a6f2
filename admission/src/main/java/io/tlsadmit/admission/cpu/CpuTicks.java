package io.tlsadmit.admission.cpu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The host's CPU time on some CPUs, from the per-CPU lines of {@code /proc/stat} (in the kernel's USER_HZ ticks).
 *
 * <p>Busy is {@code user + nice + system + irq + softirq + steal}: everything a CPU did that was not idle or waiting
 * for I/O. Steal counts as busy because on a virtual machine it is time the hypervisor gave to someone else: the
 * CPU was not there for the servers either. {@code guest} is already inside {@code user} and is not added again.
 *
 * @param busy       ticks the CPUs were busy since boot
 * @param total      ticks of every kind, idle and I/O wait included (the CPUs' elapsed time)
 * @param interrupts of {@code busy}, the ticks in hard and soft interrupts ({@code irq + softirq}): on a server, much
 *                   of the kernel's network processing. With tick-based accounting (no
 *                   {@code CONFIG_IRQ_TIME_ACCOUNTING}) an interrupt tick that hit while a process ran is also in
 *                   that process's CPU time, so the two overlap; with it, they do not
 * @param steal      of {@code busy}, the ticks the hypervisor gave to another guest
 */
public record CpuTicks(long busy, long total, long interrupts, long steal) {

    /** Above any CPU number a kernel gives (NR_CPUS is at most 8192 today): a longer run of digits is not one. */
    private static final int MAX_CPU = 1 << 20;

    /** Ticks without the split of busy time. */
    public CpuTicks(long busy, long total) {
        this(busy, total, 0, 0);
    }

    /**
     * The ticks of {@code cpus} in a {@code /proc/stat} text; a CPU without a line (offline) counts nothing.
     *
     * <p>Read in place, without splitting: the adaptive budget's control loop and the CPU manager parse this file
     * several times a second, and on a large host it holds a line per CPU and an {@code intr} line of thousands of
     * numbers, which a split into lines and fields would copy every time to read a few of them.
     *
     * @throws IllegalArgumentException for a {@code cpu} line that is not a CPU number and counters
     */
    public static CpuTicks parse(String procStat, List<Integer> cpus) {
        long busy = 0;
        long total = 0;
        long interrupts = 0;
        long steal = 0;
        // user nice system idle iowait irq softirq steal; older kernels have fewer, newer ones more (guest, not added)
        long[] v = new long[8];
        int length = procStat.length();
        for (int start = 0, end; start < length; start = end + 1) {
            end = procStat.indexOf('\n', start);
            if (end < 0) {
                end = length;
            }
            // "cpu  ..." is the sum of all CPUs; only "cpuN ..." lines are read
            if (!procStat.startsWith("cpu", start) || start + 3 >= end || procStat.charAt(start + 3) == ' ') {
                continue;
            }
            int at = start + 3;
            int cpu = 0;
            while (at < end && isDigit(procStat.charAt(at)) && cpu <= MAX_CPU) {
                cpu = cpu * 10 + procStat.charAt(at++) - '0';
            }
            if (at == start + 3 || cpu > MAX_CPU || at < end && procStat.charAt(at) != ' ') {
                throw new IllegalArgumentException("not a CPU's line of /proc/stat: " + procStat.substring(start, end));
            }
            if (!contains(cpus, cpu)) {
                continue;
            }
            for (int i = 0; i < v.length; i++) {
                while (at < end && procStat.charAt(at) == ' ') {
                    at++;
                }
                v[i] = 0;
                while (at < end && procStat.charAt(at) != ' ') {
                    char c = procStat.charAt(at++);
                    if (!isDigit(c) || v[i] > (Long.MAX_VALUE - 9) / 10) {
                        throw new IllegalArgumentException("not a counter in /proc/stat: "
                                + procStat.substring(start, end));
                    }
                    v[i] = v[i] * 10 + c - '0';
                }
            }
            long lineBusy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
            busy += lineBusy;
            total += lineBusy + v[3] + v[4];
            interrupts += v[5] + v[6];
            steal += v[7];
        }
        return new CpuTicks(busy, total, interrupts, steal);
    }

    private static boolean contains(List<Integer> cpus, int cpu) {
        for (int i = 0, n = cpus.size(); i < n; i++) {
            if (cpus.get(i) == cpu) {
                return true;
            }
        }
        return false;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** The ticks of {@code cpus} now. */
    public static CpuTicks read(Path fsRoot, List<Integer> cpus) throws IOException {
        return parse(Files.readString(fsRoot.resolve("proc/stat")), cpus);
    }

    /**
     * The CPUs that were busy from {@code earlier} to this reading, as a number of CPUs: {@code cpus × busy/total}
     * over the interval. No clock is needed: the CPUs' own ticks are the elapsed time. NaN when no tick passed.
     */
    public double busyCpusSince(CpuTicks earlier, int cpus) {
        long elapsed = total - earlier.total;
        return elapsed <= 0 ? Double.NaN : (double) cpus * (busy - earlier.busy) / elapsed;
    }

    /**
     * {@code ticks} of CPU time some process spent from {@code earlier} to this reading, as a number of CPUs on the
     * same scale as {@link #busyCpusSince}, so that the two can be subtracted. NaN when no tick passed.
     */
    public double cpusSince(CpuTicks earlier, int cpus, long ticks) {
        long elapsed = total - earlier.total;
        return elapsed <= 0 ? Double.NaN : (double) cpus * ticks / elapsed;
    }

    /**
     * What the CPUs did from {@code earlier} to this reading, as shares of their elapsed time: idle (with I/O wait),
     * in interrupts, stolen. Null when no tick passed.
     */
    public Split splitSince(CpuTicks earlier) {
        long elapsed = total - earlier.total;
        if (elapsed <= 0) {
            return null;
        }
        return new Split(1 - (double) (busy - earlier.busy) / elapsed,
                (double) (interrupts - earlier.interrupts) / elapsed, (double) (steal - earlier.steal) / elapsed);
    }

    /** Shares of the CPUs' elapsed time over an interval; see {@link #splitSince}. */
    public record Split(double idle, double interrupts, double steal) {
    }
}

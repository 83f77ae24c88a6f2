package io.tlsadmit.admission.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tlsadmit.admission.cpu.CpuAllocation.Source;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code cpuCapacity="measured"}: the CPUs planned for are the affinity mask's less what other processes used of
 * them. Each period here is 100 ticks (1 s at USER_HZ 100) of every CPU, written into a fake {@code /proc} as the
 * kernel counts: {@code /proc/stat}'s per-CPU lines, this process's {@code utime stime} in {@code /proc/self/stat}.
 */
class NeighbourCpusTest {

    private static final int TICKS = 100;

    @TempDir
    Path root;

    private final long[] busy = new long[4];
    private final long[] idle = new long[4];
    private long own;
    private CpuAllocation allocation;

    @BeforeEach
    void twoCpusMeasured() throws IOException {
        mask("0-1");
        writeCounters();
        startAllocation();
    }

    private void startAllocation() {
        allocation = new CpuAllocation(root, () -> 2);
        allocation.setCapacity(CpuCapacity.MEASURED);
        allocation.refresh(); // the first reading only marks where the first period starts
    }

    /** One period: CPU {@code i} busy {@code busyTicks[i]} of {@link #TICKS}, {@code ownTicks} of it this JVM's. */
    private CpuAllocation.Reading period(long ownTicks, long... busyTicks) throws IOException {
        return shortPeriod(TICKS, ownTicks, busyTicks);
    }

    /** A period of {@code ticks} per CPU rather than {@link #TICKS}. */
    private CpuAllocation.Reading shortPeriod(long ticks, long ownTicks, long... busyTicks) throws IOException {
        for (int cpu = 0; cpu < busyTicks.length; cpu++) {
            busy[cpu] += busyTicks[cpu];
            idle[cpu] += ticks - busyTicks[cpu];
        }
        own += ownTicks;
        writeCounters();
        return allocation.refresh();
    }

    /** Both CPUs fully busy, {@code others} CPUs of it not this JVM's: the simplest period to read. */
    private CpuAllocation.Reading periodWithOthers(double others) throws IOException {
        return period(Math.round((2 - others) * TICKS), TICKS, TICKS);
    }

    private void mask(String cpus) throws IOException {
        write("proc/self/status", "Name:\tjava\nCpus_allowed:\t3\nCpus_allowed_list:\t" + cpus + "\nvoluntary_ctxt_switches:\t1\n");
    }

    private void writeCounters() throws IOException {
        StringBuilder stat = new StringBuilder("cpu  0 0 0 0 0 0 0 0 0 0\n");
        for (int cpu = 0; cpu < busy.length; cpu++) {
            // the busy ticks split over user, system and steal: every one of them is CPU the JVM did not have
            long user = busy[cpu] / 2;
            long steal = busy[cpu] / 10;
            stat.append("cpu").append(cpu).append(' ').append(user).append(" 0 ").append(busy[cpu] - user - steal)
                    .append(' ').append(idle[cpu]).append(" 0 0 0 ").append(steal).append(" 0 0\n");
        }
        stat.append("intr 1 0\nctxt 2\n");
        write("proc/stat", stat.toString());
        // a command with a space and a parenthesis of its own: fields are counted after the last ')'
        write("proc/self/stat", "4242 (java (main)) S 1 4242 4242 0 -1 4194560 100 0 0 0 " + (own / 3) + " "
                + (own - own / 3) + " 0 0 20 0 42 0 100 0 0\n");
    }

    private void write(String path, String content) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }

    @Test
    void aNeighbourUsingSixTenthsOfCpu1LeavesOnePointFour() throws IOException {
        // CPU 0 all ours; CPU 1 busy all period, 0.4 of it ours and 0.6 the neighbour's
        CpuAllocation.Reading reading = period(140, TICKS, TICKS);
        assertEquals(1.4, reading.cpus(), 1e-9);
        assertEquals(Source.NEIGHBOURS, reading.source());
        assertEquals(0.6, reading.neighbourCpus(), 1e-9);
    }

    @Test
    void aNeighbourThatTakesTheHeadroomTheBudgetLeavesDoesNotShrinkThePlanPeriodAfterPeriod() throws IOException {
        // a neighbour first uses half of CPU 1 while the JVM is busy: 1.5 CPUs left
        assertEquals(1.5, period(150, TICKS, TICKS).cpus(), 1e-9);
        allocation.setHeadroom(0.03); // targetUtilization 0.97
        // then it takes whatever the JVM leaves: the JVM uses 0.97 of what it planned, the CPUs are never idle
        double planned = 1.5;
        for (int i = 0; i < 20; i++) {
            planned = period(Math.round(0.97 * planned * TICKS), TICKS, TICKS).cpus();
        }
        assertEquals(1.5, planned, 0.02, "counted as the neighbour's, the headroom would have left 1.5 × 0.97^20 = 0.8");
    }

    @Test
    void aNeighbourThatLeavesTheHeadroomIdleIsLentItAllTheSame() throws IOException {
        assertEquals(1.5, period(150, TICKS, TICKS).cpus(), 1e-9);
        allocation.setHeadroom(0.03);
        // the neighbour keeps to half of CPU 1, the JVM uses 0.97 of what it plans for: the CPUs end up full
        CpuAllocation.Reading reading = null;
        double planned = 1.5;
        for (int i = 0; i < 5; i++) {
            long jvm = Math.round(0.97 * planned * TICKS);
            reading = period(jvm, TICKS, jvm + 50 - TICKS);
            planned = reading.cpus();
        }
        assertEquals(1.5 / 0.97, planned, 0.01, "what the neighbour leaves, and the headroom on top");
        assertEquals(0.5 - 0.03 * planned, reading.neighbourCpus(), 0.01, "the neighbour's use beyond the headroom");
    }

    @Test
    void aReadingThatRunsHighDoesNotHoldTheCpusIdleBeyondTheHeadroom() throws IOException {
        // A steady neighbour of 0.05 CPU (the kernel's work for the JVM's own connections was 0.025-0.029 of one
        // CPU on 2026-12-07), read over short intervals: the JVM's own time and the CPUs' sampled busy ticks disagree
        // by a few ticks either way, so the neighbour reads 0.02 and 0.08 in turn, and the largest of the window
        // keeps the high side. The JVM uses 0.97 of its plan.
        allocation.setHeadroom(0.03);
        double planned = 2;
        for (int i = 0; i < 20; i++) {
            long jvm = Math.round(0.97 * planned * TICKS);
            long ownRead = jvm + (i % 2 == 0 ? 3 : -3);
            planned = period(ownRead, TICKS, jvm + 5 - TICKS).cpus();
        }
        double busy = 0.97 * planned + 0.05;
        // lent only the headroom it took, the neighbour would hold the plan at 2 - 0.08 = 1.92 and the CPUs at
        // 1.912 of 2, idle by more than the headroom for good
        assertTrue(busy >= 0.97 * 2, "the CPUs busy " + busy + " of 2, the plan " + planned);
    }

    @ParameterizedTest(name = "others {0}, headroom {1} -> planned away {2}")
    @CsvSource({
            "0.06, 0.06, 0",    // no more than the headroom: lent, whether taken or left idle
            "0.5, 0.06, 0.44",  // beyond it: planned away
            "0.03, 0.06, 0",    // never below nothing
            "0.5, 0, 0.5",      // no headroom (before the controller says)
    })
    void whatIsPlannedAway(double others, double headroom, double plannedAway) {
        assertEquals(plannedAway, NeighbourCpus.beyondHeadroom(others, headroom), 1e-9);
    }

    @Test
    void idleCpusAreNotTakenByAnyone() throws IOException {
        CpuAllocation.Reading reading = period(50, 30, 20);
        assertEquals(2.0, reading.cpus(), 1e-9);
        assertEquals(Source.AFFINITY, reading.source());
        assertEquals(0.0, reading.neighbourCpus(), 1e-9);
    }

    @ParameterizedTest(name = "others {0} -> planned for {1}")
    @CsvSource(delimiter = '|', value = {
            "0.2 ; 1.2 ; 0.2 ; 0.2 ; 0.2 | 1.8 ; 0.8 ; 0.8 ; 0.8 ; 1.8",  // a burst is held 3 periods, then released
            "0.5 ; 0.3 ; 0.4 ; 0.1       | 1.5 ; 1.5 ; 1.5 ; 1.6",        // noise: the largest of the last 3
            "1.9 ; 2.0                   | 0.2 ; 0.2",                    // taken by others: the floor, 10 % of 2
    })
    void theLargestOfTheLastThreePeriodsWithAFloor(String othersPerPeriod, String plannedPerPeriod) throws IOException {
        String[] others = othersPerPeriod.split(";");
        String[] planned = plannedPerPeriod.split(";");
        for (int i = 0; i < others.length; i++) {
            CpuAllocation.Reading reading = periodWithOthers(Double.parseDouble(others[i].trim()));
            assertEquals(Double.parseDouble(planned[i].trim()), reading.cpus(), 1e-9, "period " + i);
        }
    }

    @Test
    void anExplicitCpusStillWinsAndTheOthersAreStillMeasured() throws IOException {
        allocation.setCpus(3);
        CpuAllocation.Reading reading = periodWithOthers(0.6);
        assertEquals(3.0, reading.cpus());
        assertEquals(Source.OVERRIDE, reading.source());
        assertEquals(0.6, reading.neighbourCpus(), 1e-9);
        allocation.setCpus(0);
        assertEquals(1.4, allocation.refresh().cpus(), 1e-9, "the window was kept: no period planned for 2");
    }

    @Test
    void aLowerQuotaOrAssignmentStillWins() throws IOException {
        write("proc/self/mountinfo", "30 24 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
        write("proc/self/cgroup", "0::/app\n");
        write("sys/fs/cgroup/app/cpu.max", "100000 100000\n");
        startAllocation(); // in its cgroup from the start: a move is seen only within a second
        CpuAllocation.Reading reading = periodWithOthers(0.6);
        assertEquals(1.0, reading.cpus(), 1e-9);
        assertEquals(Source.CGROUP_V2, reading.source());

        write("sys/fs/cgroup/app/cpu.max", "150000 100000\n");
        reading = allocation.refresh();
        assertEquals(1.4, reading.cpus(), 1e-9, "a quota of 1.5 on two CPUs of which others take 0.6");
        assertEquals(Source.NEIGHBOURS, reading.source());

        allocation.setCpusAssigned(1.2);
        assertEquals(Source.ASSIGNED, allocation.refresh().source());
    }

    @Test
    void aCpuManagersAssignmentIsNotCutByTheNeighboursItAlreadyAccountedFor() throws IOException {
        // the manager shares out what its unmanaged processes leave; the other server it manages is a "neighbour"
        // here, with an assignment of its own
        allocation.setCpusAssigned(1.2);
        CpuAllocation.Reading reading = periodWithOthers(1.0);
        assertEquals(1.2, reading.cpus(), 1e-9);
        assertEquals(Source.ASSIGNED, reading.source());
        assertEquals(1.0, reading.neighbourCpus(), 1e-9, "still measured, and shown");
        allocation.setCpusAssigned(0);
        assertEquals(1.0, allocation.refresh().cpus(), 1e-9, "without a manager the neighbours count again");
    }

    @Test
    void allocationTheClassDefaultDoesNotSubtractTheNeighbours() throws IOException {
        CpuAllocation byAllocation = new CpuAllocation(root, () -> 2);
        assertEquals(CpuCapacity.ALLOCATION, byAllocation.getCapacity());
        periodWithOthers(0.6);
        CpuAllocation.Reading reading = byAllocation.refresh();
        assertEquals(2.0, reading.cpus());
        assertEquals(Source.AFFINITY, reading.source());
        assertTrue(Double.isNaN(reading.neighbourCpus()));
        assertTrue(byAllocation.measuredCapacityProblem().isEmpty(), "nothing to report when not asked for");
    }

    @Test
    void unreadableProcLeavesTheAllocationAsItWas() throws IOException {
        for (String missing : List.of("proc/stat", "proc/self/stat", "proc/self/status")) {
            periodWithOthers(0.6);
            Files.delete(root.resolve(missing));
            // a new reader: one that has the files open keeps reading them (the kernel's files are never removed)
            allocation = new CpuAllocation(root, () -> 2);
            allocation.setCapacity(CpuCapacity.MEASURED);
            CpuAllocation.Reading reading = allocation.refresh();
            assertEquals(2.0, reading.cpus(), missing);
            assertEquals(Source.AFFINITY, reading.source(), missing);
            assertTrue(Double.isNaN(reading.neighbourCpus()), missing);
            assertTrue(allocation.measuredCapacityProblem().orElseThrow().startsWith("cpuCapacity=\"measured\" "),
                    missing);
            writeCounters();
            mask("0-1");
        }
        write("proc/self/stat", "garbage");
        assertEquals(2.0, allocation.refresh().cpus(), "a file that reads as something else");
    }

    @Test
    void theProcessCpuClockTheControlLoopPassesIsReadInsteadOfProcSelfStat() throws IOException {
        // the counters say the JVM used 1.4 CPUs, of which /proc/self/stat is told nothing: it reads as garbage
        for (int cpu = 0; cpu < 2; cpu++) {
            busy[cpu] += TICKS;
        }
        own += 140;
        writeCounters();
        write("proc/self/stat", "garbage");
        long processCpuNanos = own * TaskStat.NANOS_PER_TICK;
        CpuAllocation.Reading reading = allocation.refresh(() -> processCpuNanos + TaskStat.NANOS_PER_TICK / 2);
        assertEquals(0.6, reading.neighbourCpus(), 1e-9, "the clock given, in whole ticks");
        assertEquals(1.4, reading.cpus(), 1e-9);
        assertEquals(Source.NEIGHBOURS, reading.source());
    }

    /**
     * What lets the control loop pass its own reading: on this machine's JVM, {@code getProcessCpuTime()} is the
     * {@code utime + stime} of {@code /proc/self/stat} in nanoseconds (HotSpot on Linux takes it from {@code times()}),
     * so the two never disagree by more than the tick a reading in between may add.
     */
    @Test
    void theJvmsProcessCpuTimeIsProcSelfStatsTicks() throws Exception {
        assumeTrue(new File("/proc/self/stat").canRead(), "needs Linux /proc");
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean();
        long spin = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
        for (int round = 0; System.nanoTime() < spin || round < 20; round++) {
            long before = TaskStat.parse(Files.readString(Path.of("/proc/self/stat"))).cpuTicks();
            long jvm = os.getProcessCpuTime() / TaskStat.NANOS_PER_TICK;
            long after = TaskStat.parse(Files.readString(Path.of("/proc/self/stat"))).cpuTicks();
            assertTrue(before <= jvm && jvm <= after + 1, before + " <= " + jvm + " <= " + after + " + 1");
        }
    }

    @Test
    void anAffinityMaskGivenIsTheCountAndTheCpusMeasuredAndStatusIsNotRead() throws IOException {
        allocation.setAffinityMask(() -> new int[] {1});
        allocation.refresh(); // a new mask: its first reading marks where its first period starts
        Files.delete(root.resolve("proc/self/status"));
        // CPU 0 idle, CPU 1 busy all period, 0.4 of it this JVM's: on the mask {1}, 0.6 is the neighbour's
        CpuAllocation.Reading reading = period(40, 0, TICKS);
        assertEquals(1, reading.affinityCpus(), "the mask's count, not the count probe's 2");
        assertEquals(0.6, reading.neighbourCpus(), 1e-9);
        assertEquals(0.4, reading.cpus(), 1e-9);
        assertTrue(allocation.measuredCapacityProblem().isEmpty(), "measured without /proc/self/status");
    }

    @Test
    void filesTheControlLoopNoLongerReadsAreNotHeldOpen() throws IOException {
        assumeTrue(OpenFiles.visible(), "Linux /proc");
        // the start-up refresh (in setUp) read both; the control loop then passes the mask and the process's CPU
        assertTrue(OpenFiles.under(root).keySet().containsAll(List.of("proc/self/stat", "proc/self/status")));
        allocation.setAffinityMask(() -> new int[] {0, 1});
        own += 140;
        allocation.refresh(() -> own * TaskStat.NANOS_PER_TICK);
        assertEquals(java.util.Set.of("proc/stat"), OpenFiles.under(root).keySet());
    }

    @Test
    void anAffinityMaskThatFailsLeavesTheCountProbeAndStatusToAnswer() throws IOException {
        periodWithOthers(0.6);
        for (AffinityMask failing : List.<AffinityMask>of(() -> {
            throw new IOException("sched_getaffinity failed");
        }, () -> new int[0], () -> new int[] {1, 0})) {
            allocation.setAffinityMask(failing);
            CpuAllocation.Reading reading = periodWithOthers(0.6);
            assertEquals(2, reading.affinityCpus());
            assertEquals(0.6, reading.neighbourCpus(), 1e-9, "measured on status's CPUs 0-1, the window kept");
            assertEquals(1.4, reading.cpus(), 1e-9);
        }
    }

    @Test
    void countersThatGoBackwardsAreNotMeasuredAcross() throws IOException {
        periodWithOthers(0.6);
        // CPU 1 offline: its line is gone, the sums drop
        busy[1] = 0;
        idle[1] = 0;
        writeCounters();
        CpuAllocation.Reading reading = allocation.refresh();
        assertEquals(0.6, reading.neighbourCpus(), 1e-9, "no new period from the jump");
        assertEquals(1.4, reading.cpus(), 1e-9);
        // and back with its counts since boot: at most the mask, never a huge value
        busy[1] = 50_000;
        idle[1] = 10;
        CpuAllocation.Reading back = period(0, TICKS, TICKS);
        assertTrue(back.neighbourCpus() >= 0 && back.neighbourCpus() <= 2, back.toString());
        assertTrue(back.cpus() >= 0.2 && back.cpus() <= 2, back.toString());
    }

    @Test
    void aNewMaskStartsAfresh() throws IOException {
        periodWithOthers(1.2);
        mask("0-2");
        CpuAllocation.Reading reading = allocation.refresh();
        assertTrue(Double.isNaN(reading.neighbourCpus()), "what was seen on CPUs 0-1 says nothing of CPUs 0-2");
        assertEquals(2.0, reading.cpus(), "the affinity count decides until a period is measured");
    }

    @Test
    void aPeriodTooShortToMeasureIsLeftToGrow() throws IOException {
        // settings applied at start-up refresh moments apart: 3 ticks would read the neighbour's 1 tick as 0.33
        CpuAllocation.Reading reading = shortPeriod(3, 5, 3, 3);
        assertTrue(Double.isNaN(reading.neighbourCpus()), reading.toString());
        reading = shortPeriod(TICKS - 3, 140 - 5, TICKS - 3, TICKS - 3);
        assertEquals(0.6, reading.neighbourCpus(), 1e-9, "the short reading was the start of this period");
    }

    /**
     * This machine's real {@code /proc}: a shell spinning on CPU 0 is another process on this JVM's CPUs. Only its
     * being seen is checked (at least half a CPU of the one it spins on); the rest of the host may add to it.
     */
    @Test
    void aBusyProcessOnOneOfOurCpusIsSeenAsANeighbour() throws Exception {
        assumeTrue(new File("/proc/stat").canRead(), "needs Linux /proc");
        assumeTrue(taskset() != null, "needs taskset (util-linux) to pin the busy process to CPU 0");
        String allowed = Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(line -> line.startsWith("Cpus_allowed_list:")).findFirst().orElseThrow()
                .substring("Cpus_allowed_list:".length()).trim();
        List<Integer> mask = CpuList.parse(allowed);
        assumeTrue(mask.contains(0), "this JVM may not run on CPU 0 (mask " + allowed + ")");

        CpuAllocation real = new CpuAllocation();
        real.setCapacity(CpuCapacity.MEASURED);
        assertTrue(real.measuredCapacityProblem().isEmpty(), real.measuredCapacityProblem().toString());
        Process spinner = new ProcessBuilder(taskset(), "-c", "0", "sh", "-c", "while :; do :; done").start();
        try {
            Thread.sleep(300); // spinning
            real.refresh();
            Thread.sleep(1_000);
            CpuAllocation.Reading reading = real.refresh();
            assertTrue(reading.neighbourCpus() >= 0.5, reading.toString());
            assertTrue(reading.cpus() <= mask.size() - 0.5, reading.toString());
        } finally {
            spinner.destroyForcibly();
            spinner.waitFor(5, TimeUnit.SECONDS);
        }
    }

    private static String taskset() {
        for (String dir : List.of("/usr/bin", "/bin", "/usr/sbin", "/sbin")) {
            if (Files.isExecutable(Path.of(dir, "taskset"))) {
                return dir + "/taskset";
            }
        }
        return null;
    }
}

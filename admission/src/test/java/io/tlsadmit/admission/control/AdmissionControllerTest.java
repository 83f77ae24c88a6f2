package io.tlsadmit.admission.control;

import static io.tlsadmit.admission.HandshakeKind.FULL;
import static io.tlsadmit.admission.HandshakeKind.RESUMED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.admission.SimulatedClock;
import io.tlsadmit.admission.cost.HandshakeCost;
import io.tlsadmit.admission.cpu.CpuAllocation;
import io.tlsadmit.admission.cpu.CpuCapacity;
import io.tlsadmit.admission.cpu.TaskStat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The control law one tick at a time, with inputs fed by hand. */
class AdmissionControllerTest {

    private static final int TLS13 = 0x0304;
    /** The default target utilization, which the arithmetic below is written with. */
    private static final double U = AdmissionController.DEFAULT_TARGET_UTILIZATION;

    @TempDir
    Path noCgroups;

    private final SimulatedClock clock = new SimulatedClock();

    private AdmissionController controller(int cpus) {
        return new AdmissionController(new CpuAllocation(noCgroups, () -> cpus), new HandshakeCost(), clock);
    }

    private ControlDecision tickAfter(AdmissionController controller, long millis) {
        clock.advance(millis, TimeUnit.MILLISECONDS);
        return controller.tick(clock.getAsLong());
    }

    @Test
    void startsAtTheAllocatedCpusOverTheInitialCostEstimate() {
        AdmissionController controller = controller(2);
        // 2 CPUs × U / 2 ms
        assertEquals(2 * U / 0.002, controller.fullHandshakesPerSecond(), 1e-9);
        assertNull(controller.lastDecision());
        assertEquals(0, controller.cpusRequested());
    }

    @Test
    void settingsAppliedBeforeTheFirstPeriodReplanTheStartingRate() {
        AdmissionController controller = controller(2);
        controller.setTargetUtilization(0.5);
        controller.setInitialFullHandshakeCost(4_000);
        // 2 CPUs × 0.5 / 4 ms: the first clients meet the rate the connector was configured with, not the defaults'
        assertEquals(2 * 0.5 / 0.004, controller.fullHandshakesPerSecond(), 1e-9);
    }

    @Test
    void theCostMeasuredAtStartReplacesTheInitialEstimateUntilRealHandshakesAreMeasured() {
        AdmissionController controller = controller(1);
        controller.setInitialFullHandshakeCost(2_000);
        controller.fullHandshakeCostMeasuredAtStart(8_000_000); // an RSA-4096 key, measured by the warm-up
        assertEquals(U / 0.008, controller.fullHandshakesPerSecond(), 1e-9);
        assertEquals(8_000_000, controller.fullHandshakeCostAtStartNanos());
        // The start-up measurement is not a handshake: no CPU, no count.
        assertEquals(0, controller.cost().count(FULL));

        ControlDecision idle = tickAfter(controller, 250);
        assertFalse(idle.costMeasured());
        assertEquals(8_000_000, idle.fullHandshakeCostNanos(), 1e-9, "still the start's measurement");
        assertEquals(0.0, idle.busyCpus(), 1e-9, "the warm-up's CPU is not load");

        controller.handshakeCompleted(FULL, TLS13, 6_000_000);
        ControlDecision measured = tickAfter(controller, 250);
        assertTrue(measured.costMeasured());
        assertEquals(6_000_000, measured.fullHandshakeCostNanos(), 1e-9, "a real client's handshake wins");
    }

    @Test
    void afterTheFirstPeriodTheInitialEstimateNoLongerMovesTheRateAtOnce() {
        AdmissionController controller = controller(1);
        double running = tickAfter(controller, 250).fullHandshakesPerSecond();
        controller.setInitialFullHandshakeCost(10_000);
        controller.fullHandshakeCostMeasuredAtStart(10_000_000);
        assertEquals(running, controller.fullHandshakesPerSecond(), 1e-9);
    }

    @Test
    void rateIsTheSpareCpuDividedByTheMeasuredFullHandshakeCost() {
        AdmissionController controller = controller(4);
        controller.handshakeCompleted(FULL, TLS13, 1_000_000);
        controller.handshakeCompleted(RESUMED, TLS13, 400_000_000); // 0.4 CPU-s in this 1 s period
        controller.recordOtherCpu(600_000_000);                     // 0.6 CPU-s of requests

        ControlDecision d = tickAfter(controller, 1000);
        assertEquals(4.0, d.cpusAllocated());
        assertTrue(d.costMeasured());
        assertEquals(1.0, d.busyCpus(), 1e-9);
        // (4 × U − 1.0) / 1 ms: the full handshake's own CPU is not "other"
        assertEquals((4 * U - 1.0) / 0.001, d.fullHandshakesPerSecond(), 1e-6);
        assertEquals(d.fullHandshakesPerSecond(), controller.fullHandshakesPerSecond());
    }

    @Test
    void fullHandshakeCpuIsNeverCountedAsOtherLoad() {
        AdmissionController controller = controller(1);
        for (int i = 0; i < 400; i++) {
            controller.handshakeCompleted(FULL, TLS13, 2_000_000); // 0.8 CPU-s
        }
        ControlDecision d = tickAfter(controller, 1000);
        assertEquals(0.0, d.busyCpus());
        assertEquals(U / 0.002, d.fullHandshakesPerSecond(), 1e-6);
    }

    @Test
    void aProcessCpuClockReplacesReportedOtherCpu() {
        AdmissionController controller = controller(2);
        AtomicLong processCpu = new AtomicLong(5_000_000_000L);
        controller.setProcessCpuTime(processCpu::get);

        controller.handshakeCompleted(FULL, TLS13, 300_000_000);
        controller.handshakeCompleted(RESUMED, TLS13, 200_000_000);
        controller.recordOtherCpu(900_000_000); // ignored: the clock already contains it
        processCpu.addAndGet(1_000_000_000);     // everything the process did this second

        ControlDecision d = tickAfter(controller, 1000);
        assertEquals(0.2, d.resumedCpus(), 1e-9);
        assertEquals(0.5, d.otherCpus(), 1e-9, "1.0 process − 0.3 full − 0.2 resumed");
        assertEquals(0.7, d.busyCpus(), 1e-9);
    }

    @Test
    void aFullHandshakeOfUnknownCostCountsAtTheMeasuredCostNotAsLoadOfTheAdmittedSessions() {
        AdmissionController controller = controller(2);
        AtomicLong processCpu = new AtomicLong(5_000_000_000L);
        controller.setProcessCpuTime(processCpu::get);

        controller.handshakeCompleted(FULL, TLS13, 0); // before any is measured: nothing to count it at
        processCpu.addAndGet(100_000_000);
        assertEquals(0.1, tickAfter(controller, 1000).otherCpus(), 1e-9, "left in the process's other CPU");

        controller.handshakeCompleted(FULL, TLS13, 100_000_000);
        for (int i = 0; i < 3; i++) {
            controller.handshakeCompleted(FULL, TLS13, 0); // offered resumptions the server could not resume, untimed
        }
        controller.handshakeCompleted(RESUMED, TLS13, 0); // an untimed resumption: in the process clock, as before
        processCpu.addAndGet(100_000_000 + 3 * 100_000_000 + 200_000_000);
        ControlDecision d = tickAfter(controller, 1000);
        assertEquals(100_000, d.fullHandshakeCostNanos() / 1_000, 1e-9, "the cost is learned from the timed one only");
        assertEquals(0.6, d.usedCpus(), 1e-9, "all of it used, as before");
        assertEquals(0.15, d.otherCpus(), 1e-9,
                "over the window (0.1, then 0.6 − 4 × 0.1 full = 0.2): the three are not load of the admitted "
                        + "sessions");
    }

    /** Four full handshakes of 5 ms of CPU each ended, each over {@code wallMillis} of wall time. */
    private static void fourFullHandshakesOver(AdmissionController controller, long wallMillis) {
        for (int i = 0; i < 4; i++) {
            controller.handshakeCompleted(FULL, TLS13, 5_000_000, wallMillis * 1_000_000);
        }
    }

    /** A period of 250 ms with the one CPU fully used, in which new connections waited {@code queueDelayNanos}. */
    private ControlDecision busyPeriod(AdmissionController controller, AtomicLong processCpu, long queueDelayNanos) {
        controller.recordQueueDelay(queueDelayNanos);
        processCpu.addAndGet(250_000_000);
        return tickAfter(controller, 250);
    }

    @Test
    void withARunQueueTargetOfThreeTheFullHandshakesStretchCutsLikeAQueueOfConnections() {
        AdmissionController controller = controller(1);
        AtomicLong processCpu = new AtomicLong();
        controller.setProcessCpuTime(processCpu::get);
        controller.setRunQueueTarget(3);

        // four handshakes of 5 ms of CPU each took 15 ms of wall time: two threads waited beside each
        fourFullHandshakesOver(controller, 15);
        ControlDecision twoWaiting = busyPeriod(controller, processCpu, TimeUnit.MILLISECONDS.toNanos(1));
        assertEquals(1.0, twoWaiting.guardFactor(), 1e-9, "two waiting: under 3");
        assertEquals(2, twoWaiting.threadsWaiting(), 1e-9);

        // the same handshakes now took 30 ms: five threads waited with each
        fourFullHandshakesOver(controller, 30);
        assertEquals(FeedbackGuard.DECREASE,
                busyPeriod(controller, processCpu, TimeUnit.MILLISECONDS.toNanos(1)).guardFactor(), 1e-9);
    }

    @Test
    void whileTheJvmCompilesTheRunQueueTargetIsNotStretchedAsTheWaitForAWorkersIs() {
        AdmissionController controller = controller(1);
        AtomicLong processCpu = new AtomicLong();
        AtomicLong compiling = new AtomicLong();
        controller.setProcessCpuTime(processCpu::get);
        controller.setTransientCpuTime(compiling::get);
        controller.setRunQueueTarget(3);

        // the JIT at a tenth of the CPU: connections may wait for a worker up to ten times the target meanwhile
        long delay = TimeUnit.MILLISECONDS.toNanos(5 * AdmissionController.DEFAULT_QUEUE_DELAY_TARGET_MILLIS);
        compiling.addAndGet(25_000_000);
        assertEquals(1.0, busyPeriod(controller, processCpu, delay).guardFactor(), 1e-9,
                "five times the worker-wait target while compiling: tolerated");

        // but five threads waiting for the CPU make every page wait five turns, compiled code or not
        fourFullHandshakesOver(controller, 30);
        compiling.addAndGet(25_000_000);
        assertEquals(FeedbackGuard.DECREASE, busyPeriod(controller, processCpu, delay).guardFactor(), 1e-9);
    }

    @Test
    void theStretchIsReadOnlyFromEnoughFullHandshakesAndNeverFromResumptions() {
        AdmissionController controller = controller(1);
        AtomicLong processCpu = new AtomicLong();
        controller.setProcessCpuTime(processCpu::get);
        controller.setRunQueueTarget(3);

        // resumptions and a full handshake whose wall time is unknown stretch nothing, however long they took
        for (int i = 0; i < 20; i++) {
            controller.handshakeCompleted(RESUMED, TLS13, 1_000_000, 100_000_000);
        }
        controller.handshakeCompleted(FULL, TLS13, 20_000_000, 0);
        // one full handshake under the minimum, preempted for long: too little to stand for the period
        controller.handshakeCompleted(FULL, TLS13, AdmissionController.MIN_STRETCH_CPU_NANOS / 2, 500_000_000);
        ControlDecision unread = busyPeriod(controller, processCpu, TimeUnit.MILLISECONDS.toNanos(1));
        assertEquals(1.0, unread.guardFactor(), 1e-9);
        assertTrue(Double.isNaN(unread.threadsWaiting()), "not measured, not 0 waiting");
    }

    @Test
    void withoutARunQueueTargetTheGuardIgnoresTheRunQueue() {
        AdmissionController controller = controller(1);
        AtomicLong processCpu = new AtomicLong();
        controller.setProcessCpuTime(processCpu::get);
        assertEquals(0, controller.getRunQueueTarget(), "off by default");
        fourFullHandshakesOver(controller, 100); // 19 threads waiting with each
        assertEquals(1.0, busyPeriod(controller, processCpu, TimeUnit.MILLISECONDS.toNanos(1)).guardFactor(), 1e-9);
    }

    @Test
    void aRunQueueTargetOutOfRangeIsRefusedByName() {
        AdmissionController controller = controller(1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> controller.setRunQueueTarget(-1));
        assertTrue(e.getMessage().startsWith("runQueueTarget must be"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> controller.setRunQueueTarget(Double.NaN));
    }

    @Test
    void busyCpuEstimateMovesHalfWayTowardsEachPeriod() {
        AdmissionController controller = controller(4);
        controller.recordOtherCpu(1_000_000_000);
        assertEquals(1.0, tickAfter(controller, 1000).busyCpus(), 1e-9, "first period taken as is");
        controller.recordOtherCpu(3_000_000_000L);
        assertEquals(2.0, tickAfter(controller, 1000).busyCpus(), 1e-9);
        assertEquals(1.0, tickAfter(controller, 1000).busyCpus(), 1e-9);
    }

    @Test
    void resumptionsNeverTakeTokens() {
        AdmissionController controller = controller(2);
        double tokens = controller.availableTokens();
        for (int i = 0; i < 1000; i++) {
            controller.recordArrival(RESUMED);
            controller.handshakeCompleted(RESUMED, TLS13, 500_000);
        }
        assertEquals(tokens, controller.availableTokens());
        assertEquals(0, controller.bucket().grantedCount());
    }

    @Test
    void handshakesOfUnknownCpuDoNotReplaceTheEstimate() {
        AdmissionController controller = controller(2);
        controller.handshakeCompleted(FULL, TLS13, 0);
        ControlDecision d = tickAfter(controller, 250);
        assertFalse(d.costMeasured());
        assertEquals(2_000_000, d.fullHandshakeCostNanos(), 1e-9);
    }

    @Test
    void cpusRequestedIsTheDemandOfAllArrivalsAtTheTargetUtilization() {
        AdmissionController controller = controller(1);
        controller.handshakeCompleted(FULL, TLS13, 2_000_000);
        controller.handshakeCompleted(RESUMED, TLS13, 500_000);
        for (int i = 0; i < 1000; i++) {
            controller.recordArrival(FULL);    // 1000/s × 2 ms = 2 CPUs
        }
        for (int i = 0; i < 2000; i++) {
            controller.recordArrival(RESUMED); // 2000/s × 0.5 ms = 1 CPU
        }
        // The window holds 4 periods; after one 1 s period, rates are over that second.
        ControlDecision d = tickAfter(controller, 1000);
        double demand = 2.0 + 1.0 + 0.0005 / 1.0;
        assertEquals(demand / U, d.cpusRequested(), 0.01);
        assertEquals(d.cpusRequested(), controller.cpusRequested());
    }

    @Test
    void queueDelayOverTheTargetCutsTheRateAndItRecoversWhenTheQueueEmpties() {
        AdmissionController controller = controller(2);
        controller.handshakeCompleted(FULL, TLS13, 2_000_000);
        tickAfter(controller, 250);

        controller.recordQueueDelay(TimeUnit.MILLISECONDS.toNanos(200));
        controller.recordOtherCpu(500_000_000); // the CPUs full in this period: the queue is not draining
        ControlDecision cut = tickAfter(controller, 250);
        assertEquals(FeedbackGuard.DECREASE, cut.guardFactor(), 1e-9);
        assertEquals(cut.modelFullHandshakesPerSecond() * FeedbackGuard.DECREASE, cut.fullHandshakesPerSecond(), 1e-6);

        controller.recordQueueDelay(TimeUnit.MILLISECONDS.toNanos(1));
        ControlDecision recovering = tickAfter(controller, 250);
        assertEquals(FeedbackGuard.DECREASE + FeedbackGuard.RECOVERY, recovering.guardFactor(), 1e-9);
    }

    @Test
    void theRateStaysWithinMinAndMaxAndTheCapWinsWhenTheyCross() {
        AdmissionController controller = controller(2);
        controller.setMaxFullHandshakesPerSecond(100);
        assertEquals(100, controller.fullHandshakesPerSecond(), "the cap applies at once");

        controller.setMaxFullHandshakesPerSecond(100_000);
        controller.setMinFullHandshakesPerSecond(50);
        controller.recordOtherCpu(10_000_000_000L); // far more than 2 CPUs
        assertEquals(50, tickAfter(controller, 1000).fullHandshakesPerSecond());

        controller.setMaxFullHandshakesPerSecond(20);
        assertEquals(20, controller.fullHandshakesPerSecond());
    }

    @Test
    void maxOfZeroRefusesEveryNewHandshake() {
        AdmissionController controller = controller(2);
        controller.setMaxFullHandshakesPerSecond(0);
        clock.advance(1, TimeUnit.SECONDS);
        assertFalse(controller.tryAcquireFull());
    }

    @Test
    void automaticBurstIsTheRateTimesTheQueueDelayTargetAndAnExplicitBurstWins() {
        AdmissionController controller = controller(2);
        ControlDecision d = tickAfter(controller, 250);
        assertEquals((long) Math.ceil(2 * U / 0.002 * 0.050), d.burst());
        assertEquals(d.burst(), controller.bucket().burst());

        controller.setFullHandshakeBurst(7);
        assertEquals(7, controller.bucket().burst());
        assertEquals(7, tickAfter(controller, 250).burst());
    }

    @Test
    void theAutomaticBurstIsNeverBelowWhatRandomArrivalsNeed() {
        AdmissionController controller = controller(1);
        controller.setMaxFullHandshakesPerSecond(40); // 40 × 50 ms = 2 tokens by the queue target alone
        assertEquals(AdmissionController.MIN_AUTO_BURST, tickAfter(controller, 250).burst());
    }

    /**
     * The "no false refusals" at or below 0.8× capacity, for the bucket's part: Poisson arrivals at
     * 0.8× the budget's rate. With the burst of rate × queue target alone (2 tokens at 40/s) about 20 % were
     * refused; the target is at most 0.5 %.
     */
    @Test
    void randomArrivalsAtFourFifthsOfTheRateAreAlmostNeverRefused() {
        AdmissionController controller = controller(1);
        controller.setMinFullHandshakesPerSecond(40);
        controller.setMaxFullHandshakesPerSecond(40);
        tickAfter(controller, 250);
        java.util.Random random = new java.util.Random(42);
        long arrivals = 0;
        long refused = 0;
        for (int i = 0; i < 20_000; i++) {
            double gapSeconds = -Math.log(1 - random.nextDouble()) / 32; // Poisson at 0.8 × 40/s
            clock.advance((long) (gapSeconds * 1e9), TimeUnit.NANOSECONDS);
            arrivals++;
            if (!controller.tryAcquireFull()) {
                refused++;
            }
        }
        assertTrue(refused <= 0.005 * arrivals, refused + " of " + arrivals + " refused");
    }

    @Test
    void aCpuOverrideTakesEffectAtTheNextTick() {
        AdmissionController controller = controller(2);
        controller.setCpus(0.5);
        ControlDecision d = tickAfter(controller, 250);
        assertEquals(0.5, d.cpusAllocated());
        assertEquals(CpuAllocation.Source.OVERRIDE, d.cpuSource());
        assertEquals(0.5 * U / 0.002, d.fullHandshakesPerSecond(), 1e-6);
        assertEquals(0.5, controller.cpusAllocated());
    }

    @Test
    void aTickWithoutElapsedTimeChangesNothing() {
        AdmissionController controller = controller(2);
        ControlDecision first = tickAfter(controller, 250);
        assertSame(first, controller.tick(clock.getAsLong()));
        assertSame(first, controller.tick(clock.getAsLong() - 1));
    }

    @Test
    void invalidAttributesNameThemselves() {
        AdmissionController c = controller(2);
        assertRejected("targetUtilization", () -> c.setTargetUtilization(0));
        assertRejected("targetUtilization", () -> c.setTargetUtilization(1.01));
        assertRejected("targetUtilization", () -> c.setTargetUtilization(Double.NaN));
        assertRejected("controlPeriod", () -> c.setControlPeriod(5));
        assertRejected("minFullHandshakesPerSecond", () -> c.setMinFullHandshakesPerSecond(-1));
        assertRejected("maxFullHandshakesPerSecond", () -> c.setMaxFullHandshakesPerSecond(Double.NaN));
        assertRejected("fullHandshakeBurst", () -> c.setFullHandshakeBurst(-1));
        assertRejected("queueDelayTarget", () -> c.setQueueDelayTarget(0));
        assertRejected("initialFullHandshakeCost", () -> c.setInitialFullHandshakeCost(0));
        assertRejected("cpus", () -> c.setCpus(-2));
        assertRejected("cpusAssigned", () -> c.setCpusAssigned(Double.POSITIVE_INFINITY));
        assertEquals(AdmissionController.DEFAULT_TARGET_UTILIZATION, c.getTargetUtilization());
        assertEquals(AdmissionController.DEFAULT_CONTROL_PERIOD_MILLIS, c.getControlPeriod());
    }

    private static void assertRejected(String attribute, Executable setter) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, setter::execute);
        assertTrue(e.getMessage().startsWith(attribute + " "), e.getMessage());
    }

    /**
     * {@code cpuCapacity="measured"} under overload: the JVM alone keeps its one CPU busy, and the control loop's
     * readings take time in which its workers run. Each period the loop reads the process's CPU, then its other
     * clocks (here the compiler threads', which "take" 0 or 250 ms), then the CPUs' counters. Taken from the period's
     * first reading, the process's CPU missed the workers' time in between whenever that time grew, and the JVM's own
     * work read as a neighbour's: half the CPU in the period after a 250 ms wait, held for three periods. Read next to
     * the CPUs' counters, it covers the same interval and nobody else is there.
     */
    @Test
    void theJvmsOwnWorkWhileTheLoopReadsItsClocksIsNotMistakenForANeighbours() throws IOException {
        long[] busyTicks = {0};
        long[] ownTicks = {0};
        long[] waitTicks = {0};
        Runnable workersRun = () -> {
            busyTicks[0] += waitTicks[0];
            ownTicks[0] += waitTicks[0];
            waitTicks[0] = 0;
            writeProc(busyTicks[0], ownTicks[0]);
        };
        writeProc(0, 0);
        CpuAllocation allocation = new CpuAllocation(noCgroups, () -> 1);
        AdmissionController controller = new AdmissionController(allocation, new HandshakeCost(), clock);
        controller.setCpuCapacity(CpuCapacity.MEASURED);
        controller.setProcessCpuTime(() -> ownTicks[0] * TaskStat.NANOS_PER_TICK);
        controller.setTransientCpuTime(() -> {
            workersRun.run();
            return 0;
        });
        for (int period = 0; period < 12; period++) {
            busyTicks[0] += 25; // 250 ms of the one CPU, all of it this JVM's
            ownTicks[0] += 25;
            writeProc(busyTicks[0], ownTicks[0]);
            waitTicks[0] = period % 3 == 1 ? 25 : 0;
            ControlDecision decision = tickAfter(controller, 250);
            assertEquals(1.0, decision.cpusAllocated(), 1e-9, "period " + period + ": " + decision.cpuSource());
        }
    }

    /** A one-CPU mask ({@code 0}) whose CPU was busy {@code busy} ticks in all, {@code own} of them this process's. */
    private void writeProc(long busy, long own) {
        try {
            Files.createDirectories(noCgroups.resolve("proc/self"));
            Files.writeString(noCgroups.resolve("proc/self/status"), "Name:\tjava\nCpus_allowed_list:\t0\n");
            Files.writeString(noCgroups.resolve("proc/stat"),
                    "cpu  " + busy + " 0 0 0 0 0 0 0 0 0\ncpu0 " + busy + " 0 0 0 0 0 0 0 0 0\nintr 1 0\n");
            Files.writeString(noCgroups.resolve("proc/self/stat"), "4242 (java) S 1 4242 4242 0 -1 4194560 100 0 0 0 "
                    + own + " 0 0 0 20 0 42 0 100 0 0\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FunctionalInterface
    private interface Executable {
        void execute();
    }
}

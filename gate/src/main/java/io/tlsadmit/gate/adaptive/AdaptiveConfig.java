package io.tlsadmit.gate.adaptive;

import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.admission.cpu.CompilerThreadsCpu;
import io.tlsadmit.admission.cpu.CpuCapacity;
import io.tlsadmit.peek.NativePeek;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * The settings only {@code budget=adaptive} reads, typed; an empty one keeps the controller's default. Their ranges
 * are the controller's: a value outside one fails {@link #newController} with a message naming the setting.
 *
 * @param cpus                       CPUs to plan for; 0 = detect (cgroup quota, affinity)
 * @param cpuCapacity                whether the detected CPUs exclude what other processes use of the affinity mask;
 *                                   empty = {@link #DEFAULT_CPU_CAPACITY}
 * @param targetUtilization          share of those CPUs handshakes and everything else may use, in (0, 1]
 * @param controlPeriod              how often the rate is recomputed
 * @param minFullHandshakesPerSecond the rate never goes below this
 * @param queueDelayTarget           mean wait of new connections above which the rate is cut
 * @param initialFullHandshakeCost   CPU time of one full handshake assumed until one is measured
 * @param runQueueTarget             threads waiting for a CPU per allocated CPU above which the rate is cut too; 0 = off
 */
public record AdaptiveConfig(OptionalDouble cpus, Optional<CpuCapacity> cpuCapacity, OptionalDouble targetUtilization,
        Optional<Duration> controlPeriod, OptionalDouble minFullHandshakesPerSecond, Optional<Duration> queueDelayTarget,
        Optional<Duration> initialFullHandshakeCost, OptionalDouble runQueueTarget) {

    /**
     * The CPUs a gate's budget plans for unless told: those its neighbours leave. Measured on 2026-11-26
     * (docs/benchmarks.md section 4): on two CPUs shared with the load generator, planning for the allocation kept
     * 21.6 sessions/s at twice the knee where the measured capacity kept 112.8; against a busy loop on one of them it
     * kept none where the measured capacity kept 8–38 (two runs).
     */
    public static final CpuCapacity DEFAULT_CPU_CAPACITY = CpuCapacity.MEASURED;

    private static final System.Logger LOG = System.getLogger(AdaptiveConfig.class.getName());

    /** Every setting at the controller's default. */
    public static final AdaptiveConfig DEFAULTS = new AdaptiveConfig(OptionalDouble.empty(), Optional.empty(),
            OptionalDouble.empty(), Optional.empty(), OptionalDouble.empty(), Optional.empty(), Optional.empty(),
            OptionalDouble.empty());

    public AdaptiveConfig {
        java.util.Objects.requireNonNull(cpus, AdmissionController.CPUS);
        java.util.Objects.requireNonNull(cpuCapacity, AdmissionController.CPU_CAPACITY);
        java.util.Objects.requireNonNull(targetUtilization, AdmissionController.TARGET_UTILIZATION);
        java.util.Objects.requireNonNull(controlPeriod, AdmissionController.CONTROL_PERIOD);
        java.util.Objects.requireNonNull(minFullHandshakesPerSecond, AdmissionController.MIN_RATE);
        java.util.Objects.requireNonNull(queueDelayTarget, AdmissionController.QUEUE_DELAY_TARGET);
        java.util.Objects.requireNonNull(initialFullHandshakeCost, AdmissionController.INITIAL_COST);
        java.util.Objects.requireNonNull(runQueueTarget, AdmissionController.RUN_QUEUE_TARGET);
    }

    /**
     * A controller configured from these settings, measuring this process's CPU clock and, when native-peek is
     * loaded, the real affinity mask (so {@code taskset -p} is seen at the next tick). Not yet ticking: the adapter
     * starts and stops its {@code ControlLoop}.
     *
     * @param cap   {@code maxFullHandshakesPerSecond}; empty = the controller's default
     * @param burst {@code fullHandshakeBurst}; empty = automatic (0)
     * @throws IllegalArgumentException naming the setting out of the controller's range
     */
    public AdmissionController newController(OptionalDouble cap, OptionalLong burst) {
        AdmissionController controller = new AdmissionController();
        cpus.ifPresent(controller::setCpus);
        controller.setCpuCapacity(cpuCapacity.orElse(DEFAULT_CPU_CAPACITY));
        targetUtilization.ifPresent(controller::setTargetUtilization);
        controlPeriod.ifPresent(period -> controller.setControlPeriod(period.toMillis()));
        queueDelayTarget.ifPresent(delay -> controller.setQueueDelayTarget(delay.toMillis()));
        runQueueTarget.ifPresent(controller::setRunQueueTarget);
        // Duration.toNanos would overflow only past 292 years; the controller's range check names the setting
        initialFullHandshakeCost.ifPresent(cost -> controller.setInitialFullHandshakeCost(cost.toNanos() / 1_000));
        minFullHandshakesPerSecond.ifPresent(controller::setMinFullHandshakesPerSecond);
        cap.ifPresent(controller::setMaxFullHandshakesPerSecond);
        burst.ifPresent(controller::setFullHandshakeBurst);
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean process && process.getProcessCpuTime() >= 0) {
            controller.setProcessCpuTime(process::getProcessCpuTime);
        }
        // native-peek's thread CPU clock, where it loads: a system call per compiler thread instead of a file read
        CompilerThreadsCpu compilation = NativePeek.isAvailable()
                ? new CompilerThreadsCpu(NativePeek::threadCpuNanos) : new CompilerThreadsCpu();
        if (compilation.available()) {
            controller.setTransientCpuTime(compilation);
        }
        // No run-queue clock: with runQueueTarget set, the guard reads the run queue from the full handshakes'
        // stretch, free, where counting it from every thread's schedstat cost 1.7 ms of CPU a period at 200 threads
        // (the two agreed within about 10 %, correlation 0.97 per period: docs/benchmarks.md section 4, 2026-12-07).
        if (NativePeek.isAvailable()) {
            controller.allocation().setAffinityMask(NativePeek::allowedCpuList);
        }
        // the allocation was first read before cpus and the affinity probe were set: read it again, so that the
        // start-up log line and JMX report what the first control period will plan for
        controller.allocation().refresh();
        controller.allocation().measuredCapacityProblem().ifPresent(problem -> LOG.log(System.Logger.Level.WARNING,
                "tlsadmit: " + problem));
        return controller;
    }

    /** Where the controller reads the CPUs it may use from, for the start-up log line. */
    public static String affinitySource() {
        return NativePeek.isAvailable() ? "sched_getaffinity (native-peek)"
                : "Runtime.availableProcessors() (native-peek unavailable: " + NativePeek.unavailableReason() + ")";
    }
}

package io.tlsadmit.gate.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tlsadmit.admission.HandshakeKind;
import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.admission.control.ControlDecision;
import io.tlsadmit.admission.cost.CostSnapshot;
import io.tlsadmit.admission.cost.CostedVersion;
import io.tlsadmit.admission.cpu.RunQueueWait;
import io.tlsadmit.classifier.TlsVersion;
import io.tlsadmit.gate.ConnectorGate;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * Micrometer meters of the adaptive budgets among a service's gates, one series per adaptive connector
 * (each has its own controller): the CPUs allocated and requested, the controller's terms, and the
 * measured CPU time of handshakes. Bound only when at least one connector is adaptive.
 */
final class AdaptiveMetrics {

    private static final double[] PERCENTILES = {0.5, 0.9, 0.99};

    private AdaptiveMetrics() {
    }

    static void bind(MeterRegistry registry, List<ConnectorGate> gates) {
        boolean histogram = registry instanceof PrometheusMeterRegistry prometheus
                && HandshakeCpuHistogram.register(prometheus, gates);
        AdmissionController first = null;
        for (ConnectorGate gate : gates) {
            AdmissionController controller = gate.budget().view(AdmissionController.class).orElse(null);
            if (controller != null) {
                bind(registry, gate.name(), controller, !histogram);
                first = first == null ? controller : first;
            }
        }
        if (first != null) {
            bindRunQueue(registry, first);
        }
    }

    /**
     * How long this JVM's threads waited for a CPU while runnable, a counter whose rate is the mean number of threads
     * waiting: the saturation that {@code runQueueTarget} acts on, here for every adaptive server whether it is set or
     * not. Read when scraped (about 1.7 ms of CPU at 200 threads), so it costs nothing between scrapes. One series
     * for the process: the threads are the JVM's, not a connector's. Held by the first adaptive budget, which
     * lives as long as its connector (Micrometer keeps a function counter's object weakly).
     */
    private static void bindRunQueue(MeterRegistry registry, AdmissionController anchor) {
        RunQueueWait wait = RunQueueWait.process();
        if (!wait.available()) {
            return;
        }
        FunctionCounter.builder("tlsadmit.cpu.run.queue.wait", anchor, c -> wait.getAsLong() / 1e9)
                .baseUnit("seconds")
                .description("Time this JVM's threads waited for a CPU while runnable (Linux schedstat run_delay);"
                        + " its rate is the mean number of threads waiting")
                .register(registry);
    }

    private static void bind(MeterRegistry registry, String connector, AdmissionController controller,
            boolean cpuTimer) {
        gauge(registry, connector, controller, "tlsadmit.cpus.allocated",
                "CPUs this JVM may use now (cgroup quota, affinity, cpus, cpusAssigned)", AdmissionController::cpusAllocated);
        // No source label on the allocation: a label whose value changes would start a new series each time. What
        // cpuCapacity="measured" subtracts is a gauge of its own instead.
        gauge(registry, connector, controller, "tlsadmit.cpus.neighbours",
                "cpuCapacity=measured: CPUs other processes used of this JVM's affinity mask (the largest of the last"
                        + " 3 periods), taken out of tlsadmit_cpus_allocated; NaN when not measured",
                c -> c.allocation().lastReading().neighbourCpus());
        gauge(registry, connector, controller, "tlsadmit.cpus.requested",
                "CPUs the current arrivals would need at the target utilization", AdmissionController::cpusRequested);
        // Why the rate is what it is: CPU already taken by admitted work, what a full handshake costs, how hard
        // the guard cuts.
        gauge(registry, connector, controller, "tlsadmit.cpus.busy",
                "CPUs used by everything but new full handshakes (resumptions, requests, GC, JIT)",
                c -> busyCpus(c.lastDecision()));
        gauge(registry, connector, controller, "tlsadmit.cpu.threads.waiting",
                "Threads that waited for a CPU in the last control period, on average, read from the full handshakes'"
                        + " wall time over their CPU time (runQueueTarget's input, per CPU); NaN when too few ended",
                c -> threadsWaiting(c.lastDecision()));
        gauge(registry, connector, controller, "tlsadmit.full.handshake.cost.seconds",
                "CPU time of one full handshake as the controller divides by: the smoothed measured cost, or"
                        + " initialFullHandshakeCost before the first is measured (NaN before the first period)",
                c -> fullHandshakeCostSeconds(c.lastDecision()));
        // The clamp around the computed rate, so that "pinned at its floor" can be told from "at its cap".
        gauge(registry, connector, controller, "tlsadmit.budget.min.full.handshakes.per.second",
                "minFullHandshakesPerSecond: the floor of the computed rate (the cap wins if lower)",
                AdmissionController::getMinFullHandshakesPerSecond);
        gauge(registry, connector, controller, "tlsadmit.budget.max.full.handshakes.per.second",
                "maxFullHandshakesPerSecond: the cap on the computed rate", AdmissionController::getMaxFullHandshakesPerSecond);
        gauge(registry, connector, controller, "tlsadmit.budget.guard.ratio",
                "Feedback guard's multiplier on the modelled rate, 1 = not cutting", c -> guardFactor(c.lastDecision()));
        gauge(registry, connector, controller, "tlsadmit.budget.guard.factor",
                "Deprecated: tlsadmit_budget_guard_ratio under its former name", c -> guardFactor(c.lastDecision()));
        // The guard's input, so that a cut can be traced to what caused it.
        gauge(registry, connector, controller, "tlsadmit.budget.queue.delay.seconds",
                "Mean time new connections waited for a worker in the last control period (the feedback guard's"
                        + " input, against queueDelayTarget); NaN when none started",
                c -> queueDelaySeconds(c.lastDecision()));
        for (HandshakeKind kind : HandshakeKind.values()) {
            String kindLabel = kind.name().toLowerCase(Locale.ROOT);
            for (CostedVersion version : CostedVersion.values()) {
                String versionLabel = versionLabel(version);
                if (cpuTimer) {
                    // Not a Prometheus registry (e.g. an application's other backend): count and sum, no buckets.
                    FunctionTimer.builder("tlsadmit.handshake.cpu", controller,
                                    c -> c.cost().snapshot(kind, version).count(),
                                    c -> c.cost().snapshot(kind, version).totalNanos(), TimeUnit.NANOSECONDS)
                            .description(HandshakeCpuHistogram.HELP)
                            .tags(GateMetrics.CONNECTOR, connector, "kind", kindLabel, "version", versionLabel)
                            .register(registry);
                }
                for (double percentile : PERCENTILES) {
                    Gauge.builder("tlsadmit.handshake.cpu.percentile", controller,
                                    c -> percentileNanos(c.cost().snapshot(kind, version), percentile) / 1e9)
                            .description("Deprecated (cannot be combined across servers; use the buckets of"
                                    + " tlsadmit_handshake_cpu_seconds): percentile of handshake CPU time since start")
                            .baseUnit("seconds").tags(GateMetrics.CONNECTOR, connector, "kind", kindLabel,
                                    "version", versionLabel, "percentile", Double.toString(percentile))
                            .register(registry);
                }
            }
        }
    }

    /** The same version labels as {@code tlsadmit_handshakes_total}. */
    static String versionLabel(CostedVersion version) {
        return switch (version) {
            case TLS_1_2 -> TlsVersion.name(TlsVersion.TLS1_2);
            case TLS_1_3 -> TlsVersion.name(TlsVersion.TLS1_3);
            case OTHER -> "other";
        };
    }

    private static void gauge(MeterRegistry registry, String connector, AdmissionController controller, String name,
            String description, ToDoubleFunction<AdmissionController> value) {
        Gauge.builder(name, controller, value).description(description).tag(GateMetrics.CONNECTOR, connector)
                .register(registry);
    }

    private static double percentileNanos(CostSnapshot snapshot, double percentile) {
        if (percentile == 0.5) {
            return snapshot.p50Nanos();
        }
        return percentile == 0.9 ? snapshot.p90Nanos() : snapshot.p99Nanos();
    }

    private static double queueDelaySeconds(ControlDecision decision) {
        return decision == null || decision.meanQueueDelayNanos() < 0 ? Double.NaN : decision.meanQueueDelayNanos() / 1e9;
    }

    private static double threadsWaiting(ControlDecision decision) {
        return decision == null ? Double.NaN : decision.threadsWaiting();
    }

    private static double busyCpus(ControlDecision decision) {
        return decision == null ? 0 : decision.busyCpus();
    }

    private static double guardFactor(ControlDecision decision) {
        return decision == null ? 1 : decision.guardFactor();
    }

    private static double fullHandshakeCostSeconds(ControlDecision decision) {
        return decision == null ? Double.NaN : decision.fullHandshakeCostNanos() / 1e9;
    }
}

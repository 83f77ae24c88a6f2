package io.tlsadmit.tomcat;

import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.tlsadmit.admission.HandshakeKind;
import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.admission.control.ControlDecision;
import io.tlsadmit.admission.cost.CostSnapshot;
import io.tlsadmit.admission.cost.TlsVersion;
import io.tlsadmit.gate.ConnectorGate;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleBinaryOperator;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * Micrometer meters of the adaptive budgets among a service's gates: the CPUs allocated and
 * requested, and the measured CPU time of handshakes. Bound only when at least one connector is
 * adaptive. Connectors of one JVM share its CPUs, so the CPU gauges take the largest value over
 * connectors rather than a sum; handshake CPU is summed like the other counters.
 */
final class AdaptiveMetrics {

    private static final double[] PERCENTILES = {0.5, 0.9, 0.99};

    private AdaptiveMetrics() {
    }

    static void bind(MeterRegistry registry, List<ConnectorGate> gates) {
        if (gates.stream().noneMatch(gate -> gate.budget() instanceof AdmissionController)) {
            return;
        }
        Gauge.builder("tlsadmit.cpus.allocated", gates, g -> max(g, AdmissionController::cpusAllocated))
                .description("CPUs this JVM may use now (cgroup quota, affinity, cpus, cpusAssigned)").register(registry);
        Gauge.builder("tlsadmit.cpus.requested", gates, g -> max(g, AdmissionController::cpusRequested))
                .description("CPUs the current arrivals would need at the target utilization").register(registry);
        // Why the rate is what it is: CPU already taken by admitted work, and how hard the guard cuts.
        Gauge.builder("tlsadmit.cpus.busy", gates, g -> max(g, c -> busyCpus(c.lastDecision())))
                .description("CPUs used by everything but new full handshakes (resumptions, requests, GC, JIT)")
                .register(registry);
        Gauge.builder("tlsadmit.budget.guard.factor", gates, g -> min(g, c -> guardFactor(c.lastDecision())))
                .description("Feedback guard's multiplier on the modelled rate: 1 = not cutting (lowest over connectors)")
                .register(registry);
        for (HandshakeKind kind : HandshakeKind.values()) {
            String kindLabel = kind.name().toLowerCase(Locale.ROOT);
            for (TlsVersion version : TlsVersion.values()) {
                String versionLabel = versionLabel(version);
                FunctionTimer.builder("tlsadmit.handshake.cpu", gates,
                                g -> sumLong(g, c -> c.cost().snapshot(kind, version).count()),
                                g -> sumLong(g, c -> c.cost().snapshot(kind, version).totalNanos()), TimeUnit.NANOSECONDS)
                        .description("Server CPU time of handshakes (thread CPU over every step), by truth and version")
                        .tags("kind", kindLabel, "version", versionLabel).register(registry);
                for (double percentile : PERCENTILES) {
                    Gauge.builder("tlsadmit.handshake.cpu.percentile", gates,
                                    g -> max(g, c -> percentileNanos(c.cost().snapshot(kind, version), percentile)) / 1e9)
                            .description("Percentile of handshake CPU time since start, by truth and version")
                            .baseUnit("seconds").tags("kind", kindLabel, "version", versionLabel,
                                    "percentile", Double.toString(percentile))
                            .register(registry);
                }
            }
        }
    }

    /** The same version labels as {@code tlsadmit_handshakes_total}. */
    private static String versionLabel(TlsVersion version) {
        return switch (version) {
            case TLS_1_2 -> io.tlsadmit.classifier.TlsVersion.name(io.tlsadmit.classifier.TlsVersion.TLS1_2);
            case TLS_1_3 -> io.tlsadmit.classifier.TlsVersion.name(io.tlsadmit.classifier.TlsVersion.TLS1_3);
            case OTHER -> "other";
        };
    }

    private static double percentileNanos(CostSnapshot snapshot, double percentile) {
        if (percentile == 0.5) {
            return snapshot.p50Nanos();
        }
        return percentile == 0.9 ? snapshot.p90Nanos() : snapshot.p99Nanos();
    }

    private static double max(List<ConnectorGate> gates, ToDoubleFunction<AdmissionController> value) {
        return fold(gates, value, 0, Math::max);
    }

    /** Lowest over the adaptive connectors; 1 (a fraction at its top) when there are none. */
    private static double min(List<ConnectorGate> gates, ToDoubleFunction<AdmissionController> value) {
        return fold(gates, value, 1, Math::min);
    }

    private static double fold(List<ConnectorGate> gates, ToDoubleFunction<AdmissionController> value, double start,
            DoubleBinaryOperator combine) {
        double result = start;
        for (ConnectorGate gate : gates) {
            if (gate.budget() instanceof AdmissionController controller) {
                result = combine.applyAsDouble(result, value.applyAsDouble(controller));
            }
        }
        return result;
    }

    private static double busyCpus(ControlDecision decision) {
        return decision == null ? 0 : decision.busyCpus();
    }

    private static double guardFactor(ControlDecision decision) {
        return decision == null ? 1 : decision.guardFactor();
    }

    private static long sumLong(List<ConnectorGate> gates, ToLongFunction<AdmissionController> value) {
        long sum = 0;
        for (ConnectorGate gate : gates) {
            if (gate.budget() instanceof AdmissionController controller) {
                sum += value.applyAsLong(controller);
            }
        }
        return sum;
    }
}

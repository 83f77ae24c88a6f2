package io.tlsadmit.gate.metrics;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.tlsadmit.admission.HandshakeKind;
import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.admission.cost.CpuTimeBuckets;
import io.tlsadmit.admission.cost.HandshakeCost;
import io.tlsadmit.admission.cost.CostedVersion;
import io.tlsadmit.gate.ConnectionAdmission;
import io.tlsadmit.gate.ConnectorGate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code tlsadmit_handshake_cpu_seconds} as a Prometheus histogram, read from the buckets the adaptive
 * budgets' {@link HandshakeCost} fills as handshakes finish. Micrometer has no histogram whose counts
 * come from elsewhere (its histograms are fed by {@code record} calls, which would put Micrometer on the
 * handshake path and lose what was recorded before a registry was bound), so this is a collector of the
 * Prometheus registry behind Micrometer's: the same scrape, the same exposition.
 */
final class HandshakeCpuHistogram implements Collector {

    static final String NAME = "tlsadmit_handshake_cpu_seconds";
    static final String HELP = "Server CPU time of timed handshakes (thread CPU over every step; every new client's"
            + " full handshake; resumption offers at most one per "
            + ConnectionAdmission.RESUMPTION_TIMING_INTERVAL_NANOS / 1_000_000 + " ms), by truth and version";

    // System.Logger: server-neutral, and Tomcat routes it to JULI like any java.util.logging output
    private static final System.Logger log = System.getLogger(HandshakeCpuHistogram.class.getName());

    private record Series(Labels labels, HandshakeCost cost, HandshakeKind kind, CostedVersion version) {
    }

    private final List<Series> series = new ArrayList<>();

    private HandshakeCpuHistogram(List<ConnectorGate> gates) {
        for (ConnectorGate gate : gates) {
            AdmissionController controller = gate.budget().view(AdmissionController.class).orElse(null);
            if (controller != null) {
                for (HandshakeKind kind : HandshakeKind.values()) {
                    for (CostedVersion version : CostedVersion.values()) {
                        series.add(new Series(Labels.of(GateMetrics.CONNECTOR, gate.name(),
                                "kind", kind.name().toLowerCase(Locale.ROOT), "version", AdaptiveMetrics.versionLabel(version)),
                                controller.cost(), kind, version));
                    }
                }
            }
        }
    }

    /**
     * Adds the histogram to the registry's scrape when a connector is adaptive.
     * @return whether it is there now (false: no adaptive connector, or the registry has the name already)
     */
    static boolean register(PrometheusMeterRegistry registry, List<ConnectorGate> gates) {
        HandshakeCpuHistogram histogram = new HandshakeCpuHistogram(gates);
        if (histogram.series.isEmpty()) {
            return false;
        }
        try {
            registry.getPrometheusRegistry().register(histogram);
            return true;
        } catch (IllegalArgumentException | IllegalStateException e) {
            // bound twice to one registry: the first binding's histogram stays, the timer would clash with it
            log.log(System.Logger.Level.DEBUG, "tlsadmit: " + NAME + " is registered already: " + e.getMessage());
            return true;
        }
    }

    @Override
    public String getPrometheusName() {
        return NAME;
    }

    @Override
    public MetricSnapshot collect() {
        HistogramSnapshot.Builder snapshot = HistogramSnapshot.builder().name(NAME).help(HELP);
        for (Series s : series) {
            long[] counts = s.cost.cumulativeBucketCounts(s.kind, s.version);
            // the client's buckets hold the count of each bucket alone; the exposition makes them cumulative
            ClassicHistogramBuckets.Builder buckets = ClassicHistogramBuckets.builder();
            long below = 0;
            for (int i = 0; i < CpuTimeBuckets.size(); i++) {
                buckets.bucket(CpuTimeBuckets.upperBoundSeconds(i), counts[i] - below);
                below = counts[i];
            }
            buckets.bucket(Double.POSITIVE_INFINITY, counts[CpuTimeBuckets.size()] - below);
            snapshot.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
                    .labels(s.labels)
                    .classicHistogramBuckets(buckets.build())
                    .sum(s.cost.snapshot(s.kind, s.version).totalNanos() / 1e9)
                    .build());
        }
        return snapshot.build();
    }
}

package io.tlsadmit.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tlsadmit.admission.HandshakeKind;
import io.tlsadmit.admission.StaticBudget;
import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.gate.ConnectorGate;
import io.tlsadmit.gate.RefuseAction;
import io.tlsadmit.testing.Promtool;
import io.tlsadmit.testing.PrometheusScrape;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The exposition of two connectors, one static and one adaptive, in a real Prometheus registry. */
class GateMetricsTest {

    private static final String STATIC = "https-jsse-nio-127.0.0.1-8443";
    private static final String ADAPTIVE = "https-jsse-nio-127.0.0.1-9443";

    private final AdmissionController controller = new AdmissionController();
    private final List<ConnectorGate> gates = List.of(
            new ConnectorGate(STATIC, new StaticBudget(7.5, 3), RefuseAction.CLOSE),
            new ConnectorGate(ADAPTIVE, controller, RefuseAction.CLOSE));

    private String scrape() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new GateMeterBinder(gates).bindTo(registry);
        return registry.scrape();
    }

    @Test
    void everySeriesNamesItsConnectorSoBudgetsAreNotSummed() {
        String text = scrape();
        PrometheusScrape metrics = PrometheusScrape.parse(text);
        assertEquals(7.5, metrics.value("tlsadmit_budget_full_handshakes_per_second", "connector", STATIC), text);
        assertEquals(2, metrics.series("tlsadmit_budget_full_handshakes_per_second"), text);
        for (String line : text.split("\n")) {
            // the process's own threads' wait for a CPU is one series: it belongs to no connector and sums nothing
            if (line.startsWith("tlsadmit_") && !line.startsWith("tlsadmit_cpu_run_queue_wait_seconds_total ")) {
                assertTrue(line.contains("connector=\"" + STATIC + "\"") || line.contains("connector=\"" + ADAPTIVE + "\""),
                        "a series without its connector: " + line);
            }
        }
        assertTrue(metrics.series("tlsadmit_cpu_run_queue_wait_seconds_total") <= 1, text);
        assertEquals(metrics.series("tlsadmit_connections_total"),
                2 * text.lines().filter(l -> l.startsWith("tlsadmit_connections_total{connector=\"" + STATIC)).count(), text);
    }

    @Test
    void handshakeCpuIsAHistogramWithCumulativeBucketsInSeconds() {
        controller.handshakeCompleted(HandshakeKind.FULL, 0x0304, 2_000_000);     // 2 ms
        controller.handshakeCompleted(HandshakeKind.FULL, 0x0304, 2_000_000);
        controller.handshakeCompleted(HandshakeKind.FULL, 0x0304, 8_000_000);     // 8 ms
        controller.handshakeCompleted(HandshakeKind.RESUMED, 0x0303, 40_000);     // 40 µs
        String text = scrape();
        PrometheusScrape metrics = PrometheusScrape.parse(text);
        assertTrue(text.contains("# TYPE tlsadmit_handshake_cpu_seconds histogram"), text);
        String[] full = {"connector", ADAPTIVE, "kind", "full", "version", "TLSv1.3"};
        assertEquals(0, metrics.value("tlsadmit_handshake_cpu_seconds_bucket", with(full, "le", "0.001")), text);
        assertEquals(2, metrics.value("tlsadmit_handshake_cpu_seconds_bucket", with(full, "le", "0.0025")), text);
        assertEquals(2, metrics.value("tlsadmit_handshake_cpu_seconds_bucket", with(full, "le", "0.005")), text);
        assertEquals(3, metrics.value("tlsadmit_handshake_cpu_seconds_bucket", with(full, "le", "0.01")), text);
        assertEquals(3, metrics.value("tlsadmit_handshake_cpu_seconds_bucket", with(full, "le", "+Inf")), text);
        assertEquals(3, metrics.value("tlsadmit_handshake_cpu_seconds_count", full), text);
        assertEquals(0.012, metrics.value("tlsadmit_handshake_cpu_seconds_sum", full), 1e-12, text);
        assertEquals(1, metrics.value("tlsadmit_handshake_cpu_seconds_bucket", "connector", ADAPTIVE, "kind", "resumed",
                "version", "TLSv1.2", "le", "5.0E-5"), text);
        assertFalse(text.contains("tlsadmit_handshake_cpu_seconds_bucket{connector=\"" + STATIC), "static budgets measure no CPU");
    }

    @Test
    void theControllersCostAndGuardAreGaugesOfTheAdaptiveConnector() {
        assertTrue(Double.isNaN(PrometheusScrape.parse(scrape()).value("tlsadmit_budget_queue_delay_seconds",
                "connector", ADAPTIVE)), "no period yet");
        controller.recordQueueDelay(20_000_000);
        controller.recordQueueDelay(40_000_000);
        controller.tick(System.nanoTime());
        String text = scrape();
        PrometheusScrape metrics = PrometheusScrape.parse(text);
        assertEquals(AdmissionController.DEFAULT_INITIAL_COST_MICROS / 1e6,
                metrics.value("tlsadmit_full_handshake_cost_seconds", "connector", ADAPTIVE), 1e-12, text);
        assertEquals(1, metrics.series("tlsadmit_full_handshake_cost_seconds"), text);
        assertEquals(metrics.value("tlsadmit_budget_guard_factor"), metrics.value("tlsadmit_budget_guard_ratio"), text);
        assertTrue(metrics.has("tlsadmit_budget_guard_ratio"), text);
        assertEquals(0.030, metrics.value("tlsadmit_budget_queue_delay_seconds", "connector", ADAPTIVE), 1e-9, text);
        assertEquals(AdmissionController.DEFAULT_MIN_RATE,
                metrics.value("tlsadmit_budget_min_full_handshakes_per_second", "connector", ADAPTIVE), text);
        assertEquals(AdmissionController.DEFAULT_MAX_RATE,
                metrics.value("tlsadmit_budget_max_full_handshakes_per_second", "connector", ADAPTIVE), text);
    }

    @Test
    void promtoolFindsNothingToCriticise() throws Exception {
        controller.handshakeCompleted(HandshakeKind.FULL, 0x0304, 2_000_000);
        controller.tick(System.nanoTime());
        Promtool.checkMetrics(scrape());
    }

    @Test
    void otherRegistriesGetTheHandshakeCpuAsCountAndSum() {
        controller.handshakeCompleted(HandshakeKind.FULL, 0x0304, 2_000_000);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new GateMeterBinder(gates).bindTo(registry);
        assertEquals(1, registry.get("tlsadmit.handshake.cpu").tags("connector", ADAPTIVE, "kind", "full", "version", "TLSv1.3")
                .functionTimer().count());
    }

    private static String[] with(String[] labels, String key, String value) {
        String[] all = java.util.Arrays.copyOf(labels, labels.length + 2);
        all[labels.length] = key;
        all[labels.length + 1] = value;
        return all;
    }
}

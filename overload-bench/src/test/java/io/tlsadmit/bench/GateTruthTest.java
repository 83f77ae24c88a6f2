package io.tlsadmit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.testing.PrometheusScrape;
import org.junit.jupiter.api.Test;

class GateTruthTest {

    private static final String CPU = "tlsadmit_handshake_cpu_seconds";

    private static String exposition(int full, int resumed, int pskRefused, int idRefused) {
        return exposition(full, resumed, pskRefused, idRefused, 0, 0);
    }

    private static String exposition(int full, int resumed, int pskRefused, int idRefused, double fullCpu,
                                     int fullTimed) {
        return String.join("\n",
                "# TYPE tlsadmit_handshakes_total counter",
                "tlsadmit_handshakes_total{connector=\"netty-https\",kind=\"full\",version=\"TLSv1.3\"} " + full + ".0",
                "tlsadmit_handshakes_total{connector=\"netty-https\",kind=\"resumed\",version=\"TLSv1.3\"} " + resumed + ".0",
                "tlsadmit_handshakes_total{connector=\"netty-https\",kind=\"resumed\",version=\"TLSv1.2\"} 1.0",
                "tlsadmit_connections_total{connector=\"netty-https\",decision=\"refused\",verdict=\"NEW\"} 500.0",
                "tlsadmit_connections_total{connector=\"netty-https\",decision=\"refused\",verdict=\"RESUME_PSK\"} " + pskRefused + ".0",
                "tlsadmit_connections_total{connector=\"netty-https\",decision=\"admitted\",verdict=\"RESUME_PSK\"} 90.0",
                "tlsadmit_connections_total{connector=\"netty-https\",decision=\"refused\",verdict=\"RESUME_SESSION_ID\"} " + idRefused + ".0",
                CPU + "_count{connector=\"netty-https\",kind=\"full\",version=\"TLSv1.3\"} " + fullTimed,
                CPU + "_sum{connector=\"netty-https\",kind=\"full\",version=\"TLSv1.3\"} " + fullCpu,
                CPU + "_count{connector=\"netty-https\",kind=\"full\",version=\"TLSv1.2\"} 1",
                CPU + "_sum{connector=\"netty-https\",kind=\"full\",version=\"TLSv1.2\"} 0.005",
                CPU + "_count{connector=\"netty-https\",kind=\"resumed\",version=\"TLSv1.3\"} " + resumed,
                CPU + "_sum{connector=\"netty-https\",kind=\"resumed\",version=\"TLSv1.3\"} " + resumed * 0.0005,
                "");
    }

    @Test
    void aStepIsTheDifferenceOfTwoScrapes() {
        GateTruth before = GateTruth.of(PrometheusScrape.parse(exposition(10, 20, 0, 1)));
        GateTruth after = GateTruth.of(PrometheusScrape.parse(exposition(110, 920, 2, 1)));
        GateTruth step = after.since(before);
        assertTrue(step.present());
        assertEquals(100, step.fullHandshakes());
        assertEquals(900, step.resumedHandshakes(), "both versions");
        assertEquals(2, step.resumptionOffersRefused(), "refused offers of every kind of resumption, not new clients");
    }

    @Test
    void aServerWithoutTheGateHasNoTruth() {
        GateTruth none = GateTruth.of(PrometheusScrape.parse(""));
        assertFalse(none.present());
        assertFalse(GateTruth.of(PrometheusScrape.parse(exposition(1, 1, 0, 0))).since(none).present());
        assertEquals("no gate", none.toString());
    }

    @Test
    void theCpuPerFullHandshakeIsTheStepsOwnOfEveryVersionAndNoResumptions() {
        GateTruth before = GateTruth.of(PrometheusScrape.parse(exposition(10, 20, 0, 0, 0.06, 10)));
        GateTruth after = GateTruth.of(PrometheusScrape.parse(exposition(110, 920, 0, 0, 1.06, 110)));
        // 100 full handshakes of TLS 1.3 in the step for 1.0 s of CPU: 10 ms each, whatever came before the step
        assertEquals(10.0, after.since(before).fullHandshakeCpuMillis(), 1e-9);
        assertTrue(Double.isNaN(GateTruth.of(PrometheusScrape.parse(exposition(5, 5, 0, 0))).since(
                GateTruth.of(PrometheusScrape.parse(exposition(5, 5, 0, 0)))).fullHandshakeCpuMillis()),
                "no handshake timed in the step");
    }
}

package io.tlsadmit.experiment.step;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.testing.PrometheusScrape;
import org.junit.jupiter.api.Test;

class StepFiguresTest {

    private static final String SUMMARY = """
            {
              "run": "001-stock",
              "sessionsStarted": 120,
              "pageMillisP99": 257,
              "serverCpuSec": null,
              "tlsadmit_connections_total{decision=\\"refused\\",verdict=\\"NEW\\"}": 4
            }
            """;

    private static final String TIMELINE = """
            second,sessions_started,sessions_completed,replies,connections_refused
            0,10,0,5,0
            1,10,2,40,1
            2,10,4,60,3
            3,10,6,80,0
            4,0,10,20,0
            """;

    @Test
    void ratesAreMeansOverTheWindowOnly() {
        StepFigures f = StepFigures.parse(SUMMARY, TIMELINE, 1, 4);
        assertEquals(60, f.perSecond("replies"), 1e-9);
        assertEquals(4, f.perSecond("sessions_completed"), 1e-9);
        assertEquals(4.0 / 3, f.perSecond("connections_refused"), 1e-9);
        assertEquals(3, f.windowSeconds());
    }

    @Test
    void secondsTheRunNeverReachedCountAsNothingHappening() {
        StepFigures f = StepFigures.parse(SUMMARY, TIMELINE, 3, 7);
        assertEquals(25, f.perSecond("replies"), 1e-9);
    }

    @Test
    void summaryFiguresAreNumbersAndNullIsNotMeasured() {
        StepFigures f = StepFigures.parse(SUMMARY, TIMELINE, 0, 5);
        assertEquals(120, f.figure("sessionsStarted"));
        assertEquals(257, f.figure("pageMillisP99"));
        assertTrue(Double.isNaN(f.figure("serverCpuSec")));
        assertTrue(Double.isNaN(f.figure("absent")));
        assertEquals(0, f.perSecond("absent"));
    }

    @Test
    void aBrokenTimelineIsRefusedWithTheReason() {
        assertThrows(IllegalArgumentException.class, () -> StepFigures.parse(SUMMARY, "", 0, 1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StepFigures.parse(SUMMARY, "second,replies\n0,1,2\n", 0, 1));
        assertTrue(e.getMessage().contains("3 cells"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> StepFigures.parse(SUMMARY, TIMELINE, 2, 2));
    }

    private static final String GATED = "https-jsse-nio-127.0.0.1-8443";

    /** The gated connector's timed handshakes, beside another connector's whose port ends in the same digits. */
    private static PrometheusScrape gate(int full13, double full13Cpu, int full12, double full12Cpu, int resumed,
            int other) {
        String cpu = "tlsadmit_handshake_cpu_seconds";
        return PrometheusScrape.parse(String.join("\n",
                "# TYPE tlsadmit_handshake_cpu_seconds histogram",
                cpu + "_count{connector=\"" + GATED + "\",kind=\"full\",version=\"TLSv1.3\"} " + full13,
                cpu + "_sum{connector=\"" + GATED + "\",kind=\"full\",version=\"TLSv1.3\"} " + full13Cpu,
                cpu + "_count{connector=\"" + GATED + "\",kind=\"full\",version=\"TLSv1.2\"} " + full12,
                cpu + "_sum{connector=\"" + GATED + "\",kind=\"full\",version=\"TLSv1.2\"} " + full12Cpu,
                cpu + "_count{connector=\"" + GATED + "\",kind=\"resumed\",version=\"TLSv1.3\"} " + resumed,
                cpu + "_sum{connector=\"" + GATED + "\",kind=\"resumed\",version=\"TLSv1.3\"} " + resumed * 0.001,
                cpu + "_count{connector=\"https-jsse-nio-127.0.0.1-18443\",kind=\"full\",version=\"TLSv1.3\"} " + other,
                cpu + "_sum{connector=\"https-jsse-nio-127.0.0.1-18443\",kind=\"full\",version=\"TLSv1.3\"} "
                        + other * 0.05,
                "tlsadmit_handshakes_total{connector=\"" + GATED + "\",kind=\"full\",version=\"TLSv1.3\"} " + full13,
                ""));
    }

    @Test
    void theCpuPerFullHandshakeIsTheWindowsOwnOnTheGatedConnectorOnly() {
        // 100 full handshakes (96 TLS 1.3, 4 TLS 1.2) in the window for 0.75 s: 7.5 ms each, not the 10 ms of those
        // before it; the 900 resumptions (1 ms) and the other connector's 300 full handshakes (50 ms) are no part of it
        double millis = StepFigures.fullHandshakeCpuMillis(gate(50, 0.5, 2, 0.02, 100, 10),
                gate(146, 1.22, 6, 0.05, 1000, 310), 8443);
        assertEquals(7.5, millis, 1e-9);
    }

    @Test
    void noFullHandshakeTimedIsNoFigure() {
        PrometheusScrape idle = gate(50, 0.5, 2, 0.02, 100, 10);
        assertTrue(Double.isNaN(StepFigures.fullHandshakeCpuMillis(idle, gate(50, 0.5, 2, 0.02, 900, 310), 8443)),
                "resumptions and the other connector's handshakes only");
        PrometheusScrape staticBudget = PrometheusScrape.parse(
                "tlsadmit_handshakes_total{connector=\"" + GATED + "\",kind=\"full\",version=\"TLSv1.3\"} 7\n");
        assertTrue(Double.isNaN(StepFigures.fullHandshakeCpuMillis(staticBudget, staticBudget, 8443)),
                "a budget that times no handshake");
        PrometheusScrape none = PrometheusScrape.parse("");
        assertTrue(Double.isNaN(StepFigures.fullHandshakeCpuMillis(none, none, 8443)), "no gate");
        assertTrue(Double.isNaN(StepFigures.fullHandshakeCpuMillis(none, gate(146, 1.22, 6, 0.05, 1000, 10), 8443)),
                "a failed scrape: the server's handshakes since its start are not the window's");
    }
}

package io.tlsadmit.loadtests.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.loadtests.run.RunRecorder.Series;
import io.tlsadmit.testing.PrometheusScrape;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunReportTest {

    private static final String BEFORE = """
            tlsadmit_handshakes_total{kind="full",version="TLSv1.3"} 5.0
            tlsadmit_handshakes_total{kind="resumed",version="TLSv1.3"} 7.0
            tlsadmit_connections_total{decision="admitted",verdict="NEW"} 5.0
            """;
    private static final String AFTER = """
            tlsadmit_handshakes_total{kind="full",version="TLSv1.3"} 15.0
            tlsadmit_handshakes_total{kind="resumed",version="TLSv1.3"} 47.0
            tlsadmit_connections_total{decision="admitted",verdict="NEW"} 15.0
            tlsadmit_connections_total{decision="admitted",verdict="RESUME_PSK"} 40.0
            tlsadmit_connections_total{decision="refused",verdict="NEW"} 3.0
            """;

    @Test
    void sessionsRepliesAndTheServersHandshakesOfTheRunAreReported() {
        RunRecorder recorder = new RunRecorder();
        for (int i = 0; i < 12; i++) {
            recorder.count(Series.SESSIONS_STARTED);
        }
        for (int i = 0; i < 9; i++) {
            recorder.count(Series.SESSIONS_COMPLETED);
        }
        recorder.count(Series.SESSIONS_ABANDONED);
        recorder.count(Series.SESSIONS_REFUSED);
        recorder.page("ViewItem", 40, false, true);
        recorder.page("StoreBid", 80, true, false);
        recorder.reply(5);

        RunReport report = RunReport.of(Settings.from(new Properties()), recorder, 1.5, -1,
                PrometheusScrape.parse(BEFORE), PrometheusScrape.parse(AFTER));

        var f = report.figures();
        assertEquals(12L, f.get("sessionsStarted"));
        assertEquals(9L, f.get("sessionsCompleted"));
        assertEquals(1L, f.get("sessionsUnfinished"));
        assertEquals(3L, f.get("replies"));
        assertEquals(2L, f.get("pages"));
        assertEquals(1L, f.get("errorPages"));
        assertEquals(1L, f.get("errorPages.StoreBid"));
        assertEquals(80L, f.get("pageMillisP99"));
        assertEquals(40L, f.get("firstPageMillisP99"), "the user's first page alone");
        assertEquals(80L, f.get("laterPageMillisP99"), "the pages after it");
        assertEquals(null, f.get("serverCpuSec"));
        assertEquals(10.0, f.get("serverFullHandshakes"));
        assertEquals(40.0, f.get("serverResumedHandshakes"));
        assertEquals(50.0, f.get("serverConnectionsAdmitted"));
        assertEquals(3.0, f.get("serverConnectionsRefused"));
        assertEquals(3.0, f.get("tlsadmit_connections_total{decision=\"refused\",verdict=\"NEW\"}"));
    }

    @Test
    void withoutServerMetricsOnlyTheClientsFiguresAreWritten(@TempDir Path dir) throws Exception {
        RunRecorder recorder = new RunRecorder();
        recorder.count(Series.SESSIONS_STARTED);
        RunReport report = RunReport.of(Settings.from(new Properties()), recorder, 0.2, 3.25,
                PrometheusScrape.parse(""), PrometheusScrape.parse(""));
        report.write(dir, recorder, "", "");

        String json = Files.readString(dir.resolve("summary.json"));
        assertTrue(json.startsWith("{\n  \"run\": \"rubis\",\n"), json);
        assertTrue(json.contains("\"serverMetrics\": false"), json);
        assertTrue(json.contains("\"serverCpuSec\": 3.25"), json);
        assertTrue(!json.contains("serverFullHandshakes"), json);
        assertTrue(json.endsWith("\n}\n"), json);
        assertTrue(!Files.exists(dir.resolve("metrics-before.prom")));

        List<String> timeline = Files.readAllLines(dir.resolve("timeline.csv"));
        assertEquals("second,sessions_started,sessions_completed,sessions_abandoned,sessions_refused,replies,pages,"
                + "error_pages,connections_refused,timeouts,known_users_refused,first_pages,first_pages_incomplete,"
                + "first_pages_timed_out", timeline.get(0));
        assertEquals("0,1,0,0,0,0,0,0,0,0,0,0,0,0", timeline.get(1));
    }

    @Test
    void quotesInNamesAreEscapedInTheJson() {
        RunReport report = RunReport.of(Settings.from(new Properties()), new RunRecorder(), 0, -1,
                PrometheusScrape.parse(""), PrometheusScrape.parse(AFTER));
        assertTrue(report.json().contains(
                "\"tlsadmit_connections_total{decision=\\\"refused\\\",verdict=\\\"NEW\\\"}\": 3.0"), report.json());
    }

    @Test
    void percentilesAreTheSmallestTimesCoveringTheirShareToTheMillisecond() {
        Histogram millis = new Histogram(3);
        for (int m = 1; m <= 100; m++) {
            millis.recordValue(m);
        }
        assertEquals(50, RunReport.percentile(millis, 0.50));
        assertEquals(99, RunReport.percentile(millis, 0.99));
        assertEquals(100, RunReport.percentile(millis, 1.0));
        assertEquals(50.5, RunReport.mean(millis), 1e-9);
    }

    @Test
    void timesBeyondTheTimeoutKeepTheirOrderOfMagnitude() {
        // a reply after an hour is not a reply after the 10 s client timeout: no bucket caps it
        Histogram millis = new Histogram(3);
        millis.recordValue(5);
        millis.recordValue(3_600_000);
        long p99 = RunReport.percentile(millis, 0.99);
        assertTrue(Math.abs(p99 - 3_600_000) <= 3_600, "within 0.1 %: " + p99);
    }

    @Test
    void aRunThatServedNoPageHasNoPercentiles() {
        assertEquals(-1, RunReport.percentile(new Histogram(3), 0.5));
        assertEquals(-1, RunReport.mean(new Histogram(3)), 0);
    }
}

package io.tlsadmit.loadtests.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {

    private static final String BEFORE = """
            # HELP tlsadmit_handshakes_total Handshakes by what they really were
            # TYPE tlsadmit_handshakes_total counter
            tlsadmit_handshakes_total{kind="full",version="TLSv1.3"} 4.0
            tlsadmit_handshakes_total{kind="resumed",version="TLSv1.3"} 10.0
            tlsadmit_connections_total{decision="admitted",verdict="NEW"} 4.0
            """;
    private static final String AFTER = """
            # TYPE tlsadmit_handshakes_total counter
            tlsadmit_handshakes_total{kind="full",version="TLSv1.3"} 28.0
            tlsadmit_handshakes_total{version="TLSv1.2",kind="full"} 2.0
            tlsadmit_handshakes_total{kind="resumed",version="TLSv1.3"} 110.0 1700000000000
            tlsadmit_connections_total{decision="admitted",verdict="NEW"} 30.0
            tlsadmit_connections_total{decision="refused",verdict="NEW"} 7.0
            tlsadmit_budget_tokens NaN
            jvm_info{version="17.0.1 \\"LTS\\""} 1
            """;

    @Test
    void sumsSelectSeriesByAnySubsetOfLabels() {
        PrometheusText after = PrometheusText.parse(AFTER);
        assertEquals(30.0, after.sum("tlsadmit_handshakes_total", Map.of("kind", "full")));
        assertEquals(28.0, after.sum("tlsadmit_handshakes_total", Map.of("kind", "full", "version", "TLSv1.3")));
        assertEquals(140.0, after.sum("tlsadmit_handshakes_total", Map.of()));
        assertEquals(7.0, after.sum("tlsadmit_connections_total", Map.of("decision", "refused")));
        assertEquals(0.0, after.sum("tlsadmit_absent_total", Map.of()));
    }

    @Test
    void increaseIsPerSeriesAndCountsNewSeriesFromZero() {
        Map<String, Double> increase = PrometheusText.parse(AFTER).increase(PrometheusText.parse(BEFORE),
                "tlsadmit_connections_total");
        assertEquals(Map.of("tlsadmit_connections_total{decision=\"admitted\",verdict=\"NEW\"}", 26.0,
                "tlsadmit_connections_total{decision=\"refused\",verdict=\"NEW\"}", 7.0), increase);
    }

    @Test
    void labelOrderDoesNotMakeADifferentSeries() {
        Map<String, Double> increase = PrometheusText.parse(AFTER).increase(PrometheusText.parse(
                "tlsadmit_handshakes_total{kind=\"full\",version=\"TLSv1.2\"} 1.0\n"), "tlsadmit_handshakes_total");
        assertEquals(1.0, increase.get("tlsadmit_handshakes_total{kind=\"full\",version=\"TLSv1.2\"}"));
    }

    @Test
    void nothingIsReadFromTextThatIsNotAnExposition() {
        assertTrue(PrometheusText.parse("<html>Not found</html>\n").isEmpty());
        assertTrue(PrometheusText.parse("").isEmpty());
    }
}

package io.tlsadmit.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusScrapeTest {

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
        PrometheusScrape after = PrometheusScrape.parse(AFTER);
        assertEquals(30.0, after.value("tlsadmit_handshakes_total", "kind", "full"));
        assertEquals(28.0, after.value("tlsadmit_handshakes_total", "kind", "full", "version", "TLSv1.3"));
        assertEquals(140.0, after.value("tlsadmit_handshakes_total"));
        assertEquals(7.0, after.value("tlsadmit_connections_total", "decision", "refused"));
        assertEquals(0.0, after.value("tlsadmit_absent_total"));
    }

    @Test
    void seriesCanBeSelectedByATestOfTheirLabels() {
        PrometheusScrape after = PrometheusScrape.parse(AFTER);
        assertEquals(30.0, after.value("tlsadmit_handshakes_total", labels -> "full".equals(labels.get("kind"))));
        assertEquals(110.0, after.value("tlsadmit_handshakes_total",
                labels -> labels.getOrDefault("version", "").endsWith("1.3") && !"full".equals(labels.get("kind"))));
        assertEquals(0.0, after.value("tlsadmit_handshakes_total", labels -> labels.containsKey("connector")));
    }

    @Test
    void increaseIsPerSeriesAndCountsNewSeriesFromZero() {
        Map<String, Double> increase = PrometheusScrape.parse(AFTER).increase(PrometheusScrape.parse(BEFORE),
                "tlsadmit_connections_total");
        assertEquals(Map.of("tlsadmit_connections_total{decision=\"admitted\",verdict=\"NEW\"}", 26.0,
                "tlsadmit_connections_total{decision=\"refused\",verdict=\"NEW\"}", 7.0), increase);
    }

    @Test
    void labelOrderDoesNotMakeADifferentSeries() {
        Map<String, Double> increase = PrometheusScrape.parse(AFTER).increase(PrometheusScrape.parse(
                "tlsadmit_handshakes_total{kind=\"full\",version=\"TLSv1.2\"} 1.0\n"), "tlsadmit_handshakes_total");
        assertEquals(1.0, increase.get("tlsadmit_handshakes_total{kind=\"full\",version=\"TLSv1.2\"}"));
    }

    @Test
    void nothingIsReadFromTextThatIsNotAnExposition() {
        assertTrue(PrometheusScrape.parse("<html>Not found</html>\n").isEmpty());
        assertTrue(PrometheusScrape.parse("").isEmpty());
    }

    @Test
    void aTimestampIsNotTheValue() {
        assertEquals(110.0, PrometheusScrape.parse(AFTER).value("tlsadmit_handshakes_total", "kind", "resumed"));
    }

    @Test
    void escapedQuotesInALabelValueAreReadAndKeptInItsSeries() {
        PrometheusScrape after = PrometheusScrape.parse(AFTER);
        assertEquals(1.0, after.value("jvm_info", "version", "17.0.1 \"LTS\""));
        assertEquals(Map.of("jvm_info{version=\"17.0.1 \\\"LTS\\\"\"}", 1.0),
                after.increase(PrometheusScrape.parse(""), "jvm_info"));
    }

    @Test
    void samplesAreKeyedAsExposed() {
        assertEquals(Map.of("tlsadmit_handshakes_total{kind=\"full\",version=\"TLSv1.3\"}", 28.0,
                        "tlsadmit_handshakes_total{version=\"TLSv1.2\",kind=\"full\"}", 2.0,
                        "tlsadmit_handshakes_total{kind=\"resumed\",version=\"TLSv1.3\"}", 110.0),
                PrometheusScrape.parse(AFTER).samples("tlsadmit_handshakes", "_total"));
    }
}

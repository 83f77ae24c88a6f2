package io.tlsadmit.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Grafana's provisioning files and the dashboard: they fit together and show what operators need. */
class GrafanaProvisioningTest {

    private static final String DATASOURCES = "deploy/grafana/provisioning/datasources/prometheus.yml";
    private static final String PROVIDERS = "deploy/grafana/provisioning/dashboards/tlsadmit.yml";

    private final Dashboard dashboard = Dashboard.load();

    @Test
    void everyQueryUsesTheProvisionedPrometheusDatasource() {
        Map<?, ?> datasource = (Map<?, ?>) ((List<?>) ComposeFile.yaml(Repository.read(DATASOURCES)).get("datasources")).get(0);
        assertEquals("prometheus", datasource.get("type"));
        assertEquals("http://prometheus:9090", datasource.get("url"));
        assertTrue(ComposeFile.load().services().containsKey("prometheus"));

        Object uid = datasource.get("uid");
        for (JsonNode panel : dashboard.panels()) {
            assertEquals(uid, panel.path("datasource").path("uid").asText(), panel.path("title").asText());
            assertFalse(panel.path("targets").isEmpty(), panel.path("title") + " has no query");
            for (JsonNode target : panel.path("targets")) {
                assertEquals(uid, target.path("datasource").path("uid").asText(), panel.path("title").asText());
                assertFalse(target.path("expr").asText().isBlank(), panel.path("title") + " has an empty query");
            }
        }
    }

    @Test
    void dashboardShowsHandshakesDecisionsBudgetCpusAndMispredictions() {
        Set<String> names = dashboard.metricNames();
        for (String needed : List.of("tlsadmit_handshakes_total", "tlsadmit_connections_total",
                "tlsadmit_budget_full_handshakes_per_second", "tlsadmit_cpus_allocated", "tlsadmit_cpus_requested",
                "tlsadmit_mispredictions_total")) {
            assertTrue(names.contains(needed), "no panel shows " + needed + "; panels read " + names);
        }
        assertTrue(dashboard.expressions().stream().anyMatch(e -> e.contains("tlsadmit_handshakes_total")
                && e.contains("by (kind")), "no panel splits handshakes by kind");
        assertTrue(dashboard.expressions().stream().anyMatch(e -> e.contains("tlsadmit_connections_total")
                && e.contains("by (decision")), "no panel splits connections into admitted and refused");
    }

    @Test
    void panelsHaveUniqueIdsAndDoNotOverlap() {
        Set<Integer> ids = new HashSet<>();
        Set<String> cells = new HashSet<>();
        for (JsonNode panel : dashboard.panels()) {
            assertTrue(ids.add(panel.path("id").asInt()), "duplicate panel id " + panel.path("id"));
            JsonNode at = panel.path("gridPos");
            assertTrue(at.path("x").asInt() + at.path("w").asInt() <= 24, panel.path("title") + " is wider than the grid");
            for (int x = at.path("x").asInt(); x < at.path("x").asInt() + at.path("w").asInt(); x++) {
                for (int y = at.path("y").asInt(); y < at.path("y").asInt() + at.path("h").asInt(); y++) {
                    assertTrue(cells.add(x + "," + y), panel.path("title") + " overlaps another panel at " + x + "," + y);
                }
            }
        }
        assertEquals("tlsadmit", dashboard.json().path("uid").asText());
    }

    @Test
    void grafanaLoadsTheDashboardFromWhereComposeMountsIt() {
        Map<?, ?> provider = (Map<?, ?>) ((List<?>) ComposeFile.yaml(Repository.read(PROVIDERS)).get("providers")).get(0);
        String path = (String) ((Map<?, ?>) provider.get("options")).get("path");

        Map<String, Object> grafana = ComposeFile.load().service("grafana");
        List<?> volumes = (List<?>) grafana.get("volumes");
        assertTrue(volumes.contains("./deploy/grafana/dashboards:" + path + ":ro"), "dashboards not mounted at " + path);
        assertTrue(volumes.contains("./deploy/grafana/provisioning:/etc/grafana/provisioning:ro"), volumes::toString);

        String home = (String) ((Map<?, ?>) grafana.get("environment")).get("GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH");
        assertEquals(path + "/tlsadmit.json", home);
        Repository.file(Dashboard.PATH);
    }
}

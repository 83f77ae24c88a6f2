package io.tlsadmit.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Grafana's provisioning files and the dashboard: they fit together and show what operators need. */
class GrafanaProvisioningTest {

    private static final String DATASOURCES = "deploy/grafana/provisioning/datasources/prometheus.yml";
    private static final String PROVIDERS = "deploy/grafana/provisioning/dashboards/tlsadmit.yml";

    private final Dashboard dashboard = Dashboard.load();

    /**
     * Importable into an existing Grafana: the import dialog asks for a Prometheus datasource
     * ({@code __inputs}) and writes its uid wherever the dashboard says {@code ${DS_PROMETHEUS}}: every
     * panel, every query and every query variable.
     */
    @Test
    void everyPanelQueryAndVariableReadsTheDatasourceTheImportAsksFor() {
        JsonNode inputs = dashboard.json().path("__inputs");
        assertEquals(1, inputs.size(), inputs::toString);
        assertEquals(Dashboard.DATASOURCE_INPUT, inputs.get(0).path("name").asText());
        assertEquals("datasource", inputs.get(0).path("type").asText());
        assertEquals("prometheus", inputs.get(0).path("pluginId").asText());

        for (JsonNode panel : dashboard.panels()) {
            assertDatasource(panel.path("datasource"), panel.path("title").asText());
            assertFalse(panel.path("targets").isEmpty(), panel.path("title") + " has no query");
            for (JsonNode target : panel.path("targets")) {
                assertDatasource(target.path("datasource"), panel.path("title").asText());
                assertFalse(target.path("expr").asText().isBlank(), panel.path("title") + " has an empty query");
            }
        }
        for (String name : Dashboard.SELECTING_VARIABLES) {
            JsonNode variable = dashboard.variable(name);
            assertEquals("query", variable.path("type").asText(), name);
            assertDatasource(variable.path("datasource"), "variable " + name);
            assertTrue(variable.path("includeAll").asBoolean() && variable.path("multi").asBoolean(), name);
            assertEquals(".*", variable.path("allValue").asText(), name + ": All must match every value");
            assertTrue(variable.path("query").path("query").asText().startsWith("label_values("), name);
        }
    }

    /**
     * Provisioning does not fill in {@code __inputs}: there {@code ${DS_PROMETHEUS}} is the dashboard's own
     * datasource variable of that name, which with no value chosen takes the default datasource of its type.
     * The provisioned Prometheus must be that default, and the only one.
     */
    @Test
    void theProvisionedCopyResolvesItsDatasourceVariableToThePrometheusOfTheStack() {
        JsonNode variable = dashboard.variable(Dashboard.DATASOURCE_INPUT);
        assertEquals("datasource", variable.path("type").asText(), "no datasource variable " + Dashboard.DATASOURCE_INPUT);
        assertEquals("prometheus", variable.path("query").asText());
        assertTrue(variable.path("current").isEmpty() || variable.path("current").path("value").asText().isEmpty(),
                "a fixed value would name a datasource other Grafanas do not have: " + variable.path("current"));

        List<?> datasources = (List<?>) ComposeFile.yaml(Repository.read(DATASOURCES)).get("datasources");
        List<Map<?, ?>> prometheus = datasources.stream().<Map<?, ?>>map(d -> (Map<?, ?>) d)
                .filter(d -> "prometheus".equals(d.get("type"))).toList();
        assertEquals(1, prometheus.size(), datasources::toString);
        assertEquals(true, prometheus.get(0).get("isDefault"), "the variable's default must be the stack's Prometheus");
        assertEquals("http://prometheus:9090", prometheus.get(0).get("url"));
        assertTrue(ComposeFile.load().services().containsKey("prometheus"));
    }

    /** Every selector of every query takes the job, instance and connector chosen at the top of the dashboard. */
    @Test
    void everyQuerySelectsByJobInstanceAndConnector() {
        for (String expression : dashboard.expressions()) {
            List<String> selectors = Dashboard.selectors(expression);
            assertFalse(selectors.isEmpty(), "no tlsadmit metric in " + expression);
            for (String selector : selectors) {
                for (String variable : Dashboard.SELECTING_VARIABLES) {
                    if (variable.equals("connector") && selector.startsWith(Dashboard.PROCESS_METRIC + "{")) {
                        assertFalse(selector.contains("connector"), selector + ": the process's series has no connector");
                        continue;
                    }
                    assertTrue(selector.contains(variable + "=~\"$" + variable + "\""),
                            selector + " does not select by $" + variable + " in " + expression);
                }
            }
        }
    }

    /** Each query is PromQL Prometheus accepts once Grafana has put in its variables. */
    @Test
    void everyQueryParsesAsPromql(@TempDir Path work) throws IOException {
        StringBuilder rules = new StringBuilder("groups:\n  - name: dashboard\n    rules:\n");
        int i = 0;
        for (String expression : dashboard.expressions()) {
            String promql = expression.replace("$__rate_interval", "1m").replaceAll("\\$[a-z_]+", ".*");
            rules.append("      - record: dashboard:query").append(i++).append('\n')
                    .append("        expr: '").append(promql.replace("'", "''")).append("'\n");
        }
        Path file = work.resolve("dashboard-queries.yml");
        Files.writeString(file, rules);
        Command check = Command.run("promtool", "check", "rules", file.toString());
        assertTrue(check.succeeded(), () -> check + "\n" + rules);
    }

    private static void assertDatasource(JsonNode datasource, String where) {
        assertEquals("prometheus", datasource.path("type").asText(), where);
        assertEquals(Dashboard.DATASOURCE_REFERENCE, datasource.path("uid").asText(), where);
    }

    @Test
    void dashboardShowsHandshakesDecisionsBudgetCpusAndMispredictions() {
        Set<String> names = dashboard.metricNames();
        for (String needed : List.of("tlsadmit_handshakes_total", "tlsadmit_connections_total",
                "tlsadmit_budget_full_handshakes_per_second", "tlsadmit_cpus_allocated", "tlsadmit_cpus_requested",
                "tlsadmit_mispredictions_total", "tlsadmit_late_refusals_total", "tlsadmit_would_refuse_total",
                "tlsadmit_handshake_cpu_seconds_bucket", "tlsadmit_full_handshake_cost_seconds")) {
            assertTrue(names.contains(needed), "no panel shows " + needed + "; panels read " + names);
        }
        assertTrue(dashboard.expressions().stream().anyMatch(e -> e.contains("tlsadmit_handshakes_total")
                && e.contains("by (kind")), "no panel splits handshakes by kind");
        assertTrue(dashboard.expressions().stream().anyMatch(e -> e.contains("tlsadmit_budget_full_handshakes_per_second")
                && e.contains("connector)")), "no panel shows each connector's budget apart");
        assertTrue(dashboard.expressions().stream().anyMatch(e -> e.startsWith("histogram_quantile(")
                && e.contains("tlsadmit_handshake_cpu_seconds_bucket") && e.contains("by (le")),
                "no panel computes a handshake CPU percentile from the histogram's buckets");
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

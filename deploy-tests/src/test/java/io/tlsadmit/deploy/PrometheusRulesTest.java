package io.tlsadmit.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** deploy/prometheus/tlsadmit-alerts.yml: valid, loaded by the stack's Prometheus, and every alert tested. */
class PrometheusRulesTest {

    @Test
    void promtoolAcceptsTheRules() {
        Command check = Command.run("promtool", "check", "rules", AlertRules.PATH);
        assertTrue(check.succeeded(), check::toString);
    }

    /** Input series and the alerts they must (and must not) fire, evaluated by Prometheus's rule engine. */
    @Test
    void promtoolRuleTestsPass() {
        Command test = Command.run("promtool", "test", "rules", AlertRules.TEST_PATH);
        assertTrue(test.succeeded(), test::toString);
        assertTrue(test.output().contains("SUCCESS"), test::toString);
    }

    @Test
    void theAlertsTheIssueAsksForExistAndEachIsTestedFiring() {
        assertEquals(List.of("TlsadmitRefusingNewClients", "TlsadmitLateRefusalsRising", "TlsadmitMispredictionsRising",
                "TlsadmitBudgetAtFloor", "TlsadmitCpusAllocatedChanged"), AlertRules.names());
        Set<String> untested = new TreeSet<>(AlertRules.names());
        untested.removeAll(AlertRules.testedFiring());
        assertTrue(untested.isEmpty(), "alerts no test sees firing: " + untested);
    }

    /** Prometheus loads the rules: prometheus.yml names the file, and compose mounts it beside the config. */
    @Test
    void prometheusLoadsTheRulesFileComposeMountsBesideItsConfig() {
        List<?> ruleFiles = (List<?>) ComposeFile.yaml(Repository.read(PrometheusConfigTest.PATH)).get("rule_files");
        assertEquals(List.of("tlsadmit-alerts.yml"), ruleFiles);
        Map<String, Object> prometheus = ComposeFile.load().service("prometheus");
        List<?> volumes = (List<?>) prometheus.get("volumes");
        assertTrue(volumes.contains("./deploy/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro"), volumes::toString);
        assertTrue(volumes.contains("./" + AlertRules.PATH + ":/etc/prometheus/tlsadmit-alerts.yml:ro"), volumes::toString);
    }
}

package io.tlsadmit.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** deploy/prometheus/prometheus.yml: valid for Prometheus, and pointed at what the stack actually serves. */
class PrometheusConfigTest {

    static final String PATH = "deploy/prometheus/prometheus.yml";
    private static final String NODE_ALIAS = "tlsadmit-node";

    @Test
    void promtoolAcceptsTheConfiguration() {
        Command check = Command.run("promtool", "check", "config", PATH);
        assertTrue(check.succeeded(), check::toString);
    }

    @Test
    void scrapesTheValveMetricsPathOnEveryTomcatsPlainConnector() {
        Map<String, Object> job = tlsadmitJob();
        ServerXml server = ServerXml.load();
        assertEquals(server.valveAttribute("metricsPath", "/tlsadmit/metrics"), job.get("metrics_path"));
        assertEquals("http", job.get("scheme"));

        Map<?, ?> discovery = (Map<?, ?>) ((List<?>) job.get("dns_sd_configs")).get(0);
        assertEquals(List.of(NODE_ALIAS), discovery.get("names"));
        assertEquals(Integer.parseInt(server.plainConnector().getAttribute("port")), discovery.get("port"));

        ComposeFile compose = ComposeFile.load();
        for (String tomcat : List.of("tomcat", "tomcat-a", "tomcat-b")) {
            Map<String, Object> network = ComposeFile.map(ComposeFile.map(compose.service(tomcat), "networks"), "tlsadmit");
            assertEquals(List.of(NODE_ALIAS), network.get("aliases"), tomcat + " is not discoverable by Prometheus");
        }
    }

    static Map<String, Object> tlsadmitJob() {
        for (Object job : (List<?>) ComposeFile.yaml(Repository.read(PATH)).get("scrape_configs")) {
            @SuppressWarnings("unchecked")
            Map<String, Object> scrape = (Map<String, Object>) job;
            if ("tlsadmit".equals(scrape.get("job_name"))) {
                return scrape;
            }
        }
        throw new AssertionError(PATH + " has no tlsadmit job");
    }
}

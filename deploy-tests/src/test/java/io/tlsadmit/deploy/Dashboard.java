package io.tlsadmit.deploy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The committed Grafana dashboard, and the Prometheus metric names its queries read. */
final class Dashboard {

    static final String PATH = "deploy/grafana/dashboards/tlsadmit.json";
    /** Metric names in PromQL: tlsadmit's own (every other identifier in our queries is a label or function). */
    private static final Pattern METRIC = Pattern.compile("\\btlsadmit_[a-z0-9_]+\\b");

    private final JsonNode json;

    private Dashboard(JsonNode json) {
        this.json = json;
    }

    static Dashboard load() {
        try {
            return new Dashboard(new ObjectMapper().readTree(Repository.read(PATH)));
        } catch (JsonProcessingException e) {
            throw new AssertionError(PATH + " is not well-formed JSON: " + e.getOriginalMessage(), e);
        }
    }

    JsonNode json() {
        return json;
    }

    List<JsonNode> panels() {
        List<JsonNode> panels = new ArrayList<>();
        json.path("panels").forEach(panels::add);
        return panels;
    }

    List<String> expressions() {
        List<String> expressions = new ArrayList<>();
        for (JsonNode panel : panels()) {
            panel.path("targets").forEach(target -> expressions.add(target.path("expr").asText()));
        }
        return expressions;
    }

    /** Every metric name some panel queries, as it appears in a scrape (counters with _total, summaries with _sum). */
    Set<String> metricNames() {
        Set<String> names = new TreeSet<>();
        for (String expression : expressions()) {
            Matcher metric = METRIC.matcher(expression);
            while (metric.find()) {
                names.add(metric.group());
            }
        }
        return names;
    }
}

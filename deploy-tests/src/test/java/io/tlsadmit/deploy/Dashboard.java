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
    /** The import input Grafana asks for, and the datasource variable a provisioned copy resolves it with. */
    static final String DATASOURCE_INPUT = "DS_PROMETHEUS";
    /** What every panel and query names as its datasource. */
    static final String DATASOURCE_REFERENCE = "${" + DATASOURCE_INPUT + "}";
    /** The template variables every query must select by. */
    static final List<String> SELECTING_VARIABLES = List.of("job", "instance", "connector");
    /**
     * The one family that belongs to the process, not to a connector (its threads' wait for a CPU): it has no
     * {@code connector} label, and a panel of it selects by job and instance alone.
     */
    static final String PROCESS_METRIC = "tlsadmit_cpu_run_queue_wait_seconds_total";
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

    /** The template variable called {@code name}, or a missing node. */
    JsonNode variable(String name) {
        for (JsonNode variable : json.path("templating").path("list")) {
            if (name.equals(variable.path("name").asText())) {
                return variable;
            }
        }
        return json.path("templating").path("no such variable " + name);
    }

    /**
     * Each selector of a tlsadmit metric in {@code expression}, as {@code name{labels}}; a metric without
     * braces gives {@code name} alone.
     */
    static List<String> selectors(String expression) {
        List<String> selectors = new ArrayList<>();
        Matcher metric = METRIC.matcher(expression);
        while (metric.find()) {
            int end = metric.end();
            if (end < expression.length() && expression.charAt(end) == '{') {
                end = expression.indexOf('}', end) + 1;
            }
            selectors.add(expression.substring(metric.start(), end));
        }
        return selectors;
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

package io.tlsadmit.deploy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The committed Prometheus alert rules, and the metric names their expressions read. */
final class AlertRules {

    static final String PATH = "deploy/prometheus/tlsadmit-alerts.yml";
    static final String TEST_PATH = "deploy/prometheus/tlsadmit-alerts.test.yml";
    private static final Pattern METRIC = Pattern.compile("\\btlsadmit_[a-z0-9_]+\\b");

    private AlertRules() {
    }

    /** Alert name to expression, in file order. */
    static Map<String, String> alerts() {
        Map<String, String> alerts = new LinkedHashMap<>();
        for (Object group : (List<?>) ComposeFile.yaml(Repository.read(PATH)).get("groups")) {
            for (Object rule : (List<?>) ((Map<?, ?>) group).get("rules")) {
                Map<?, ?> r = (Map<?, ?>) rule;
                alerts.put((String) r.get("alert"), (String) r.get("expr"));
            }
        }
        return alerts;
    }

    /** Alert names some test of the test file expects to fire (a non-empty {@code exp_alerts}). */
    static Set<String> testedFiring() {
        Set<String> tested = new TreeSet<>();
        for (Object test : (List<?>) ComposeFile.yaml(Repository.read(TEST_PATH)).get("tests")) {
            for (Object check : (List<?>) ((Map<?, ?>) test).get("alert_rule_test")) {
                Map<?, ?> c = (Map<?, ?>) check;
                if (c.get("exp_alerts") instanceof List<?> expected && !expected.isEmpty()) {
                    tested.add((String) c.get("alertname"));
                }
            }
        }
        return tested;
    }

    /** Every tlsadmit metric name some alert reads. */
    static Set<String> metricNames() {
        Set<String> names = new TreeSet<>();
        for (String expression : alerts().values()) {
            Matcher metric = METRIC.matcher(expression);
            while (metric.find()) {
                names.add(metric.group());
            }
        }
        return names;
    }

    static List<String> names() {
        return new ArrayList<>(alerts().keySet());
    }
}

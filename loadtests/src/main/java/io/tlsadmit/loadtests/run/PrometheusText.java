package io.tlsadmit.loadtests.run;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Samples of a Prometheus text exposition (format 0.0.4): series name with its labels, and value. Only what the
 * gate exports is needed — counters and gauges; comments, timestamps and histograms' extra series are read like
 * any other sample.
 */
public final class PrometheusText {

    private static final Pattern SAMPLE = Pattern.compile(
            "^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{([^}]*)\\})?\\s+(\\S+)(?:\\s+-?\\d+)?\\s*$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    /** One series: metric family and its labels (sorted, so equal series compare equal). */
    public record Series(String name, Map<String, String> labels) {

        public boolean matches(String family, Map<String, String> wanted) {
            if (!name.equals(family)) {
                return false;
            }
            for (Map.Entry<String, String> label : wanted.entrySet()) {
                if (!label.getValue().equals(labels.get(label.getKey()))) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public String toString() {
            if (labels.isEmpty()) {
                return name;
            }
            StringBuilder out = new StringBuilder(name).append('{');
            labels.forEach((key, value) -> out.append(key).append("=\"").append(value).append("\","));
            out.setLength(out.length() - 1);
            return out.append('}').toString();
        }
    }

    private final Map<Series, Double> samples;

    private PrometheusText(Map<Series, Double> samples) {
        this.samples = samples;
    }

    public static PrometheusText empty() {
        return new PrometheusText(Map.of());
    }

    public static PrometheusText parse(String text) {
        Map<Series, Double> samples = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher sample = SAMPLE.matcher(line.strip());
            if (!sample.matches()) {
                continue; // not ours to judge: a scrape is evidence, not a contract test
            }
            TreeMap<String, String> labels = new TreeMap<>();
            if (sample.group(2) != null) {
                Matcher label = LABEL.matcher(sample.group(2));
                while (label.find()) {
                    labels.put(label.group(1), label.group(2));
                }
            }
            double value;
            try {
                value = Double.parseDouble(sample.group(3).replace("+Inf", "Infinity"));
            } catch (NumberFormatException e) {
                continue;
            }
            samples.put(new Series(sample.group(1), Collections.unmodifiableSortedMap(labels)), value);
        }
        return new PrometheusText(samples);
    }

    /** Sum of every series of {@code family} whose labels include {@code wanted}. */
    public double sum(String family, Map<String, String> wanted) {
        double sum = 0;
        for (Map.Entry<Series, Double> sample : samples.entrySet()) {
            if (sample.getKey().matches(family, wanted)) {
                sum += sample.getValue();
            }
        }
        return sum;
    }

    /** Per series of {@code family}: this scrape's value less {@code before}'s (a series absent before counts 0). */
    public Map<String, Double> increase(PrometheusText before, String family) {
        Map<String, Double> increase = new TreeMap<>();
        for (Map.Entry<Series, Double> sample : samples.entrySet()) {
            if (sample.getKey().name().equals(family)) {
                double earlier = before.samples.getOrDefault(sample.getKey(), 0.0);
                increase.put(sample.getKey().toString(), sample.getValue() - earlier);
            }
        }
        return increase;
    }

    public boolean isEmpty() {
        return samples.isEmpty();
    }
}

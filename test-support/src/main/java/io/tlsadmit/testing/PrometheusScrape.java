package io.tlsadmit.testing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Prometheus text exposition (format 0.0.4), parsed enough to read samples by name and labels: the one parser of
 * the tests and the harnesses (load tests, experiments, benchmarks). Comments are skipped, a sample's timestamp is
 * ignored, label values may hold escaped quotes, and lines that are not samples are passed over — a scrape is
 * evidence, not a contract test (the gate's own tests check the exposition).
 */
public final class PrometheusScrape {

    private static final Pattern SAMPLE = Pattern.compile(
            "^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{([^}]*)\\})?\\s+(\\S+)(?:\\s+-?\\d+)?\\s*$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    /**
     * @param exposed the name and labels as the line wrote them
     * @param series  the name and labels in label order: equal for the same series whatever order it was exposed in
     */
    private record Sample(String name, SortedMap<String, String> labels, String exposed, String series, double value) {
    }

    private final String text;
    private final List<Sample> samples = new ArrayList<>();

    private PrometheusScrape(String text) {
        this.text = text;
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher sample = SAMPLE.matcher(line.strip());
            if (!sample.matches()) {
                continue;
            }
            TreeMap<String, String> labels = new TreeMap<>();
            if (sample.group(2) != null) {
                Matcher label = LABEL.matcher(sample.group(2));
                while (label.find()) {
                    labels.put(label.group(1), label.group(2).replace("\\\"", "\"").replace("\\\\", "\\"));
                }
            }
            double value;
            try {
                value = Double.parseDouble(sample.group(3).replace("+Inf", "Infinity"));
            } catch (NumberFormatException e) {
                continue;
            }
            String name = sample.group(1);
            String exposed = sample.group(2) == null ? name : name + "{" + sample.group(2) + "}";
            samples.add(new Sample(name, Collections.unmodifiableSortedMap(labels), exposed, series(name, labels), value));
        }
    }

    public static PrometheusScrape parse(String text) {
        return new PrometheusScrape(text);
    }

    /**
     * The sum of the samples called {@code name} whose labels include all of {@code labelPairs}
     * ({@code "verdict", "NEW", "decision", "refused"}); 0 when none matches.
     */
    public double value(String name, String... labelPairs) {
        return value(name, labels -> matches(labels, labelPairs));
    }

    /**
     * The sum of the samples called {@code name} whose labels pass {@code labels}; 0 when none does. For a label
     * known only in part: a connector's is Tomcat's name for it, which ends with its port.
     */
    public double value(String name, Predicate<Map<String, String>> labels) {
        double sum = 0;
        for (Sample sample : samples) {
            if (sample.name.equals(name) && labels.test(sample.labels)) {
                sum += sample.value;
            }
        }
        return sum;
    }

    /**
     * Every sample whose name starts with {@code prefix} and ends with {@code suffix}, keyed as exposed
     * ({@code name{label="value",...}}), in exposition order: for reports that list whatever moved,
     * including families added after the report was written.
     */
    public Map<String, Double> samples(String prefix, String suffix) {
        Map<String, Double> found = new LinkedHashMap<>();
        for (Sample sample : samples) {
            if (sample.name.startsWith(prefix) && sample.name.endsWith(suffix)) {
                found.put(sample.exposed, sample.value);
            }
        }
        return found;
    }

    /**
     * Per series of {@code name}: this scrape's value less {@code before}'s (a series absent before counts from 0),
     * keyed {@code name{a="…",b="…"}} with the labels in order, so that the same series exposed with its labels in
     * another order is the same key.
     */
    public Map<String, Double> increase(PrometheusScrape before, String name) {
        Map<String, Double> earlier = new LinkedHashMap<>();
        for (Sample sample : before.samples) {
            if (sample.name.equals(name)) {
                earlier.put(sample.series, sample.value);
            }
        }
        Map<String, Double> increase = new TreeMap<>();
        for (Sample sample : samples) {
            if (sample.name.equals(name)) {
                increase.put(sample.series, sample.value - earlier.getOrDefault(sample.series, 0.0));
            }
        }
        return increase;
    }

    /** How many samples (label sets) are called {@code name}. */
    public long series(String name) {
        return samples.stream().filter(s -> s.name.equals(name)).count();
    }

    public boolean has(String name) {
        return samples.stream().anyMatch(s -> s.name.equals(name));
    }

    /** No sample at all: nothing answered, or not with an exposition. */
    public boolean isEmpty() {
        return samples.isEmpty();
    }

    public String text() {
        return text;
    }

    private static String series(String name, SortedMap<String, String> labels) {
        if (labels.isEmpty()) {
            return name;
        }
        StringBuilder out = new StringBuilder(name).append('{');
        labels.forEach((key, value) -> out.append(key).append("=\"")
                .append(value.replace("\\", "\\\\").replace("\"", "\\\"")).append("\","));
        out.setLength(out.length() - 1);
        return out.append('}').toString();
    }

    private static boolean matches(Map<String, String> labels, String... pairs) {
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            if (!pairs[i + 1].equals(labels.get(pairs[i]))) {
                return false;
            }
        }
        return true;
    }
}

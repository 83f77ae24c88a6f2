package io.tlsadmit.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A Prometheus text exposition, parsed enough to read samples by name and labels. */
public final class PrometheusScrape {

    private record Sample(String name, Map<String, String> labels, String key, double value) {
    }

    private final String text;
    private final List<Sample> samples = new ArrayList<>();

    private PrometheusScrape(String text) {
        this.text = text;
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int brace = line.indexOf('{');
            int space = line.lastIndexOf(' ');
            if (space < 0) {
                continue;
            }
            String name;
            String key = line.substring(0, space);
            Map<String, String> labels = new LinkedHashMap<>();
            if (brace >= 0 && brace < space) {
                name = line.substring(0, brace);
                int close = line.lastIndexOf('}');
                parseLabels(line.substring(brace + 1, close), labels);
            } else {
                name = line.substring(0, space);
            }
            try {
                samples.add(new Sample(name, labels, key, Double.parseDouble(line.substring(space + 1).trim())));
            } catch (NumberFormatException ignored) {
                // timestamps or exotic values are not needed here
            }
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
        double sum = 0;
        for (Sample sample : samples) {
            if (sample.name.equals(name) && matches(sample.labels, labelPairs)) {
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
                found.put(sample.key, sample.value);
            }
        }
        return found;
    }

    /** How many samples (label sets) are called {@code name}. */
    public long series(String name) {
        return samples.stream().filter(s -> s.name.equals(name)).count();
    }

    public boolean has(String name) {
        return samples.stream().anyMatch(s -> s.name.equals(name));
    }

    public String text() {
        return text;
    }

    private static boolean matches(Map<String, String> labels, String... pairs) {
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            if (!pairs[i + 1].equals(labels.get(pairs[i]))) {
                return false;
            }
        }
        return true;
    }

    private static void parseLabels(String body, Map<String, String> labels) {
        int i = 0;
        while (i < body.length()) {
            int eq = body.indexOf('=', i);
            if (eq < 0 || eq + 1 >= body.length() || body.charAt(eq + 1) != '"') {
                return;
            }
            String key = body.substring(i, eq).trim();
            StringBuilder value = new StringBuilder();
            int j = eq + 2;
            while (j < body.length() && body.charAt(j) != '"') {
                if (body.charAt(j) == '\\' && j + 1 < body.length()) {
                    j++;
                }
                value.append(body.charAt(j));
                j++;
            }
            labels.put(key, value.toString());
            i = j + 1;
            if (i < body.length() && body.charAt(i) == ',') {
                i++;
            }
        }
    }
}

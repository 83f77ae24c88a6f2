package io.tlsadmit.attack.server;

import io.tlsadmit.testing.PrometheusScrape;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every {@code tlsadmit_*_total} series of one scrape, keyed by name and labels as exposed. Families
 * are not listed in advance on purpose: a counter the gate gains later (e.g. renegotiations by
 * initiator and decision) shows up in the deltas without a change here.
 */
public final class CounterSnapshot {
    private final Map<String, Double> series;

    private CounterSnapshot(Map<String, Double> series) {
        this.series = series;
    }

    public static CounterSnapshot parse(String prometheusText) {
        return new CounterSnapshot(PrometheusScrape.parse(prometheusText).samples("tlsadmit_", "_total"));
    }

    /** Series that changed since {@code before} (or are new), with their increase, in exposition order. */
    public Map<String, Double> since(CounterSnapshot before) {
        Map<String, Double> delta = new LinkedHashMap<>();
        series.forEach((key, value) -> {
            double d = value - before.series.getOrDefault(key, 0.0);
            if (Math.abs(d) >= 0.5) { // the refill counter moves by fractions of a token
                delta.put(key, d);
            }
        });
        return delta;
    }

    /** Sum of the increases of series of this family whose labels contain every {@code label="value"} fragment. */
    public static double sum(Map<String, Double> delta, String family, String... labelFragments) {
        double sum = 0;
        for (Map.Entry<String, Double> e : delta.entrySet()) {
            String key = e.getKey();
            if (!(key.equals(family) || key.startsWith(family + "{"))) {
                continue;
            }
            boolean all = true;
            for (String fragment : labelFragments) {
                all &= key.contains(fragment);
            }
            if (all) {
                sum += e.getValue();
            }
        }
        return sum;
    }
}

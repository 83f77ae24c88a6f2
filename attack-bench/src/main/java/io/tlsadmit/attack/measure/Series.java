package io.tlsadmit.attack.measure;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Values of one figure, one per 1-second bucket of a phase; summarised by its median, as the report uses it. */
public final class Series {
    private final List<Double> values = new ArrayList<>();

    public synchronized void add(double value) {
        values.add(value);
    }

    public synchronized int size() {
        return values.size();
    }

    /** NaN when there is no bucket at all (a phase shorter than a second, or a gauge that is absent). */
    public synchronized double median() {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    public synchronized double min() {
        return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    public synchronized double max() {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    public synchronized long countAtLeast(double threshold) {
        return values.stream().filter(v -> v >= threshold).count();
    }
}

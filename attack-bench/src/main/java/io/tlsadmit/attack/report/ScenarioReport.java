package io.tlsadmit.attack.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one scenario measured: figures per phase, each with its target when it has one, the gate's
 * counter increases per phase, and notes (driver saturation, informational checks).
 */
public final class ScenarioReport {
    /** One figure. {@code met} is null when there is no target to meet. */
    public record Figure(String phase, String metric, double value, String shown, String target, Boolean met) {
    }

    private final String scenario;
    private final String settings;
    private final List<Figure> figures = new ArrayList<>();
    private final Map<String, Map<String, Double>> counterDeltas = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();

    public ScenarioReport(String scenario, String settings) {
        this.scenario = scenario;
        this.settings = settings;
    }

    /** A figure without a target. */
    public void add(String phase, String metric, double value, String format) {
        figures.add(new Figure(phase, metric, value, Double.isNaN(value) ? "n/a" : String.format(java.util.Locale.ROOT, format, value), "", null));
    }

    /** A figure beside its target; {@code met} is decided by the caller, who knows which way is better. */
    public void add(String phase, String metric, double value, String format, String target, boolean met) {
        figures.add(new Figure(phase, metric, value, Double.isNaN(value) ? "n/a" : String.format(java.util.Locale.ROOT, format, value), target,
                Double.isNaN(value) ? Boolean.FALSE : met));
    }

    public void counters(String phase, Map<String, Double> delta) {
        counterDeltas.put(phase, delta);
    }

    public void note(String note) {
        notes.add(note);
    }

    public String scenario() {
        return scenario;
    }

    public String settings() {
        return settings;
    }

    public List<Figure> figures() {
        return figures;
    }

    public Map<String, Map<String, Double>> counterDeltas() {
        return counterDeltas;
    }

    public List<String> notes() {
        return notes;
    }
}

package io.tlsadmit.experiment.step;

import io.tlsadmit.testing.FullHandshakeCpu;
import io.tlsadmit.testing.PrometheusScrape;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one Gatling run of {@code RubisSimulation} measured: its {@code summary.json} figures, and rates averaged
 * over the steady part of its {@code timeline.csv} (from the end of the warm-up to the end of the arrivals; the
 * drain after it has fewer users and is left out). And what the gate timed between two scrapes of its metrics.
 */
public final class StepFigures {

    private static final Pattern FIGURE = Pattern.compile(
            "\"((?:[^\"\\\\]|\\\\.)+)\": (\"(?:[^\"\\\\]|\\\\.)*\"|[^,\\n]+)");

    private final Map<String, String> summary;
    private final Map<String, Double> windowRates;
    private final int windowSeconds;

    private StepFigures(Map<String, String> summary, Map<String, Double> windowRates, int windowSeconds) {
        this.summary = summary;
        this.windowRates = windowRates;
        this.windowSeconds = windowSeconds;
    }

    /** {@code fromSecond} inclusive, {@code toSecond} exclusive, in the timeline's seconds since the run began. */
    public static StepFigures parse(String summaryJson, String timelineCsv, int fromSecond, int toSecond) {
        if (toSecond <= fromSecond) {
            throw new IllegalArgumentException("empty window [" + fromSecond + ", " + toSecond + ")");
        }
        return new StepFigures(summary(summaryJson), window(timelineCsv, fromSecond, toSecond), toSecond - fromSecond);
    }

    static Map<String, String> summary(String json) {
        Map<String, String> figures = new LinkedHashMap<>();
        Matcher figure = FIGURE.matcher(json);
        while (figure.find()) {
            String value = figure.group(2).strip();
            figures.put(figure.group(1), value.startsWith("\"") ? value.substring(1, value.length() - 1) : value);
        }
        return figures;
    }

    /** Per-second means of every timeline column over the window; seconds the run did not reach count as 0. */
    static Map<String, Double> window(String csv, int fromSecond, int toSecond) {
        List<String> lines = csv.lines().filter(line -> !line.isBlank()).toList();
        if (lines.isEmpty() || !lines.get(0).startsWith("second,")) {
            throw new IllegalArgumentException("not a timeline: the first line must start with 'second,'");
        }
        String[] columns = lines.get(0).split(",");
        double[] sums = new double[columns.length];
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",");
            if (cells.length != columns.length) {
                throw new IllegalArgumentException("timeline row has " + cells.length + " cells, header "
                        + columns.length + ": " + line);
            }
            long second = Long.parseLong(cells[0]);
            if (second >= fromSecond && second < toSecond) {
                for (int c = 1; c < columns.length; c++) {
                    sums[c] += Double.parseDouble(cells[c]);
                }
            }
        }
        Map<String, Double> rates = new HashMap<>();
        for (int c = 1; c < columns.length; c++) {
            rates.put(columns[c], sums[c] / (toSecond - fromSecond));
        }
        return rates;
    }

    /**
     * The gate's mean CPU per full handshake in ms, of every TLS version, between two scrapes of its metrics (the
     * step's window, as its server CPU): a step in one of the machine's slow spells, when every full handshake costs
     * 1.4–1.5× its CPU, shows it here. Only the connector listening on {@code port}: connectors have gates of their
     * own. Resumptions are left out: far cheaper, they would move it with the resumed share instead. NaN when the gate
     * timed none: no gate or a scrape that failed, a budget that times none (only the adaptive one does), or no
     * full handshake in the window.
     */
    public static double fullHandshakeCpuMillis(PrometheusScrape before, PrometheusScrape after, int port) {
        if (before.isEmpty() || after.isEmpty()) {
            // one scrape alone would count every handshake since the server started as the step's
            return Double.NaN;
        }
        Predicate<Map<String, String>> connector = labels -> labels.getOrDefault("connector", "").endsWith("-" + port);
        return FullHandshakeCpu.of(after, connector).since(FullHandshakeCpu.of(before, connector)).millisEach();
    }

    /** Mean per second of a timeline column (e.g. {@code replies}) over the window; 0 when absent. */
    public double perSecond(String column) {
        return windowRates.getOrDefault(column, 0.0);
    }

    /** A figure of {@code summary.json}; NaN when missing or null (e.g. no server metrics). */
    public double figure(String name) {
        String value = summary.get(name);
        if (value == null || value.equals("null")) {
            return Double.NaN;
        }
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    public int windowSeconds() {
        return windowSeconds;
    }
}

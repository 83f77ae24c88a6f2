package io.tlsadmit.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import io.tlsadmit.testing.LoadGeneratorLimit;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/** Writes the CSV, the summary table and the charts of a run. */
final class Report {
    private Report() {
    }

    static void write(BenchOptions o, double capacity, List<OverloadStep> results, List<String> timeline,
                      String server) throws IOException {
        Path out = o.out();
        List<String> csv = new ArrayList<>();
        csv.add(OverloadStep.csvHeader());
        results.forEach(r -> csv.add(r.csv()));
        Files.write(out.resolve("results.csv"), csv);
        if (timeline.size() > 1) {
            Files.write(out.resolve("timeline.csv"), timeline);
        }

        // A line per mode and round: the rounds' spread is what the charts should show, not a line through it.
        Map<String, List<OverloadStep>> byMode = new LinkedHashMap<>();
        results.forEach(r -> byMode.computeIfAbsent(label(r, o.rounds()), m -> new ArrayList<>()).add(r));
        chart(out, "goodput.png", "Goodput under a flood of new TLS clients", "requests/s completed", byMode,
                OverloadStep::goodput);
        chart(out, "new-admitted.png", "New clients served (full handshakes completed)", "new clients/s", byMode,
                OverloadStep::newAdmittedPerSecond);
        chart(out, "resumed-admitted.png", "Established clients' connections that succeeded", "%", byMode,
                OverloadStep::resumedAdmittedPercent);
        chart(out, "request-p99.png", "Request latency p99 (after the handshake)", "ms", byMode,
                OverloadStep::requestP99);

        StringBuilder md = new StringBuilder();
        md.append("# Overload benchmark ").append(Instant.now().toString(), 0, 10).append("\n\n");
        md.append(String.format(Locale.ROOT, "%s pinned to CPU 0, driver on CPU 1 (client groups %s); key %s, TLS %s; "
                        + "%d established clients (think %.0f ms), request work %d; capacity %.0f new clients/s; "
                        + "%d s per step after %d s warm-up; each server warmed up for %d s first, and the server drained "
                        + "(no client in flight, CPU idle) between steps.%n%n", server, o.clientGroups(), o.key(),
                o.tls(), o.established(), o.thinkMillis(), o.workIterations(), capacity, o.stepSeconds(),
                o.warmupSeconds(), o.serverWarmupSeconds()));
        if (o.rounds() > 1) {
            md.append(String.format(Locale.ROOT, "%d rounds of the whole sweep, each mode on a fresh server in every"
                    + " round, the modes' order reversed every other round.%n%n", o.rounds()));
        }
        md.append("| mode | load | goodput req/s | new admitted/s | new refused/s | new timed out/s | resumed ok % "
                + "| server CPU % | driver CPU % | full hs p50 / p99 | resumed hs p50 / p99 | request p50 / p99 "
                + "| gate: full / resumed hs/s, resumptions refused | server CPU per full hs |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (OverloadStep r : results) {
            md.append(String.format(Locale.ROOT,
                    "| %s | %.1fx | %.0f | %.0f | %.0f | %.0f | %s | %.0f | %.0f | %s / %s | %s / %s | %s / %s "
                            + "| %s | %s |%n",
                    label(r, o.rounds()), r.multiplier(), r.goodput(), r.newAdmittedPerSecond(),
                    r.newRefusedPerSecond(),
                    r.newTimedOutPerSecond(), percent(r.resumedAdmittedPercent()), r.serverCpuPercent(),
                    r.driverCpuPercent(), millis(r.fullHandshakeP50()), millis(r.fullHandshakeP99()),
                    millis(r.resumedHandshakeP50()), millis(r.resumedHandshakeP99()), millis(r.requestP50()),
                    millis(r.requestP99()), gate(r), handshakeCpu(r)));
        }
        md.append('\n').append(ownPeak(results, o.rounds()));
        md.append('\n').append(driverBound(results)).append('\n');
        md.append("\nCharts: goodput.png, new-admitted.png, resumed-admitted.png, request-p99.png");
        if (timeline.size() > 1) {
            md.append(", cpu-change.png (timeline.csv)");
            cpuChart(out, timeline);
        }
        md.append(".\n");
        Files.writeString(out.resolve("summary.md"), md);
    }

    /** The mode, and with more than one round the round: the name of a row of the table and a line of a chart. */
    private static String label(OverloadStep r, int rounds) {
        return rounds > 1 ? r.mode() + ", round " + r.round() : r.mode();
    }

    /**
     * Goodput at 2, 4 and 8× as a fraction of each mode's own peak. Over several rounds, from each step's median
     * goodput across the rounds (the peak is the largest median), with the range of the rounds' own fractions (each
     * round against its own peak) beside it: on a machine that slows down for a minute now and then, one step in a
     * slow spell moves a single round's fraction by 10 % or more, and the median is the figure that does not.
     */
    static String ownPeak(List<OverloadStep> results, int rounds) {
        double[] marks = {2, 4, 8};
        StringBuilder md = new StringBuilder(rounds > 1
                ? "Goodput as a fraction of each mode's own peak, from the median of " + rounds
                        + " rounds (the range of the rounds' own fractions):\n\n| mode | peak req/s (median) |"
                : "Goodput as a fraction of each mode's own peak:\n\n| mode | peak req/s |");
        for (double m : marks) {
            md.append(String.format(Locale.ROOT, " at %.0fx |", m));
        }
        md.append("\n|---|---|---|---|---|\n");
        Map<String, List<OverloadStep>> byMode = new LinkedHashMap<>();
        results.forEach(r -> byMode.computeIfAbsent(r.mode(), m -> new ArrayList<>()).add(r));
        byMode.forEach((mode, rows) -> {
            Map<Double, Double> medians = new LinkedHashMap<>();
            rows.forEach(r -> medians.computeIfAbsent(r.multiplier(), m -> GateCostBenchmark.median(
                    rows.stream().filter(x -> x.multiplier() == m).map(OverloadStep::goodput).toList())));
            double peak = medians.values().stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
            md.append(String.format(Locale.ROOT, "| %s | %.0f |", mode, peak));
            for (double m : marks) {
                Double g = medians.get(m);
                md.append(g == null ? " – |" : String.format(Locale.ROOT, " %.2f%s |", g / peak,
                        rounds > 1 ? roundsRange(rows, m) : ""));
            }
            md.append('\n');
        });
        return md.toString();
    }

    /** " (low–high)" of the rounds' fractions of their own peak at {@code multiplier}. */
    private static String roundsRange(List<OverloadStep> rows, double multiplier) {
        double low = Double.POSITIVE_INFINITY;
        double high = Double.NEGATIVE_INFINITY;
        for (int round : rows.stream().mapToInt(OverloadStep::round).distinct().toArray()) {
            List<OverloadStep> own = rows.stream().filter(r -> r.round() == round).toList();
            double peak = own.stream().mapToDouble(OverloadStep::goodput).max().orElse(Double.NaN);
            for (OverloadStep r : own) {
                if (r.multiplier() == multiplier) {
                    low = Math.min(low, r.goodput() / peak);
                    high = Math.max(high, r.goodput() / peak);
                }
            }
        }
        return low > high ? "" : String.format(Locale.ROOT, " (%.2f–%.2f)", low, high);
    }

    /** A sentence naming the steps the driver limited ({@link LoadGeneratorLimit}): not the server's figures. */
    static String driverBound(List<OverloadStep> results) {
        List<String> bound = results.stream().filter(r -> LoadGeneratorLimit.reached(r.driverCpuPercent()))
                .map(r -> String.format(Locale.ROOT, "%s %.1fx (%.0f %%)", r.mode(), r.multiplier(),
                        r.driverCpuPercent()))
                .toList();
        String limit = String.format(Locale.ROOT, "%.0f %%", LoadGeneratorLimit.SATURATED_PERCENT);
        return bound.isEmpty()
                ? "The driver stayed under " + limit + " of its core in every step."
                : "**Limited by the driver** (" + limit + " of its core or more), so not a measure of the server: "
                        + String.join(", ", bound) + ".";
    }

    /** The CPU the server spent per full handshake in the step, as the gate timed it; "–" where it timed none. */
    private static String handshakeCpu(OverloadStep r) {
        double ms = r.gate().fullHandshakeCpuMillis();
        return Double.isNaN(ms) ? "–" : String.format(Locale.ROOT, "%.2f ms", ms);
    }

    /** The gate's own counts over the step, "–" without a gate. */
    private static String gate(OverloadStep r) {
        GateTruth g = r.gate();
        return !g.present() ? "–" : String.format(Locale.ROOT, "%.0f / %.0f, %.0f", g.fullHandshakes() / r.seconds(),
                g.resumedHandshakes() / r.seconds(), g.resumptionOffersRefused());
    }

    /** A latency for the table; "none" when nothing completed (a collapsed server has no latency to show). */
    static String millis(double value) {
        return Double.isNaN(value) ? "none" : String.format(Locale.ROOT, "%.1f ms", value);
    }

    private static String percent(double value) {
        return Double.isNaN(value) ? "–" : String.format(Locale.ROOT, "%.1f", value);
    }

    private static void chart(Path out, String file, String title, String yTitle, Map<String, List<OverloadStep>> byMode,
                              ToDoubleFunction<OverloadStep> y) throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(520).title(title)
                .xAxisTitle("new clients/s as a multiple of capacity").yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        byMode.forEach((mode, rows) -> chart.addSeries(mode,
                rows.stream().mapToDouble(OverloadStep::multiplier).toArray(),
                rows.stream().mapToDouble(y).map(v -> Double.isNaN(v) ? 0 : v).toArray()));
        BitmapEncoder.saveBitmap(chart, out.resolve(file).toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static void cpuChart(Path out, List<String> timeline) throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(520).title("CPUs 1 -> 2 -> 1 at 2x capacity")
                .xAxisTitle("seconds").yAxisTitle("requests/s completed").build();
        Map<String, List<double[]>> byMode = new LinkedHashMap<>();
        for (String row : timeline.subList(1, timeline.size())) {
            String[] f = row.split(",");
            byMode.computeIfAbsent(f[0], m -> new ArrayList<>())
                    .add(new double[] {Double.parseDouble(f[1]), Double.parseDouble(f[3])});
        }
        byMode.forEach((mode, points) -> chart.addSeries(mode, points.stream().mapToDouble(p -> p[0]).toArray(),
                points.stream().mapToDouble(p -> p[1]).toArray()));
        BitmapEncoder.saveBitmap(chart, out.resolve("cpu-change.png").toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}

package io.tlsadmit.experiment.report;

import io.tlsadmit.experiment.Mode;
import io.tlsadmit.experiment.step.StepResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The paper's figures: one measure against new users per second, every mode on one chart. */
public final class Charts {

    private Charts() {
    }

    /**
     * One chart per figure of the study (throughput, response time, completed sessions, refused connections,
     * resumed share of handshakes, client timeouts), for one workload's sweep; {@code suffix} goes before
     * {@code .png} ({@link io.tlsadmit.experiment.Workload#chartSuffix()}).
     */
    public static void write(Path dir, List<StepResult> sweep, List<Mode> modes, double knee, String suffix) {
        write(dir, sweep, modes, knee, suffix, "");
    }

    /** As above; {@code note} follows the knee in each title, e.g. the server's CPUs. */
    public static void write(Path dir, List<StepResult> sweep, List<Mode> modes, double knee, String suffix,
            String note) {
        String kneeNote = String.format(java.util.Locale.ROOT, " (knee %.0f new users/s%s)", knee,
                note.isEmpty() ? "" : ", " + note);
        chart(dir.resolve("throughput" + suffix + ".png"), "Throughput", "replies/s", sweep, modes, kneeNote,
                StepResult::throughput);
        chart(dir.resolve("response-time" + suffix + ".png"), "Response time (page, mean)", "ms", sweep, modes, kneeNote,
                StepResult::pageMeanMillis);
        chart(dir.resolve("response-time-p99" + suffix + ".png"), "Response time (page, p99)", "ms", sweep, modes,
                kneeNote, StepResult::pageP99Millis);
        chart(dir.resolve("completed-sessions" + suffix + ".png"), "Completed sessions", "sessions/s", sweep, modes,
                kneeNote, StepResult::completedSessionsPerSec);
        chart(dir.resolve("refused-connections" + suffix + ".png"), "Refused connections", "connections/s", sweep,
                modes, kneeNote, StepResult::refusedConnectionsPerSec);
        chart(dir.resolve("resumed-share" + suffix + ".png"), "Resumed share of handshakes (server)", "resumed / all",
                sweep, modes, kneeNote, StepResult::resumedShare);
        chart(dir.resolve("client-timeouts" + suffix + ".png"), "Client timeouts (no reply in 10 s)", "timeouts/s",
                sweep, modes, kneeNote, StepResult::timeoutsPerSec);
        if (sweep.stream().anyMatch(s -> s.connectionsPerUser() > 1)) {
            chart(dir.resolve("wasted-tokens" + suffix + ".png"), "Users let in whose first page failed",
                    "share of users let in", sweep, modes, kneeNote, StepResult::wastedTokenShare);
        }
    }

    /** The flash crowd: replies per second from the moment the crowd arrives, one line per mode. */
    public static void flashCrowd(Path file, String title, List<String> labels, List<double[]> seconds) {
        XYChart chart = new XYChartBuilder().width(800).height(500).title(title)
                .xAxisTitle("second since the crowd arrived").yAxisTitle("replies/s").build();
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideSE);
        for (int i = 0; i < labels.size(); i++) {
            addPerSecond(chart, labels.get(i), seconds.get(i));
        }
        save(chart, file);
    }

    /** A series of one value per second, plotted against the second it was measured in. */
    private static void addPerSecond(XYChart chart, String label, double[] series) {
        double[] x = new double[series.length];
        for (int s = 0; s < x.length; s++) {
            x[s] = s;
        }
        chart.addSeries(label, x, series).setMarker(SeriesMarkers.NONE);
    }

    private static void chart(Path file, String title, String yTitle, List<StepResult> sweep, List<Mode> modes,
            String kneeNote, ToDoubleFunction<StepResult> measure) {
        XYChart chart = new XYChartBuilder().width(800).height(500).title(title + kneeNote)
                .xAxisTitle("new users/s").yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNE);
        for (Mode mode : modes) {
            List<StepResult> steps = sweep.stream().filter(s -> s.mode() == mode && !Double.isNaN(measure.applyAsDouble(s)))
                    .sorted(java.util.Comparator.comparingDouble(StepResult::usersPerSec)).toList();
            if (steps.isEmpty()) {
                continue;
            }
            double[] x = steps.stream().mapToDouble(StepResult::usersPerSec).toArray();
            double[] y = steps.stream().mapToDouble(measure).toArray();
            chart.addSeries(mode.label(), x, y).setMarker(SeriesMarkers.CIRCLE);
        }
        save(chart, file);
    }

    /** The CPU-change run: throughput per second while Tomcat's CPUs go 1 → 2 → 1. */
    public static void cpuChange(Path file, String title, List<Mode> modes, List<double[]> seconds,
            List<String> labels) {
        XYChart chart = new XYChartBuilder().width(800).height(500)
                .title(title).xAxisTitle("second")
                .yAxisTitle("replies/s").build();
        for (int i = 0; i < modes.size(); i++) {
            addPerSecond(chart, labels.get(i), seconds.get(i));
        }
        save(chart, file);
    }

    private static void save(XYChart chart, Path file) {
        try {
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}

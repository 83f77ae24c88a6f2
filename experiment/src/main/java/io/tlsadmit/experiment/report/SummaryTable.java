package io.tlsadmit.experiment.report;

import io.tlsadmit.experiment.Mode;
import io.tlsadmit.experiment.step.StepResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The experiment's headline table: per mode, its peak throughput, and at 2×, 4× and 8× the knee its throughput
 * and completed sessions as a fraction of its own peak, with the page p99 (in ms: a latency as a fraction of a
 * throughput peak would mean nothing).
 */
public final class SummaryTable {

    public static final double[] OVERLOAD = {2, 4, 8};

    private SummaryTable() {
    }

    public static String markdown(List<StepResult> sweep, double knee) {
        StringBuilder out = new StringBuilder("| mode | peak throughput (replies/s) | at (users/s) | peak completed sessions/s");
        for (double m : OVERLOAD) {
            String x = multiple(m);
            out.append(" | ").append(x).append(" throughput | ").append(x).append(" completed | ").append(x)
                    .append(" p99 (ms)");
        }
        out.append(" |\n|---|---|---|---");
        out.append("|---|---|---".repeat(OVERLOAD.length)).append("|\n");
        for (Mode mode : modesIn(sweep)) {
            List<StepResult> steps = sweep.stream().filter(s -> s.mode() == mode).toList();
            StepResult peak = steps.stream().max(Comparator.comparingDouble(StepResult::throughput)).orElseThrow();
            double peakCompleted = steps.stream().mapToDouble(StepResult::completedSessionsPerSec).max().orElse(0);
            out.append("| ").append(mode.label()).append(" | ").append(String.format(Locale.ROOT, "%.0f", peak.throughput()))
                    .append(" | ").append(String.format(Locale.ROOT, "%.0f", peak.usersPerSec()))
                    .append(" | ").append(String.format(Locale.ROOT, "%.2f", peakCompleted));
            for (double m : OVERLOAD) {
                Optional<StepResult> at = at(steps, m * knee);
                out.append(" | ").append(at.map(s -> fraction(s.throughput(), peak.throughput())).orElse("–"))
                        .append(" | ").append(at.map(s -> fraction(s.completedSessionsPerSec(), peakCompleted)).orElse("–"))
                        .append(" | ").append(at.map(s -> Double.isNaN(s.pageP99Millis()) ? "no page"
                                : String.format(Locale.ROOT, "%.0f", s.pageP99Millis())).orElse("–"));
            }
            out.append(" |\n");
        }
        return out.toString();
    }

    /** The step run at this rate (within 1 %: rates are computed from the knee and printed rounded). */
    static Optional<StepResult> at(List<StepResult> steps, double rate) {
        return steps.stream().filter(s -> Math.abs(s.usersPerSec() - rate) <= 0.01 * rate).findFirst();
    }

    static String fraction(double value, double peak) {
        if (!(peak > 0)) {
            return "–";
        }
        return String.format(Locale.ROOT, "%.2f", value / peak);
    }

    private static String multiple(double m) {
        return (m == Math.rint(m) ? Long.toString((long) m) : Double.toString(m)) + "×";
    }

    private static List<Mode> modesIn(List<StepResult> steps) {
        List<Mode> modes = new ArrayList<>();
        for (StepResult s : steps) {
            if (!modes.contains(s.mode())) {
                modes.add(s.mode());
            }
        }
        return modes;
    }
}

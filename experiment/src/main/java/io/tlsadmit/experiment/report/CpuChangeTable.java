package io.tlsadmit.experiment.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The CPU-change run in numbers: per mode, mean replies/s in each phase (1, 2, 1 CPUs) and the gate budget's
 * median rate, leaving out the first seconds of each phase while the server and the budget adjust.
 */
public final class CpuChangeTable {

    static final int SETTLE_SECONDS = 5;

    private CpuChangeTable() {
    }

    /** {@code rows}: {@code cpu-change.csv} without its header (mode, second, cpus, replies, …, budget). */
    public static String markdown(List<String> rows, int phaseSeconds) {
        return markdown(rows, phaseSeconds, io.tlsadmit.experiment.CpuChangeKind.TASKSET);
    }

    /** As {@link #markdown(List, int)}, the columns named after the kind's phases (1, 0.5, 1 CPU for the quota). */
    public static String markdown(List<String> rows, int phaseSeconds, io.tlsadmit.experiment.CpuChangeKind kind) {
        Map<String, List<String[]>> byMode = new LinkedHashMap<>();
        for (String row : rows) {
            String[] cells = row.split(",", -1);
            byMode.computeIfAbsent(cells[0], mode -> new ArrayList<>()).add(cells);
        }
        StringBuilder out = new StringBuilder("| mode | " + cpus(kind, 0) + ": replies/s (budget/s) | " + cpus(kind, 1)
                + " | " + cpus(kind, 2) + " again |\n|---|---|---|---|\n");
        byMode.forEach((mode, cells) -> {
            out.append("| ").append(mode);
            for (int phase = 0; phase < 3; phase++) {
                int from = phase * phaseSeconds + Math.min(SETTLE_SECONDS, phaseSeconds / 2);
                int to = (phase + 1) * phaseSeconds;
                double replies = 0;
                int seconds = 0;
                List<Double> budgets = new ArrayList<>();
                for (String[] c : cells) {
                    int second = Integer.parseInt(c[1]);
                    if (second >= from && second < to) {
                        replies += Double.parseDouble(c[3]);
                        seconds++;
                        if (!c[6].isEmpty()) {
                            budgets.add(Double.parseDouble(c[6]));
                        }
                    }
                }
                out.append(" | ").append(seconds == 0 ? "–" : String.format(Locale.ROOT, "%.0f", replies / seconds));
                if (!budgets.isEmpty()) {
                    budgets.sort(null);
                    out.append(String.format(Locale.ROOT, " (%.0f)", budgets.get(budgets.size() / 2)));
                }
            }
            out.append(" |\n");
        });
        return out.toString();
    }

    private static String cpus(io.tlsadmit.experiment.CpuChangeKind kind, int phase) {
        return kind.cpusText(phase) + (kind.cpus(phase) == 1 ? " CPU" : " CPUs")
                + (kind == io.tlsadmit.experiment.CpuChangeKind.QUOTA ? " quota" : "");
    }
}

package io.tlsadmit.cpumanager.policy;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The claims the manager recorded in the 2026-11-25 night run ({@code docs/results/2026-11-25-cpu-manager-night}),
 * replayed through the policy with and without {@link Damping}: the assignments' period-to-period changes. Open loop:
 * in the run the claims reacted to the assignments (use and saturation), here they do not, so this says how much
 * of the swing the damping removes from the same inputs, not what a run with it would show.
 */
class DampingReplayTest {

    private static final Path NIGHT = Path.of(System.getProperty("tlsadmit.root", "..")).resolve(
            "docs/results/2026-11-25-cpu-manager-night");

    @ParameterizedTest(name = "{0}")
    @CsvSource({"equal, 1, true", "priority, 2, true", "priority-no-sharing, 2, false"})
    void theDampedAssignmentsSwingLessThanHalfAsMuch(String run, int firstPriority, boolean share) throws IOException {
        List<Map<String, String[]>> periods = periods(NIGHT.resolve(run).resolve("cpu-manager.csv"));
        List<Double> raw = new ArrayList<>();
        List<Double> damped = new ArrayList<>();
        Map<String, List<Double>> recent = new LinkedHashMap<>();
        for (Map<String, String[]> period : periods) {
            List<Claim> rawClaims = new ArrayList<>();
            List<Claim> dampedClaims = new ArrayList<>();
            for (String app : List.of("first", "second")) {
                String[] row = period.get(app);
                double claim = Double.parseDouble(row[1]);
                int priority = app.equals("first") ? firstPriority : 1;
                List<Double> history = recent.computeIfAbsent(app, a -> new ArrayList<>());
                if (Boolean.parseBoolean(row[0])) {
                    history.add(claim);
                } else {
                    history.clear();
                }
                rawClaims.add(new Claim(app, priority, claim));
                dampedClaims.add(new Claim(app, priority, history.isEmpty() ? claim : Damping.claim(history)));
            }
            raw.add(SharePolicy.assign(rawClaims, 2, 0.1, share)[0]);
            damped.add(SharePolicy.assign(dampedClaims, 2, 0.1, share)[0]);
        }
        double[] before = changes(raw);
        double[] after = changes(damped);
        System.out.printf(Locale.ROOT, "%s: %d periods; change of an assignment a period: median %.3f -> %.3f CPUs,"
                        + " p90 %.3f -> %.3f; above 0.25 CPUs %d -> %d%n", run, periods.size(), median(before),
                median(after), p90(before), p90(after), above(before, 0.25), above(after, 0.25));
        assertTrue(median(after) < median(before) / 2, run);
        assertTrue(above(after, 0.25) < above(before, 0.25) / 2, run);
    }

    /** Per period (epoch_millis), each application's {answering, cpus_claimed}. */
    private static List<Map<String, String[]>> periods(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv);
        List<String> header = List.of(lines.get(0).split(","));
        int time = header.indexOf("epoch_millis");
        int app = header.indexOf("app");
        int answering = header.indexOf("answering");
        int claimed = header.indexOf("cpus_claimed");
        Map<String, Map<String, String[]>> byTime = new LinkedHashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",");
            byTime.computeIfAbsent(cells[time], t -> new LinkedHashMap<>())
                    .put(cells[app], new String[] {cells[answering], cells[claimed]});
        }
        return new ArrayList<>(byTime.values());
    }

    private static double[] changes(List<Double> series) {
        double[] changes = new double[series.size() - 1];
        for (int i = 1; i < series.size(); i++) {
            changes[i - 1] = Math.abs(series.get(i) - series.get(i - 1));
        }
        Arrays.sort(changes);
        return changes;
    }

    private static double median(double[] sorted) {
        return sorted[sorted.length / 2];
    }

    private static double p90(double[] sorted) {
        return sorted[(int) (sorted.length * 0.9)];
    }

    private static long above(double[] values, double threshold) {
        return Arrays.stream(values).filter(v -> v > threshold).count();
    }
}

package io.tlsadmit.cpumanager.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How long an assignment took to reach the gate's budget: each change of {@code cpus_assigned} in the manager's
 * CSV against the gate's own {@code tlsadmit_cpus_allocated} sampled from its metrics page
 * ({@code gate-allocated.csv}), in manager periods. The gate's figure is what its budget plans with, whichever
 * path brought it (the cgroup quota it reads itself, or {@code CpusAssigned} over JMX); the manager CSV's own
 * {@code cpus_allocated} column is only as fresh as the last JMX reading, which is what fails under load.
 *
 * <p>A change counts when the value held for at least two periods; one replaced sooner is "superseded" and left
 * out (neither path could be expected to show it). One that never showed is "unobserved" when the gate's metrics
 * page did not answer at all while it held (a starved Tomcat), else "never".
 *
 * <p>Which path brought it: the gate reports the quota it read as {@code quota/period} of the cgroup's
 * microseconds, a number with at most 6 decimals, and {@code CpusAssigned} as the manager's double, with all of
 * them; an arrival whose figure is a whole number of quota microseconds (and the assignment itself is not) came
 * through the cgroup.
 */
final class AllocationDelay {

    private static final double SAME = 0.011;

    private AllocationDelay() {
    }

    /**
     * {@code instance,changes,within_2_periods,superseded,median_periods,max_periods,never,unobserved,via_quota}.
     *
     * @param quotaPeriodMicros the CFS period the manager wrote its quotas for
     */
    static String summarize(Path managerCsv, Path gateCsv, String instance, long periodMillis, long quotaPeriodMicros)
            throws IOException {
        List<double[]> assigned = series(managerCsv, instance, "app", "cpus_assigned");
        List<double[]> seen = series(gateCsv, instance, "instance", "cpus_allocated");
        List<Double> delays = new ArrayList<>();
        int changes = 0;
        int superseded = 0;
        int never = 0;
        int unobserved = 0;
        int viaQuota = 0;
        for (int k = 1; k < assigned.size(); k++) {
            double value = assigned.get(k)[1];
            if (Math.abs(value - assigned.get(k - 1)[1]) < 2 * SAME) {
                continue;
            }
            double at = assigned.get(k)[0];
            double until = Double.POSITIVE_INFINITY;
            for (int j = k + 1; j < assigned.size(); j++) {
                if (Math.abs(assigned.get(j)[1] - value) >= 2 * SAME) {
                    until = assigned.get(j)[0];
                    break;
                }
            }
            if (until - at < 2 * periodMillis) {
                superseded++;
                continue;
            }
            changes++;
            // the manager's row is written after it enforced, so a gate sample from a little before can already show it
            double arrived = Double.NaN;
            boolean sampled = false;
            for (double[] sample : seen) {
                if (sample[0] >= at - periodMillis / 2.0 && sample[0] < until) {
                    sampled = true;
                    if (Math.abs(sample[1] - value) < SAME) {
                        arrived = sample[0];
                        if (wholeQuota(sample[1], quotaPeriodMicros) && !wholeQuota(value, quotaPeriodMicros)) {
                            viaQuota++;
                        }
                        break;
                    }
                }
            }
            if (!Double.isNaN(arrived)) {
                delays.add(Math.max(0, arrived - at) / periodMillis);
            } else if (sampled) {
                never++;
            } else {
                unobserved++;
            }
        }
        delays.sort(Double::compare);
        long within = delays.stream().filter(d -> d <= 2).count();
        return String.format(Locale.ROOT, "%s,%d,%d,%d,%.2f,%.2f,%d,%d,%d", instance, changes, within, superseded,
                delays.isEmpty() ? Double.NaN : delays.get(delays.size() / 2),
                delays.isEmpty() ? Double.NaN : delays.get(delays.size() - 1), never, unobserved, viaQuota);
    }

    private static boolean wholeQuota(double cpus, long periodMicros) {
        double micros = cpus * periodMicros;
        return Math.abs(micros - Math.rint(micros)) < 1e-4;
    }

    /** {@code [epoch_millis, value]} rows of one instance, in file order. */
    private static List<double[]> series(Path csv, String instance, String keyColumn, String valueColumn)
            throws IOException {
        List<String> lines = Files.readAllLines(csv);
        List<String> header = List.of(lines.get(0).split(","));
        int key = header.indexOf(keyColumn);
        int value = header.indexOf(valueColumn);
        List<double[]> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",");
            if (cells.length > Math.max(key, value) && cells[key].equals(instance)) {
                rows.add(new double[] {Double.parseDouble(cells[0]), Double.parseDouble(cells[value])});
            }
        }
        return rows;
    }
}

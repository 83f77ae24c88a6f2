package io.tlsadmit.experiment.report;

import io.tlsadmit.experiment.step.StepResult;
import java.util.List;
import java.util.Locale;

/** {@code steps.csv}: one row per step of the run, every mode, in the order they ran. */
public final class ResultsCsv {

    public static final String HEADER = "mode,phase,users_per_sec,limit,step_s,window_s,throughput_replies_per_s,"
            + "pages_per_s,completed_sessions_per_s,refused_connections_per_s,timeouts_per_s,sessions_started,"
            + "sessions_completed,sessions_abandoned,sessions_refused,error_pages,page_mean_ms,page_p99_ms,"
            + "server_full_handshakes,server_resumed_handshakes,server_cpu_pct,driver_cpu_pct,load_average,"
            // issue 14: the workload, the study's Figure 4.3 (resumed share), and sessions rather than connections
            + "mix,tls,connections_per_user,resumed_share,first_pages_per_s,first_pages_incomplete_per_s,"
            + "first_pages_timed_out_per_s,server_new_admitted,server_session_grace,wasted_token_share,"
            // the server's CPUs (1: CPU 0; 2: CPUs 0-1, the second shared with Gatling)
            + "server_cpus,"
            // page p99 split: users' first pages, and the pages of users already in
            + "first_page_p99_ms,later_page_p99_ms,"
            // what else the server's CPUs did (of their time): left idle, the kernel's interrupts, another guest's
            + "server_cpus_idle_pct,server_cpus_interrupt_pct,server_cpus_steal_pct,"
            // the gate's CPU per full handshake: whether the step fell in one of the machine's slow spells
            + "server_full_hs_cpu_ms,"
            // the load generator's CPU, busy whoever used it: Gatling, the database beside it, the kernel
            + "driver_cpus_busy_pct";
    /** The header before the load generator's CPU. */
    static final String HEADER_NO_DRIVER_CPUS = HEADER.substring(0, HEADER.indexOf(",driver_cpus_busy_pct"));
    /** The header before the gate's CPU per full handshake. */
    static final String HEADER_NO_HS_CPU = HEADER.substring(0, HEADER.indexOf(",server_full_hs_cpu_ms"));
    /** The header before the server CPUs' idle, interrupt and steal shares. */
    static final String HEADER_NO_CPU_SPLIT = HEADER.substring(0, HEADER.indexOf(",server_cpus_idle_pct"));
    /** The header before the split page p99: such a file's pages were not told apart. */
    static final String HEADER_NO_SPLIT = HEADER.substring(0, HEADER.indexOf(",first_page_p99_ms"));
    /** The header before {@code server_cpus}: such a file's steps ran on one server CPU. */
    static final String HEADER_ONE_CPU = HEADER_NO_SPLIT.substring(0, HEADER_NO_SPLIT.lastIndexOf(','));

    private ResultsCsv() {
    }

    public static String format(List<StepResult> steps) {
        StringBuilder out = new StringBuilder(HEADER).append('\n');
        for (StepResult s : steps) {
            out.append(String.join(",", s.mode().label(), s.phase(), number(s.usersPerSec()), number(s.limit()),
                    Integer.toString(s.stepSeconds()), Integer.toString(s.windowSeconds()), number(s.throughput()),
                    number(s.pagesPerSec()), number(s.completedSessionsPerSec()),
                    number(s.refusedConnectionsPerSec()), number(s.timeoutsPerSec()),
                    Long.toString(s.sessionsStarted()), Long.toString(s.sessionsCompleted()),
                    Long.toString(s.sessionsAbandoned()), Long.toString(s.sessionsRefused()),
                    Long.toString(s.errorPages()), number(s.pageMeanMillis()), number(s.pageP99Millis()),
                    number(s.serverFullHandshakes()), number(s.serverResumedHandshakes()),
                    number(s.serverCpuPercent()), number(s.driverCpuPercent()), number(s.loadAverage()),
                    s.mix(), s.tls(), Integer.toString(s.connectionsPerUser()), share(s.resumedShare()),
                    number(s.firstPagesPerSec()), number(s.firstPagesIncompletePerSec()),
                    number(s.firstPagesTimedOutPerSec()), number(s.serverNewAdmitted()),
                    number(s.serverSessionGrace()), share(s.wastedTokenShare()),
                    Integer.toString(s.serverCpus()), number(s.firstPageP99Millis()),
                    number(s.laterPageP99Millis()), number(s.serverCpusIdlePercent()),
                    number(s.serverCpusInterruptPercent()), number(s.serverCpusStealPercent()),
                    number(s.serverFullHandshakeCpuMillis()), number(s.driverCpusBusyPercent())))
                    .append('\n');
        }
        return out.toString();
    }

    /** The rows of a {@code steps.csv} written by {@link #format}, to resume an interrupted run. */
    public static List<StepResult> parse(String csv) {
        List<String> lines = csv.lines().filter(line -> !line.isBlank()).toList();
        if (lines.isEmpty() || !(lines.get(0).equals(HEADER) || lines.get(0).equals(HEADER_NO_DRIVER_CPUS)
                || lines.get(0).equals(HEADER_NO_HS_CPU)
                || lines.get(0).equals(HEADER_NO_CPU_SPLIT) || lines.get(0).equals(HEADER_NO_SPLIT)
                || lines.get(0).equals(HEADER_ONE_CPU))) {
            throw new IllegalArgumentException("not a steps.csv of this version: the header differs");
        }
        int columns = lines.get(0).split(",").length;
        List<StepResult> steps = new java.util.ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] c = line.split(",", -1);
            if (c.length != columns) {
                throw new IllegalArgumentException("steps.csv row has " + c.length + " cells: " + line);
            }
            steps.add(new StepResult(io.tlsadmit.experiment.Mode.parse(c[0]), c[1], d(c[2]), d(c[3]),
                    Integer.parseInt(c[4]), Integer.parseInt(c[5]), d(c[6]), d(c[7]), d(c[8]), d(c[9]), d(c[10]),
                    Long.parseLong(c[11]), Long.parseLong(c[12]), Long.parseLong(c[13]), Long.parseLong(c[14]),
                    Long.parseLong(c[15]), d(c[16]), d(c[17]), d(c[18]), d(c[19]), d(c[20]), d(c[21]), d(c[22]),
                    c[23], c[24], Integer.parseInt(c[25]), d(c[27]), d(c[28]), d(c[29]), d(c[30]), d(c[31]),
                    columns > 33 ? Integer.parseInt(c[33]) : 1, columns > 35 ? d(c[34]) : Double.NaN,
                    columns > 35 ? d(c[35]) : Double.NaN, columns > 38 ? d(c[36]) : Double.NaN,
                    columns > 38 ? d(c[37]) : Double.NaN, columns > 38 ? d(c[38]) : Double.NaN,
                    columns > 39 ? d(c[39]) : Double.NaN, columns > 40 ? d(c[40]) : Double.NaN));
        }
        return steps;
    }

    private static double d(String cell) {
        return cell.isEmpty() ? Double.NaN : Double.parseDouble(cell);
    }

    /** A share with four decimals (a resumed share of 0.9712 is not 0.97); empty when not measured. */
    static String share(double value) {
        if (Double.isNaN(value)) {
            return "";
        }
        String text = String.format(Locale.ROOT, "%.4f", value).replaceAll("0+$", "").replaceAll("\\.$", "");
        return text.equals("-0") ? "0" : text;
    }

    /** Two decimals at most, no trailing zeros; empty for a figure that was not measured. */
    static String number(double value) {
        if (Double.isNaN(value)) {
            return "";
        }
        String text = String.format(Locale.ROOT, "%.2f", value);
        text = text.contains(".") ? text.replaceAll("0+$", "").replaceAll("\\.$", "") : text;
        return text.equals("-0") ? "0" : text;
    }
}

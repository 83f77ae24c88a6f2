package io.tlsadmit.experiment.report;

import io.tlsadmit.experiment.step.StepResult;
import java.util.List;
import java.util.Locale;

/** {@code steps.csv}: one row per step of the run, every mode, in the order they ran. */
public final class ResultsCsv {

    public static final String HEADER = "mode,phase,users_per_sec,limit,step_s,window_s,throughput_replies_per_s,"
            + "pages_per_s,completed_sessions_per_s,refused_connections_per_s,timeouts_per_s,sessions_started,"
            + "sessions_completed,sessions_abandoned,sessions_refused,error_pages,page_mean_ms,page_p99_ms,"
            + "server_full_handshakes,server_resumed_handshakes,server_cpu_pct,driver_cpu_pct,load_average";

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
                    number(s.serverCpuPercent()), number(s.driverCpuPercent()), number(s.loadAverage())))
                    .append('\n');
        }
        return out.toString();
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

package io.tlsadmit.experiment.flash;

import java.util.List;
import java.util.Locale;

/**
 * {@code flash-crowd.csv}: one row per mode and workload. The first five columns are read by outside checks and
 * keep their names; {@code seconds_to_90pct} is empty when throughput never held 90 % within the window, and
 * {@code server_seconds_to_90pct} (tenths of a second) when the gate's admitted rate never held it or there is no
 * gate. {@code sessions_completed} and {@code timeouts} are the window's totals: how much of the crowd was served
 * and how many gave up, whether or not throughput held.
 */
public final class FlashCrowdCsv {

    public static final String HEADER = "mode,mix,users_per_sec,seconds_to_90pct,refused_connections,tls,"
            + "steady_replies_per_s,window_s,"
            // issue 14: where the steady value came from, the gate's own view at 100 ms, the server's CPUs
            + "steady_source,server_seconds_to_90pct,server_steady_new_admitted_per_s,server_cpus,"
            // what the crowd got meanwhile, over the whole window
            + "sessions_completed,timeouts,"
            // cold, warm (Gatling's warm-up) or warm-up-requests (the connector's own), before the 5 s idle
            + "server_start";

    private FlashCrowdCsv() {
    }

    public static String format(List<FlashCrowdResult> results) {
        StringBuilder out = new StringBuilder(HEADER).append('\n');
        for (FlashCrowdResult r : results) {
            Recovery recovery = r.recovery();
            ServerRecovery server = r.serverRecovery();
            out.append(String.join(",", r.mode().label(), r.workload().mix(), number(r.usersPerSec()),
                    recovery.secondsTo90Percent() < 0 ? "" : Integer.toString(recovery.secondsTo90Percent()),
                    Long.toString(recovery.refusedMeanwhile()), r.workload().tls(), number(recovery.steady()),
                    Integer.toString(r.repliesPerSecond().length), r.steadySource(),
                    server == null || server.secondsTo90Percent() < 0 ? ""
                            : String.format(Locale.ROOT, "%.1f", server.secondsTo90Percent()),
                    server == null || Double.isNaN(server.steady()) ? "" : number(server.steady()),
                    Integer.toString(r.workload().serverCpus()), Long.toString(r.served().sessionsCompleted()),
                    Long.toString(r.served().timeouts()), r.serverStart().label())).append('\n');
        }
        return out.toString();
    }

    private static String number(double value) {
        String text = String.format(Locale.ROOT, "%.1f", value);
        return text.endsWith(".0") ? text.substring(0, text.length() - 2) : text;
    }
}

package io.tlsadmit.bench;

import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * One measured step: a mode at an offered load, as clients and the server's CPU saw it; {@code round} counts the
 * sweeps of a run ({@code --rounds}) from 1.
 */
record OverloadStep(String mode, double multiplier, double offeredNewPerSecond, double seconds,
                  double goodput, double newAdmittedPerSecond, double newRefusedPerSecond, double newTimedOutPerSecond,
                  double newDroppedByDriverPerSecond, double resumedAdmittedPercent, double resumedRefusedPerSecond,
                  double resumedTimedOutPerSecond, double newFailedAfterHandshakePerSecond,
                  double resumedFailedAfterHandshakePerSecond, double serverCpuPercent,
                  double driverCpuPercent, double fullHandshakeP50, double fullHandshakeP99,
                  double resumedHandshakeP50, double resumedHandshakeP99, double requestP50, double requestP99,
                  GateTruth gate, int round) {

    static OverloadStep of(String mode, double multiplier, double offered, double seconds, StepCounters c,
                         double serverCpuSeconds, double driverCpuSeconds, GateTruth gate, int round) {
        long resumedFinished = c.resumedFinished.sum();
        Histogram full = c.fullHandshake.snapshot();
        Histogram resumed = c.resumedHandshake.snapshot();
        Histogram request = c.request.snapshot();
        return new OverloadStep(mode, multiplier, offered, seconds,
                c.requestsCompleted.sum() / seconds,
                c.newCompleted.sum() / seconds,
                c.newRefused.sum() / seconds,
                c.newTimedOut.sum() / seconds,
                c.newDroppedByDriver.sum() / seconds,
                resumedFinished == 0 ? Double.NaN : 100.0 * c.resumedCompleted.sum() / resumedFinished,
                c.resumedRefused.sum() / seconds,
                c.resumedTimedOut.sum() / seconds,
                c.newFailedAfterHandshake.sum() / seconds,
                c.resumedFailedAfterHandshake.sum() / seconds,
                100.0 * serverCpuSeconds / seconds,
                100.0 * driverCpuSeconds / seconds,
                StepCounters.millis(full, 0.5), StepCounters.millis(full, 0.99),
                StepCounters.millis(resumed, 0.5), StepCounters.millis(resumed, 0.99),
                StepCounters.millis(request, 0.5), StepCounters.millis(request, 0.99), gate, round);
    }

    static String csvHeader() {
        return "mode,multiplier,offered_new_per_s,seconds,goodput_req_per_s,new_admitted_per_s,new_refused_per_s,"
                + "new_timed_out_per_s,new_dropped_by_driver_per_s,resumed_admitted_pct,resumed_refused_per_s,"
                + "resumed_timed_out_per_s,new_failed_after_handshake_per_s,resumed_failed_after_handshake_per_s,"
                + "server_cpu_pct,driver_cpu_pct,"
                + "full_hs_p50_ms,full_hs_p99_ms,resumed_hs_p50_ms,resumed_hs_p99_ms,request_p50_ms,request_p99_ms,"
                + "server_full_hs_per_s,server_resumed_hs_per_s,server_resumption_offers_refused,server_full_hs_cpu_ms,"
                + "round";
    }

    /**
     * The server's own count (the gate's metrics) over the step: the four columns before {@code round}, empty without
     * a gate, the fourth also where the gate timed no full handshake (a static budget does not).
     */
    String csv() {
        return String.format(Locale.ROOT,
                "%s,%.2f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.2f,%.2f,%.2f,%.2f,%.1f,%.1f,"
                        + "%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%s,%d",
                mode, multiplier, offeredNewPerSecond, seconds, goodput, newAdmittedPerSecond, newRefusedPerSecond,
                newTimedOutPerSecond, newDroppedByDriverPerSecond, resumedAdmittedPercent, resumedRefusedPerSecond,
                resumedTimedOutPerSecond, newFailedAfterHandshakePerSecond, resumedFailedAfterHandshakePerSecond,
                serverCpuPercent,
                driverCpuPercent, fullHandshakeP50, fullHandshakeP99, resumedHandshakeP50, resumedHandshakeP99,
                requestP50, requestP99, !gate.present() ? ",,," : String.format(Locale.ROOT, "%.1f,%.1f,%.0f,%s",
                        gate.fullHandshakes() / seconds, gate.resumedHandshakes() / seconds,
                        gate.resumptionOffersRefused(),
                        Double.isNaN(gate.fullHandshakeCpuMillis()) ? ""
                                : String.format(Locale.ROOT, "%.2f", gate.fullHandshakeCpuMillis())), round);
    }
}

package io.tlsadmit.experiment.step;

import io.tlsadmit.experiment.Mode;

/**
 * One step of the experiment: a mode at one arrival rate of new users, its steady-state rates (per second over
 * the measured window) and its run totals.
 *
 * @param phase       {@code knee} (the stock search for the knee), {@code maxsslrate} (HAProxy's tuning) or
 *                    {@code sweep}
 * @param limit       the static budget or HAProxy's maxsslrate in force, NaN for none
 * @param throughput  replies (pages and images) per second
 */
public record StepResult(
        Mode mode,
        String phase,
        double usersPerSec,
        double limit,
        int stepSeconds,
        int windowSeconds,
        double throughput,
        double pagesPerSec,
        double completedSessionsPerSec,
        double refusedConnectionsPerSec,
        double timeoutsPerSec,
        long sessionsStarted,
        long sessionsCompleted,
        long sessionsAbandoned,
        long sessionsRefused,
        long errorPages,
        double pageMeanMillis,
        double pageP99Millis,
        double serverFullHandshakes,
        double serverResumedHandshakes,
        double serverCpuPercent,
        double driverCpuPercent,
        double loadAverage) {

    public static StepResult of(Mode mode, String phase, double usersPerSec, double limit, int stepSeconds,
            StepFigures f, double serverCpuPercent, double driverCpuPercent, double loadAverage) {
        return new StepResult(mode, phase, usersPerSec, limit, stepSeconds, f.windowSeconds(),
                f.perSecond("replies"), f.perSecond("pages"), f.perSecond("sessions_completed"),
                f.perSecond("connections_refused"), f.perSecond("timeouts"),
                (long) f.figure("sessionsStarted"), (long) f.figure("sessionsCompleted"),
                (long) f.figure("sessionsAbandoned"), (long) f.figure("sessionsRefused"),
                (long) f.figure("errorPages"), latency(f.figure("pageMillisMean")), latency(f.figure("pageMillisP99")),
                f.figure("serverFullHandshakes"), f.figure("serverResumedHandshakes"),
                serverCpuPercent, driverCpuPercent, loadAverage);
    }

    /** The run's histogram reports -1 when no page came back at all: that is no latency, not a fast one. */
    private static double latency(double millis) {
        return millis < 0 ? Double.NaN : millis;
    }
}

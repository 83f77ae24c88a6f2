package io.tlsadmit.experiment.step;

import io.tlsadmit.admission.cpu.CpuTicks;
import io.tlsadmit.experiment.Mode;
import io.tlsadmit.experiment.Workload;
import java.util.function.ToDoubleFunction;

/**
 * One step of the experiment: a mode at one arrival rate of new users, its steady-state rates (per second over
 * the measured window) and its run totals.
 *
 * @param phase       {@code knee} (the stock search for the knee), {@code maxsslrate} (HAProxy's tuning) or
 *                    {@code sweep}
 * @param limit       the static budget or HAProxy's maxsslrate in force, NaN for none
 * @param throughput  replies (pages and images) per second
 * @param timeoutsPerSec  client timeouts: requests (page or image) with no reply within the users' 10 s, each a
 *                    user who gave up (the study's Figure 4.4)
 * @param firstPagesPerSec  users whose first page came back complete, per second of the window; with
 *                    {@code firstPagesIncompletePerSec} (a resource of it failed) and {@code firstPagesTimedOutPerSec}
 *                    (no reply in time) the users the server let in
 * @param serverNewAdmitted  new connections the gate admitted in the run: the tokens it spent (session grace included)
 * @param serverSessionGrace  of those, admitted on a just-admitted host's credit
 * @param firstPageP99Millis  p99 of users' first pages (the new connection's handshake and the gate's queue in it)
 * @param laterPageP99Millis  p99 of the pages after a user's first: what users already admitted wait for
 * @param serverCpusIdlePercent  the server's CPUs over the window, from {@code /proc/stat}: idle (I/O wait included),
 *                    whoever's CPUs they are; with the next two, where the CPU went that {@code serverCpuPercent} (the
 *                    server's own processes) does not show
 * @param serverCpusInterruptPercent  in hard and soft interrupts: the kernel's network processing, for connections
 *                    served and refused alike, is much of it; part of it may also be in {@code serverCpuPercent}
 *                    (see {@link io.tlsadmit.admission.cpu.CpuTicks})
 * @param serverCpusStealPercent  taken by the hypervisor for other guests
 * @param serverFullHandshakeCpuMillis  the gate's mean CPU per full handshake over the window, NaN where it timed
 *                    none (every budget but the adaptive one): tells a step in one of the machine's slow spells apart
 * @param driverCpusBusyPercent  the load generator's CPU over the window, from {@code /proc/stat}: busy, whoever used
 *                    it. Not {@code driverCpuPercent}: the database runs there too, and when that CPU is full the
 *                    database's replies wait, which pages show as the server's latency (see
 *                    {@link io.tlsadmit.testing.LoadGeneratorLimit}); with two server CPUs it is also the server's
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
        double loadAverage,
        String mix,
        String tls,
        int connectionsPerUser,
        double firstPagesPerSec,
        double firstPagesIncompletePerSec,
        double firstPagesTimedOutPerSec,
        double serverNewAdmitted,
        double serverSessionGrace,
        int serverCpus,
        double firstPageP99Millis,
        double laterPageP99Millis,
        double serverCpusIdlePercent,
        double serverCpusInterruptPercent,
        double serverCpusStealPercent,
        double serverFullHandshakeCpuMillis,
        double driverCpusBusyPercent) {

    /** A step on the study's one server CPU. */
    public StepResult(Mode mode, String phase, double usersPerSec, double limit, int stepSeconds, int windowSeconds,
            double throughput, double pagesPerSec, double completedSessionsPerSec, double refusedConnectionsPerSec,
            double timeoutsPerSec, long sessionsStarted, long sessionsCompleted, long sessionsAbandoned,
            long sessionsRefused, long errorPages, double pageMeanMillis, double pageP99Millis,
            double serverFullHandshakes, double serverResumedHandshakes, double serverCpuPercent,
            double driverCpuPercent, double loadAverage, String mix, String tls, int connectionsPerUser,
            double firstPagesPerSec, double firstPagesIncompletePerSec, double firstPagesTimedOutPerSec,
            double serverNewAdmitted, double serverSessionGrace) {
        this(mode, phase, usersPerSec, limit, stepSeconds, windowSeconds, throughput, pagesPerSec,
                completedSessionsPerSec, refusedConnectionsPerSec, timeoutsPerSec, sessionsStarted, sessionsCompleted,
                sessionsAbandoned, sessionsRefused, errorPages, pageMeanMillis, pageP99Millis, serverFullHandshakes,
                serverResumedHandshakes, serverCpuPercent, driverCpuPercent, loadAverage, mix, tls, connectionsPerUser,
                firstPagesPerSec, firstPagesIncompletePerSec, firstPagesTimedOutPerSec, serverNewAdmitted,
                serverSessionGrace, 1, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN);
    }

    public Workload workload() {
        return new Workload(mix, tls, serverCpus);
    }

    /**
     * Resumed share of the server's handshakes (server truth: what each ServerHello did), the study's Figure 4.3;
     * NaN where the server does not count them (no gate) or did none.
     */
    public double resumedShare() {
        double all = serverFullHandshakes + serverResumedHandshakes;
        return all > 0 ? serverResumedHandshakes / all : Double.NaN;
    }

    /**
     * "Tokens spent on users who then got no page": of the users the gate let in (their first page came back, came
     * back with a failed resource, or timed out instead of being refused), the share whose first page failed. The
     * gate spends a token on each user it lets in and refuses outright costs none, so this is the share of the
     * spent tokens wasted when users spend alike; {@link #serverNewAdmitted} / users let in says how many each
     * spent. NaN without a gate (no tokens) or with nobody let in.
     */
    public double wastedTokenShare() {
        double letIn = firstPagesPerSec + firstPagesIncompletePerSec + firstPagesTimedOutPerSec;
        return mode.gated() && letIn > 0 ? (firstPagesIncompletePerSec + firstPagesTimedOutPerSec) / letIn : Double.NaN;
    }

    public static StepResult of(Mode mode, Workload workload, int connectionsPerUser, String phase, double usersPerSec,
            double limit, int stepSeconds, StepFigures f, double serverCpuPercent, double driverCpuPercent,
            double loadAverage, CpuTicks.Split serverCpus, double serverFullHandshakeCpuMillis,
            CpuTicks.Split driverCpus) {
        return new StepResult(mode, phase, usersPerSec, limit, stepSeconds, f.windowSeconds(),
                f.perSecond("replies"), f.perSecond("pages"), f.perSecond("sessions_completed"),
                f.perSecond("connections_refused"), f.perSecond("timeouts"),
                (long) f.figure("sessionsStarted"), (long) f.figure("sessionsCompleted"),
                (long) f.figure("sessionsAbandoned"), (long) f.figure("sessionsRefused"),
                (long) f.figure("errorPages"), latency(f.figure("pageMillisMean")), latency(f.figure("pageMillisP99")),
                f.figure("serverFullHandshakes"), f.figure("serverResumedHandshakes"),
                serverCpuPercent, driverCpuPercent, loadAverage, workload.mix(), workload.tls(), connectionsPerUser,
                f.perSecond("first_pages"), f.perSecond("first_pages_incomplete"),
                f.perSecond("first_pages_timed_out"), f.figure("serverNewConnectionsAdmitted"),
                f.figure("serverSessionGrace"), workload.serverCpus(), latency(f.figure("firstPageMillisP99")),
                latency(f.figure("laterPageMillisP99")), percent(serverCpus, CpuTicks.Split::idle),
                percent(serverCpus, CpuTicks.Split::interrupts), percent(serverCpus, CpuTicks.Split::steal),
                serverFullHandshakeCpuMillis, percent(driverCpus, split -> 1 - split.idle()));
    }

    private static double percent(CpuTicks.Split split, ToDoubleFunction<CpuTicks.Split> share) {
        return split == null ? Double.NaN : 100 * share.applyAsDouble(split);
    }

    /** The run's histogram reports -1 when no page came back at all: that is no latency, not a fast one. */
    private static double latency(double millis) {
        return millis < 0 ? Double.NaN : millis;
    }
}

package io.tlsadmit.admission.control;

import java.util.Locale;

/**
 * One line per control period, at {@code DEBUG} ({@code FINE} in java.util.logging) on the logger
 * {@code io.tlsadmit.admission.control.ControlTrace}: what the period measured and what the law made of it.
 *
 * <p>Why a trace beside the metrics: a scrape sees the last period's result at the scraper's pace, and under
 * overload, exactly when an operator wants to know why new clients were refused, scrapes come late and miss
 * periods. Each line here is one whole period, measured and decided at the same instant, with the raw
 * measurement beside the smoothed value the rate came from, so that the budget can be replayed and a
 * measurement's noise told apart from the load's (how {@code docs/benchmarks.md} section 4, 2026-11-26 "last
 * hour", found that most of busy's noise was full handshakes still in flight). Off by default; four lines a
 * second at the default period when on, and nothing is formatted when off.
 *
 * <p>Fields, in this order, CPUs as CPU-seconds per second: {@code connector} (the budget's name, the metrics'
 * {@code connector} label; {@code -} when it has none), {@code t} tick (ns, the controller's clock),
 * {@code period_ms}, {@code cpus} and {@code cpu_source}, {@code used} and {@code busy} (the period's own
 * measurement: process CPU less compilation, and less full handshakes too), {@code busy_smoothed} (what the
 * model subtracts), {@code compiler}, {@code admitted_per_s}, {@code binding} (a new client found no token),
 * {@code queue_delay_ms} (-1: no connection started), {@code run_queue} (threads waiting for a CPU, from
 * {@code stretch}, the full handshakes' wall time over their CPU time: 1 + the threads waiting per CPU; NaN: too few
 * full handshakes ended in the period), {@code cost_ms} and {@code cost_measured},
 * {@code client_cost_ms} (NaN until learned), {@code correction}, {@code model_rate}, {@code guard},
 * {@code rate}, {@code burst}.
 */
final class ControlTrace {

    static final String LOGGER = "io.tlsadmit.admission.control.ControlTrace";
    private static final System.Logger LOG = System.getLogger(LOGGER);

    private ControlTrace() {
    }

    /** Logs the period if the trace is on. */
    static void period(String name, ControlDecision d, PeriodMeasurement m) {
        if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
            LOG.log(System.Logger.Level.DEBUG, line(name, d, m));
        }
    }

    static String line(String name, ControlDecision d, PeriodMeasurement m) {
        return String.format(Locale.ROOT, "connector=%s t=%d period_ms=%.1f cpus=%.3f cpu_source=%s used=%.3f"
                        + " busy=%.3f busy_smoothed=%.3f compiler=%.3f admitted_per_s=%.1f binding=%b"
                        + " queue_delay_ms=%.1f run_queue=%.2f stretch=%.3f cost_ms=%.3f cost_measured=%b"
                        + " client_cost_ms=%.3f"
                        + " correction=%.3f model_rate=%.1f guard=%.3f rate=%.1f burst=%d",
                name.isEmpty() ? "-" : name, d.atNanos(), m.periodNanos() / 1e6, d.cpusAllocated(), d.cpuSource(),
                m.usedCpus(), m.busyCpus(), d.busyCpus(), m.transientCpus(), m.admittedFullPerSecond(),
                m.budgetBinding(), m.meanQueueDelayNanos() < 0 ? -1 : m.meanQueueDelayNanos() / 1e6,
                m.waitingThreads(), m.handshakeStretch(), d.fullHandshakeCostNanos() / 1e6, d.costMeasured(),
                d.newClientCostNanos() / 1e6,
                d.correctionCpus(), d.modelFullHandshakesPerSecond(), d.guardFactor(), d.fullHandshakesPerSecond(),
                d.burst());
    }
}

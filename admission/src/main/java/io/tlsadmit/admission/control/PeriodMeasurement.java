package io.tlsadmit.admission.control;

/**
 * What one control period measured, as the {@link ControlLaw} needs it: CPUs are CPU-seconds per
 * second of wall time, so a number is comparable across periods of any length and across servers.
 *
 * @param periodNanos             length of the period
 * @param cpus                    CPUs this JVM may use now
 * @param fullHandshakeCostNanos  CPU time of one new full handshake (measured, or the initial estimate)
 * @param busyCpus                CPUs used by resumed handshakes and everything else that is not a
 *                                full handshake, transient JVM work (compilation) excluded
 * @param usedCpus                CPUs used by the process in all, transient JVM work excluded
 * @param transientCpus           CPUs used by transient JVM work (compilation)
 * @param admittedFullCpus        CPUs the new full handshakes admitted in the period will take, at the measured
 *                                cost; NaN while the cost is not measured
 * @param admittedFullPerSecond   new full handshakes admitted per second
 * @param meanQueueDelayNanos     mean queue delay of new connections, negative when none started
 * @param budgetBinding           whether a new client found no token in the period: demand met the rate
 * @param handshakeStretch        wall time over CPU time of the timed steps of the full handshakes that ended in the
 *                                period (1: they never waited for a CPU); NaN when they were too few to tell
 */
record PeriodMeasurement(long periodNanos, double cpus, double fullHandshakeCostNanos, double busyCpus, double usedCpus, double transientCpus,
                         double admittedFullCpus, double admittedFullPerSecond,
                         double meanQueueDelayNanos, boolean budgetBinding, double handshakeStretch) {

    /** Without a stretch measurement. */
    PeriodMeasurement(long periodNanos, double cpus, double fullHandshakeCostNanos, double busyCpus, double usedCpus,
                      double transientCpus, double admittedFullCpus, double admittedFullPerSecond,
                      double meanQueueDelayNanos, boolean budgetBinding) {
        this(periodNanos, cpus, fullHandshakeCostNanos, busyCpus, usedCpus, transientCpus, admittedFullCpus,
                admittedFullPerSecond, meanQueueDelayNanos, budgetBinding, Double.NaN);
    }

    /**
     * Threads waiting for a CPU while runnable, on average over the period, as the handshakes' stretch tells it. A
     * handshake step is CPU work that never waits for the network, and with {@code r} threads runnable on
     * {@code cpus} CPUs each runs {@code cpus / r} of the time, so a step's wall time is its CPU time × {@code r /
     * cpus}, and {@code r − cpus} threads wait: every thread on those CPUs, this JVM's or not. NaN when not measured.
     */
    double waitingThreads() {
        return handshakeStretch >= 1 && cpus > 0 ? cpus * (handshakeStretch - 1) : Double.NaN;
    }
}

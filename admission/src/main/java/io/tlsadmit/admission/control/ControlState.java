package io.tlsadmit.admission.control;

/**
 * What the {@link ControlLaw} carries from one period to the next.
 *
 * @param busyCpus       smoothed CPUs used by everything but new full handshakes; NaN before the first period
 * @param correctionCpus CPUs the model has been missing (positive) or inventing (negative), learned while
 *                       the budget binds, so that the CPUs end up used at the target
 * @param guard          the queue-delay guard
 * @param cpus           the CPUs allocated at the end of the last period; NaN before the first
 * @param sessionCost    what a new client costs in all, learned while the budget binds
 * @param occupiedCpus   smoothed CPUs used in all, the compiler's included; NaN before the first period
 */
record ControlState(double busyCpus, double correctionCpus, FeedbackGuard guard, double cpus, SessionCost sessionCost,
                    double occupiedCpus) {

    static final ControlState INITIAL = new ControlState(Double.NaN, 0, FeedbackGuard.OPEN, Double.NaN, SessionCost.NONE,
            Double.NaN);
}

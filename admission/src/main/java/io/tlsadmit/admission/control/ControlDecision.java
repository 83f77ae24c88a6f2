package io.tlsadmit.admission.control;

import io.tlsadmit.admission.cpu.CpuAllocation;

/**
 * One period's computation, kept for metrics and for explaining the budget to an operator.
 *
 * @param atNanos                    clock value of the tick
 * @param cpusAllocated              CPUs this JVM may use now
 * @param cpuSource                  which source set {@code cpusAllocated}
 * @param fullHandshakeCostNanos     CPU cost of one full handshake used in the division: the
 *                                   measured average, or the initial estimate before any
 * @param costMeasured               whether {@code fullHandshakeCostNanos} was measured
 * @param resumedCpus                CPUs used by resumed handshakes, averaged over the window
 * @param otherCpus                  CPUs used by everything that is not a handshake, averaged over the window
 * @param busyCpus                   the smoothed CPUs used by resumptions and everything else: the
 *                                   term subtracted in the formula
 * @param modelFullHandshakesPerSecond the rate the CPU model allows, before guard and clamp
 * @param guardFactor                the feedback guard's multiplier, 1 when connections do not queue
 * @param meanQueueDelayNanos        mean queue delay of new connections over the period, -1 when none
 * @param fullHandshakesPerSecond    the rate now served by the token bucket
 * @param burst                      the bucket's burst now
 * @param cpusRequested              CPUs needed to serve every arrival at the target utilization
 * @param transientCpus              CPUs the JVM spent on transient work (compilation) in the period, not counted as load
 * @param usedCpus                   CPUs the process used in the period, transient work excluded
 * @param correctionCpus             the control law's learned correction to the model, in CPUs
 * @param newClientCostNanos         CPU one admitted new client costs in all, its session included
 *                                   ({@link SessionCost}); NaN until learned
 * @param threadsWaiting             threads waiting for a CPU in the period, as the full handshakes' stretch tells
 *                                   it ({@link PeriodMeasurement#waitingThreads}); NaN when too few ended
 */
public record ControlDecision(long atNanos, double cpusAllocated, CpuAllocation.Source cpuSource,
                              double fullHandshakeCostNanos, boolean costMeasured,
                              double resumedCpus, double otherCpus, double busyCpus,
                              double modelFullHandshakesPerSecond, double guardFactor,
                              double meanQueueDelayNanos, double fullHandshakesPerSecond, long burst,
                              double cpusRequested, double transientCpus, double usedCpus,
                              double correctionCpus, double newClientCostNanos, double threadsWaiting) {
}

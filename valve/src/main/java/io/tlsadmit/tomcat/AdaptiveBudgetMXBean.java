package io.tlsadmit.tomcat;

/**
 * The adaptive budget of one connector in JMX ({@code io.tlsadmit:type=AdaptiveBudget,connector="..."}):
 * what it computed, and the knobs an operator or an external CPU manager may turn at runtime. The
 * pair {@code cpusRequested}/{@code cpusAssigned} is the 2005 paper's interface to a CPU manager.
 */
public interface AdaptiveBudgetMXBean {

    String getConnector();

    /**
     * CPUs this JVM may use as of the last control period (cgroup quota, affinity, override, assignment, and with
     * {@code cpuCapacity="measured"} what other processes leave of the affinity mask).
     */
    double getCpusAllocated();

    /**
     * Which source set {@link #getCpusAllocated()}: OVERRIDE, CGROUP_V2, CGROUP_V1, AFFINITY, ASSIGNED or
     * NEIGHBOURS (the mask less {@link #getNeighbourCpus()}).
     */
    String getCpuSource();

    /** {@code allocation} or {@code measured}, as the {@code cpuCapacity} attribute. */
    String getCpuCapacity();

    /**
     * With {@code cpuCapacity="measured"}: CPUs other processes used of the affinity mask, the largest of the last 3
     * periods; NaN otherwise, before the first period, or where {@code /proc} cannot be read.
     */
    double getNeighbourCpus();

    /** CPUs the current arrivals (admitted or not) would need at the target utilization. */
    double getCpusRequested();

    /** The share an external CPU manager grants; 0 = none. Can only narrow the detected allocation. */
    double getCpusAssigned();

    /** @throws IllegalArgumentException for a negative value */
    void setCpusAssigned(double cpus);

    /** The rate of new full handshakes the budget serves now. */
    double getFullHandshakesPerSecond();

    double getAvailableTokens();

    long getBurst();

    /** The smoothed CPU time of one full handshake the last period divided by, in microseconds. */
    double getFullHandshakeCostMicros();

    /** Whether that cost was measured (false: still {@code initialFullHandshakeCost}). */
    boolean isFullHandshakeCostMeasured();

    /** CPUs used by resumed handshakes and everything that is not a handshake (smoothed): what the model subtracts. */
    double getBusyCpus();

    /** The feedback guard's multiplier: 1 while new connections do not queue. */
    double getGuardFactor();

    /** CPUs the control law adds to its model because they stayed idle while new clients were refused. */
    double getCorrectionCpus();

    /**
     * CPU one admitted new client costs in all, its handshake and its session (pages, resumed reconnections), learned
     * while the budget binds at a steady rate; the rate is at most {@code cpus × target / this}. -1 until learned.
     */
    double getNewClientCostMicros();

    /**
     * The server side's CPU per full handshake measured by the TLS warm-up at start (`warmUpHandshakes`), which the
     * budget assumed until real clients' handshakes were measured; -1 without a warm-up.
     */
    double getFullHandshakeCostAtStartMicros();

    /** CPUs the JIT compiler threads used in the last period: transient, not counted as load. */
    double getCompilerCpus();

    /**
     * Threads that waited for a CPU in the last period, on average, read from the full handshakes' wall time over
     * their CPU time (what {@code runQueueTarget} is compared with, per CPU); -1 when too few full handshakes ended.
     */
    double getCpuThreadsWaiting();

    double getTargetUtilization();

    void setTargetUtilization(double utilization);

    double getMinFullHandshakesPerSecond();

    void setMinFullHandshakesPerSecond(double rate);

    /** The cap; 0 refuses every new full handshake. */
    double getMaxFullHandshakesPerSecond();

    void setMaxFullHandshakesPerSecond(double rate);

    long getControlPeriod();
}

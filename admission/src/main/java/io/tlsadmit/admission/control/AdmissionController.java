package io.tlsadmit.admission.control;

import io.tlsadmit.admission.HandshakeBudget;
import io.tlsadmit.admission.HandshakeKind;
import io.tlsadmit.admission.TokenBucket;
import io.tlsadmit.admission.cost.HandshakeCost;
import io.tlsadmit.admission.cost.CostedVersion;
import io.tlsadmit.admission.cpu.CpuAllocation;
import io.tlsadmit.admission.cpu.CpuCapacity;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The adaptive budget: admits as many new full handshakes as the CPUs this JVM holds can absorb
 * after the work of the clients already admitted.
 *
 * <h2>Why periodic, and why this formula</h2>
 * The 2005 session-based admission work (Guitart et al.) observed that under overload an SSL
 * server should keep serving the sessions it has, which mostly resume cheaply, and admit new
 * sessions only as far as the spare capacity allows; it recomputes that number every period from
 * the processors allocated to the server. This class does the same with measured inputs. Every
 * control period, {@link #tick(long)} sets
 * <pre>
 *   rate = (cpus × targetUtilization − otherCpus) / fullHandshakeCost     [full handshakes / s]
 * </pre>
 * where {@code cpus} is re-read from {@link CpuAllocation} (cgroup quota, affinity, override,
 * assignment), {@code otherCpus} is the CPU per second used by everything else — resumed
 * handshakes plus request processing — smoothed over the last periods (see {@link ControlLaw#BUSY_GAIN}), and
 * {@code fullHandshakeCost} is the smoothed measured CPU time of one full handshake (an initial
 * estimate until the first is measured). Resumptions are never charged, so the existing clients'
 * load is served first and new clients get what is left. The rate is then multiplied by the
 * {@link FeedbackGuard} factor, clamped to {@code [minFullHandshakesPerSecond,
 * maxFullHandshakesPerSecond]} and served through a {@link TokenBucket} whose burst is bounded
 * (by default the rate times the queue-delay target), so admissions are spread over the period
 * instead of spent at its start.
 *
 * <p>Why a feedback guard on top: every term of the formula is a measurement or an estimate and
 * any of them can be wrong — a cost not yet measured, CPU the gate cannot see, a noisy neighbour.
 * Their common symptom is new connections queueing before their handshake starts, which the
 * {@link FeedbackGuard} watches; it scales the model down until the queue drains, so a wrong
 * model costs throughput, not an overloaded server.
 *
 * <p>The minimum rate is deliberately above 0 by default: a server that admits nothing measures
 * nothing, and a trickle of new handshakes keeps both the cost and the queue delay current.
 *
 * <h2>Inputs</h2>
 * <ul>
 *   <li>{@link #handshakeCompleted}: the truth and CPU time of every finished handshake (a full one whose time
 *       is unknown, such as an offered resumption the server could not resume and the gate did not time, counts
 *       at the measured cost of a full handshake, not as other CPU);</li>
 *   <li>{@link #recordArrival}: every new connection with its predicted kind, admitted or not,
 *       for {@link #cpusRequested()};</li>
 *   <li>{@link #recordQueueDelay}: how long a new connection waited for a worker (or its handshake's work for a
 *       thread it was handed to), for the guard;</li>
 *   <li>CPU used by everything else: either a cumulative process CPU clock
 *       ({@link #setProcessCpuTime}), from which handshake CPU is subtracted, or explicit
 *       {@link #recordOtherCpu} reports. With a process clock the reports are ignored, so nothing
 *       is counted twice.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * The record methods and {@link #tryAcquireFull()} are lock-free and may be called from any
 * thread. {@link #tick(long)} and the setters serialize on this object; one control thread
 * ({@link ControlLoop}) or a test calls {@code tick}.
 */
public final class AdmissionController implements HandshakeBudget {

    public static final String CPUS = CpuAllocation.CPUS_ATTRIBUTE;
    public static final String CPUS_ASSIGNED = CpuAllocation.CPUS_ASSIGNED_ATTRIBUTE;
    public static final String CPU_CAPACITY = CpuCapacity.ATTRIBUTE;
    public static final String TARGET_UTILIZATION = "targetUtilization";
    public static final String RUN_QUEUE_TARGET = "runQueueTarget";
    public static final String CONTROL_PERIOD = "controlPeriod";
    public static final String MIN_RATE = "minFullHandshakesPerSecond";
    public static final String MAX_RATE = "maxFullHandshakesPerSecond";
    public static final String BURST = "fullHandshakeBurst";
    public static final String QUEUE_DELAY_TARGET = "queueDelayTarget";
    public static final String INITIAL_COST = "initialFullHandshakeCost";

    public static final double DEFAULT_TARGET_UTILIZATION = 0.97;
    /** More threads waiting per CPU than any worker pool's: a larger target would never act. */
    static final double MAX_RUN_QUEUE_TARGET = 10_000;
    public static final long DEFAULT_CONTROL_PERIOD_MILLIS = 250;
    public static final double DEFAULT_MIN_RATE = 1;
    public static final double DEFAULT_MAX_RATE = 100_000;
    public static final long DEFAULT_QUEUE_DELAY_TARGET_MILLIS = 50;
    /** Above the 1.1–1.7 ms JSSE measured for RSA-2048 on the development machine: err on the safe side. */
    public static final long DEFAULT_INITIAL_COST_MICROS = 2_000;
    /** Periods over which arrivals are averaged for {@link #cpusRequested()}. */
    public static final int WINDOW_PERIODS = 4;
    /**
     * The smallest automatic burst. Clients arrive at random, not evenly: with a bucket of {@code b} tokens,
     * Poisson arrivals at 0.8× its rate are refused 20 % of the time at b = 2, 3.4 % at b = 5, 0.34 % at
     * b = 10 and 0.03 % at b = 15, whatever the rate (the ratio alone decides). A burst of rate × a 50 ms
     * queue target is 1–3 tokens below 60 handshakes/s, so a server far from full refused new clients it could
     * have served. 12 keeps such refusals under 0.2 % at 0.8× the rate; spent at once, 12 full handshakes
     * delay the last by 12 × their cost (about 70 ms at 6 ms on one CPU), which the queue-delay guard tolerates.
     */
    static final long MIN_AUTO_BURST = 12;
    /**
     * The full handshakes' CPU a period needs before their stretch is read as its run queue: a few handshakes, so
     * that one preempted at an unlucky moment does not stand for the period.
     */
    static final long MIN_STRETCH_CPU_NANOS = 10_000_000;
    /** The most the automatic burst grows while the JVM warms up (see {@link ControlLaw#queueDelayTarget}). */
    static final double WARMUP_BURST_FACTOR = 4;

    private final CpuAllocation allocation;
    private final HandshakeCost cost;
    private final TokenBucket bucket;

    private final LongAdder fullArrivals = new LongAdder();
    private final LongAdder resumedArrivals = new LongAdder();
    private final LongAdder reportedOtherCpu = new LongAdder();
    private final LongAdder queueDelaySum = new LongAdder();
    private final LongAdder queueDelayCount = new LongAdder();
    /** Full handshakes reported with an unknown CPU time. */
    private final LongAdder untimedFull = new LongAdder();
    /** CPU and wall time of full handshakes reported with both: their stretch is the run queue they met. */
    private final LongAdder stretchCpu = new LongAdder();
    private final LongAdder stretchWall = new LongAdder();
    private volatile LongSupplier processCpuTime;
    /** {@link #processCpuTime} as the CPU allocation reads it: -1 when there is none or it failed. */
    private final LongSupplier processCpuReading = () -> read(processCpuTime);
    private volatile LongSupplier transientCpuTime;

    private volatile double targetUtilization = DEFAULT_TARGET_UTILIZATION;
    private volatile double runQueueTarget;
    private volatile long controlPeriodMillis = DEFAULT_CONTROL_PERIOD_MILLIS;
    private volatile String name = "";
    private volatile double minRate = DEFAULT_MIN_RATE;
    private volatile double maxRate = DEFAULT_MAX_RATE;
    private volatile long burstSetting;
    private volatile long queueDelayTargetMillis = DEFAULT_QUEUE_DELAY_TARGET_MILLIS;
    private volatile long initialCostMicros = DEFAULT_INITIAL_COST_MICROS;
    private volatile long startCostNanos;

    // Control-thread state, guarded by this.
    private final MeasurementWindow window = new MeasurementWindow(WINDOW_PERIODS);
    private ControlState state = ControlState.INITIAL;
    private PeriodMeasurement lastMeasurement;
    private Totals previous;
    private long lastTickNanos;
    private double modelRate;
    private volatile ControlDecision lastDecision;

    /**
     * Starts with the rate the allocated CPUs allow at the initial cost estimate.
     *
     * @param nanoClock the clock of the token bucket and of {@link #tick(long)}'s argument
     */
    public AdmissionController(CpuAllocation allocation, HandshakeCost cost, LongSupplier nanoClock) {
        this.allocation = Objects.requireNonNull(allocation, "allocation");
        this.cost = Objects.requireNonNull(cost, "cost");
        Objects.requireNonNull(nanoClock, "nanoClock");
        this.lastTickNanos = nanoClock.getAsLong();
        this.previous = totals();
        allocation.setHeadroom(1 - targetUtilization);
        double cpus = allocation.refresh().cpus();
        this.modelRate = cpus * targetUtilization * 1e9 / initialCostNanos();
        double rate = clamp(modelRate);
        this.bucket = new TokenBucket(rate, burstFor(rate), nanoClock);
    }

    /** A controller on {@link System#nanoTime()} reading the real CPU allocation. */
    public AdmissionController() {
        this(new CpuAllocation(), new HandshakeCost(), System::nanoTime);
    }

    // ---- HandshakeBudget ----------------------------------------------------------------------

    @Override
    public boolean tryAcquireFull() {
        return bucket.tryAcquire();
    }

    @Override
    public boolean tryAcquireFullOnCredit(long maxDebt) {
        return bucket.tryAcquireOnCredit(maxDebt);
    }

    @Override
    public double fullHandshakesPerSecond() {
        return bucket.ratePerSecond();
    }

    @Override
    public double availableTokens() {
        return bucket.availableTokens();
    }

    @Override
    public void handshakeCompleted(HandshakeKind kind, int tlsVersion, long cpuNanos) {
        if (cpuNanos > 0) {
            cost.record(kind, CostedVersion.fromWire(tlsVersion), cpuNanos);
        } else if (kind == HandshakeKind.FULL) {
            untimedFull.increment();
        }
    }

    /**
     * Also reads the CPUs' run queue from full handshakes: the CPU time of a step that never waits for the network,
     * against its wall time (see {@link PeriodMeasurement#waitingThreads}). Full handshakes only: every one is timed
     * and each is milliseconds of CPU, so a period's are a sample of the run queue through the whole period whenever
     * the budget binds, at no cost beyond a {@code nanoTime} per step.
     */
    @Override
    public void handshakeCompleted(HandshakeKind kind, int tlsVersion, long cpuNanos, long wallNanos) {
        handshakeCompleted(kind, tlsVersion, cpuNanos);
        if (kind == HandshakeKind.FULL && cpuNanos > 0 && wallNanos >= cpuNanos) {
            stretchCpu.add(cpuNanos);
            stretchWall.add(wallNanos);
        }
    }

    // ---- inputs -------------------------------------------------------------------------------

    /** A new connection arrived; {@code predicted} is the classifier's view, admitted or not. */
    public void recordArrival(HandshakeKind predicted) {
        (predicted == HandshakeKind.FULL ? fullArrivals : resumedArrivals).increment();
    }

    /**
     * How long a new connection waited for a worker before its handshake started, in nanoseconds: from
     * the moment it had bytes to work on, so that a client slow to send is not counted as server queue. Also how
     * long an admitted new client's handshake work waited for a thread it was handed to (Tomcat's
     * {@code fullHandshakeNice}): the same queue for the CPU, moved off the workers.
     */
    public void recordQueueDelay(long nanos) {
        queueDelaySum.add(Math.max(0, nanos));
        queueDelayCount.increment();
    }

    /** CPU used by something other than a handshake (request processing); ignored with a process clock. */
    public void recordOtherCpu(long nanos) {
        if (nanos > 0) {
            reportedOtherCpu.add(nanos);
        }
    }

    /**
     * Measures "everything else" as this cumulative process CPU time minus handshake CPU, e.g.
     * {@code com.sun.management.OperatingSystemMXBean::getProcessCpuTime}; {@code null} goes back
     * to {@link #recordOtherCpu} reports. Taking effect at the next tick.
     */
    public synchronized void setProcessCpuTime(LongSupplier cumulativeProcessCpuNanos) {
        this.processCpuTime = cumulativeProcessCpuNanos;
        this.previous = totals();
    }

    /**
     * CPU the JVM spends on work that stops by itself, as a cumulative clock in nanoseconds: JIT compilation
     * (e.g. {@code CompilationMXBean.getTotalCompilationTime()} × 10⁶). A fresh JVM compiles for tens of
     * seconds, on the same CPUs as the handshakes; counted as load, it would hold the budget down through
     * exactly the start-up that a flash crowd meets. It is taken out of busy and used CPU (never more than
     * the "everything else" it is part of). {@code null} (the default) takes nothing out.
     */
    public synchronized void setTransientCpuTime(LongSupplier cumulativeTransientCpuNanos) {
        this.transientCpuTime = cumulativeTransientCpuNanos;
        this.previous = totals();
    }

    /**
     * Releases the files the readings keep open between ticks (the CPU allocation's, the compiler threads' when that
     * clock is {@link AutoCloseable}), for a connector that stops; a later tick opens them again.
     */
    public synchronized void releaseFiles() {
        allocation.close();
        if (transientCpuTime instanceof AutoCloseable files) {
            try {
                files.close();
            } catch (Exception e) {
                // only descriptors to release; nothing was written
            }
        }
    }

    // ---- control ------------------------------------------------------------------------------

    /**
     * Runs one control period ending at {@code nowNanos}: measures, recomputes the rate and applies
     * it to the bucket. Rates are over the real elapsed time, so a late tick is not misread as load.
     *
     * @return the decision, also available from {@link #lastDecision()}
     */
    public synchronized ControlDecision tick(long nowNanos) {
        long elapsed = nowNanos - lastTickNanos;
        if (elapsed <= 0) {
            return lastDecision;
        }
        lastTickNanos = nowNanos;
        Totals now = totals();
        Totals delta = now.minus(previous);
        previous = now;

        boolean measured = cost.count(HandshakeKind.FULL) > 0;
        double fullCost = measured ? cost.ewmaNanos(HandshakeKind.FULL) : initialCostNanos();
        // An untimed full handshake's CPU is in the process clock: counted as other CPU it would hold the rate down
        // as load of the admitted sessions while it also took a token. At the measured cost once there is one.
        long fullCpu = delta.fullCpu + (measured ? Math.round(delta.untimedFull * fullCost) : 0);
        long otherCpu = delta.processCpu >= 0
                ? Math.max(0, delta.processCpu - fullCpu - delta.resumedCpu)
                : delta.reportedOtherCpu;
        long transientCpu = delta.transientCpu >= 0 ? Math.min(delta.transientCpu, otherCpu) : 0;
        window.add(elapsed, fullCpu, delta.resumedCpu, otherCpu, delta.fullArrivals, delta.resumedArrivals);

        // the process's clock, so that the allocation need not read /proc/self/stat for it; read again there, next
        // to the CPUs' counters, not the reading above: the loop's own work since then would count as a neighbour's
        CpuAllocation.Reading cpus = allocation.refresh(processCpuReading);
        double resumedCost = cost.count(HandshakeKind.RESUMED) > 0 ? cost.ewmaNanos(HandshakeKind.RESUMED) : fullCost;
        double busy = (delta.resumedCpu + otherCpu - transientCpu) / (double) elapsed;
        double used = busy + fullCpu / (double) elapsed;
        double meanDelay = delta.queueDelayCount > 0 ? (double) delta.queueDelaySum / delta.queueDelayCount : -1;
        PeriodMeasurement measurement = new PeriodMeasurement(elapsed, cpus.cpus(), fullCost, busy, used,
                transientCpu / (double) elapsed, measured ? delta.granted * fullCost / elapsed : Double.NaN,
                delta.granted * 1e9 / elapsed, meanDelay,
                delta.refused > 0,
                delta.stretchCpu >= MIN_STRETCH_CPU_NANOS ? delta.stretchWall / (double) delta.stretchCpu : Double.NaN);

        double target = targetUtilization;
        state = ControlLaw.next(state, measurement, target, TimeUnit.MILLISECONDS.toNanos(queueDelayTargetMillis),
                runQueueTarget);
        lastMeasurement = measurement;
        modelRate = ControlLaw.modelRate(state, measurement, target);
        double rate = clamp(ControlLaw.rate(state, measurement, target));
        long burst = burstFor(rate);
        bucket.setRatePerSecond(rate);
        bucket.setBurst(burst);

        // The paper's cpusRequested(n): what every arrival would need, admitted or not, at the target.
        double demandPerSecond = window.fullArrivalsPerSecond() * fullCost
                + window.resumedArrivalsPerSecond() * resumedCost
                + window.otherCpuPerSecond();
        double requested = demandPerSecond / 1e9 / target;

        ControlDecision decision = new ControlDecision(nowNanos, cpus.cpus(), cpus.source(), fullCost, measured,
                window.resumedCpuPerSecond() / 1e9, window.otherCpuPerSecond() / 1e9, state.busyCpus(),
                modelRate, state.guard().factor(), meanDelay, rate, burst, requested,
                transientCpu / (double) elapsed, used, state.correctionCpus(),
                state.sessionCost().cpuSecondsPerClient(fullCost) * 1e9, measurement.waitingThreads());
        lastDecision = decision;
        ControlTrace.period(name, decision, measurement);
        return decision;
    }

    /** The last period's computation; {@code null} before the first tick. */
    public ControlDecision lastDecision() {
        return lastDecision;
    }

    /** CPUs allocated as of the last refresh (gauge {@code tlsadmit_cpus_allocated}). */
    public double cpusAllocated() {
        return allocation.cpus();
    }

    /** CPUs the current arrivals need at the target utilization (gauge {@code tlsadmit_cpus_requested}); 0 before the first tick. */
    public double cpusRequested() {
        ControlDecision decision = lastDecision;
        return decision == null ? 0 : decision.cpusRequested();
    }

    public HandshakeCost cost() {
        return cost;
    }

    public CpuAllocation allocation() {
        return allocation;
    }

    /** The bucket behind this budget, for its counters (granted, refused, refilled). */
    public TokenBucket bucket() {
        return bucket;
    }

    // ---- attributes ---------------------------------------------------------------------------

    /** @param cpus CPUs to assume; 0 = detect (cgroups, affinity). Applies from the next tick. */
    public synchronized void setCpus(double cpus) {
        allocation.setCpus(cpus);
        replanStart();
    }

    public double getCpus() {
        return allocation.getCpus();
    }

    /** The share granted by an external CPU manager; 0 = none. Applies from the next tick. */
    public void setCpusAssigned(double cpus) {
        allocation.setCpusAssigned(cpus);
    }

    public double getCpusAssigned() {
        return allocation.getCpusAssigned();
    }

    /** Whether the CPUs planned for exclude what other processes use of the affinity mask; from the next tick. */
    public synchronized void setCpuCapacity(CpuCapacity capacity) {
        allocation.setCapacity(capacity);
        replanStart();
    }

    public CpuCapacity getCpuCapacity() {
        return allocation.getCapacity();
    }

    /** @param utilization share of the allocated CPUs to plan for; applies from the next tick */
    public synchronized void setTargetUtilization(double utilization) {
        if (!(utilization > 0 && utilization <= 1)) {
            throw new IllegalArgumentException(TARGET_UTILIZATION
                    + " must be a fraction of the allocated CPUs in (0, 1], was " + utilization);
        }
        this.targetUtilization = utilization;
        allocation.setHeadroom(1 - utilization);
        replanStart();
    }

    public double getTargetUtilization() {
        return targetUtilization;
    }

    /**
     * @param threadsPerCpu threads waiting for a CPU, per allocated CPU, that the guard treats as a queue at its target
     *                      (read from the full handshakes' stretch, {@link #handshakeCompleted(HandshakeKind, int,
     *                      long, long)}); 0 (the default) = the guard watches the wait for a worker alone; applies
     *                      from the next tick
     */
    public synchronized void setRunQueueTarget(double threadsPerCpu) {
        if (!(threadsPerCpu >= 0 && threadsPerCpu <= MAX_RUN_QUEUE_TARGET)) {
            throw new IllegalArgumentException(RUN_QUEUE_TARGET + " must be threads waiting for a CPU per allocated CPU"
                    + " in [0, " + (long) MAX_RUN_QUEUE_TARGET + "] (0 = off), was " + threadsPerCpu);
        }
        this.runQueueTarget = threadsPerCpu;
    }

    public double getRunQueueTarget() {
        return runQueueTarget;
    }

    /** @param millis how often the rate is recomputed; {@link ControlLoop} picks it up at its next run */
    public synchronized void setControlPeriod(long millis) {
        if (millis < 10 || millis > 60_000) {
            throw new IllegalArgumentException(CONTROL_PERIOD + " must be in [10, 60000] ms, was " + millis);
        }
        this.controlPeriodMillis = millis;
        reapply();
    }

    /** The name this budget goes by in its trace ({@link ControlTrace}): the connector's, as in the metrics' label. */
    public void setName(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    public long getControlPeriod() {
        return controlPeriodMillis;
    }

    /** Applies at once: operators change limits during incidents. */
    public synchronized void setMinFullHandshakesPerSecond(double rate) {
        checkRate(MIN_RATE, rate);
        this.minRate = rate;
        reapply();
    }

    public double getMinFullHandshakesPerSecond() {
        return minRate;
    }

    /** The cap; wins over the minimum if they cross. Applies at once. */
    public synchronized void setMaxFullHandshakesPerSecond(double rate) {
        checkRate(MAX_RATE, rate);
        this.maxRate = rate;
        reapply();
    }

    public double getMaxFullHandshakesPerSecond() {
        return maxRate;
    }

    /** @param burst tokens the bucket may save; 0 = the current rate times the queue-delay target */
    public synchronized void setFullHandshakeBurst(long burst) {
        if (burst < 0 || burst > TokenBucket.MAX_BURST) {
            throw new IllegalArgumentException(BURST + " must be a whole number of handshakes in [0, "
                    + TokenBucket.MAX_BURST + "] (0 = rate × queueDelayTarget), was " + burst);
        }
        this.burstSetting = burst;
        reapply();
    }

    public long getFullHandshakeBurst() {
        return burstSetting;
    }

    /** @param millis mean queue delay of new connections above which the guard cuts the rate */
    public synchronized void setQueueDelayTarget(long millis) {
        if (millis < 1 || millis > 60_000) {
            throw new IllegalArgumentException(QUEUE_DELAY_TARGET + " must be in [1, 60000] ms, was " + millis);
        }
        this.queueDelayTargetMillis = millis;
        reapply();
    }

    public long getQueueDelayTarget() {
        return queueDelayTargetMillis;
    }

    /**
     * @param micros CPU time of one full handshake assumed until one is measured (and until {@link
     *               #fullHandshakeCostMeasuredAtStart} measured one); before the first period it sets the starting
     *               rate at once, later it applies from the next tick
     */
    public synchronized void setInitialFullHandshakeCost(long micros) {
        if (micros < 1 || micros > 10_000_000) {
            throw new IllegalArgumentException(INITIAL_COST + " must be in [1, 10000000] µs, was " + micros);
        }
        this.initialCostMicros = micros;
        replanStart();
    }

    public long getInitialFullHandshakeCost() {
        return initialCostMicros;
    }

    /**
     * The server-side CPU time of a full handshake as measured before the first client, by the server's TLS warm-up
     * on its own key and engines. It replaces the configured initial estimate (a guess for a key nobody named)
     * until real clients' handshakes are measured, and is not counted as a handshake.
     *
     * <p>Why it matters: the starting rate is {@code cpus × target / cost}. At the 2 ms default and an RSA-4096
     * key costing 6–8 ms warm, a fresh one-CPU Tomcat started at 485 new handshakes per second with a burst to
     * match, and a flash crowd got 230 clients in under a second against a steady 85 (docs/benchmarks.md section
     * 4, 2026-11-25 afternoon). {@code nanos ≤ 0} is ignored.
     */
    public synchronized void fullHandshakeCostMeasuredAtStart(long nanos) {
        if (nanos > 0) {
            this.startCostNanos = nanos;
            replanStart();
        }
    }

    /** The start-up measurement of {@link #fullHandshakeCostMeasuredAtStart} in ns; 0 if none. */
    public long fullHandshakeCostAtStartNanos() {
        return startCostNanos;
    }

    // ---- internals ----------------------------------------------------------------------------

    private void reapply() {
        double rate = clamp(modelRate * state.guard().factor());
        bucket.setRatePerSecond(rate);
        bucket.setBurst(burstFor(rate));
    }

    private double clamp(double rate) {
        return Math.min(maxRate, Math.max(minRate, rate));
    }

    private long burstFor(double rate) {
        long configured = burstSetting;
        if (configured > 0) {
            return configured;
        }
        // A burst of B handshakes lands on the CPUs at once and the last of them starts about
        // B × cost / cpus later. Sizing B to the rate times the queue-delay target keeps that
        // delay near the target, so a full bucket cannot by itself trip the feedback guard.
        // While the JVM warms up the guard tolerates a longer queue; the burst grows with it, but at most
        // WARMUP_BURST_FACTOR times, since each handshake of a burst on a cold JVM costs several warm ones.
        double delayTarget = Math.min(ControlLaw.queueDelayTarget(lastMeasurement, queueDelayTargetMillis / 1000.0),
                WARMUP_BURST_FACTOR * queueDelayTargetMillis / 1000.0);
        double perDelayTarget = rate * delayTarget;
        return (long) Math.min(TokenBucket.MAX_BURST, Math.max(MIN_AUTO_BURST, Math.ceil(perDelayTarget)));
    }

    /** The cost assumed until a real client's full handshake is measured. */
    private double initialCostNanos() {
        long measuredAtStart = startCostNanos;
        return measuredAtStart > 0 ? measuredAtStart : initialCostMicros * 1_000.0;
    }

    /**
     * Before the first period the rate is the allocated CPUs at the target and the assumed cost: settings applied
     * after construction (the connector's attributes) and the start-up measurement replan it, so the first
     * clients meet the rate they configured, not the defaults'.
     */
    private void replanStart() {
        if (lastDecision == null && bucket != null) {
            modelRate = allocation.refresh().cpus() * targetUtilization * 1e9 / initialCostNanos();
            reapply();
        }
    }

    private static void checkRate(String attribute, double rate) {
        if (!(rate >= 0 && rate <= TokenBucket.MAX_RATE)) {
            throw new IllegalArgumentException(attribute + " must be a number of new full handshakes per second in [0, "
                    + (long) TokenBucket.MAX_RATE + "], was " + rate);
        }
    }

    private Totals totals() {
        return new Totals(cost.totalNanos(HandshakeKind.FULL), untimedFull.sum(),
                cost.totalNanos(HandshakeKind.RESUMED),
                reportedOtherCpu.sum(), read(processCpuTime), read(transientCpuTime), fullArrivals.sum(),
                resumedArrivals.sum(), queueDelaySum.sum(), queueDelayCount.sum(), bucket == null ? 0 : bucket.refusedCount(),
                bucket == null ? 0 : bucket.grantedCount(), stretchCpu.sum(), stretchWall.sum());
    }

    /** A cumulative clock's value, or -1 when there is none or it failed: control must go on without it. */
    private static long read(LongSupplier clock) {
        if (clock == null) {
            return -1;
        }
        try {
            return clock.getAsLong();
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** Cumulative counters at one tick; a period's activity is the difference of two (-1: a clock was unavailable). */
    private record Totals(long fullCpu, long untimedFull, long resumedCpu, long reportedOtherCpu, long processCpu,
                          long transientCpu, long fullArrivals, long resumedArrivals, long queueDelaySum,
                          long queueDelayCount,
                          long refused, long granted, long stretchCpu, long stretchWall) {

        Totals minus(Totals before) {
            return new Totals(fullCpu - before.fullCpu, untimedFull - before.untimedFull,
                    resumedCpu - before.resumedCpu,
                    reportedOtherCpu - before.reportedOtherCpu, difference(processCpu, before.processCpu),
                    difference(transientCpu, before.transientCpu),
                    fullArrivals - before.fullArrivals, resumedArrivals - before.resumedArrivals,
                    queueDelaySum - before.queueDelaySum, queueDelayCount - before.queueDelayCount,
                    refused - before.refused, granted - before.granted, stretchCpu - before.stretchCpu,
                    stretchWall - before.stretchWall);
        }

        private static long difference(long now, long before) {
            return now < 0 || before < 0 ? -1 : Math.max(0, now - before);
        }
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT,
                "AdmissionController[%s=%.1f/s now, %s=%.2f, %s=%d ms, %s=%s]",
                "fullHandshakesPerSecond", fullHandshakesPerSecond(), TARGET_UTILIZATION, targetUtilization,
                CONTROL_PERIOD, controlPeriodMillis, MAX_RATE, maxRate);
    }
}

package io.tlsadmit.admission.control;

import io.tlsadmit.admission.HandshakeKind;
import io.tlsadmit.admission.SimulatedClock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A deterministic model of a TLS server under an {@link AdmissionController}, in 1 ms steps.
 *
 * <p>Clients arrive evenly spaced at the configured rates. A new client asks the budget for a token
 * and is refused without cost when there is none; a resuming client never asks. Admitted work joins
 * one FIFO queue served by {@code cpus} CPUs of fluid capacity (a job may use several CPUs' worth of
 * a step), or with {@link #workerThreads} set, shared by that many workers at once as Tomcat's are.
 * When a handshake starts, its queue delay is reported; when it finishes, its true kind and CPU time
 * are, and the connection then issues a request of {@code requestCpuNanos}, reported as
 * "other" CPU when it finishes. Every knob may change mid-run, which is how load steps, CPU changes
 * and cost changes are simulated. Nothing here reads the real clock.
 */
final class SimulatedServer {

    static final long STEP_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** What happened in one control period, as the test observes it from outside the controller. */
    record Period(int index, long endNanos, ControlDecision decision, long newArrivals, long newAdmitted,
                  long newRefused, long resumedArrivals, long resumedAdmitted, double fullCpuSeconds,
                  double resumedCpuSeconds, double busyCpuSeconds, double cpuCapacitySeconds, long maxQueueDelayNanos,
                  long[] pageLatencyNanos) {

        double rate() {
            return decision.fullHandshakesPerSecond();
        }
    }

    private enum Work { FULL_HANDSHAKE, RESUMED_HANDSHAKE, REQUEST, PAGE }

    private static final class Job {
        final Work work;
        final long arrivalNanos;
        final long cpuNanos;
        long remainingNanos;
        boolean started;
        /** Pages the user still asks for after this job (session model); 0 ends the session. */
        int pagesLeft;
        /** When the user asked for the page this job serves (its handshake included), for the page latency. */
        long pageAskedNanos;

        Job(Work work, long arrivalNanos, long cpuNanos) {
            this.work = work;
            this.arrivalNanos = arrivalNanos;
            this.cpuNanos = cpuNanos;
            this.remainingNanos = cpuNanos;
            this.pageAskedNanos = arrivalNanos;
        }
    }

    /** A user thinking: at {@code dueNanos} asks for its next page, on a new connection when {@code reconnects}. */
    private record Think(long dueNanos, int pagesLeft, boolean reconnects) {
    }

    final SimulatedClock clock;
    final AdmissionController controller;
    private final long periodNanos;

    double cpus;
    double newPerSecond;
    double resumedPerSecond;
    long fullCostNanos;
    long resumedCostNanos;
    long requestCpuNanos;
    /** False models a gate that cannot measure handshake CPU (reports 0 = unknown). */
    boolean reportsHandshakeCpu = true;
    /** The handshake CPU the gate reports, as a multiple of the true one: a measurement that errs. */
    double reportedCostFactor = 1;
    /**
     * A cold JVM: the n-th full handshake costs {@code fullCostNanos × (1 + coldExtra × e^(−n / coldHandshakes))},
     * interpreted code until the JIT has compiled the crypto.
     */
    double coldExtra;
    double coldHandshakes = 1;
    /** CPUs taken first by JIT compilation, decaying with {@code transientSeconds}; reported as transient. */
    double transientCpus;
    double transientSeconds = 1;
    /** All CPU the server used, as a process CPU clock would show it. */
    private long processCpuTotal;
    /**
     * Measurement noise: the busy CPUs of each period read with an error of this many CPUs' standard deviation, made
     * as on the real server, where work is counted in the period it is recorded in rather than the one it ran in (a
     * handshake's CPU when it completes): the process CPU clock is read with a Gaussian error drawn anew at each tick,
     * so one period's excess is the next one's lack and averages over many periods stay right. On the real server the
     * busy CPUs per 250 ms period varied by 0.24 CPU around their mean (docs/benchmarks.md, section 4). Needs
     * {@link #poisson}.
     */
    double busyNoiseCpus;
    private long clockNoiseNanos;
    /** Seeded Poisson arrivals instead of evenly spaced ones. */
    java.util.Random poisson;
    /**
     * The session model, as in RUBiS: a new client, once its full handshake is done, asks for
     * {@code sessionPages} pages (geometric around this mean; 0 = the single request of {@code requestCpuNanos}), each
     * of {@code pageCpuNanos}, after an exponential think time of mean {@code thinkNanos}; a think time longer than
     * {@code keepAliveNanos} closes the connection, and the next page comes on a new one with a resumed handshake.
     * What a new client costs after its handshake thus arrives over seconds, not at once. Needs {@link #poisson}.
     */
    double sessionPages;
    long pageCpuNanos;
    long thinkNanos;
    long keepAliveNanos = Long.MAX_VALUE;
    private final java.util.PriorityQueue<Think> thinking = new java.util.PriorityQueue<>(
            java.util.Comparator.comparingLong(Think::dueNanos));
    private final List<Long> pageLatencies = new ArrayList<>();

    private final ArrayDeque<Job> queue = new ArrayDeque<>();
    /**
     * 0: one FIFO queue, each job served alone in turn. Otherwise the number of worker threads that share the CPUs
     * as the operating system does (Tomcat's {@code maxThreads}, 200 by default).
     */
    int workerThreads;
    private final List<Job> running = new ArrayList<>();

    private long fullHandshakesStarted;
    private long transientCpuTotal;
    private final long startNanos;
    private double newDue;
    private double resumedDue;
    private long nextTickNanos;
    private final List<Period> periods = new ArrayList<>();

    // per-period accumulators
    private long newArrivals;
    private long newAdmitted;
    private long newRefused;
    private long resumedArrivals;
    private long resumedAdmitted;
    private long fullCpu;
    private long resumedCpu;
    private long busyCpu;
    private long capacity;
    private long maxQueueDelay;

    /** Everything else in the test reads the controller's clock, which this server advances. */
    SimulatedServer(SimulatedClock clock, AdmissionController controller) {
        this.clock = clock;
        this.controller = controller;
        this.periodNanos = TimeUnit.MILLISECONDS.toNanos(controller.getControlPeriod());
        this.nextTickNanos = clock.getAsLong() + periodNanos;
        this.startNanos = clock.getAsLong();
        controller.setTransientCpuTime(() -> transientCpuTotal);
    }

    /** Arrivals due in this step at {@code perSecond}: evenly spaced, or Poisson with the seeded generator. */
    private int arrivals(double perSecond, boolean isNew) {
        double mean = perSecond * STEP_NANOS / 1e9;
        if (poisson != null) {
            // Knuth: fine for the means below 10 that 1 ms steps give.
            double limit = Math.exp(-mean);
            double product = poisson.nextDouble();
            int n = 0;
            while (product > limit) {
                n++;
                product *= poisson.nextDouble();
            }
            return n;
        }
        double due = (isNew ? newDue : resumedDue) + mean;
        int n = (int) due;
        if (isNew) {
            newDue = due - n;
        } else {
            resumedDue = due - n;
        }
        return n;
    }

    /** Gives the controller a process CPU clock (true CPU of everything) instead of reports of other CPU. */
    void useProcessCpuClock() {
        controller.setProcessCpuTime(() -> processCpuTotal + clockNoiseNanos);
    }

    /** Runs for whole control periods and returns them. */
    List<Period> runPeriods(int count) {
        int first = periods.size();
        while (periods.size() < first + count) {
            step();
        }
        return periods.subList(first, periods.size());
    }

    List<Period> allPeriods() {
        return periods;
    }

    double periodSeconds() {
        return periodNanos / 1e9;
    }

    private void step() {
        long now = clock.getAsLong();
        for (int i = arrivals(newPerSecond, true); i > 0; i--) {
            newArrivals++;
            controller.recordArrival(HandshakeKind.FULL);
            if (controller.tryAcquireFull()) {
                newAdmitted++;
                double cold = 1 + coldExtra * Math.exp(-fullHandshakesStarted++ / coldHandshakes);
                queue.add(new Job(Work.FULL_HANDSHAKE, now, Math.round(fullCostNanos * cold)));
            } else {
                newRefused++;
            }
        }
        for (int i = arrivals(resumedPerSecond, false); i > 0; i--) {
            resumedArrivals++;
            controller.recordArrival(HandshakeKind.RESUMED);
            // A resumption never asks the budget: admitted by construction, counted to prove it.
            resumedAdmitted++;
            queue.add(new Job(Work.RESUMED_HANDSHAKE, now, resumedCostNanos));
        }

        while (!thinking.isEmpty() && thinking.peek().dueNanos() <= now) {
            Think t = thinking.poll();
            if (t.reconnects()) {
                resumedArrivals++;
                resumedAdmitted++;
                controller.recordArrival(HandshakeKind.RESUMED);
                Job handshake = new Job(Work.RESUMED_HANDSHAKE, now, resumedCostNanos);
                handshake.pagesLeft = t.pagesLeft();
                queue.add(handshake);
            } else {
                Job page = new Job(Work.PAGE, now, pageCpuNanos);
                page.pagesLeft = t.pagesLeft() - 1;
                queue.add(page);
            }
        }

        long cpuLeft = Math.round(cpus * STEP_NANOS);
        capacity += cpuLeft;
        if (transientCpus > 0) {
            // The JIT's threads run beside the workers: their share of the CPUs comes off first.
            double elapsedSeconds = (now - startNanos) / 1e9;
            long jit = Math.min(cpuLeft, Math.round(transientCpus * Math.exp(-elapsedSeconds / transientSeconds) * STEP_NANOS));
            cpuLeft -= jit;
            busyCpu += jit;
            processCpuTotal += jit;
            transientCpuTotal += jit;
            controller.recordOtherCpu(jit);
        }
        if (workerThreads > 0) {
            serveShared(cpuLeft, now);
        } else {
            while (cpuLeft > 0 && !queue.isEmpty()) {
                Job job = queue.peek();
                start(job, now);
                long used = Math.min(cpuLeft, job.remainingNanos);
                cpuLeft -= used;
                run(job, used);
                if (job.remainingNanos == 0) {
                    queue.poll();
                    finish(job, now);
                }
            }
        }

        clock.advanceNanos(STEP_NANOS);
        if (clock.getAsLong() >= nextTickNanos) {
            nextTickNanos += periodNanos;
            if (busyNoiseCpus > 0) {
                // The difference of two independent errors has √2 times their deviation. Never so low that the
                // clock would run backwards over the period.
                long error = Math.round(poisson.nextGaussian() * busyNoiseCpus / Math.sqrt(2) * periodNanos);
                clockNoiseNanos = Math.max(clockNoiseNanos - busyCpu, error);
            }
            ControlDecision decision = controller.tick(clock.getAsLong());
            periods.add(new Period(periods.size(), clock.getAsLong(), decision, newArrivals, newAdmitted, newRefused,
                    resumedArrivals, resumedAdmitted, fullCpu / 1e9, resumedCpu / 1e9, busyCpu / 1e9, capacity / 1e9, maxQueueDelay,
                    pageLatencies.stream().mapToLong(Long::longValue).toArray()));
            pageLatencies.clear();
            newArrivals = newAdmitted = newRefused = resumedArrivals = resumedAdmitted = 0;
            fullCpu = resumedCpu = busyCpu = capacity = maxQueueDelay = 0;
        }
    }

    /**
     * Tomcat's way: up to {@link #workerThreads} jobs run at once and the operating system shares the CPUs among
     * them equally; a job waits in the queue only while every worker is busy. Overload then shows as every job
     * running slower long before any waits for a worker.
     */
    private void serveShared(long cpuLeft, long now) {
        while (running.size() < workerThreads && !queue.isEmpty()) {
            Job job = queue.poll();
            start(job, now);
            running.add(job);
        }
        while (cpuLeft > 0 && !running.isEmpty()) {
            long share = Math.max(1, cpuLeft / running.size());
            for (java.util.Iterator<Job> it = running.iterator(); it.hasNext() && cpuLeft > 0; ) {
                Job job = it.next();
                long used = Math.min(Math.min(share, cpuLeft), job.remainingNanos);
                cpuLeft -= used;
                run(job, used);
                if (job.remainingNanos == 0) {
                    it.remove();
                    finish(job, now);
                }
            }
        }
    }

    /** A worker takes the job: for a handshake, the end of its queue delay. */
    private void start(Job job, long now) {
        if (!job.started) {
            job.started = true;
            if (job.work == Work.FULL_HANDSHAKE || job.work == Work.RESUMED_HANDSHAKE) {
                long delay = now - job.arrivalNanos;
                controller.recordQueueDelay(delay);
                maxQueueDelay = Math.max(maxQueueDelay, delay);
            }
        }
    }

    private void run(Job job, long used) {
        job.remainingNanos -= used;
        busyCpu += used;
        processCpuTotal += used;
        if (job.work == Work.FULL_HANDSHAKE) {
            fullCpu += used;
        } else if (job.work == Work.RESUMED_HANDSHAKE) {
            resumedCpu += used;
        }
    }

    /** Pages after the first of a new session: geometric, mean {@code sessionPages} − 1. */
    private int pagesOfNewSession() {
        double p = 1 / sessionPages;
        return (int) Math.floor(Math.log(1 - poisson.nextDouble()) / Math.log(1 - p));
    }

    private void finish(Job job, long now) {
        switch (job.work) {
            case FULL_HANDSHAKE, RESUMED_HANDSHAKE -> {
                HandshakeKind kind = job.work == Work.FULL_HANDSHAKE ? HandshakeKind.FULL : HandshakeKind.RESUMED;
                controller.handshakeCompleted(kind, 0x0304,
                        reportsHandshakeCpu ? Math.round(job.cpuNanos * reportedCostFactor) : 0);
                if (sessionPages > 0) {
                    // The page the connection was opened for, then the rest of the session.
                    Job page = new Job(Work.PAGE, job.arrivalNanos, pageCpuNanos);
                    page.pagesLeft = job.work == Work.FULL_HANDSHAKE ? pagesOfNewSession() : job.pagesLeft - 1;
                    queue.add(page);
                } else if (requestCpuNanos > 0) {
                    queue.add(new Job(Work.REQUEST, now, requestCpuNanos));
                }
            }
            case REQUEST -> controller.recordOtherCpu(job.cpuNanos);
            case PAGE -> {
                controller.recordOtherCpu(job.cpuNanos);
                pageLatencies.add(now + STEP_NANOS - job.pageAskedNanos);
                if (job.pagesLeft > 0) {
                    long think = Math.round(-Math.log(1 - poisson.nextDouble()) * thinkNanos);
                    thinking.add(new Think(now + think, job.pagesLeft, think > keepAliveNanos));
                }
            }
        }
    }
}

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
 * a step). When a handshake starts, its queue delay is reported; when it finishes, its true kind and
 * CPU time are, and the connection then issues a request of {@code requestCpuNanos}, reported as
 * "other" CPU when it finishes. Every knob may change mid-run, which is how load steps, CPU changes
 * and cost changes are simulated. Nothing here reads the real clock.
 */
final class SimulatedServer {

    static final long STEP_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** What happened in one control period, as the test observes it from outside the controller. */
    record Period(int index, long endNanos, ControlDecision decision, long newArrivals, long newAdmitted,
                  long newRefused, long resumedArrivals, long resumedAdmitted, double fullCpuSeconds,
                  double resumedCpuSeconds, double busyCpuSeconds, double cpuCapacitySeconds, long maxQueueDelayNanos) {

        double rate() {
            return decision.fullHandshakesPerSecond();
        }
    }

    private enum Work { FULL_HANDSHAKE, RESUMED_HANDSHAKE, REQUEST }

    private static final class Job {
        final Work work;
        final long arrivalNanos;
        final long cpuNanos;
        long remainingNanos;
        boolean started;

        Job(Work work, long arrivalNanos, long cpuNanos) {
            this.work = work;
            this.arrivalNanos = arrivalNanos;
            this.cpuNanos = cpuNanos;
            this.remainingNanos = cpuNanos;
        }
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

    private final ArrayDeque<Job> queue = new ArrayDeque<>();
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
        newDue += newPerSecond * STEP_NANOS / 1e9;
        while (newDue >= 1) {
            newDue -= 1;
            newArrivals++;
            controller.recordArrival(HandshakeKind.FULL);
            if (controller.tryAcquireFull()) {
                newAdmitted++;
                queue.add(new Job(Work.FULL_HANDSHAKE, now, fullCostNanos));
            } else {
                newRefused++;
            }
        }
        resumedDue += resumedPerSecond * STEP_NANOS / 1e9;
        while (resumedDue >= 1) {
            resumedDue -= 1;
            resumedArrivals++;
            controller.recordArrival(HandshakeKind.RESUMED);
            // A resumption never asks the budget: admitted by construction, counted to prove it.
            resumedAdmitted++;
            queue.add(new Job(Work.RESUMED_HANDSHAKE, now, resumedCostNanos));
        }

        long cpuLeft = Math.round(cpus * STEP_NANOS);
        capacity += cpuLeft;
        while (cpuLeft > 0 && !queue.isEmpty()) {
            Job job = queue.peek();
            if (!job.started) {
                job.started = true;
                if (job.work != Work.REQUEST) {
                    long delay = now - job.arrivalNanos;
                    controller.recordQueueDelay(delay);
                    maxQueueDelay = Math.max(maxQueueDelay, delay);
                }
            }
            long used = Math.min(cpuLeft, job.remainingNanos);
            job.remainingNanos -= used;
            cpuLeft -= used;
            busyCpu += used;
            if (job.work == Work.FULL_HANDSHAKE) {
                fullCpu += used;
            } else if (job.work == Work.RESUMED_HANDSHAKE) {
                resumedCpu += used;
            }
            if (job.remainingNanos == 0) {
                queue.poll();
                finish(job, now);
            }
        }

        clock.advanceNanos(STEP_NANOS);
        if (clock.getAsLong() >= nextTickNanos) {
            nextTickNanos += periodNanos;
            ControlDecision decision = controller.tick(clock.getAsLong());
            periods.add(new Period(periods.size(), clock.getAsLong(), decision, newArrivals, newAdmitted, newRefused,
                    resumedArrivals, resumedAdmitted, fullCpu / 1e9, resumedCpu / 1e9, busyCpu / 1e9, capacity / 1e9, maxQueueDelay));
            newArrivals = newAdmitted = newRefused = resumedArrivals = resumedAdmitted = 0;
            fullCpu = resumedCpu = busyCpu = capacity = maxQueueDelay = 0;
        }
    }

    private void finish(Job job, long now) {
        switch (job.work) {
            case FULL_HANDSHAKE, RESUMED_HANDSHAKE -> {
                HandshakeKind kind = job.work == Work.FULL_HANDSHAKE ? HandshakeKind.FULL : HandshakeKind.RESUMED;
                controller.handshakeCompleted(kind, 0x0304, reportsHandshakeCpu ? job.cpuNanos : 0);
                if (requestCpuNanos > 0) {
                    queue.add(new Job(Work.REQUEST, now, requestCpuNanos));
                }
            }
            case REQUEST -> controller.recordOtherCpu(job.cpuNanos);
        }
    }
}

package io.tlsadmit.admission.control;

import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Runs {@link AdmissionController#tick(long)} every control period on one daemon thread.
 *
 * <p>The controller itself has no thread so that tests drive it with a simulated clock; this is
 * the production driver. It reschedules after each run with the period read afresh, so a changed
 * {@code controlPeriod} takes effect without a restart, and a failing tick is logged and the loop
 * goes on: a server that stops adapting is better than one that stops admitting.
 */
public final class ControlLoop implements AutoCloseable {

    /** The control thread's name; the kernel shows its first 15 characters ({@code /proc/PID/task/TID/comm}). */
    public static final String THREAD_NAME = "tlsadmit-admission-control";

    private static final System.Logger LOG = System.getLogger(ControlLoop.class.getName());

    private final AdmissionController controller;
    private final LongSupplier nanoClock;
    private final ScheduledExecutorService scheduler;
    private volatile boolean closed;

    /** @param nanoClock the clock the controller was built with */
    public ControlLoop(AdmissionController controller, LongSupplier nanoClock) {
        this.controller = Objects.requireNonNull(controller, "controller");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
        this.scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, THREAD_NAME);
            thread.setDaemon(true);
            return thread;
        });
    }

    public ControlLoop(AdmissionController controller) {
        this(controller, System::nanoTime);
    }

    /** Schedules the first tick one period from now. */
    public void start() {
        scheduleNext();
    }

    private void scheduleNext() {
        if (!closed) {
            try {
                scheduler.schedule(this::runOnce, controller.getControlPeriod(), TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                // closed between the check and the schedule: nothing left to do
            }
        }
    }

    private void runOnce() {
        try {
            controller.tick(nanoClock.getAsLong());
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "admission control tick failed; keeping the previous budget", e);
        } finally {
            scheduleNext();
        }
    }

    /** Stops ticking; the controller keeps its last budget and releases the files it reads each tick. */
    @Override
    public void close() {
        closed = true;
        scheduler.shutdownNow();
        controller.releaseFiles(); // after a tick under way: the controller's lock
    }
}

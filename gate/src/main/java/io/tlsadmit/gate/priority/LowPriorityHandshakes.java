package io.tlsadmit.gate.priority;

import io.tlsadmit.admission.cpu.CpuList;
import io.tlsadmit.gate.ThreadCpuClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Runs the cryptography of new full handshakes on threads at a lower scheduling priority (a higher nice value),
 * so that on a busy CPU the work of clients already admitted — requests on established connections, resumptions —
 * runs first and a full handshake takes what is left.
 *
 * <p>Why: the budget admits as many new clients as the CPUs can serve on average, but within a second the
 * scheduler shares a CPU equally between a worker signing a handshake (several ms of RSA) and a worker serving a
 * page, so pages of admitted users wait behind the signatures of users who have not seen a page yet. Ordering the
 * worker queue does not help once all of them are running; only the kernel's scheduler can give one kind of work
 * precedence.
 *
 * <p>The caller (a server's worker, inside a handshake) hands over the engine's delegated tasks and waits: the
 * engine's state machine needs them done before its next step, and waiting keeps the adapter's code synchronous
 * as the server's is. Waiting holds the worker thread, so at most {@code maxWaiting} callers wait at once; beyond
 * that the work runs on the caller's thread at its own priority, as it would without this class.
 *
 * <p>Threads: one per CPU the host has (not the CPUs this process may use now: the allocation grows and shrinks,
 * and a pool sized for one CPU would cap handshakes at one CPU after a change to two). Where a thread's priority
 * cannot be lowered (no {@code /proc/thread-self}, no {@code renice}), {@link #start} says so and every call runs on
 * the caller's thread.
 */
public final class LowPriorityHandshakes implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(LowPriorityHandshakes.class.getName());

    private final int nice;
    private final int maxWaiting;
    private final ThreadPoolExecutor pool;
    private final AtomicInteger waiting = new AtomicInteger();
    private final LongAdder lowPriority = new LongAdder();
    private final LongAdder overflow = new LongAdder();
    private final AtomicReference<String> unavailable = new AtomicReference<>();

    private LowPriorityHandshakes(String name, int nice, int threads, int maxWaiting) {
        this.nice = nice;
        this.maxWaiting = maxWaiting;
        List<Long> ids = new CopyOnWriteArrayList<>();
        CountDownLatch started = new CountDownLatch(threads);
        CountDownLatch lowered = new CountDownLatch(1);
        AtomicInteger index = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                task -> {
                    Thread thread = new Thread(() -> {
                        try {
                            ids.add(ThreadNiceness.currentThreadId());
                        } catch (IOException | RuntimeException e) {
                            unavailable.compareAndSet(null, "cannot find a thread's id: " + e.getMessage());
                        }
                        started.countDown();
                        awaitUninterruptibly(lowered); // no work before its priority is what it should be
                        task.run();
                    }, name + "-full-handshake-" + index.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        pool.prestartAllCoreThreads();
        try {
            if (!ThreadNiceness.isSupported()) {
                unavailable.compareAndSet(null, "this system has no /proc/thread-self (not Linux 3.17+)");
            } else if (!started.await(30, TimeUnit.SECONDS)) {
                unavailable.compareAndSet(null, "its threads did not start within 30 s");
            } else if (unavailable.get() == null) {
                ThreadNiceness.lower(nice, ids);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            unavailable.compareAndSet(null, "interrupted while its threads started");
        } catch (IOException | RuntimeException e) {
            unavailable.compareAndSet(null, "cannot lower its threads to nice " + nice + ": " + e.getMessage());
        } finally {
            lowered.countDown();
        }
    }

    /**
     * Starts the threads and lowers each to {@code nice} before it takes work.
     *
     * @param name       the threads' name prefix (the connector's)
     * @param nice       1 to 19 (19: the lowest priority)
     * @param maxWaiting how many callers may wait at once before work runs on the caller's thread
     */
    public static LowPriorityHandshakes start(String name, int nice, int maxWaiting) {
        if (nice <= ThreadNiceness.MIN || nice > ThreadNiceness.MAX) {
            throw new IllegalArgumentException("nice " + nice + " out of [1, " + ThreadNiceness.MAX + "]");
        }
        if (maxWaiting < 1) {
            throw new IllegalArgumentException("maxWaiting " + maxWaiting + " < 1");
        }
        LowPriorityHandshakes handshakes = new LowPriorityHandshakes(name, nice, hostCpus(), maxWaiting);
        String why = handshakes.unavailable.get();
        if (why != null) {
            LOG.log(System.Logger.Level.WARNING, "tlsadmit: " + name + ": full handshakes run at the workers' priority: "
                    + why);
        }
        return handshakes;
    }

    /**
     * How a step handed over went: how long it queued for one of the threads, then the CPU and the wall time it
     * took there. The queue is the new clients' wait for the CPU that this class keeps out of the run queue, so the
     * adaptive budget's guard must see it; the wall time over the CPU time is the run queue the thread met.
     */
    public record Handover(long queuedNanos, long cpuNanos, long wallNanos) {
    }

    /**
     * Runs {@code work} on a low-priority thread and waits for it.
     *
     * @return how it went ({@link Handover#cpuNanos} 0 where the JVM does not measure thread CPU time); or null if it
     *         was not run: the threads are unavailable, closed, or {@code maxWaiting} callers already wait. The
     *         caller then runs it itself.
     * @throws RuntimeException what {@code work} threw
     */
    public Handover run(Runnable work) {
        if (unavailable.get() != null) {
            return null;
        }
        if (waiting.incrementAndGet() > maxWaiting) {
            waiting.decrementAndGet();
            overflow.increment();
            return null;
        }
        try {
            Future<Handover> done;
            long submitted = System.nanoTime();
            try {
                done = pool.submit(() -> {
                    long started = System.nanoTime();
                    long cpuStart = ThreadCpuClock.nanos();
                    work.run();
                    long cpu = ThreadCpuClock.nanos() - cpuStart;
                    return new Handover(started - submitted, cpu, System.nanoTime() - started);
                });
            } catch (RejectedExecutionException closed) {
                return null;
            }
            Handover step = awaitUninterruptibly(done);
            lowPriority.increment();
            return step;
        } finally {
            waiting.decrementAndGet();
        }
    }

    /**
     * The engine's state depends on the work being finished before the caller goes on, so an interrupt (a server
     * stopping) does not cut the wait short; it is kept for the caller.
     */
    private static Handover awaitUninterruptibly(Future<Handover> done) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return done.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof RuntimeException runtime) {
                        throw runtime;
                    }
                    if (cause instanceof Error error) {
                        throw error;
                    }
                    throw new IllegalStateException(cause);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Why the work runs on callers' threads; empty when the low-priority threads work. */
    public java.util.Optional<String> unavailableReason() {
        return java.util.Optional.ofNullable(unavailable.get());
    }

    public int nice() {
        return nice;
    }

    public int threads() {
        return pool.getCorePoolSize();
    }

    /** Handshake steps run on the low-priority threads so far. */
    public long lowPriorityRuns() {
        return lowPriority.sum();
    }

    /** Steps handed over that wait for a thread now. */
    public int queuedSteps() {
        return pool.getQueue().size();
    }

    /** Handshake steps left to their caller because {@code maxWaiting} callers already waited. */
    public long overflowRuns() {
        return overflow.sum();
    }

    @Override
    public void close() {
        pool.shutdown();
    }

    /** The CPUs the kernel can ever bring online (a CPU brought online later must not find the pool too small). */
    static int hostCpus() {
        try {
            return CpuList.parse(Files.readString(Path.of("/sys/devices/system/cpu/possible")).strip()).size();
        } catch (IOException | RuntimeException e) {
            return Runtime.getRuntime().availableProcessors(); // not Linux, or no sysfs: what the JVM sees
        }
    }
}

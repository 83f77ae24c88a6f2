package io.tlsadmit.admission.cpu;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * How long this process's threads have waited for a CPU while runnable, as a cumulative clock in nanoseconds: the
 * second field ({@code run_delay}) of {@code /proc/self/task/<tid>/schedstat}, summed over the threads. Its increase
 * over a period divided by the period is the mean number of this process's threads waiting in the CPUs' run queues.
 *
 * <p>Why it matters: Tomcat's workers share the CPUs, so a server that admits more than its CPUs
 * serve does not show connections waiting for a worker but every runnable worker waiting for a CPU, and each page
 * taking that many times longer. On one CPU, RUBiS browsing, RSA-4096 (2026-11-26, {@code docs/benchmarks.md}
 * section 4, "midnight"), 0.8 and 1.8 threads waited on average at half and four fifths of the knee (page p99
 * 42–45 ms), 3.6 at 8× with the CPU at 90 % (87 ms), 5.7 at 94 % (139 ms) and 16 at 99 % (317 ms).
 *
 * <p>Each thread's own increase is added, so that a thread that exits (an idle worker let go) takes nothing away
 * and a new one (a worker added under load) adds what it waited since it started. The kernel keeps
 * {@code schedstat} only with {@code CONFIG_SCHED_INFO}; without it, or off Linux, {@link #available()} is false.
 *
 * <p>Who reads it: the metric {@code tlsadmit_cpu_run_queue_wait_seconds_total}, when scraped. The controller's
 * guard reads the run queue from its full handshakes' stretch instead ({@code PeriodMeasurement.waitingThreads}),
 * which costs nothing, where this walk costs 1.7 ms of CPU at 200 threads; on the real server the two agreed per
 * control period with a correlation of 0.97, the stretch about 10 % lower (2026-12-07). The wait is the process's,
 * so there is one reader for it ({@link #process()}), and a reading within {@link #REREAD_NANOS} of the last returns
 * the last total instead of walking the files again. Thread-safe.
 */
public final class RunQueueWait implements LongSupplier {

    /** A fifth of the default control period: scrapes close together share one walk. */
    static final long REREAD_NANOS = 50_000_000;

    private static final RunQueueWait PROCESS = new RunQueueWait(Path.of("/proc/self/task"), System::nanoTime);

    private final Path tasks;
    private final LongSupplier nanoClock;
    private final Map<String, Long> lastByTask = new HashMap<>();
    private final Map<String, Long> seen = new HashMap<>();
    private long total;
    private long readAt;
    private boolean read;

    /** @param tasks a directory laid out like {@code /proc/self/task} */
    RunQueueWait(Path tasks, LongSupplier nanoClock) {
        this.tasks = tasks;
        this.nanoClock = nanoClock;
    }

    /** This process's threads, on the real {@code /proc}: the one reader of the process. */
    public static RunQueueWait process() {
        return PROCESS;
    }

    /** Whether this system shows the threads' run-queue waits (Linux with scheduler statistics). */
    public boolean available() {
        try (DirectoryStream<Path> all = Files.newDirectoryStream(tasks)) {
            for (Path task : all) {
                return runDelay(task.resolve("schedstat")) >= 0;
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return false;
    }

    @Override
    public synchronized long getAsLong() {
        long now = nanoClock.getAsLong();
        if (read && now - readAt < REREAD_NANOS) {
            return total;
        }
        read = true;
        readAt = now;
        seen.clear();
        long added = 0;
        try (DirectoryStream<Path> all = Files.newDirectoryStream(tasks)) {
            for (Path task : all) {
                long delay = runDelay(task.resolve("schedstat"));
                if (delay >= 0) {
                    String tid = task.getFileName().toString();
                    seen.put(tid, delay);
                    Long last = lastByTask.get(tid);
                    added += Math.max(0, delay - (last == null ? 0 : last));
                }
            }
        } catch (IOException | RuntimeException e) {
            return total; // the listing failed: this reading adds nothing, the next one counts from the last
        }
        lastByTask.clear();
        lastByTask.putAll(seen);
        total += added;
        return total;
    }

    /** The run_delay field in nanoseconds, -1 when the file is gone or not in that form. */
    static long runDelay(Path schedstat) {
        String text;
        try {
            text = Files.readString(schedstat);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        int first = text.indexOf(' ');
        if (first < 0) {
            return -1;
        }
        int second = text.indexOf(' ', first + 1);
        try {
            return Long.parseLong(text.substring(first + 1, second < 0 ? text.strip().length() : second).strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}

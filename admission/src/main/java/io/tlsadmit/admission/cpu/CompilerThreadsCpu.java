package io.tlsadmit.admission.cpu;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * CPU time spent by this JVM's JIT compiler threads, as a cumulative clock in nanoseconds, read from
 * {@code /proc/self/task/<tid>/schedstat} (or {@code stat}, below) of the threads HotSpot names
 * {@code C1 CompilerThread…} and {@code C2 CompilerThread…} (the kernel keeps 15 characters of a name).
 *
 * <p>Why per-thread CPU and not {@code CompilationMXBean.getTotalCompilationTime()}: that is the wall
 * time of compilations, which on a busy CPU (exactly when it matters, a cold instance under a flash
 * crowd) counts the time a compiler thread waited for a CPU as well. The threads are found by listing
 * the tasks every {@link #RESCAN_NANOS} (HotSpot adds and removes compiler threads as the compile
 * queue grows and shrinks) and only their stat files are read on the other calls; a thread that exits
 * takes its CPU out of the sum, which the controller reads as no transient CPU in that period. A listing
 * reads the name only of a thread it has not seen before: a Tomcat has a hundred threads or more, and
 * reading every name every 4 s was, on 2026-11-28, a fifth of the control loop's CPU. HotSpot's compiler
 * threads are started by compiler threads, so a new one has the name from its first moment, and a thread
 * named otherwise when first seen is not one. The compiler threads' files are kept open while the thread is listed
 * ({@link ProcFile}).
 *
 * <p>With a {@link TaskCpuClock} (native-peek's, when it loads) a compiler thread is read through that clock, one
 * system call, and its files are not opened: the same run time without a file read and parse per thread each period.
 * A thread the clock cannot read when first listed (a {@code /proc} of another PID namespace than this process's, whose
 * task ids the kernel does not take for ours) is read through its files as below.
 *
 * <p>Why {@code schedstat}: its first field is the thread's run time in nanoseconds, where {@code stat} has
 * {@code utime + stime} in 10 ms ticks — a tick is 4 % of a CPU over a 250 ms period, per thread — and the kernel
 * writes 3 numbers rather than 52 fields (on 2026-11-28, two compiler threads read once a period cost 37–39 µs of CPU
 * against 55–58 µs through {@code stat}). A kernel that keeps no scheduler statistics (without
 * {@code CONFIG_SCHED_INFO}; on older kernels also with it, while schedstats and delay accounting are off) writes
 * {@code 0 0 0} there, or has no such file: a thread whose {@code schedstat} reads no run time when first listed is
 * read through {@code stat}.
 *
 * <p>Not thread-safe: one control thread reads it.
 */
public final class CompilerThreadsCpu implements LongSupplier, AutoCloseable {

    static final long RESCAN_NANOS = TimeUnit.SECONDS.toNanos(4);

    private final Path tasks;
    private final LongSupplier nanoClock;
    /** Reads a thread by its task id; {@code null}: through its files. */
    private final TaskCpuClock taskClock;
    /** The compiler threads' files, kept open ({@link ProcFile}) while the thread is listed. */
    private Map<String, ThreadClock> compilerThreads = Map.of();
    /** Every thread seen at the last listing, by task id: whether it is a compiler thread. */
    private Map<String, Boolean> known = new HashMap<>();
    private long scannedAt;
    private boolean scanned;

    /** This process's threads, on the real {@code /proc}, each read through its files. */
    public CompilerThreadsCpu() {
        this(null);
    }

    /**
     * This process's threads, on the real {@code /proc}.
     *
     * @param taskClock reads a thread by its task id (native-peek's {@code threadCpuNanos}); {@code null}: through
     *                  its files
     */
    public CompilerThreadsCpu(TaskCpuClock taskClock) {
        this(Path.of("/proc/self/task"), System::nanoTime, taskClock);
    }

    /** @param tasks a directory laid out like {@code /proc/self/task}, each thread read through its files */
    public CompilerThreadsCpu(Path tasks, LongSupplier nanoClock) {
        this(tasks, nanoClock, null);
    }

    /**
     * @param tasks     a directory laid out like {@code /proc/self/task}
     * @param taskClock reads a thread by its task id; {@code null}: through its files
     */
    public CompilerThreadsCpu(Path tasks, LongSupplier nanoClock, TaskCpuClock taskClock) {
        this.tasks = tasks;
        this.nanoClock = nanoClock;
        this.taskClock = taskClock;
    }

    /** Whether this system shows per-thread CPU at all (Linux); without it the clock reads 0. */
    public boolean available() {
        return Files.isDirectory(tasks);
    }

    @Override
    public long getAsLong() {
        long now = nanoClock.getAsLong();
        if (!scanned || now - scannedAt >= RESCAN_NANOS) {
            compilerThreads = scan();
            scannedAt = now;
            scanned = true;
        }
        long nanos = 0;
        for (ThreadClock thread : compilerThreads.values()) {
            nanos += thread.cpuNanos();
        }
        return nanos;
    }

    /** Releases the files kept open; a later call lists the threads and opens them again. */
    @Override
    public void close() {
        compilerThreads.values().forEach(ThreadClock::close);
        compilerThreads = Map.of();
        scanned = false;
    }

    private Map<String, ThreadClock> scan() {
        Map<String, ThreadClock> found = new HashMap<>();
        Map<String, Boolean> seen = new HashMap<>();
        try (DirectoryStream<Path> all = Files.newDirectoryStream(tasks)) {
            for (Path task : all) {
                String id = task.getFileName().toString();
                Boolean compiler = known.get(id);
                if (compiler == null) {
                    compiler = isCompilerThread(read(task.resolve("comm")));
                }
                seen.put(id, compiler);
                if (compiler) {
                    ThreadClock open = compilerThreads.get(id);
                    found.put(id, open != null ? open : ThreadClock.of(task, taskClock));
                }
            }
        } catch (IOException | RuntimeException e) {
            found.values().forEach(ThreadClock::close);
            close();
            known = new HashMap<>();
            return Map.of(); // no /proc (not Linux) or a race with exiting threads: no transient CPU known
        }
        compilerThreads.forEach((id, thread) -> {
            if (!found.containsKey(id)) {
                thread.close(); // the thread has exited
            }
        });
        known = seen;
        return found;
    }

    /** Whether a thread with this name as the kernel shows it ({@code comm}, 15 characters) is a JIT compiler's. */
    public static boolean isCompilerThread(String kernelName) {
        return kernelName.startsWith("C1 CompilerThre") || kernelName.startsWith("C2 CompilerThre");
    }

    /** utime + stime of one task, 0 if it has exited. */
    static long cpuTicks(ProcFile stat) {
        try {
            return TaskStat.parse(stat.read()).cpuTicks();
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** The run time in a {@code schedstat} file's first field, 0 if the thread has exited or it reads otherwise. */
    static long runNanos(ProcFile schedstat) {
        try {
            String text = schedstat.read();
            int end = text.indexOf(' ');
            return end > 0 ? Long.parseLong(text, 0, end, 10) : 0;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /**
     * One compiler thread's CPU clock: the {@link TaskCpuClock} when there is one and it reads the thread, else its
     * {@code schedstat} when that shows run time, else its {@code stat}.
     */
    private record ThreadClock(ProcFile file, boolean schedstat, TaskCpuClock clock, int tid) {

        static ThreadClock of(Path task, TaskCpuClock clock) {
            if (clock != null) {
                int tid = taskId(task);
                if (tid > 0 && clock.cpuNanos(tid) >= 0) {
                    return new ThreadClock(null, false, clock, tid);
                }
            }
            ProcFile schedstat = new ProcFile(task.resolve("schedstat"));
            if (runNanos(schedstat) > 0) {
                return new ThreadClock(schedstat, true, null, 0);
            }
            schedstat.close();
            return new ThreadClock(new ProcFile(task.resolve("stat")), false, null, 0);
        }

        long cpuNanos() {
            if (clock != null) {
                return Math.max(0, clock.cpuNanos(tid)); // negative: the thread has exited
            }
            return schedstat ? runNanos(file) : cpuTicks(file) * TaskStat.NANOS_PER_TICK;
        }

        void close() {
            if (file != null) {
                file.close();
            }
        }
    }

    /** The task id a {@code /proc/self/task} entry is named by; 0 when the name is not one. */
    private static int taskId(Path task) {
        try {
            return Integer.parseInt(task.getFileName().toString());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file).trim();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}

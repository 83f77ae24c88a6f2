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
 * {@code /proc/self/task/<tid>/stat} of the threads HotSpot names {@code C1 CompilerThread…} and
 * {@code C2 CompilerThread…} (the kernel keeps 15 characters of a name).
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
 * named otherwise when first seen is not one. The stat files of the compiler threads are kept open while the
 * thread is listed ({@link ProcFile}).
 *
 * <p>Not thread-safe: one control thread reads it.
 */
public final class CompilerThreadsCpu implements LongSupplier, AutoCloseable {

    static final long RESCAN_NANOS = TimeUnit.SECONDS.toNanos(4);

    private final Path tasks;
    private final LongSupplier nanoClock;
    /** The compiler threads' stat files, kept open ({@link ProcFile}) while the thread is listed. */
    private Map<String, ProcFile> compilerThreads = Map.of();
    /** Every thread seen at the last listing, by task id: whether it is a compiler thread. */
    private Map<String, Boolean> known = new HashMap<>();
    private long scannedAt;
    private boolean scanned;

    /** This process's threads, on the real {@code /proc}. */
    public CompilerThreadsCpu() {
        this(Path.of("/proc/self/task"), System::nanoTime);
    }

    /** @param tasks a directory laid out like {@code /proc/self/task} */
    public CompilerThreadsCpu(Path tasks, LongSupplier nanoClock) {
        this.tasks = tasks;
        this.nanoClock = nanoClock;
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
        long ticks = 0;
        for (ProcFile stat : compilerThreads.values()) {
            ticks += cpuTicks(stat);
        }
        return ticks * TaskStat.NANOS_PER_TICK;
    }

    /** Releases the files kept open; a later call lists the threads and opens them again. */
    @Override
    public void close() {
        compilerThreads.values().forEach(ProcFile::close);
        compilerThreads = Map.of();
        scanned = false;
    }

    private Map<String, ProcFile> scan() {
        Map<String, ProcFile> found = new HashMap<>();
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
                    ProcFile open = compilerThreads.get(id);
                    found.put(id, open != null ? open : new ProcFile(task.resolve("stat")));
                }
            }
        } catch (IOException | RuntimeException e) {
            found.values().forEach(ProcFile::close);
            close();
            known = new HashMap<>();
            return Map.of(); // no /proc (not Linux) or a race with exiting threads: no transient CPU known
        }
        compilerThreads.forEach((id, file) -> {
            if (!found.containsKey(id)) {
                file.close(); // the thread has exited
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

    private static String read(Path file) {
        try {
            return Files.readString(file).trim();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}

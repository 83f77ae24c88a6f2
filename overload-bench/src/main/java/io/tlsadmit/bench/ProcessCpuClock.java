package io.tlsadmit.bench;

import io.tlsadmit.admission.control.ControlLoop;
import io.tlsadmit.admission.cpu.CompilerThreadsCpu;
import io.tlsadmit.admission.cpu.TaskStat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * CPU time of another process (user + system, all threads), read from its {@code /proc} stat file, and per thread
 * from its {@code task} directory, for the part each {@link ThreadRole} took.
 */
final class ProcessCpuClock {

    /**
     * The roles a server's CPU is split into, by the name the kernel shows (15 characters of it). Why these:
     * a cost per connection compared between servers is only as good as what else their CPU did in the same
     * seconds, and the JIT compiler (still busy minutes after a start) and the adaptive budget's control loop are the
     * two things that do not scale with connections.
     */
    enum ThreadRole {
        COMPILER, GC, CONTROL,
        /** Everything else, and threads that exited between two readings. */
        SERVER;

        /** What the kernel keeps of a thread's name. */
        private static final int KERNEL_NAME_LENGTH = 15;
        private static final String CONTROL_NAME = ControlLoop.THREAD_NAME.substring(0, KERNEL_NAME_LENGTH);

        static ThreadRole of(String kernelName) {
            if (CompilerThreadsCpu.isCompilerThread(kernelName)) {
                return COMPILER;
            }
            if (kernelName.startsWith("GC Thread") || kernelName.startsWith("G1 ")
                    || kernelName.startsWith("VM Thread")) {
                return GC;
            }
            return kernelName.startsWith(CONTROL_NAME) ? CONTROL : SERVER;
        }
    }

    /**
     * CPU nanoseconds of the process and of each thread with a role other than {@link ThreadRole#SERVER}, at one
     * moment. Why nanoseconds for the threads: the control loop uses 2–3 ms of CPU a second, which the 10 ms ticks of
     * a thread's {@code stat} show as 2.0 or 2.7 ms/s over a 15 s round; its {@code schedstat} run time resolves it.
     * The process's own counter stays in ticks (there is no process {@code schedstat}): over a round it is thousands of
     * them.
     */
    record ThreadTimes(long processNanos, Map<String, Long> nanosByThread, Map<String, ThreadRole> roleByThread) {

        /**
         * Seconds of CPU per role between {@code before} and this reading. A thread that exited in between is lost
         * from its role and counted in {@link ThreadRole#SERVER} (the process's own counter keeps it); a thread
         * that started counts all its CPU.
         */
        Map<ThreadRole, Double> secondsSince(ThreadTimes before) {
            Map<ThreadRole, Long> nanos = new LinkedHashMap<>();
            long grouped = 0;
            for (Map.Entry<String, Long> e : nanosByThread.entrySet()) {
                ThreadRole role = roleByThread.get(e.getKey());
                if (role == ThreadRole.SERVER) {
                    continue;
                }
                long delta = e.getValue() - before.nanosByThread.getOrDefault(e.getKey(), 0L);
                nanos.merge(role, delta, Long::sum);
                grouped += delta;
            }
            nanos.put(ThreadRole.SERVER, processNanos - before.processNanos - grouped);
            Map<ThreadRole, Double> seconds = new LinkedHashMap<>();
            for (ThreadRole role : ThreadRole.values()) {
                seconds.put(role, nanos.getOrDefault(role, 0L) / 1e9);
            }
            return seconds;
        }
    }

    private final Path stat;
    private final Path tasks;

    ProcessCpuClock(long pid) {
        this.stat = TaskStat.ofProcess(pid);
        this.tasks = stat.resolveSibling("task");
    }

    /** Seconds of CPU used so far. */
    double seconds() {
        try {
            return TaskStat.read(stat).cpuSeconds();
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot read " + stat + ": " + e.getMessage(), e);
        }
    }

    /**
     * The process's CPU and that of every live thread with a role other than server work: its {@code schedstat} run
     * time, or its {@code stat} ticks where the kernel keeps no scheduler statistics.
     */
    ThreadTimes threads() {
        Map<String, Long> nanos = new HashMap<>();
        Map<String, ThreadRole> roles = new HashMap<>();
        try (DirectoryStream<Path> all = Files.newDirectoryStream(tasks)) {
            for (Path task : all) {
                String id = task.getFileName().toString();
                try {
                    ThreadRole role = ThreadRole.of(Files.readString(task.resolve("comm"), StandardCharsets.UTF_8)
                            .strip());
                    roles.put(id, role);
                    if (role != ThreadRole.SERVER) {
                        nanos.put(id, threadNanos(task));
                    }
                } catch (IOException e) {
                    // exited between the listing and the read: the process's counter still has its time
                    roles.remove(id);
                }
            }
            return new ThreadTimes(TaskStat.read(stat).cpuTicks() * TaskStat.NANOS_PER_TICK, nanos, roles);
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot read " + tasks + ": " + e.getMessage(), e);
        }
    }

    private static long threadNanos(Path task) throws IOException {
        String schedstat = Files.readString(task.resolve("schedstat"), StandardCharsets.US_ASCII);
        int end = schedstat.indexOf(' ');
        long run = end > 0 ? Long.parseLong(schedstat, 0, end, 10) : 0;
        return run > 0 ? run : TaskStat.read(task.resolve("stat")).cpuTicks() * TaskStat.NANOS_PER_TICK;
    }
}

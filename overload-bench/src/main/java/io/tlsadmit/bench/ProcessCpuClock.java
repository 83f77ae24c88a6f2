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

    /** Ticks per thread id and each thread's role, at one moment. */
    record ThreadTicks(long processTicks, Map<String, Long> ticksByThread, Map<String, ThreadRole> roleByThread) {

        /**
         * Seconds of CPU per role between {@code before} and this reading. A thread that exited in between is lost
         * from its role and counted in {@link ThreadRole#SERVER} (the process's own counter keeps it); a thread
         * that started counts all its CPU.
         */
        Map<ThreadRole, Double> secondsSince(ThreadTicks before) {
            Map<ThreadRole, Long> ticks = new LinkedHashMap<>();
            long grouped = 0;
            for (Map.Entry<String, Long> e : ticksByThread.entrySet()) {
                ThreadRole role = roleByThread.get(e.getKey());
                if (role == ThreadRole.SERVER) {
                    continue;
                }
                long delta = e.getValue() - before.ticksByThread.getOrDefault(e.getKey(), 0L);
                ticks.merge(role, delta, Long::sum);
                grouped += delta;
            }
            ticks.put(ThreadRole.SERVER, processTicks - before.processTicks - grouped);
            Map<ThreadRole, Double> seconds = new LinkedHashMap<>();
            for (ThreadRole role : ThreadRole.values()) {
                seconds.put(role, ticks.getOrDefault(role, 0L) / (double) TaskStat.TICKS_PER_SECOND);
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

    /** Every live thread's CPU ticks and role, and the process's. */
    ThreadTicks threads() {
        Map<String, Long> ticks = new HashMap<>();
        Map<String, ThreadRole> roles = new HashMap<>();
        try (DirectoryStream<Path> all = Files.newDirectoryStream(tasks)) {
            for (Path task : all) {
                String id = task.getFileName().toString();
                try {
                    String name = Files.readString(task.resolve("comm"), StandardCharsets.UTF_8).strip();
                    ticks.put(id, TaskStat.read(task.resolve("stat")).cpuTicks());
                    roles.put(id, ThreadRole.of(name));
                } catch (IOException e) {
                    // exited between the listing and the read: the process's counter still has its time
                }
            }
            return new ThreadTicks(TaskStat.read(stat).cpuTicks(), ticks, roles);
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot read " + tasks + ": " + e.getMessage(), e);
        }
    }
}

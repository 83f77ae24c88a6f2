package io.tlsadmit.gate.priority;

import io.tlsadmit.admission.cpu.TaskStat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Linux nice values of this process's threads: read from {@code /proc/self/task/<tid>/stat}, raised with
 * {@code renice} on the threads' own ids.
 *
 * <p>Why threads and not the process: Linux keeps a nice value per thread, and the scheduler weighs runnable
 * threads of one process against each other by it (nice 19 weighs 15 against nice 0's 1024). Why {@code renice}:
 * Java has no call for it (thread priorities are ignored on Linux without root). Why only upwards: an
 * unprivileged process may lower its threads' priority but not raise it back (RLIMIT_NICE is 0 by default), so a
 * thread lowered stays lowered for its life. Why another thread runs {@code renice}: a thread the JVM creates
 * inherits the nice value of the thread that creates it, and starting a program creates the JDK's "process
 * reaper" thread, which every later program of the process reuses: it must not be created by a lowered thread.
 */
public final class ThreadNiceness {

    /** The nice values Linux has: 19 is the lowest priority. */
    public static final int MIN = 0;
    public static final int MAX = 19;

    private static final Path SELF = Path.of("/proc/thread-self");
    private static final Path TASKS = Path.of("/proc/self/task");

    private ThreadNiceness() {
    }

    /** Whether this system keeps nice values per thread where this class can read them (Linux 3.17+). */
    public static boolean isSupported() {
        return Files.isReadable(SELF.resolve("stat"));
    }

    /** The kernel's id of the calling thread ({@code gettid}). */
    public static long currentThreadId() throws IOException {
        // /proc/thread-self links to "<pid>/task/<tid>"
        return Long.parseLong(Files.readSymbolicLink(SELF).getFileName().toString());
    }

    /** The calling thread's nice value. */
    public static int current() throws IOException {
        return TaskStat.read(SELF.resolve("stat")).nice();
    }

    /** The nice value of one thread of this process. */
    public static int of(long threadId) throws IOException {
        return TaskStat.read(TASKS.resolve(Long.toString(threadId)).resolve("stat")).nice();
    }

    /**
     * Sets these threads of this process to {@code nice}; a thread already at or above it is left as it is.
     *
     * @throws IOException where {@code renice} cannot run, does not succeed, or a thread is not at {@code nice} after
     */
    public static void lower(int nice, List<Long> threadIds) throws IOException {
        if (nice < MIN || nice > MAX) {
            throw new IllegalArgumentException("nice " + nice + " out of [" + MIN + ", " + MAX + "]");
        }
        List<String> command = new ArrayList<>(List.of("renice", "-n", Integer.toString(nice), "-p"));
        for (long id : threadIds) {
            if (of(id) < nice) {
                command.add(Long.toString(id));
            }
        }
        if (command.size() == 4) {
            return;
        }
        Process renice = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output;
        try (var in = renice.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        }
        try {
            if (!renice.waitFor(10, TimeUnit.SECONDS)) {
                renice.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not end within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            renice.destroyForcibly();
            throw new IOException("interrupted while renice ran", e);
        }
        for (long id : threadIds) {
            int now = of(id);
            if (now < nice) {
                throw new IOException(String.join(" ", command) + " exited " + renice.exitValue() + " and thread "
                        + id + " is at nice " + now + ": " + output);
            }
        }
    }
}

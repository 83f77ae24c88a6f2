package io.tlsadmit.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * {@code taskset -a -cp LIST PID}: moves every thread of a process onto the given CPUs. Benchmarks pin
 * the server and their own driver to different CPUs so that the load generator never competes with the
 * server it measures ({@code -a}: without it only the main thread moves).
 */
public final class CpuPinning {
    private CpuPinning() {
    }

    /**
     * The CPUs a process may run on now, as a list {@link #pin} takes ({@code Cpus_allowed_list} of its main thread),
     * to put it back afterwards. Not {@code Runtime.availableProcessors()}: in a JVM that pinned itself that counts
     * only its own CPUs, and "every CPU" computed from it pinned a database onto CPU 0.
     */
    public static String affinity(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return line.substring("Cpus_allowed_list:".length()).trim();
                }
            }
            throw new IllegalStateException("no Cpus_allowed_list in /proc/" + pid + "/status");
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the affinity of process " + pid + ": " + e.getMessage(), e);
        }
    }

    public static void pin(long pid, String cpuList) {
        try {
            Process p = new ProcessBuilder("taskset", "-a", "-cp", cpuList, Long.toString(pid))
                    .redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("taskset -a -cp " + cpuList + " " + pid + " failed: " + output);
            }
        } catch (IOException e) {
            throw new IllegalStateException("taskset is needed to pin the server and the driver: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while pinning " + pid, e);
        }
    }
}

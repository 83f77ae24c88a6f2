package io.tlsadmit.testing;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * {@code taskset -a -cp LIST PID}: moves every thread of a process onto the given CPUs. Benchmarks pin
 * the server and their own driver to different CPUs so that the load generator never competes with the
 * server it measures ({@code -a}: without it only the main thread moves).
 */
public final class CpuPinning {
    private CpuPinning() {
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

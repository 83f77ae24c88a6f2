package io.tlsadmit.attack.measure;

import java.time.Duration;

/**
 * CPU time (all threads, user + system) of a process so far, as the JDK reports it: Tomcat's to know
 * what an attack cost the server, our own to know when the driver, not the server, was the limit.
 */
public final class CpuTime {
    private final ProcessHandle process;

    private CpuTime(ProcessHandle process) {
        this.process = process;
    }

    public static CpuTime of(long pid) {
        return new CpuTime(ProcessHandle.of(pid).orElseThrow(() -> new IllegalStateException("no process " + pid)));
    }

    public static CpuTime ofDriver() {
        return new CpuTime(ProcessHandle.current());
    }

    public double seconds() {
        return process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L) / 1e9;
    }
}

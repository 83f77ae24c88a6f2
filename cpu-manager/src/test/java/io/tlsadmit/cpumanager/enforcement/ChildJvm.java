package io.tlsadmit.cpumanager.enforcement;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A real process with many threads (a JVM: GC, compiler, and ours) for the enforcement tests, either
 * sleeping or spinning on one CPU. A sleeping one is returned once its start-up is over: the manager claims CPUs
 * for what a server uses, and a JVM still loading classes and compiling used 0.3 CPU in one of its periods (a
 * silent server that then looked busy, once in a loaded run).
 */
public final class ChildJvm implements AutoCloseable {

    private final Process process;

    private ChildJvm(Process process) {
        this.process = process;
    }

    public static ChildJvm start(boolean busy) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-Xmx32m", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), ChildJvm.class.getName(), busy ? "busy" : "sleep")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        ChildJvm child = new ChildJvm(process);
        if (!busy) {
            child.awaitIdle();
        }
        return child;
    }

    private void awaitIdle() throws IOException {
        ProcessHandle handle = process.toHandle();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Duration before = cpu(handle);
        try {
            while (System.nanoTime() < deadline) {
                Thread.sleep(200);
                Duration now = cpu(handle);
                // the kernel counts in ticks of 10 ms: at most one tick in 200 ms is a JVM at rest
                if (now.minus(before).toMillis() <= 10) {
                    return;
                }
                before = now;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.destroyForcibly();
        throw new IOException("the child JVM " + process.pid() + " was still busy 30 s after its start");
    }

    private static Duration cpu(ProcessHandle handle) throws IOException {
        return handle.info().totalCpuDuration()
                .orElseThrow(() -> new IOException("no CPU time for process " + handle.pid() + " (exited?)"));
    }

    public long pid() {
        return process.pid();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    public static void main(String[] args) throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            Thread t = new Thread(() -> {
                try {
                    Thread.sleep(600_000);
                } catch (InterruptedException e) {
                    // ends the thread
                }
            });
            t.setDaemon(true);
            t.start();
        }
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        if (args.length > 0 && args[0].equals("busy")) {
            long spins = 0;
            while (System.nanoTime() < deadline) {
                spins++;
            }
            System.out.println(spins);
        } else {
            Thread.sleep(600_000);
        }
    }
}

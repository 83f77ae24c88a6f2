package io.tlsadmit.cpumanager.enforcement;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A real process with many threads (a JVM: GC, compiler, and ours) for the enforcement tests, either
 * sleeping or spinning on one CPU.
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
        return new ChildJvm(process);
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

package io.tlsadmit.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of one reading of the calling thread's CPU clock, which the gate takes twice per handshake step it times
 * ({@code ThreadCpuClock}), beside {@link System#nanoTime()} (a vDSO read, no system call). Decides how many
 * resumptions the gate can afford to time: on Linux the thread CPU clock is a system call, and on a virtual machine
 * the kernel's work to update the running thread's runtime makes it far dearer than the wall clock. Run it pinned to
 * one CPU, and with {@code -t 4} for threads sharing that CPU, as a server's workers do.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ThreadCpuClockBenchmark {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @Benchmark
    public long threadCpuTime() {
        return THREADS.getCurrentThreadCpuTime();
    }

    @Benchmark
    public long nanoTime() {
        return System.nanoTime();
    }
}

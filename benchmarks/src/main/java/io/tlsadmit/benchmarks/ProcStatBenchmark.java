package io.tlsadmit.benchmarks;

import io.tlsadmit.admission.cpu.CpuTicks;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of reading the CPUs' ticks out of a {@code /proc/stat} text ({@link CpuTicks#parse}): what the adaptive
 * budget's control loop ({@code cpuCapacity="measured"}, the default) and the CPU manager do several times a second,
 * on a host of {@code cpus} CPUs of which the JVM holds half. The text is built like the kernel's: a line per CPU
 * with ten counters, an {@code intr} line of one number per interrupt (about 40 per CPU on a large server), and the
 * short lines after it. Parsing only, the kernel's read left out: that is the part this code decides.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ProcStatBenchmark {

    @Param({"2", "64", "256"})
    public int cpus;

    private String procStat;
    private List<Integer> mask;

    @Setup
    public void build() {
        Random random = new Random(cpus);
        StringBuilder text = new StringBuilder("cpu  1 2 3 4 5 6 7 8 0 0\n");
        for (int cpu = 0; cpu < cpus; cpu++) {
            text.append("cpu").append(cpu);
            for (int field = 0; field < 10; field++) {
                text.append(' ').append(field < 8 ? random.nextInt(100_000_000) : 0);
            }
            text.append('\n');
        }
        text.append("intr ").append(random.nextInt(1 << 30));
        for (int irq = 0; irq < 64 + 40 * cpus; irq++) {
            text.append(' ').append(irq % 3 == 0 ? random.nextInt(1_000_000) : 0);
        }
        text.append("\nctxt 123456789\nbtime 1764000000\nprocesses 654321\nprocs_running 3\nprocs_blocked 0\n")
                .append("softirq 1 2 3 4 5 6 7 8 9 10 11\n");
        procStat = text.toString();
        mask = new ArrayList<>();
        for (int cpu = 0; cpu < cpus; cpu += 2) {
            mask.add(cpu);
        }
    }

    @Benchmark
    public CpuTicks parse() {
        return CpuTicks.parse(procStat, mask);
    }
}

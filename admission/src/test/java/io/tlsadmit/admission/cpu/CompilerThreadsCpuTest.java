package io.tlsadmit.admission.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.admission.SimulatedClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompilerThreadsCpuTest {

    @TempDir
    Path tasks;

    private void task(int tid, String comm, long utime, long stime) throws IOException {
        Path dir = Files.createDirectories(tasks.resolve(Integer.toString(tid)));
        Files.writeString(dir.resolve("comm"), comm + "\n");
        // stat(5): pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
        Files.writeString(dir.resolve("stat"), tid + " (" + comm + ") S 1 1 1 0 -1 4194368 10 0 0 0 "
                + utime + " " + stime + " 0 0 20 0 30 0 100 0 0\n");
    }

    @Test
    void sumsTheCpuOfTheCompilerThreadsOnly() throws IOException {
        task(101, "C2 CompilerThre", 150, 10);
        task(102, "C1 CompilerThre", 30, 0);
        task(103, "GC Thread#0", 999, 999);
        task(104, "http-nio-8443-e", 500, 5);
        CompilerThreadsCpu cpu = new CompilerThreadsCpu(tasks, new SimulatedClock());
        assertEquals((150 + 10 + 30) * 10_000_000L, cpu.getAsLong());
    }

    @Test
    void aThreadsSchedstatIsReadInNanosecondsWhenTheKernelFillsIt() throws IOException {
        task(101, "C2 CompilerThre", 150, 10);
        Files.writeString(tasks.resolve("101/schedstat"), "1612345678 2000 31\n");
        task(102, "C1 CompilerThre", 30, 0);
        // a kernel without scheduler statistics writes zeros: that thread is read through stat
        Files.writeString(tasks.resolve("102/schedstat"), "0 0 0\n");
        CompilerThreadsCpu cpu = new CompilerThreadsCpu(tasks, new SimulatedClock());
        assertEquals(1_612_345_678L + 30 * 10_000_000L, cpu.getAsLong());

        Files.writeString(tasks.resolve("101/schedstat"), "1700000001 2000 31\n");
        assertEquals(1_700_000_001L + 30 * 10_000_000L, cpu.getAsLong(), "the same files read again");
    }

    @Test
    void withAThreadClockTheCompilerThreadsAreReadThroughItNotTheirFiles() throws IOException {
        task(101, "C2 CompilerThre", 150, 10);
        Files.writeString(tasks.resolve("101/schedstat"), "1612345678 2000 31\n");
        task(102, "C1 CompilerThre", 30, 0);
        task(103, "GC Thread#0", 999, 999);
        java.util.Map<Integer, Long> running = new java.util.HashMap<>(java.util.Map.of(101, 2_000_000_001L,
                102, 400_000_002L, 103, 9_000_000_000L));
        java.util.List<Integer> asked = new java.util.ArrayList<>();
        TaskCpuClock clock = tid -> {
            asked.add(tid);
            return running.getOrDefault(tid, -1L);
        };
        CompilerThreadsCpu cpu = new CompilerThreadsCpu(tasks, new SimulatedClock(), clock);
        assertEquals(2_000_000_001L + 400_000_002L, cpu.getAsLong());
        assertTrue(!asked.contains(103), "a thread that is not a compiler's is not read: " + asked);

        // the files are no longer read: rewritten, they change nothing
        Files.writeString(tasks.resolve("101/schedstat"), "1 2000 31\n");
        running.put(101, 2_500_000_000L);
        assertEquals(2_500_000_000L + 400_000_002L, cpu.getAsLong());

        // a thread that has exited reads as nothing, as its failing file did
        running.remove(102);
        assertEquals(2_500_000_000L, cpu.getAsLong());
    }

    @Test
    void aThreadTheClockCannotReadWhenFirstListedIsReadThroughItsFiles() throws IOException {
        task(101, "C2 CompilerThre", 150, 10);
        Files.writeString(tasks.resolve("101/schedstat"), "1612345678 2000 31\n");
        task(102, "C1 CompilerThre", 30, 0);
        // a /proc of another PID namespace: the clock knows neither id
        CompilerThreadsCpu cpu = new CompilerThreadsCpu(tasks, new SimulatedClock(), tid -> -1);
        assertEquals(1_612_345_678L + 30 * 10_000_000L, cpu.getAsLong());
    }

    @Test
    void aNameWithSpacesAndParenthesesDoesNotShiftTheFields() throws IOException {
        Path stat = tasks.resolve("stat");
        Files.writeString(stat, "7 (a ) b (c) S 1 1 1 0 -1 4194368 10 0 0 0 7 3 0 0 20 0 30 0 100 0 0\n");
        assertEquals(10, CompilerThreadsCpu.cpuTicks(new ProcFile(stat)));
        assertEquals(0, CompilerThreadsCpu.cpuTicks(new ProcFile(tasks.resolve("exited"))));
    }

    @Test
    void findsThreadsStartedLaterAtTheNextRescanAndForgetsThoseThatExit() throws IOException {
        SimulatedClock clock = new SimulatedClock();
        task(101, "C2 CompilerThre", 100, 0);
        CompilerThreadsCpu cpu = new CompilerThreadsCpu(tasks, clock);
        assertEquals(100 * 10_000_000L, cpu.getAsLong());

        task(105, "C2 CompilerThre", 40, 0);
        assertEquals(100 * 10_000_000L, cpu.getAsLong(), "not rescanned yet");
        clock.advance(CompilerThreadsCpu.RESCAN_NANOS, TimeUnit.NANOSECONDS);
        assertEquals(140 * 10_000_000L, cpu.getAsLong());

        // An exited thread's open stat file fails to read (ProcFileTest, on a real thread); here, where a deleted
        // file stays readable through its descriptor, it is forgotten at the next listing.
        deleteTask(101);
        clock.advance(CompilerThreadsCpu.RESCAN_NANOS, TimeUnit.NANOSECONDS);
        assertEquals(40 * 10_000_000L, cpu.getAsLong(), "an exited thread counts no more");
    }

    @Test
    void aThreadsNameIsReadOnlyWhenItIsFirstListed() throws IOException {
        SimulatedClock clock = new SimulatedClock();
        task(101, "C2 CompilerThre", 100, 0);
        task(102, "https-jsse-nio-", 500, 0);
        CompilerThreadsCpu cpu = new CompilerThreadsCpu(tasks, clock);
        assertEquals(100 * 10_000_000L, cpu.getAsLong());

        // Names that changed are not read again (the comm files are rewritten here only to show it) ...
        Files.writeString(tasks.resolve("101/comm"), "renamed\n");
        Files.writeString(tasks.resolve("102/comm"), "C1 CompilerThre\n");
        task(106, "C1 CompilerThre", 7, 0);
        clock.advance(CompilerThreadsCpu.RESCAN_NANOS, TimeUnit.NANOSECONDS);
        assertEquals((100 + 7) * 10_000_000L, cpu.getAsLong(), "known threads kept as they were, the new one read");

        // ... and a thread that is gone is forgotten, so that its id, if the kernel reuses it, is read afresh.
        deleteTask(101);
        clock.advance(CompilerThreadsCpu.RESCAN_NANOS, TimeUnit.NANOSECONDS);
        assertEquals(7 * 10_000_000L, cpu.getAsLong());
        task(101, "C2 CompilerThre", 3, 0);
        clock.advance(CompilerThreadsCpu.RESCAN_NANOS, TimeUnit.NANOSECONDS);
        assertEquals((7 + 3) * 10_000_000L, cpu.getAsLong());
    }

    private void deleteTask(int tid) throws IOException {
        Path dir = tasks.resolve(Integer.toString(tid));
        Files.delete(dir.resolve("comm"));
        Files.delete(dir.resolve("stat"));
        Files.delete(dir);
    }

    @Test
    void withoutProcTheClockReadsZero() {
        CompilerThreadsCpu cpu = new CompilerThreadsCpu(tasks.resolve("absent"), new SimulatedClock());
        assertEquals(0, cpu.getAsLong());
        assertTrue(!cpu.available());
    }

    @Test
    void onThisLinuxJvmTheCompilerThreadsAreFound() throws IOException {
        CompilerThreadsCpu cpu = new CompilerThreadsCpu();
        if (cpu.available()) {
            // This JVM compiled the test framework on its way here: some compiler CPU is on the clock.
            long nanos = cpu.getAsLong();
            assertTrue(nanos > 0, "no compiler-thread CPU found in /proc/self/task");
            Path own = Path.of("/proc/thread-self/schedstat");
            if (Files.exists(own) && Long.parseLong(Files.readString(own).split(" ")[0]) > 0) {
                // this kernel keeps scheduler statistics: read in nanoseconds, not in whole 10 ms ticks (a sum of
                // nanosecond run times that falls on a tick by chance: about one in ten million)
                assertTrue(nanos % 10_000_000L != 0, "read through stat's ticks: " + nanos);
            }
        }
    }
}

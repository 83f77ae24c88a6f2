package io.tlsadmit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.admission.control.ControlLoop;
import io.tlsadmit.bench.ProcessCpuClock.ThreadRole;
import io.tlsadmit.bench.ProcessCpuClock.ThreadTimes;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProcessCpuClockTest {

    @Test
    void threadsAreToldApartByTheNameTheKernelKeeps() {
        assertEquals(ThreadRole.COMPILER, ThreadRole.of("C2 CompilerThre"));
        assertEquals(ThreadRole.COMPILER, ThreadRole.of("C1 CompilerThre"));
        assertEquals(ThreadRole.GC, ThreadRole.of("GC Thread#0"));
        assertEquals(ThreadRole.GC, ThreadRole.of("G1 Conc#0"));
        assertEquals(ThreadRole.CONTROL, ThreadRole.of("tlsadmit-admiss"));
        assertEquals(ThreadRole.SERVER, ThreadRole.of("https-jsse-nio-"));
    }

    @Test
    void aThreadThatExitedIsCountedAsServerWorkAndANewOneWithAllItsTime() {
        long ms = 1_000_000;
        ThreadTimes before = new ThreadTimes(10_000 * ms,
                Map.of("2", 500 * ms, "3", 700 * ms),
                Map.of("1", ThreadRole.SERVER, "2", ThreadRole.COMPILER, "3", ThreadRole.COMPILER));
        // thread 3 (a compiler thread) exited with 200 ms more; thread 4, the control loop, started and used 52.5 ms
        ThreadTimes after = new ThreadTimes((10_000 + 1_000 + 300 + 200 + 60) * ms,
                Map.of("2", 800 * ms, "4", 52_500_000L),
                Map.of("1", ThreadRole.SERVER, "2", ThreadRole.COMPILER, "4", ThreadRole.CONTROL));
        Map<ThreadRole, Double> seconds = after.secondsSince(before);
        assertEquals(0.30, seconds.get(ThreadRole.COMPILER), 1e-9);
        assertEquals(0.0525, seconds.get(ThreadRole.CONTROL), 1e-9);
        assertEquals(0.0, seconds.get(ThreadRole.GC), 1e-9);
        assertEquals(1.2075, seconds.get(ThreadRole.SERVER), 1e-9);
    }

    @Test
    void aBusyThreadOfThisProcessShowsUnderItsRole() throws Exception {
        ProcessCpuClock clock = new ProcessCpuClock(ProcessHandle.current().pid());
        ThreadTimes before = clock.threads();
        Thread busy = new Thread(() -> {
            long until = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() + 300_000_000L;
            while (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() < until) {
                Thread.onSpinWait();
            }
            try {
                Thread.sleep(60_000); // still alive when read: an exited thread would count as server work
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, ControlLoop.THREAD_NAME);
        busy.start();
        try {
            while (busy.getState() != Thread.State.TIMED_WAITING) {
                Thread.sleep(10);
            }
            double control = clock.threads().secondsSince(before).get(ThreadRole.CONTROL);
            // 300 ms of CPU on the thread's own clock, which schedstat's run time is: a little more for the last check
            // and the thread's start; stat's 10 ms ticks where the kernel keeps no scheduler statistics
            Path schedstat = Path.of("/proc/thread-self/schedstat");
            boolean nanos = Files.exists(schedstat) && !Files.readString(schedstat).startsWith("0 ");
            assertTrue(nanos ? control >= 0.300 && control <= 0.310 : control >= 0.25 && control <= 0.35,
                    "control thread CPU " + control + " s");
        } finally {
            busy.interrupt();
        }
    }
}

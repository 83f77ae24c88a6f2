package io.tlsadmit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.admission.control.ControlLoop;
import io.tlsadmit.bench.ProcessCpuClock.ThreadRole;
import io.tlsadmit.bench.ProcessCpuClock.ThreadTicks;
import java.lang.management.ManagementFactory;
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
        ThreadTicks before = new ThreadTicks(1_000,
                Map.of("1", 300L, "2", 50L, "3", 70L),
                Map.of("1", ThreadRole.SERVER, "2", ThreadRole.COMPILER, "3", ThreadRole.COMPILER));
        // thread 3 (a compiler thread) exited with 20 more ticks; thread 4, the control loop, started and used 5
        ThreadTicks after = new ThreadTicks(1_000 + 100 + 30 + 20 + 5,
                Map.of("1", 400L, "2", 80L, "4", 5L),
                Map.of("1", ThreadRole.SERVER, "2", ThreadRole.COMPILER, "4", ThreadRole.CONTROL));
        Map<ThreadRole, Double> seconds = after.secondsSince(before);
        assertEquals(0.30, seconds.get(ThreadRole.COMPILER), 1e-9);
        assertEquals(0.05, seconds.get(ThreadRole.CONTROL), 1e-9);
        assertEquals(0.0, seconds.get(ThreadRole.GC), 1e-9);
        assertEquals(1.20, seconds.get(ThreadRole.SERVER), 1e-9);
    }

    @Test
    void aBusyThreadOfThisProcessShowsUnderItsRole() throws Exception {
        ProcessCpuClock clock = new ProcessCpuClock(ProcessHandle.current().pid());
        ThreadTicks before = clock.threads();
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
            // 300 ms of CPU in 10 ms ticks, sampled by the kernel: a tick or two either way
            assertTrue(control >= 0.25 && control <= 0.35, "control thread CPU " + control + " s");
        } finally {
            busy.interrupt();
        }
    }
}

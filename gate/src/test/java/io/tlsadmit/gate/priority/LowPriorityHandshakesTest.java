package io.tlsadmit.gate.priority;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tlsadmit.gate.ThreadCpuClock;
import io.tlsadmit.gate.priority.LowPriorityHandshakes.Handover;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class LowPriorityHandshakesTest {

    @BeforeAll
    static void linux() {
        assumeTrue(ThreadNiceness.isSupported(), "no /proc/thread-self here");
    }

    @Test
    void theWorkRunsOnAThreadAtTheNiceValueAndItsCpuTimeIsReturned() throws Exception {
        try (LowPriorityHandshakes handshakes = LowPriorityHandshakes.start("test", 19, 4)) {
            assertTrue(handshakes.unavailableReason().isEmpty(), handshakes.unavailableReason().toString());
            assertEquals(LowPriorityHandshakes.hostCpus(), handshakes.threads());
            int callers = ThreadNiceness.current();
            int[] nice = new int[1];
            Thread[] ranOn = new Thread[1];
            long handedOver = System.nanoTime();
            Handover step = handshakes.run(() -> {
                ranOn[0] = Thread.currentThread();
                try {
                    nice[0] = ThreadNiceness.current();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                long until = ThreadCpuClock.nanos() + TimeUnit.MILLISECONDS.toNanos(20);
                while (ThreadCpuClock.nanos() < until) {
                    Thread.onSpinWait();
                }
            });
            assertEquals(19, nice[0]);
            assertNotEquals(Thread.currentThread(), ranOn[0]);
            assertTrue(ranOn[0].getName().startsWith("test-full-handshake-"), ranOn[0].getName());
            long waited = System.nanoTime() - handedOver;
            if (ThreadCpuClock.isSupported()) {
                assertTrue(step.cpuNanos() >= TimeUnit.MILLISECONDS.toNanos(20), "cpu " + step);
            }
            assertTrue(step.wallNanos() >= step.cpuNanos(), step.toString());
            assertTrue(step.queuedNanos() >= 0 && step.queuedNanos() + step.wallNanos() <= waited,
                    step + " in " + waited);
            assertEquals(1, handshakes.lowPriorityRuns());
            assertEquals(callers, ThreadNiceness.current(), "the caller keeps its priority");
        }
    }

    @Test
    void beyondMaxWaitingCallersTheWorkIsLeftToTheCaller() throws Exception {
        try (LowPriorityHandshakes handshakes = LowPriorityHandshakes.start("test", 10, 1)) {
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CompletableFuture<Handover> first = CompletableFuture.supplyAsync(() -> handshakes.run(() -> {
                running.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
            assertTrue(running.await(30, TimeUnit.SECONDS));
            boolean[] ran = new boolean[1];
            assertNull(handshakes.run(() -> ran[0] = true));
            assertTrue(!ran[0], "the work was not run: the caller runs it");
            assertEquals(1, handshakes.overflowRuns());
            release.countDown();
            assertNotNull(first.get(30, TimeUnit.SECONDS));
            assertNotNull(handshakes.run(() -> { }), "one waiting caller again: the threads take it");
        }
    }

    @Test
    void workThatFindsEveryThreadBusyReportsHowLongItQueued() throws Exception {
        int threads = LowPriorityHandshakes.hostCpus();
        ExecutorService callers = Executors.newFixedThreadPool(threads + 1);
        try (LowPriorityHandshakes handshakes = LowPriorityHandshakes.start("test", 10, threads + 1)) {
            CountDownLatch running = new CountDownLatch(threads);
            CountDownLatch release = new CountDownLatch(1);
            List<CompletableFuture<Handover>> holding = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                holding.add(CompletableFuture.supplyAsync(() -> handshakes.run(() -> {
                    running.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }), callers));
            }
            assertTrue(running.await(30, TimeUnit.SECONDS), "every thread busy");
            CompletableFuture<Handover> queued =
                    CompletableFuture.supplyAsync(() -> handshakes.run(() -> { }), callers);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (handshakes.queuedSteps() == 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            long inQueue = System.nanoTime();
            Thread.sleep(50);
            // Read before the release: once released, the queued step may start before this thread runs again.
            long held = System.nanoTime() - inQueue;
            release.countDown();
            Handover step = queued.get(30, TimeUnit.SECONDS);
            assertTrue(step.queuedNanos() >= held, "queued " + step + " behind work held for " + held + " ns");
            for (CompletableFuture<Handover> first : holding) {
                assertTrue(first.get(30, TimeUnit.SECONDS).wallNanos() >= held, "the holders' wall time");
            }
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void whatTheWorkThrowsReachesTheCaller() {
        try (LowPriorityHandshakes handshakes = LowPriorityHandshakes.start("test", 19, 4)) {
            IllegalStateException thrown = new IllegalStateException("engine task failed");
            assertSame(thrown, assertThrows(IllegalStateException.class, () -> handshakes.run(() -> {
                throw thrown;
            })));
        }
    }

    @Test
    void afterCloseTheCallerRunsTheWork() {
        LowPriorityHandshakes handshakes = LowPriorityHandshakes.start("test", 19, 4);
        handshakes.close();
        assertNull(handshakes.run(() -> { }));
    }

    @Test
    void settingsOutOfRangeAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> LowPriorityHandshakes.start("test", 0, 4));
        assertThrows(IllegalArgumentException.class, () -> LowPriorityHandshakes.start("test", 20, 4));
        assertThrows(IllegalArgumentException.class, () -> LowPriorityHandshakes.start("test", 19, 0));
    }
}

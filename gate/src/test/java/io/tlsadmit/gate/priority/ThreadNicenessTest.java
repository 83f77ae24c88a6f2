package io.tlsadmit.gate.priority;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ThreadNicenessTest {

    @Test
    void threadsAreLoweredByAnotherAndOnlyThoseThreads() throws Exception {
        assumeTrue(ThreadNiceness.isSupported(), "no /proc/thread-self here");
        int mine = ThreadNiceness.current();
        assumeTrue(mine < 10, "this test thread already runs at nice " + mine);
        CountDownLatch done = new CountDownLatch(1);
        long[] id = new long[1];
        CountDownLatch started = new CountDownLatch(1);
        Thread other = new Thread(() -> {
            try {
                id[0] = ThreadNiceness.currentThreadId();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            started.countDown();
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "nice-test");
        other.start();
        try {
            assertTrue(started.await(30, TimeUnit.SECONDS));
            ThreadNiceness.lower(10, List.of(id[0]));
            assertEquals(10, ThreadNiceness.of(id[0]));
            ThreadNiceness.lower(5, List.of(id[0])); // never raised back
            assertEquals(10, ThreadNiceness.of(id[0]));
            assertEquals(mine, ThreadNiceness.current(), "the calling thread keeps its priority");
        } finally {
            done.countDown();
            other.join();
        }
    }

    @Test
    void niceValuesOutsideLinuxsRangeAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> ThreadNiceness.lower(20, List.of()));
        assertThrows(IllegalArgumentException.class, () -> ThreadNiceness.lower(-1, List.of()));
    }
}

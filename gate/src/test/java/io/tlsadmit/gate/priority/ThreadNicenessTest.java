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
    void theNiceFieldIsCountedAfterTheLastParenthesisOfTheName() {
        // a thread name may hold spaces and parentheses; nice is the 19th field
        String stat = "4242 (exec (1) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 7 3 0 0 39 19 1 0 123 0 0";
        assertEquals(19, ThreadNiceness.niceField(stat));
        assertEquals(-5, ThreadNiceness.niceField("1 (java) R 0 1 1 0 -1 0 0 0 0 0 0 0 0 0 15 -5 1 0 1 0 0"));
    }

    @Test
    void aLineThatIsNotAStatLineIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> ThreadNiceness.niceField("no name here"));
        assertThrows(IllegalArgumentException.class, () -> ThreadNiceness.niceField("1 (java) R 0 1"));
    }

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

package io.tlsadmit.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Which resumptions are timed ({@link ResumptionTimingSample}), on a simulated clock. */
class ResumptionTimingSampleTest {

    private static final long MS = 1_000_000;

    private final ResumptionTimingSample sample = new ResumptionTimingSample(100 * MS);

    /** How many of {@code count} resumptions accepted {@code gapNanos} apart from {@code startNanos} are timed. */
    private int timed(long startNanos, long gapNanos, int count) {
        int timed = 0;
        for (int i = 0; i < count; i++) {
            timed += sample.draw(startNanos + i * gapNanos) ? 1 : 0;
        }
        return timed;
    }

    @Test
    void theFirstResumptionIsTimedWhateverTheClockSays() {
        assertTrue(new ResumptionTimingSample(100 * MS).draw(Long.MIN_VALUE + 1));
        assertTrue(new ResumptionTimingSample(100 * MS).draw(-5));
        assertTrue(sample.draw(0));
        assertFalse(sample.draw(0), "a second one at the same moment");
    }

    @Test
    void atAThousandResumptionsASecondTenAreTimedEachSecond() {
        assertEquals(10, timed(0, MS, 1_000));
        assertEquals(10, timed(1_000 * MS, MS, 1_000), "and in the next second");
    }

    @Test
    void atTenThousandASecondStillTen() {
        assertEquals(10, timed(0, MS / 10, 10_000));
    }

    @Test
    void slowerThanTheIntervalEveryOneIsTimed() {
        assertEquals(20, timed(0, 150 * MS, 20));
    }

    @Test
    void everyFourthAtThirtyMillisecondsApart() {
        // timed at 0, 120, 240, ... ms: the first accepted a full interval after the last timed, not on a grid
        assertEquals(25, timed(0, 30 * MS, 100));
    }

    @Test
    void anArrivalStampedBeforeTheLastTimedOneIsNotTimed() {
        assertTrue(sample.draw(500 * MS));
        assertFalse(sample.draw(499 * MS), "a connection accepted earlier on another thread, drawn later");
        assertTrue(sample.draw(600 * MS));
    }

    @Test
    void theClockMayWrap() {
        long beforeWrap = Long.MAX_VALUE - 50 * MS;
        assertTrue(sample.draw(beforeWrap));
        assertFalse(sample.draw(beforeWrap + 60 * MS), "60 ms after the last, across the wrap");
        assertTrue(sample.draw(beforeWrap + 101 * MS));
    }

    @Test
    void threadsRacingForOneMomentTimeOne() throws InterruptedException {
        int threads = 8;
        AtomicInteger timed = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        Thread[] racers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            racers[t] = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 1_000; i++) {
                    timed.addAndGet(sample.draw(7 * MS) ? 1 : 0);
                }
            });
            racers[t].start();
        }
        start.countDown();
        for (Thread racer : racers) {
            racer.join();
        }
        assertEquals(1, timed.get());
    }

    @Test
    void aNegativeIntervalIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ResumptionTimingSample(-1));
    }
}

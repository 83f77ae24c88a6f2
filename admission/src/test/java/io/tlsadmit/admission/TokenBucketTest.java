package io.tlsadmit.admission;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TokenBucketTest {

    private final SimulatedClock clock = new SimulatedClock();

    @Test
    void newBucketStartsFullWithBurstTokens() {
        TokenBucket bucket = new TokenBucket(10, 5, clock);
        assertEquals(5, drain(bucket));
        assertFalse(bucket.tryAcquire());
    }

    @Test
    void burstOfZeroStillAdmitsOneAtTheRateButSavesNothing() {
        TokenBucket bucket = new TokenBucket(2, 0, clock);
        assertEquals(1, drain(bucket));
        clock.advance(499, MILLISECONDS);
        assertFalse(bucket.tryAcquire());
        clock.advance(1, MILLISECONDS);
        assertTrue(bucket.tryAcquire());
        clock.advance(10, SECONDS);
        assertEquals(1, drain(bucket), "capacity is one token when burst is 0");
    }

    @Test
    void drainedBucketAdmitsExactlyRateTimesElapsedSeconds() {
        // The bucket never fills up again, so no credit is lost to the capacity clamp.
        TokenBucket bucket = new TokenBucket(3, 10, clock);
        assertEquals(10, drain(bucket));
        long admitted = 0;
        for (int ms = 1; ms <= 10_000; ms++) {
            clock.advance(1, MILLISECONDS);
            admitted += drain(bucket);
            if (ms % 1000 == 0) {
                assertEquals(3L * (ms / 1000), admitted, "admitted after " + ms + " ms");
            }
        }
    }

    @Test
    void thirdTokenOfAThreePerSecondBucketArrivesAtExactlyOneSecond() {
        TokenBucket bucket = new TokenBucket(3, 5, clock);
        drain(bucket);
        clock.advance(666_666_667, java.util.concurrent.TimeUnit.NANOSECONDS);
        assertEquals(2, drain(bucket));
        clock.advance(333_333_332, java.util.concurrent.TimeUnit.NANOSECONDS);
        assertFalse(bucket.tryAcquire(), "one nanosecond before the second");
        clock.advanceNanos(1);
        assertTrue(bucket.tryAcquire());
    }

    @Test
    void fullBucketWastesTheCreditItCannotHold() {
        // Capacity 1: once a token is waiting, time earns nothing more until it is taken.
        TokenBucket bucket = new TokenBucket(2, 0, clock);
        drain(bucket);
        clock.advance(750, MILLISECONDS);
        assertEquals(1, drain(bucket));
        clock.advance(250, MILLISECONDS);
        assertFalse(bucket.tryAcquire(), "the 0.25 s spent full earned nothing");
        clock.advance(250, MILLISECONDS);
        assertTrue(bucket.tryAcquire());
    }

    @Test
    void fractionalRateAdmitsOneHandshakeEveryFourSeconds() {
        TokenBucket bucket = new TokenBucket(0.25, 0, clock);
        assertEquals(1, drain(bucket));
        long admitted = 0;
        for (int s = 1; s <= 40; s++) {
            clock.advance(1, SECONDS);
            admitted += drain(bucket);
        }
        assertEquals(10, admitted);
    }

    @Test
    void tokensNeverAccumulateBeyondTheBurst() {
        TokenBucket bucket = new TokenBucket(1000, 20, clock);
        drain(bucket);
        clock.advance(5, HOURS);
        assertEquals(20.0, bucket.availableTokens());
        assertEquals(20, drain(bucket));
    }

    @Test
    void rateZeroGrantsNothingEvenWithABurst() {
        TokenBucket bucket = new TokenBucket(0, 100, clock);
        assertFalse(bucket.tryAcquire());
        clock.advance(1, HOURS);
        assertFalse(bucket.tryAcquire());
        assertEquals(0.0, bucket.availableTokens());
    }

    @Test
    void droppingTheRateToZeroRefusesAtOnceAndRaisingItRefillsFromEmpty() {
        TokenBucket bucket = new TokenBucket(10, 50, clock);
        bucket.setRatePerSecond(0);
        assertFalse(bucket.tryAcquire(), "tokens saved before the drop are not spent");
        clock.advance(1, HOURS);
        bucket.setRatePerSecond(10);
        assertFalse(bucket.tryAcquire(), "no burst released on restore");
        clock.advance(100, MILLISECONDS);
        assertEquals(1, drain(bucket));
    }

    @Test
    void rateChangeKeepsWhatWasEarnedAtTheOldRate() {
        TokenBucket bucket = new TokenBucket(1, 10, clock);
        drain(bucket);
        clock.advance(500, MILLISECONDS);
        bucket.setRatePerSecond(10);
        assertEquals(0.5, bucket.availableTokens(), 1e-9);
        clock.advance(50, MILLISECONDS);
        assertEquals(1, drain(bucket), "0.5 at 1/s plus 0.5 at 10/s");
        assertEquals(10.0, bucket.ratePerSecond());
    }

    @Test
    void loweringTheBurstDropsTokensAboveTheNewCapacityAndRaisingItAddsNone() {
        TokenBucket bucket = new TokenBucket(1, 10, clock);
        bucket.setBurst(3);
        assertEquals(3.0, bucket.availableTokens());
        bucket.setBurst(30);
        assertEquals(3.0, bucket.availableTokens());
        clock.advance(1, HOURS);
        assertEquals(30, drain(bucket));
    }

    @Test
    void clockSteppingBackwardsEarnsNothing() {
        TokenBucket bucket = new TokenBucket(10, 1, clock);
        drain(bucket);
        clock.advance(-1, SECONDS);
        assertFalse(bucket.tryAcquire());
        clock.advance(1, SECONDS);
        assertFalse(bucket.tryAcquire(), "time already seen is not paid twice");
        clock.advance(100, MILLISECONDS);
        assertTrue(bucket.tryAcquire());
    }

    @Test
    void countsGrantsRefusalsAndUsableRefills() {
        TokenBucket bucket = new TokenBucket(4, 2, clock);
        drain(bucket);
        clock.advance(500, MILLISECONDS);
        drain(bucket);
        clock.advance(1, HOURS);
        assertEquals(4, bucket.grantedCount());
        assertEquals(2, bucket.refusedCount());
        assertEquals(4.0, bucket.refilledTokens(), 1e-9, "2 refilled then 2 more up to capacity; overflow not counted");
    }

    @Test
    void rejectsRatesAndBurstsItCannotHonour() {
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(-1, 0, clock));
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(Double.NaN, 0, clock));
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(Double.POSITIVE_INFINITY, 0, clock));
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(1, -1, clock));
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(1, TokenBucket.MAX_BURST + 1, clock));
    }

    @Test
    void racingThreadsNeverTakeMoreThanTheBucketHolds() throws InterruptedException {
        TokenBucket bucket = new TokenBucket(1, 1000, clock);
        AtomicLong won = new AtomicLong();
        runConcurrently(8, () -> {
            for (int i = 0; i < 2000; i++) {
                if (bucket.tryAcquire()) {
                    won.incrementAndGet();
                }
            }
        });
        assertEquals(1000, won.get());
        assertEquals(1000, bucket.grantedCount());
        assertEquals(8 * 2000 - 1000, bucket.refusedCount());
    }

    @Test
    void racingThreadsWhileTimeMovesNeverExceedBurstPlusRateTimesElapsed() throws InterruptedException {
        AtomicLong nanos = new AtomicLong(0);
        TokenBucket bucket = new TokenBucket(1000, 50, nanos::get);
        AtomicLong won = new AtomicLong();
        runConcurrently(8, () -> {
            for (int i = 0; i < 20_000; i++) {
                if (i % 16 == 0) {
                    nanos.addAndGet(37_000); // every thread moves time: grants race with refills
                }
                if (bucket.tryAcquire()) {
                    won.incrementAndGet();
                }
            }
        });
        double elapsedSeconds = nanos.get() / 1e9;
        assertTrue(won.get() <= 50 + 1000 * elapsedSeconds, won.get() + " > bound for " + elapsedSeconds + " s");
        // Conservation: every token is either in the bucket or was granted.
        assertEquals(50 + bucket.refilledTokens(), won.get() + bucket.availableTokens(), 1e-6);
    }

    private static int drain(TokenBucket bucket) {
        int n = 0;
        while (bucket.tryAcquire()) {
            n++;
        }
        return n;
    }

    @Test
    void onCreditATokenIsTakenIntoDebtUpToTheLimitAndRepaidFirst() {
        AtomicLong clock = new AtomicLong();
        TokenBucket bucket = new TokenBucket(2, 1, clock::get);
        assertTrue(bucket.tryAcquire());
        assertFalse(bucket.tryAcquire());
        assertTrue(bucket.tryAcquireOnCredit(2));
        assertTrue(bucket.tryAcquireOnCredit(2));
        assertFalse(bucket.tryAcquireOnCredit(2), "owes 2: the limit");
        assertEquals(-2, bucket.availableTokens(), 1e-9);
        clock.addAndGet(1_000_000_000L); // 2 tokens earned: the debt is repaid
        assertFalse(bucket.tryAcquire());
        clock.addAndGet(500_000_000L);
        assertTrue(bucket.tryAcquire());
        bucket.setRatePerSecond(0);
        assertFalse(bucket.tryAcquireOnCredit(100), "rate 0 grants nothing, on credit either");
    }

    static void runConcurrently(int threads, Runnable work) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> started = new ArrayList<>();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    work.run();
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            thread.start();
            started.add(thread);
        }
        start.countDown();
        for (Thread thread : started) {
            thread.join();
        }
        assertTrue(failures.isEmpty(), () -> "worker failed: " + failures);
    }
}

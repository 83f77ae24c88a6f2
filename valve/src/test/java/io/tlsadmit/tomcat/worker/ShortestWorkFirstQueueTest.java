package io.tlsadmit.tomcat.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The worker pool a gated connector installs, with real threads: who runs first once every worker is busy. */
class ShortestWorkFirstQueueTest {

    private final List<String> ran = new CopyOnWriteArrayList<>();
    private ShortestWorkFirstExecutor pool;
    private ShortestWorkFirstQueue queue;

    private void pool(int minSpare, int max) {
        queue = new ShortestWorkFirstQueue(100);
        pool = new ShortestWorkFirstExecutor(minSpare, max, 60_000, queue, Executors.defaultThreadFactory());
    }

    @AfterEach
    void stop() {
        assertTrue(pool.shutdownAndWait(5_000));
    }

    private record Work(String name, WorkClass workClass, List<String> log, CountDownLatch done)
            implements Runnable, RankedWork {
        @Override
        public void run() {
            log.add(name);
            done.countDown();
        }
    }

    /** Occupies a worker until released. */
    private CountDownLatch occupyWorker() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        pool.execute(() -> {
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertTrue(started.await(10, TimeUnit.SECONDS));
        return release;
    }

    @Test
    void busyWorkersTakeShortWorkBeforeNewFullHandshakesFifoWithinAClass() throws InterruptedException {
        pool(1, 1);
        CountDownLatch release = occupyWorker();
        CountDownLatch done = new CountDownLatch(6);
        pool.execute(new Work("full-1", WorkClass.NEW_FULL_HANDSHAKE, ran, done));
        pool.execute(new Work("unclassified-1", WorkClass.UNCLASSIFIED, ran, done));
        pool.execute(new Work("request-1", WorkClass.SHORT, ran, done));
        pool.execute(new Work("full-2", WorkClass.NEW_FULL_HANDSHAKE, ran, done));
        pool.execute(new Work("resumption-2", WorkClass.SHORT, ran, done));
        pool.execute(new Work("unclassified-2", WorkClass.UNCLASSIFIED, ran, done));
        assertEquals(2, queue.size(WorkClass.NEW_FULL_HANDSHAKE));
        assertEquals(6, queue.size());

        release.countDown();
        assertTrue(done.await(10, TimeUnit.SECONDS));
        assertEquals(List.of("request-1", "resumption-2", "unclassified-1", "unclassified-2", "full-1", "full-2"), ran);
    }

    @Test
    void tasksThatCannotSayCountAsShortWork() throws InterruptedException {
        pool(1, 1);
        CountDownLatch release = occupyWorker();
        CountDownLatch done = new CountDownLatch(2);
        pool.execute(new Work("full", WorkClass.NEW_FULL_HANDSHAKE, ran, done));
        pool.execute(() -> {
            ran.add("plain");
            done.countDown();
        });
        release.countDown();
        assertTrue(done.await(10, TimeUnit.SECONDS));
        assertEquals(List.of("plain", "full"), ran);
    }

    @Test
    void thePoolGrowsToMaxThreadsBeforeAnythingQueuesLikeTomcatsOwn() throws InterruptedException {
        pool(1, 2);
        CountDownLatch release = occupyWorker();
        CountDownLatch done = new CountDownLatch(1);
        pool.execute(new Work("full", WorkClass.NEW_FULL_HANDSHAKE, ran, done));
        // Runs while the first worker is still busy: a second thread was started rather than queueing.
        assertTrue(done.await(10, TimeUnit.SECONDS));
        assertEquals(2, pool.getPoolSize());
        assertEquals(0, queue.size());
        release.countDown();
    }

    @Test
    void aRemovedTaskNeverRuns() throws InterruptedException {
        pool(1, 1);
        CountDownLatch release = occupyWorker();
        CountDownLatch done = new CountDownLatch(1);
        Work dropped = new Work("dropped", WorkClass.SHORT, ran, new CountDownLatch(1));
        pool.execute(dropped);
        pool.execute(new Work("kept", WorkClass.NEW_FULL_HANDSHAKE, ran, done));
        assertTrue(pool.remove(dropped));
        release.countDown();
        assertTrue(done.await(10, TimeUnit.SECONDS));
        assertEquals(List.of("kept"), ran);
    }
}

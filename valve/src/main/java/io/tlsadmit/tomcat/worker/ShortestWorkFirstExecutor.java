package io.tlsadmit.tomcat.worker;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.apache.tomcat.util.threads.ThreadPoolExecutor;

/**
 * Tomcat's worker pool with a {@link ShortestWorkFirstQueue}: the same thread growth, renewal and
 * metrics as the pool Tomcat creates itself, only the order of queued tasks differs.
 */
public final class ShortestWorkFirstExecutor extends ThreadPoolExecutor {

    private final ShortestWorkFirstQueue queue;

    public ShortestWorkFirstExecutor(int minSpareThreads, int maxThreads, long idleMillis,
            ShortestWorkFirstQueue queue, ThreadFactory threadFactory) {
        super(minSpareThreads, maxThreads, idleMillis, TimeUnit.MILLISECONDS, queue, threadFactory);
        this.queue = queue;
        queue.parent(this);
    }

    /**
     * Stops the pool as Tomcat stops its own: interrupt, wait up to {@code timeoutMillis}.
     *
     * @return false if threads were still running when the wait ended
     */
    public boolean shutdownAndWait(long timeoutMillis) {
        shutdownNow();
        if (timeoutMillis > 0) {
            try {
                awaitTermination(timeoutMillis, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        queue.parent(null);
        return !isTerminating();
    }

    int poolSizeNow() {
        return getPoolSizeNoLock();
    }

    void stopThisThreadIfRenewed() {
        stopCurrentThreadIfNeeded();
    }

    boolean thisThreadIsRenewed() {
        return currentThreadShouldBeStopped();
    }
}

package io.tlsadmit.tomcat.worker;

import java.util.AbstractQueue;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.tomcat.util.threads.RetryableQueue;

/**
 * The worker queue of a gated connector: one FIFO lane per {@link WorkClass}, and a worker always
 * takes from the shortest class that has work. Tasks are ranked once, when queued.
 *
 * <p>It keeps the contract of Tomcat's own {@code TaskQueue}: while the pool is below
 * {@code maxThreads} and no thread is idle, {@link #offer} declines so that the pool grows instead
 * of queueing (ordering only matters once every worker is busy), {@link #force} takes what the pool
 * rejected in a race, and idle or renewed threads leave through {@link #poll(long, TimeUnit)}.
 */
public final class ShortestWorkFirstQueue extends AbstractQueue<Runnable> implements RetryableQueue<Runnable> {

    private static final WorkClass[] CLASSES = WorkClass.values();

    private final int capacity;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final Condition notFull = lock.newCondition();
    @SuppressWarnings("unchecked")
    private final ArrayDeque<Runnable>[] lanes = new ArrayDeque[CLASSES.length];
    private int count;
    private volatile ShortestWorkFirstExecutor parent;

    /** @param capacity most tasks queued at once, e.g. the connector's {@code maxQueueSize} */
    public ShortestWorkFirstQueue(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be > 0, was " + capacity);
        }
        this.capacity = capacity;
        for (int i = 0; i < lanes.length; i++) {
            lanes[i] = new ArrayDeque<>();
        }
    }

    void parent(ShortestWorkFirstExecutor executor) {
        this.parent = executor;
    }

    private static WorkClass rank(Runnable task) {
        if (task instanceof RankedWork ranked) {
            WorkClass workClass = ranked.workClass();
            return workClass == null ? WorkClass.SHORT : workClass;
        }
        return WorkClass.SHORT;
    }

    // ---- adding ---------------------------------------------------------------------------------

    @Override
    public boolean offer(Runnable task) {
        ShortestWorkFirstExecutor pool = parent;
        if (pool != null && pool.poolSizeNow() < pool.getMaximumPoolSize()
                && pool.getSubmittedCount() > pool.poolSizeNow()) {
            return false; // no idle thread and room for another: let the pool start one
        }
        return enqueue(task, false, 0);
    }

    @Override
    public boolean force(Runnable task) {
        ShortestWorkFirstExecutor pool = parent;
        if (pool == null || pool.isShutdown()) {
            throw new RejectedExecutionException("tlsadmit: the worker queue's executor is not running");
        }
        return enqueue(task, false, 0);
    }

    @Override
    public boolean offer(Runnable task, long timeout, TimeUnit unit) throws InterruptedException {
        return enqueue(task, true, unit.toNanos(timeout));
    }

    @Override
    public void put(Runnable task) throws InterruptedException {
        enqueue(task, true, Long.MAX_VALUE);
    }

    private boolean enqueue(Runnable task, boolean wait, long nanos) {
        Objects.requireNonNull(task, "task");
        WorkClass workClass = rank(task);
        lock.lock();
        try {
            while (count == capacity) {
                if (!wait || nanos <= 0) {
                    return false;
                }
                try {
                    nanos = nanos == Long.MAX_VALUE ? awaitForever() : notFull.awaitNanos(nanos);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            lanes[workClass.ordinal()].addLast(task);
            count++;
            notEmpty.signal();
            return true;
        } finally {
            lock.unlock();
        }
    }

    private long awaitForever() throws InterruptedException {
        notFull.await();
        return Long.MAX_VALUE;
    }

    // ---- taking ---------------------------------------------------------------------------------

    /** The first task of the shortest non-empty class; the caller holds the lock and count > 0. */
    private Runnable dequeue() {
        for (ArrayDeque<Runnable> lane : lanes) {
            Runnable task = lane.pollFirst();
            if (task != null) {
                count--;
                notFull.signal();
                return task;
            }
        }
        throw new IllegalStateException("count " + count + " but every lane is empty");
    }

    @Override
    public Runnable poll() {
        lock.lock();
        try {
            return count == 0 ? null : dequeue();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Runnable poll(long timeout, TimeUnit unit) throws InterruptedException {
        Runnable task;
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            while (count == 0 && nanos > 0) {
                nanos = notEmpty.awaitNanos(nanos);
            }
            task = count == 0 ? null : dequeue();
        } finally {
            lock.unlock();
        }
        ShortestWorkFirstExecutor pool = parent;
        if (task == null && pool != null) {
            // An idle thread's timeout is also when Tomcat retires threads that outlived a context stop.
            pool.stopThisThreadIfRenewed();
        }
        return task;
    }

    @Override
    public Runnable take() throws InterruptedException {
        ShortestWorkFirstExecutor pool = parent;
        if (pool != null && pool.thisThreadIsRenewed()) {
            // May return null on timeout, which lets the pool retire this thread (as Tomcat's TaskQueue does).
            return poll(pool.getKeepAliveTime(TimeUnit.MILLISECONDS), TimeUnit.MILLISECONDS);
        }
        lock.lockInterruptibly();
        try {
            while (count == 0) {
                notEmpty.await();
            }
            return dequeue();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Runnable peek() {
        lock.lock();
        try {
            for (ArrayDeque<Runnable> lane : lanes) {
                Runnable task = lane.peekFirst();
                if (task != null) {
                    return task;
                }
            }
            return null;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int drainTo(Collection<? super Runnable> sink) {
        return drainTo(sink, Integer.MAX_VALUE);
    }

    @Override
    public int drainTo(Collection<? super Runnable> sink, int maxElements) {
        Objects.requireNonNull(sink, "sink");
        if (sink == this) {
            throw new IllegalArgumentException("cannot drain a queue into itself");
        }
        lock.lock();
        try {
            int drained = 0;
            while (count > 0 && drained < maxElements) {
                sink.add(dequeue());
                drained++;
            }
            return drained;
        } finally {
            lock.unlock();
        }
    }

    // ---- inspection -------------------------------------------------------------------------------

    @Override
    public boolean remove(Object task) {
        lock.lock();
        try {
            for (ArrayDeque<Runnable> lane : lanes) {
                if (lane.removeFirstOccurrence(task)) {
                    count--;
                    notFull.signal();
                    return true;
                }
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int size() {
        lock.lock();
        try {
            return count;
        } finally {
            lock.unlock();
        }
    }

    /** Tasks queued in one class now, for tests and diagnostics. */
    public int size(WorkClass workClass) {
        lock.lock();
        try {
            return lanes[workClass.ordinal()].size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int remainingCapacity() {
        lock.lock();
        try {
            return capacity - count;
        } finally {
            lock.unlock();
        }
    }

    /** A snapshot in the order workers would take the tasks; removing through it removes from the queue. */
    @Override
    public Iterator<Runnable> iterator() {
        List<Runnable> snapshot = new ArrayList<>();
        lock.lock();
        try {
            for (ArrayDeque<Runnable> lane : lanes) {
                snapshot.addAll(lane);
            }
        } finally {
            lock.unlock();
        }
        Iterator<Runnable> tasks = snapshot.iterator();
        return new Iterator<>() {
            private Runnable last;

            @Override
            public boolean hasNext() {
                return tasks.hasNext();
            }

            @Override
            public Runnable next() {
                last = tasks.next();
                return last;
            }

            @Override
            public void remove() {
                if (last == null) {
                    throw new IllegalStateException("next() first");
                }
                ShortestWorkFirstQueue.this.remove(last);
                last = null;
            }
        };
    }
}

package io.tlsadmit.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * Drives one Tomcat with two kinds of TLS clients, like the 2005 paper's workload:
 * <ul>
 *   <li>an <em>established</em> population: each client did one full handshake before the step
 *       and then opens a new connection per request, resuming its TLS session (think time between);
 *   <li><em>new</em> clients arriving as a Poisson process at a given rate: each needs a full
 *       handshake, sends one request and leaves.
 * </ul>
 * A client's TLS session cache entry is keyed by the host name it connects under, so one shared
 * {@link SSLContext} per kind serves thousands of clients: established client {@code i} always uses
 * host {@code est-i} (and resumes), every new client a host name never used before (and cannot).
 * A connection the server closes or resets before the handshake completes counts as refused; one
 * with no answer within the timeout as timed out (the client gives up, as the paper's did after 10 s).
 */
final class LoadDriver implements AutoCloseable {
    private final int port;
    private final String path;
    private final int timeoutMillis;
    private final SSLSocketFactory establishedFactory;
    private final SSLSocketFactory newFactory;
    private final ThreadPoolExecutor newClients;
    private final List<Thread> established = new ArrayList<>();
    private final AtomicLong newClientIds = new AtomicLong();
    private volatile StepCounters counters = new StepCounters();
    private volatile boolean running = true;
    private volatile boolean establishedPaused;
    private volatile double arrivalRate;
    private Thread arrivals;

    LoadDriver(SSLContext establishedContext, SSLContext newContext, int port, String path, int timeoutMillis,
               int maxConcurrentNewClients) {
        this.port = port;
        this.path = path;
        this.timeoutMillis = timeoutMillis;
        this.establishedFactory = establishedContext.getSocketFactory();
        this.newFactory = newContext.getSocketFactory();
        // Sessions of new clients are never reused: keep their cache small so it costs no memory.
        newContext.getClientSessionContext().setSessionCacheSize(16);
        establishedContext.getClientSessionContext().setSessionCacheSize(0); // unbounded
        this.newClients = new ThreadPoolExecutor(0, maxConcurrentNewClients, 30, TimeUnit.SECONDS,
                new SynchronousQueue<>(), r -> daemon(r, "new-client"));
    }

    /** Starts {@code count} established clients; each does its first (full) handshake now. */
    void startEstablished(int count, double meanThinkMillis, long seed) {
        for (int i = 0; i < count; i++) {
            String host = "est-" + i;
            SplittableRandom random = new SplittableRandom(seed + i);
            Thread t = daemon(() -> {
                while (running) {
                    if (establishedPaused) {
                        sleepMillis(50);
                        continue;
                    }
                    connectAndRequest(establishedFactory, host, false);
                    sleepMillis((long) (-Math.log(1 - random.nextDouble()) * meanThinkMillis));
                }
            }, "established-" + i);
            established.add(t);
            t.start();
        }
    }

    /**
     * {@code count} threads that each start a new client as soon as the previous one finished: a closed
     * loop that keeps the server saturated with full handshakes, for measuring its capacity.
     */
    void startBackToBackNewClients(int count) {
        for (int i = 0; i < count; i++) {
            Thread t = daemon(() -> {
                while (running) {
                    connectAndRequest(newFactory, "new-" + newClientIds.incrementAndGet(), true);
                }
            }, "back-to-back-" + i);
            established.add(t);
            t.start();
        }
    }

    /** New clients per second from now on (0 stops arrivals); Poisson arrivals. */
    void setArrivalRate(double perSecond, long seed) {
        arrivalRate = perSecond;
        if (arrivals == null) {
            SplittableRandom random = new SplittableRandom(seed);
            arrivals = daemon(() -> {
                long next = System.nanoTime();
                while (running) {
                    double rate = arrivalRate;
                    if (rate <= 0) {
                        sleepMillis(50);
                        next = System.nanoTime();
                        continue;
                    }
                    next += (long) (-Math.log(1 - random.nextDouble()) / rate * 1e9);
                    long wait = next - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    StepCounters c = counters;
                    c.newArrivals.increment();
                    String host = "new-" + newClientIds.incrementAndGet();
                    try {
                        newClients.execute(() -> connectAndRequest(newFactory, host, true));
                    } catch (java.util.concurrent.RejectedExecutionException e) {
                        c.newDroppedByDriver.increment();
                    }
                }
            }, "arrivals");
            arrivals.start();
        }
    }

    /** Holds the established clients between steps (they keep their sessions) so the server can drain. */
    void pauseEstablished(boolean paused) {
        establishedPaused = paused;
    }

    /** New clients still connecting, handshaking or waiting for their answer. */
    int newClientsInFlight() {
        return newClients.getActiveCount();
    }

    /** Starts a fresh set of counters and returns the previous one. */
    StepCounters swapCounters() {
        StepCounters previous = counters;
        counters = new StepCounters();
        return previous;
    }

    private void connectAndRequest(SSLSocketFactory factory, String host, boolean isNew) {
        StepCounters c = counters;
        long start = System.nanoTime();
        boolean handshaken = false;
        try (Socket plain = new Socket()) {
            plain.setTcpNoDelay(true);
            plain.setSoTimeout(timeoutMillis);
            plain.connect(new InetSocketAddress("127.0.0.1", port), timeoutMillis);
            try (SSLSocket tls = (SSLSocket) factory.createSocket(plain, host, port, true)) {
                tls.setSoTimeout(Math.max(1, timeoutMillis - (int) ((System.nanoTime() - start) / 1_000_000)));
                tls.startHandshake();
                handshaken = true;
                long handshakeDone = System.nanoTime();
                StepCounters.record(isNew ? c.fullHandshake : c.resumedHandshake, handshakeDone - start);
                if (request(tls, host)) {
                    StepCounters.record(c.request, System.nanoTime() - handshakeDone);
                    c.requestsCompleted.increment();
                    (isNew ? c.newCompleted : c.resumedCompleted).increment();
                } else {
                    (isNew ? c.newFailedAfterHandshake : c.resumedFailedAfterHandshake).increment();
                }
            }
        } catch (SocketTimeoutException e) {
            (isNew ? c.newTimedOut : c.resumedTimedOut).increment();
        } catch (IOException e) {
            if (!handshaken) {
                (isNew ? c.newRefused : c.resumedRefused).increment();
            } else {
                (isNew ? c.newFailedAfterHandshake : c.resumedFailedAfterHandshake).increment();
            }
        } finally {
            if (!isNew) {
                c.resumedFinished.increment();
            }
        }
    }

    private boolean request(SSLSocket tls, String host) throws IOException {
        OutputStream out = tls.getOutputStream();
        out.write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = tls.getInputStream();
        byte[] head = new byte[12];
        int n = 0;
        while (n < head.length) {
            int r = in.read(head, n, head.length - n);
            if (r < 0) {
                return false;
            }
            n += r;
        }
        byte[] sink = new byte[8192];
        while (in.read(sink) >= 0) {
            // drain to the server's close
        }
        return new String(head, StandardCharsets.US_ASCII).startsWith("HTTP/1.1 200");
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        newClients.shutdownNow();
        if (arrivals != null) {
            arrivals.join(2000);
        }
        for (Thread t : established) {
            t.join(timeoutMillis + 2000L);
        }
        newClients.awaitTermination(timeoutMillis + 2000L, TimeUnit.MILLISECONDS);
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

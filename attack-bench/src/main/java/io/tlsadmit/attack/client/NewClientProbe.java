package io.tlsadmit.attack.client;

import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * Legitimate newcomers: 10 attempts per second of a fresh full TLS 1.3 handshake (a fresh SSLContext
 * each, so nothing can be resumed), from 127.0.0.1. Admitted = the handshake completed. An attack that
 * drains the budget shows here as newcomers turned away.
 */
public final class NewClientProbe implements AutoCloseable {
    private static final int TIMEOUT_MILLIS = 5_000;

    private final Supplier<SSLContext> freshContext;
    private final InetSocketAddress server;
    private final ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor();
    // enough threads that attempts waiting out a timeout do not delay the next ones
    private final ExecutorService attempts = Executors.newFixedThreadPool(64);
    private final AtomicLong attempted = new AtomicLong();
    private final AtomicLong admitted = new AtomicLong();

    public record Counts(long attempted, long admitted) {
    }

    public NewClientProbe(Supplier<SSLContext> freshContext, InetSocketAddress server, double perSecond) {
        this.freshContext = freshContext;
        this.server = server;
        ticks.scheduleAtFixedRate(() -> attempts.execute(this::attempt), 0, (long) (1e6 / perSecond), TimeUnit.MICROSECONDS);
    }

    private void attempt() {
        attempted.incrementAndGet();
        try (SSLSocket socket = TlsDial.open(freshContext.get(), server, TIMEOUT_MILLIS)) {
            socket.startHandshake();
            admitted.incrementAndGet();
        } catch (Exception e) {
            // refused before the handshake (closed or reset) or timed out
        }
    }

    /** Counts since the previous swap (attempts still running count in the phase they finish in). */
    public Counts swap() {
        return new Counts(attempted.getAndSet(0), admitted.getAndSet(0));
    }

    @Override
    public void close() throws InterruptedException {
        ticks.shutdownNow();
        attempts.shutdown();
        attempts.awaitTermination(TIMEOUT_MILLIS * 2L, TimeUnit.MILLISECONDS);
    }
}

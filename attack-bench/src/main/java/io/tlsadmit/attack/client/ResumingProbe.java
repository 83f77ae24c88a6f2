package io.tlsadmit.attack.client;

import io.tlsadmit.attack.measure.ProbeLatency;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * A user in the middle of a session: every 100 ms a new connection from 127.0.0.1 that resumes the
 * cached TLS session, {@code GET /}, the whole response, close. What the gate promises never to refuse;
 * its success ratio and latency under attack are what an attack takes from real users.
 */
public final class ResumingProbe implements AutoCloseable {
    private static final long PERIOD_NANOS = 100_000_000L;
    private static final int TIMEOUT_MILLIS = 5_000;

    private final SSLContext context;
    private final InetSocketAddress server;
    private final AtomicReference<ProbeLatency> phase = new AtomicReference<>(new ProbeLatency());
    private final Thread thread;
    private volatile boolean running = true;

    private ResumingProbe(SSLContext context, InetSocketAddress server) {
        this.context = context;
        this.server = server;
        this.thread = new Thread(this::loop, "resuming-probe");
        this.thread.setDaemon(true);
    }

    /**
     * Does the one full handshake that gives the probe its session (retried while the budget has no
     * token, for at most {@code seedMillis}), then starts probing.
     */
    public static ResumingProbe start(SSLContext context, InetSocketAddress server, long seedMillis) {
        ResumingProbe probe = new ResumingProbe(context, server);
        long deadline = System.currentTimeMillis() + seedMillis;
        while (!probe.attempt()) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("the resuming probe could not get its first session in " + seedMillis + " ms");
            }
            sleep(200);
        }
        probe.swap();
        probe.thread.start();
        return probe;
    }

    /** What the probe saw since the previous swap; a new phase starts now. */
    public ProbeLatency swap() {
        return phase.getAndSet(new ProbeLatency());
    }

    private void loop() {
        long next = System.nanoTime();
        while (running) {
            attempt();
            next += PERIOD_NANOS;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                sleep(wait / 1_000_000);
            } else {
                next = System.nanoTime(); // a slow attempt is not made up for with a burst
            }
        }
    }

    private boolean attempt() {
        long start = System.nanoTime();
        ProbeLatency current = phase.get();
        try (SSLSocket socket = TlsDial.open(context, server, TIMEOUT_MILLIS)) {
            socket.startHandshake();
            if (TlsDial.get(socket)) {
                current.success(System.nanoTime() - start);
                return true;
            }
        } catch (Exception e) {
            // refused, reset or timed out: all the same to a user
        }
        current.failure();
        return false;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(TIMEOUT_MILLIS * 2L);
    }
}

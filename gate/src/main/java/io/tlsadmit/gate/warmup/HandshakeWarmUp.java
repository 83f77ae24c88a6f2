package io.tlsadmit.gate.warmup;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Full TLS handshakes against the server's own engines, in memory, before the server takes its first client.
 *
 * <p>Why: a fresh JVM runs the handshake's code interpreted until the JIT has compiled it. With JSSE and an
 * RSA-4096 key the warm-up's own log in the experiment's one-CPU Tomcats showed 155–193 ms of CPU for the first full
 * handshake (client and server sides together) against 12–16 ms for the 64th (`docs/benchmarks.md` section 4).
 * A flash crowd that meets a fresh instance, which is when autoscaling adds one, pays all of that at the worst
 * moment, and the admission budget, which measures the cost, admits a fraction of what the instance serves a
 * minute later. A few dozen handshakes at start, before the connector accepts, move that cost to where nobody
 * waits for it.
 *
 * <p>The client side is an engine from a context of its own that trusts any certificate: nothing leaves the
 * process, and the server's certificate is the operator's, not something to verify here. The engines come from
 * the server, so its key, protocols and cipher suites are the ones compiled, and its key manager is asked as in
 * a real full handshake (an engine no gate has bound passes the late gate uncharged).
 */
public final class HandshakeWarmUp {

    private static final System.Logger LOG = System.getLogger(HandshakeWarmUp.class.getName());
    /** Wraps and unwraps per handshake before it is given up as stuck: a TLS 1.2 or 1.3 handshake needs under 20. */
    private static final int MAX_STEPS = 200;
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private HandshakeWarmUp() {
    }

    /**
     * What a warm-up did.
     *
     * @param handshakes      full handshakes completed
     * @param wallNanos       how long it took
     * @param firstCpuNanos   CPU time of the first handshake, both sides (0 if none)
     * @param lastCpuNanos    CPU time of the last one, both sides (0 if none)
     * @param serverCpuNanos  the server side's CPU time per full handshake once warm: the median over the last
     *                        {@link #SETTLED} handshakes (fewer if fewer ran); 0 if none or no CPU clock. What an
     *                        adaptive budget starts from instead of a guess
     */
    public record Result(int handshakes, long wallNanos, long firstCpuNanos, long lastCpuNanos, long serverCpuNanos) {

        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT, "%d full handshakes in %.2f s (CPU per handshake, both sides: first %.1f ms,"
                            + " last %.1f ms; the server's side once warm %.1f ms)",
                    handshakes, wallNanos / 1e9, firstCpuNanos / 1e6, lastCpuNanos / 1e6, serverCpuNanos / 1e6);
        }
    }

    /**
     * Handshakes whose server-side cost is the warm-up's measurement. A median, because one of them may carry a
     * GC pause or a compilation; the last ones, because the first are the cold cost the warm-up exists to pay.
     */
    static final int SETTLED = 16;

    /**
     * Runs up to {@code count} full handshakes, each with a new engine from {@code serverEngines}, stopping early
     * once {@code limit} has passed. A handshake that fails ends the warm-up (logged): a warm-up never fails a start.
     */
    public static Result run(Supplier<SSLEngine> serverEngines, int count, Duration limit) {
        Objects.requireNonNull(serverEngines, "serverEngines");
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0, was " + count);
        }
        long start = System.nanoTime();
        long deadline = start + limit.toNanos();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        boolean cpuTime = threads.isCurrentThreadCpuTimeSupported();
        LongSupplier cpu = cpuTime ? threads::getCurrentThreadCpuTime : () -> 0;
        long[] serverCpu = new long[SETTLED];
        int done = 0;
        long first = 0;
        long last = 0;
        try {
            SSLContext client = trustingClientContext();
            for (; done < count && System.nanoTime() < deadline; done++) {
                SSLEngine server = serverEngines.get();
                server.setUseClientMode(false);
                SSLEngine peer = client.createSSLEngine("tlsadmit-warm-up", 443);
                peer.setUseClientMode(true);
                peer.setEnabledProtocols(server.getEnabledProtocols());
                long before = cpu.getAsLong();
                serverCpu[done % SETTLED] = handshake(peer, server, cpu);
                // Full handshakes only: the next one must not resume this session (TLS 1.2 would, from the client's cache).
                peer.getSession().invalidate();
                last = cpu.getAsLong() - before;
                if (done == 0) {
                    first = last;
                }
            }
        } catch (GeneralSecurityException | SSLException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "TLS warm-up stopped after " + done + " handshakes: " + e);
        }
        return new Result(done, System.nanoTime() - start, first, last, median(serverCpu, Math.min(done, SETTLED)));
    }

    private static long median(long[] values, int count) {
        if (count == 0) {
            return 0;
        }
        long[] sorted = Arrays.copyOf(values, count);
        Arrays.sort(sorted);
        return count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2;
    }

    /**
     * A client context that trusts any server: the warm-ups talk to their own server, in memory or over its own
     * port, and the certificate it shows is the operator's; there is nobody to authenticate.
     */
    static SSLContext trustingClientContext() throws GeneralSecurityException {
        TrustManager anyServer = new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] {anyServer}, null);
        return context;
    }

    /**
     * Drives both engines until neither is handshaking; records flow through one buffer each way.
     *
     * @param cpu this thread's CPU clock, read around the server engine's turns
     * @return the CPU time of the server engine's turns
     */
    static long handshake(SSLEngine client, SSLEngine server, LongSupplier cpu) throws SSLException {
        int packet = Math.max(client.getSession().getPacketBufferSize(), server.getSession().getPacketBufferSize());
        int application = Math.max(client.getSession().getApplicationBufferSize(), server.getSession().getApplicationBufferSize());
        // Room for a whole flight: JSSE wraps a record only into room for the largest one.
        ByteBuffer toServer = ByteBuffer.allocate(4 * packet);
        ByteBuffer toClient = ByteBuffer.allocate(4 * packet);
        ByteBuffer scratch = ByteBuffer.allocate(application);
        client.beginHandshake();
        server.beginHandshake();
        long serverCpu = 0;
        for (int step = 0; step < MAX_STEPS; step++) {
            boolean moved = advance(client, toServer, toClient, scratch);
            long before = cpu.getAsLong();
            moved |= advance(server, toClient, toServer, scratch);
            serverCpu += cpu.getAsLong() - before;
            if (client.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING
                    && server.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING) {
                return serverCpu;
            }
            if (!moved && client.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING && toServer.position() == 0
                    && finishedOnEmptyRead(server, scratch)) {
                return serverCpu;
            }
            if (!moved) {
                throw new SSLException("warm-up handshake made no progress (client " + client.getHandshakeStatus()
                        + ", server " + server.getHandshakeStatus() + ")");
            }
        }
        throw new SSLException("warm-up handshake did not finish in " + MAX_STEPS + " steps");
    }

    /**
     * Whether a server engine that has read everything the client sent finishes when asked to read once more.
     * BoringSSL's engine (netty-tcnative) keeps reporting {@code NEED_UNWRAP} after the client's last flight until a
     * read, even an empty one, lets it see that its handshake completed.
     */
    private static boolean finishedOnEmptyRead(SSLEngine server, ByteBuffer scratch) throws SSLException {
        if (server.getHandshakeStatus() != HandshakeStatus.NEED_UNWRAP) {
            return false;
        }
        scratch.clear();
        server.unwrap(EMPTY, scratch);
        HandshakeStatus status = server.getHandshakeStatus();
        return status == HandshakeStatus.NOT_HANDSHAKING || status == HandshakeStatus.FINISHED;
    }

    /** One engine's turn: its tasks, what the peer sent it, what it has to send. Whether anything happened. */
    private static boolean advance(SSLEngine engine, ByteBuffer out, ByteBuffer in, ByteBuffer scratch) throws SSLException {
        boolean moved = false;
        in.flip();
        try {
            while (true) {
                HandshakeStatus status = engine.getHandshakeStatus();
                if (status == HandshakeStatus.NEED_TASK) {
                    Runnable task;
                    while ((task = engine.getDelegatedTask()) != null) {
                        task.run();
                    }
                    moved = true;
                } else if (status == HandshakeStatus.NEED_WRAP) {
                    SSLEngineResult result = engine.wrap(EMPTY, out);
                    if (result.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
                        return moved; // the peer reads what is there first
                    }
                    if (result.getStatus() != SSLEngineResult.Status.OK) {
                        throw new SSLException("warm-up wrap: " + result.getStatus());
                    }
                    moved = true;
                } else if ((status == HandshakeStatus.NEED_UNWRAP || status == HandshakeStatus.NEED_UNWRAP_AGAIN)
                        && in.hasRemaining()) {
                    scratch.clear();
                    SSLEngineResult result = engine.unwrap(in, scratch);
                    if (result.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW) {
                        return moved;
                    }
                    moved = true;
                } else {
                    return moved;
                }
            }
        } finally {
            in.compact();
        }
    }
}

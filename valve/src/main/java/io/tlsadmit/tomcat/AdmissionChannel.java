package io.tlsadmit.tomcat;

import io.tlsadmit.classifier.ClientHello;
import io.tlsadmit.classifier.Verdict;
import io.tlsadmit.gate.ConnectionAdmission;
import io.tlsadmit.gate.ConnectorGate;
import io.tlsadmit.gate.Decision;
import io.tlsadmit.gate.LateGate;
import io.tlsadmit.gate.RefuseAction;
import io.tlsadmit.gate.ServerHelloObserver;
import io.tlsadmit.tomcat.worker.WorkClass;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngineResult;
import org.apache.tomcat.util.buf.ByteBufferUtils;
import org.apache.tomcat.util.net.NioEndpoint.NioSocketWrapper;
import org.apache.tomcat.util.net.SSLSupport;
import org.apache.tomcat.util.net.SecureNioChannel;
import org.apache.tomcat.util.net.SocketBufferHandler;

/**
 * A TLS channel that is gated before its SSLEngine exists. {@link #processSNI()} runs on the first
 * read of a new connection: the ClientHello is buffered (across reads, within
 * {@code connectionTimeout}) and classified, and the connection is refused there, before any
 * cryptography, unless it is a resumption or the budget has a token for a new handshake. The
 * handshake itself is then Tomcat's; this class only watches the server's records for the truth.
 *
 * Channels are pooled by the endpoint: all per-connection state is reset in {@link #reset}.
 */
final class AdmissionChannel extends SecureNioChannel {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final boolean CPU_TIME = THREADS.isCurrentThreadCpuTimeSupported();

    private final AdmissionNioEndpoint endpoint;
    private final ConnectorGate gate;
    private final ConnectionAdmission admission;
    /**
     * Classifier scratch (about 15 KB: its extension bitmap and the hello copy) per worker thread, not per channel:
     * channels live as long as their connections, and thousands of them are open under load, while
     * the hello is only looked at during one {@link #admit()} call on one thread.
     */
    private static final ThreadLocal<ClientHello> SCRATCH = ThreadLocal.withInitial(ClientHello::new);
    private final ServerHelloObserver serverHello = new ServerHelloObserver();
    private final byte[] sessionId = new byte[32];
    private boolean handshakeStarted;
    /**
     * When the poller last handed this connection to the worker pool. Written by the poller before
     * the task is queued and read by the worker that runs it: the executor's hand-off orders the two.
     */
    private long dispatchedNanos;

    AdmissionChannel(SocketBufferHandler bufHandler, AdmissionNioEndpoint endpoint, ConnectorGate gate) {
        super(bufHandler, endpoint);
        this.endpoint = endpoint;
        this.gate = gate;
        this.admission = new ConnectionAdmission(gate);
    }

    @Override
    public void reset(SocketChannel channel, NioSocketWrapper socketWrapper) throws IOException {
        if (channel == null && admission.acceptNanos() != 0 && !admission.isDecided()) {
            // Closed (timeout, EOF, shutdown of the client) before the hello was complete.
            gate.abandoned(admission);
        }
        super.reset(channel, socketWrapper);
        admission.reset(channel == null ? 0 : System.nanoTime());
        serverHello.reset();
        handshakeStarted = false;
        dispatchedNanos = 0;
        if (channel != null && endpoint.acceptedVerdict() != null) {
            admission.admittedOnAccept(endpoint.acceptedVerdict(), endpoint.acceptedNanos());
        }
    }

    @Override
    protected int processSNI() throws IOException {
        if (!admission.isDecided()) {
            int gated = admit();
            if (gated != 0) {
                return gated;
            }
        }
        return super.processSNI();
    }

    /** @return 0 when admitted, -1 to close, or {@link SelectionKey#OP_READ} to wait for more of the hello */
    private int admit() throws IOException {
        int read = sc.read(netInBuffer);
        ClientHello hello = SCRATCH.get();
        Verdict verdict = classifyBuffered(hello);
        if (verdict == Verdict.INCOMPLETE) {
            if (read < 0 || overConnectionTimeout()) {
                gate.abandoned(admission);
                return -1;
            }
            if (!netInBuffer.hasRemaining()) {
                int capacity = netInBuffer.capacity();
                if (capacity >= endpoint.maxHelloBuffer()) {
                    // More than any hello the policy admits, still incomplete (e.g. one-byte records).
                    verdict = Verdict.MALFORMED;
                } else {
                    netInBuffer = ByteBufferUtils.expand(netInBuffer, Math.min(capacity * 2, endpoint.maxHelloBuffer()));
                    return SelectionKey.OP_READ;
                }
            } else {
                return SelectionKey.OP_READ;
            }
        }
        if (verdict == Verdict.RESUME_SESSION_ID && !isSessionCached(hello)) {
            verdict = Verdict.NEW;
        }
        if (gate.decide(admission, verdict, System.nanoTime()) == Decision.ADMITTED) {
            return 0;
        }
        if (gate.refuseAction() == RefuseAction.RESET) {
            try {
                sc.setOption(StandardSocketOptions.SO_LINGER, 0);
            } catch (IOException | UnsupportedOperationException e) {
                // the connection is closed either way; a FIN instead of a RST is acceptable
            }
        }
        return -1;
    }

    /** Classifies what has arrived without moving the buffer (it stays in write mode for the engine). */
    private Verdict classifyBuffered(ClientHello hello) {
        int end = netInBuffer.position();
        int limit = netInBuffer.limit();
        netInBuffer.flip();
        try {
            return gate.classifier().classify(netInBuffer, hello);
        } finally {
            netInBuffer.limit(limit);
            netInBuffer.position(end);
        }
    }

    private boolean isSessionCached(ClientHello hello) {
        if (!endpoint.canVerifySessionIds()) {
            return true; // the engine cannot be asked (OpenSSL): trust the client, there is no late gate either
        }
        int length = hello.copySessionId(sessionId);
        return endpoint.isSessionCached(hello.sni(), sessionId, length);
    }

    private boolean overConnectionTimeout() {
        long timeoutMillis = endpoint.getConnectionTimeout();
        return timeoutMillis > 0
                && System.nanoTime() - admission.acceptNanos() > TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    }

    @Override
    public int handshake(boolean read, boolean write) throws IOException {
        if (handshakeComplete) {
            return 0;
        }
        if (!handshakeStarted) {
            handshakeStarted = true;
            if (dispatchedNanos != 0) {
                gate.handshakeStarted(System.nanoTime() - dispatchedNanos);
            }
        }
        long cpuStart = CPU_TIME ? THREADS.getCurrentThreadCpuTime() : 0;
        int result;
        LateGate.enter(admission);
        try {
            result = super.handshake(read, write);
        } finally {
            LateGate.exit();
            if (CPU_TIME) {
                admission.addHandshakeCpu(THREADS.getCurrentThreadCpuTime() - cpuStart);
            }
        }
        if (result == 0 && serverHello.kind() != null) {
            gate.handshakeCompleted(admission, serverHello.kind(), serverHello.version());
        }
        return result;
    }

    @Override
    protected SSLEngineResult handshakeWrap(boolean doWrite) throws IOException {
        SSLEngineResult result = super.handshakeWrap(doWrite);
        if (!serverHello.isDone()) {
            // The wrap left this flight's records in [0, limit); a flush may have moved the position.
            serverHello.onServerRecords(netOutBuffer, 0, netOutBuffer.limit());
        }
        return result;
    }

    /** The poller is handing this connection's next event to the worker pool now. */
    void dispatched(long nanos) {
        dispatchedNanos = nanos;
    }

    /**
     * How much work the next event of this connection is, for the worker queue: read by the poller
     * when it dispatches, written by the worker that last ran the connection (a hint; a stale answer
     * only misorders one task).
     */
    WorkClass workClass() {
        if (handshakeComplete) {
            return WorkClass.SHORT;
        }
        Verdict verdict = admission.verdict();
        if (verdict == null) {
            return WorkClass.UNCLASSIFIED;
        }
        return verdict.isResumption() && !admission.isFullHandshakeCharged() ? WorkClass.SHORT
                : WorkClass.NEW_FULL_HANDSHAKE;
    }

    @Override
    public SSLSupport getSSLSupport() {
        SSLSupport engineSupport = super.getSSLSupport();
        if (engineSupport == null) {
            return null;
        }
        Verdict verdict = admission.verdict();
        return new AdmittedSslSupport(engineSupport, verdict == null ? null : verdict.name(),
                serverHello.kind() == null ? null : serverHello.kind().name());
    }
}

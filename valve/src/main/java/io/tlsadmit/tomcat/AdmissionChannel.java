package io.tlsadmit.tomcat;

import io.tlsadmit.admission.HandshakeKind;
import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.classifier.ClientHello;
import io.tlsadmit.classifier.Verdict;
import io.tlsadmit.gate.ConnectionAdmission;
import io.tlsadmit.gate.ConnectorGate;
import io.tlsadmit.gate.HelloAdmission;
import io.tlsadmit.gate.HelloRecords;
import io.tlsadmit.gate.LateGate;
import io.tlsadmit.gate.RefuseAction;
import io.tlsadmit.gate.RenegotiationWatch;
import io.tlsadmit.gate.ServerHelloObserver;
import io.tlsadmit.gate.SlowHelloReason;
import io.tlsadmit.gate.ThreadCpuClock;
import io.tlsadmit.gate.priority.LowPriorityHandshakes;
import io.tlsadmit.gate.source.PendingHellos;
import io.tlsadmit.gate.source.SourcePrefix;
import io.tlsadmit.tomcat.worker.WorkClass;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import org.apache.tomcat.util.buf.ByteBufferUtils;
import org.apache.tomcat.util.net.NioEndpoint.NioSocketWrapper;
import org.apache.tomcat.util.net.SSLSupport;
import org.apache.tomcat.util.net.SecureNioChannel;
import org.apache.tomcat.util.net.SocketBufferHandler;
import org.apache.tomcat.util.net.openssl.ciphers.Cipher;
import org.apache.tomcat.util.net.openssl.ciphers.Group;
import org.apache.tomcat.util.net.openssl.ciphers.SignatureScheme;

/**
 * A TLS channel that is gated before its SSLEngine exists. {@link #processSNI()} runs on the first
 * read of a new connection: the ClientHello is buffered (across reads, within {@code helloTimeout})
 * and classified, and the connection is refused there, before any cryptography, unless it is a
 * resumption or the budget has a token for a new handshake. The handshake itself is then Tomcat's;
 * this class watches the server's records for the truth, tells a false offer's engine to fail early,
 * and stands between the engine and a TLS 1.2 renegotiation.
 *
 * Channels are pooled by the endpoint: all per-connection state is reset in {@link #reset}.
 */
final class AdmissionChannel extends SecureNioChannel {

    private final AdmissionNioEndpoint endpoint;
    private final ConnectorGate gate;
    private final ConnectionAdmission admission;
    private final HelloAdmission hello;
    /**
     * Whether each handshake step reads the worker's CPU clock: only an adaptive budget learns from it (a static
     * one ignores it, and so do the metrics), and each reading is a system call (clock_gettime on the thread's
     * CPU clock), two per step, 8 per TLS 1.2 resumption.
     */
    private final boolean timesHandshakes;
    /**
     * Classifier scratch (about 15 KB: its extension bitmap and the hello copy) per worker thread, not per channel:
     * channels live as long as their connections, and thousands of them are open under load, while
     * the hello is only looked at during one {@link #admit()} call on one thread.
     */
    private static final ThreadLocal<ClientHello> SCRATCH = ThreadLocal.withInitial(ClientHello::new);
    /**
     * The channel whose engine this thread is inside now, for an engine whose late gate finds its connection by the
     * thread ({@link LateGatedImplementation#findsConnectionByThread()}: OpenSSL's certificate callback, which gets
     * only the native {@code SSL*}). Set around each engine call that can process a client's handshake message, and
     * only on such connectors; empty otherwise.
     */
    private static final ThreadLocal<AdmissionChannel> DRIVING = new ThreadLocal<>();
    private final ServerHelloObserver serverHello = new ServerHelloObserver();
    private final RenegotiationWatch renegotiations;
    /** Engine calls say which connection they are for ({@link #DRIVING}): the engine is Tomcat's OpenSSL, gated. */
    private final boolean drivesByThread;
    private final PendingHellos.Entry pending = new PendingHellos.Entry(this);
    private boolean handshakeStarted;
    /** Opened by the connector's own application warm-up, not by a client. */
    private boolean warmUp;
    /** The acceptor admitted this connection from a peek that saw its whole hello in one record. */
    private boolean helloInOneRecord;
    /** Why the slow-hello limits closed this connection while it waited for its hello (set by the acceptor). */
    private volatile SlowHelloReason evicted;
    /**
     * When the poller last handed this connection to the worker pool. Written by the poller before
     * the task is queued and read by the worker that runs it: the executor's hand-off orders the two.
     */
    private long dispatchedNanos;
    /** The worker's CPU clock when this handshake step's timing started; -1 while the step is not timed. */
    private long stepCpuStart = -1;
    /** {@link System#nanoTime()} when the step's timing started, beside {@link #stepCpuStart}. */
    private long stepWallStart;

    AdmissionChannel(SocketBufferHandler bufHandler, AdmissionNioEndpoint endpoint, ConnectorGate gate) {
        super(bufHandler, endpoint);
        this.endpoint = endpoint;
        this.gate = gate;
        this.admission = new ConnectionAdmission(gate);
        this.hello = new HelloAdmission(admission, endpoint.helloServer());
        this.renegotiations = new RenegotiationWatch(admission);
        this.drivesByThread = endpoint.findsConnectionByThread();
        this.timesHandshakes = ThreadCpuClock.isSupported() && gate.budget().view(AdmissionController.class).isPresent();
    }

    @Override
    public void reset(SocketChannel channel, NioSocketWrapper socketWrapper) throws IOException {
        if (sslEngine != null) {
            LateGate.unbind(sslEngine);
        }
        if (channel == null) {
            connectionClosed();
        }
        super.reset(channel, socketWrapper);
        long now = System.nanoTime();
        admission.reset(channel == null ? 0 : now, channel == null ? SourcePrefix.UNKNOWN : endpoint.acceptedSource(),
                channel == null ? SourcePrefix.UNKNOWN : endpoint.acceptedHost());
        serverHello.reset();
        hello.reset();
        handshakeStarted = false;
        evicted = null;
        renegotiations.reset();
        dispatchedNanos = 0;
        warmUp = channel != null && endpoint.acceptedWarmUp();
        helloInOneRecord = false;
        if (channel == null) {
            return;
        }
        Verdict onAccept = endpoint.acceptedVerdict();
        if (endpoint.acceptedBypass()) {
            gate.bypassed(admission);
        } else if (onAccept != null) {
            admission.admittedOnAccept(onAccept, endpoint.acceptedNanos(), onAccept == Verdict.NEW,
                    endpoint.acceptedSessionIdVerified());
            helloInOneRecord = endpoint.acceptedHelloInOneRecord();
        } else {
            endpoint.pendingHellos().add(pending, admission.source(), now);
        }
    }

    /** The connection is gone: whatever it was waiting for or spent is accounted for now. */
    private void connectionClosed() {
        endpoint.pendingHellos().remove(pending);
        if (admission.acceptNanos() != 0 && !admission.isDecided()) {
            if (evicted != null) {
                gate.slowHelloClosed(evicted);
            } else if (!gate.isObserving() && System.nanoTime() - admission.acceptNanos() >= endpoint.helloTimeoutNanos()) {
                gate.slowHelloClosed(SlowHelloReason.TIMEOUT);
            }
            gate.abandoned(admission);
        }
        // A client that leaves after the server's first flight still cost that flight.
        gate.handshakeEnded(admission);
    }

    /** Tomcat closes every connection through here, also when the endpoint stops and skips {@link #reset}. */
    @Override
    public void close(boolean force) throws IOException {
        if (sslEngine != null) {
            LateGate.unbind(sslEngine);
        }
        super.close(force);
    }

    /** Marks this connection as closed by the slow-hello limits; the endpoint then closes it. */
    void evict(SlowHelloReason reason) {
        evicted = reason;
    }

    /** The wrapper of the connection this channel serves now; null once closed. */
    NioSocketWrapper wrapper() {
        return socketWrapper;
    }

    @Override
    protected int processSNI() throws IOException {
        if (!admission.isDecided()) {
            int gated = admit();
            if (gated != 0) {
                return gated;
            }
            if (timesHandshakes && admission.timesHandshakeCpu()) {
                stepCpuStart = ThreadCpuClock.nanos();
                stepWallStart = System.nanoTime();
            }
        } else if (!helloInOneRecord && sc.read(netInBuffer) >= 0) {
            // Decided on accept from a peek: the hello is here, and may still need its records joined. In one record
            // (nearly always) Tomcat's own read below is the only one: reading here first costs that read a second
            // system call that finds nothing, and this a second classification.
            ClientHello hello = SCRATCH.get();
            if (classifyBuffered(hello).isFinal()) {
                joinRecords(hello);
            }
        }
        return super.processSNI();
    }

    /** A hello over several records is handed on as one, so Tomcat's SNI extractor reads all of it, quietly. */
    private void joinRecords(ClientHello hello) {
        netInBuffer.position(HelloRecords.join(netInBuffer, netInBuffer.position(), hello));
    }

    /** @return 0 when admitted, -1 to close, or {@link SelectionKey#OP_READ} to wait for more of the hello */
    private int admit() throws IOException {
        int read = sc.read(netInBuffer);
        ClientHello scratch = SCRATCH.get();
        HelloAdmission.Step step;
        // The gate reads [position, limit); netInBuffer stays in write mode for the engine.
        int end = netInBuffer.position();
        int limit = netInBuffer.limit();
        netInBuffer.flip();
        try {
            step = hello.onBytes(netInBuffer, read < 0, System.nanoTime(), scratch);
        } finally {
            netInBuffer.limit(limit);
            netInBuffer.position(end);
        }
        switch (step) {
            case WAIT:
                return SelectionKey.OP_READ;
            case GROW:
                netInBuffer = ByteBufferUtils.expand(netInBuffer, hello.capacityWanted());
                return SelectionKey.OP_READ;
            case ADMIT:
                endpoint.pendingHellos().remove(pending);
                socketWrapper.setReadTimeout(endpoint.getConnectionTimeout()); // the hello's own timeout is over
                joinRecords(scratch);
                return 0;
            default:
                break;
        }
        if (hello.refusal() != HelloAdmission.Refusal.DECIDED) {
            return -1; // the client left or ran out of time: counted when the connection closes
        }
        endpoint.pendingHellos().remove(pending);
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

    /**
     * The engine exists now and has not started: bind it to this connection for the key manager, and
     * forbid a new session to an offer that must not turn into an unpaid full handshake (the engine
     * copies this setting when the handshake begins, so here is the last moment to set it).
     */
    @Override
    protected void createSSLEngine(String hostName, List<Cipher> clientRequestedCiphers,
            List<String> clientRequestedApplicationProtocols, List<String> clientRequestedProtocols,
            List<Group> clientSupportedGroups, List<SignatureScheme> clientSignatureSchemes) {
        super.createSSLEngine(hostName, clientRequestedCiphers, clientRequestedApplicationProtocols,
                clientRequestedProtocols, clientSupportedGroups, clientSignatureSchemes);
        LateGate.bind(sslEngine, admission);
        if (endpoint.isLateGated() && gate.blockNewSession(admission) && !drivesByThread) {
            // OpenSSL's engine has no such switch: its certificate callback refuses instead (certificateNeeded)
            sslEngine.setEnableSessionCreation(false);
        }
    }

    /**
     * The channel whose engine the current thread is inside, if that engine finds its connection by the thread
     * (OpenSSL); null otherwise, e.g. during the connector's warm-up, which no connection pays for.
     */
    static AdmissionChannel drivingEngine() {
        return DRIVING.get();
    }

    /**
     * OpenSSL's late gate: the engine of this connection is about to do a full handshake and needs its certificate
     * (OpenSSL calls the certificate callback only then, never for a resumption, and before any key exchange or
     * signature). A client's TLS 1.2 renegotiation, if OpenSSL lets one through, is decided as with JSSE; an offer
     * whose engine would have been told not to create a session (distrusted source, or no token when the engine was
     * made) is refused as JSSE's engine would fail it; anything else is charged to the budget, refused when empty.
     *
     * @return false to refuse: the handshake fails with an alert before the server sends its first flight
     */
    boolean certificateNeeded() {
        if (renegotiations.onHandshakeMessage() == RenegotiationWatch.Step.REFUSE) {
            return false;
        }
        long now = System.nanoTime();
        if (admission.isNewSessionBlocked() && !admission.isRenegotiating() && !admission.isFullHandshakeCharged()) {
            gate.refusedWithoutNewSession(admission, now);
            return false;
        }
        return gate.chargeFullHandshake(admission, now);
    }

    /** Marks this thread as inside this channel's engine; returns what to restore afterwards ({@link #undrive}). */
    private AdmissionChannel drive() {
        if (!drivesByThread) {
            return null;
        }
        AdmissionChannel outer = DRIVING.get();
        DRIVING.set(this);
        return outer;
    }

    private void undrive(AdmissionChannel outer) {
        if (!drivesByThread) {
            return;
        }
        if (outer == null) {
            DRIVING.remove();
        } else {
            DRIVING.set(outer);
        }
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
        // A connection not decided yet starts its timing in processSNI, once the hello says whether to (a resumption
        // offer draws its sample there); reading and classifying the hello is the gate's work.
        stepCpuStart = timesHandshakes && admission.isDecided() && admission.timesHandshakeCpu()
                ? ThreadCpuClock.nanos() : -1;
        stepWallStart = stepCpuStart >= 0 ? System.nanoTime() : 0;
        int result;
        AdmissionChannel outer = drive();
        try {
            result = super.handshake(read, write);
        } catch (IOException e) {
            if (admission.isNewSessionBlocked() && serverHello.kind() == null) {
                // The engine would have had to create a session: the ticket or PSK was not one it can resume.
                gate.refusedWithoutNewSession(admission, System.nanoTime());
            }
            throw e;
        } finally {
            undrive(outer);
            if (stepCpuStart >= 0) {
                admission.addHandshakeStep(ThreadCpuClock.nanos() - stepCpuStart, System.nanoTime() - stepWallStart);
                stepCpuStart = -1;
            }
        }
        if (result == 0 && handshakeComplete) {
            gate.handshakeEnded(admission);
            renegotiations.handshakeCompleted(sslEngine.getSession().getProtocol());
            if (admission.isNewSessionBlocked() && sslEngine != null) {
                sslEngine.setEnableSessionCreation(true); // a renegotiation, if allowed, is a handshake of its own
            }
        }
        return result;
    }

    @Override
    protected SSLEngineResult handshakeWrap(boolean doWrite) throws IOException {
        SSLEngineResult result = super.handshakeWrap(doWrite);
        if (!serverHello.isDone()) {
            // The wrap left this flight's records in [0, limit); a flush may have moved the position.
            serverHello.onServerRecords(netOutBuffer, 0, netOutBuffer.limit());
            if (serverHello.kind() != null) {
                gate.serverFlight(admission, serverHello.kind(), serverHello.version(), System.nanoTime());
            }
        }
        return result;
    }

    /**
     * The engine has work to do. Once the handshake is complete, that is a handshake message from the client: on
     * TLS 1.2 a renegotiation it started, which the gate's {@link RenegotiationWatch} decides (Tomcat's read fills
     * the buffer and unwraps it in one method, so the engine's request for a task is where this adapter can see
     * it). A refused one is stopped here, before the engine's task parses the new hello, and the read that found
     * it fails.
     */
    @Override
    protected HandshakeStatus tasks() {
        if (handshakeComplete && renegotiations.onHandshakeMessage() == RenegotiationWatch.Step.REFUSE) {
            netInBuffer.clear(); // nothing more is read from this connection; ends the unwrap loop of read()
            return sslEngine.getHandshakeStatus();
        }
        LowPriorityHandshakes lowPriority = endpoint.lowPriorityHandshakes();
        if (lowPriority != null && !handshakeComplete && !drivesByThread && isNewFullHandshake()) {
            SSLEngine engine = sslEngine;
            LowPriorityHandshakes.Handover step = lowPriority.run(() -> {
                Runnable task;
                while ((task = engine.getDelegatedTask()) != null) {
                    task.run();
                }
            });
            if (step != null) {
                // Queued for a thread there, the new client waited for the CPU as it would have in the run queue.
                gate.handshakeQueued(step.queuedNanos());
                if (timesHandshakes) {
                    // The worker's own clocks, around handshake(), did not see the step: it waited, not runnable.
                    admission.addHandshakeStep(step.cpuNanos(), step.wallNanos());
                    stepWallStart += step.queuedNanos() + step.wallNanos();
                }
                return engine.getHandshakeStatus();
            }
        }
        return super.tasks();
    }

    /**
     * Whether this handshake's tasks are a new client's signature and key exchange: the server's first flight says
     * so once sent (a TLS 1.2 client's key exchange comes after it); before it, the verdict does. A resumption the
     * engine turns into a full handshake (an unknown ticket) is not known as one before its first flight: its
     * signature runs on the worker.
     */
    private boolean isNewFullHandshake() {
        HandshakeKind truth = serverHello.kind();
        return truth != null ? truth == HandshakeKind.FULL : workClass() == WorkClass.NEW_FULL_HANDSHAKE;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        int read;
        AdmissionChannel outer = drive();
        try {
            read = super.read(dst);
        } finally {
            undrive(outer);
        }
        afterRead();
        return read;
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        long read;
        AdmissionChannel outer = drive();
        try {
            read = super.read(dsts, offset, length);
        } finally {
            undrive(outer);
        }
        afterRead();
        return read;
    }

    private void afterRead() throws IOException {
        if (renegotiations.isRefused()) {
            throw new IOException("tlsadmit: client-initiated renegotiation refused on " + gate.name());
        }
        SSLEngine engine = sslEngine;
        if (admission.isRenegotiating() && engine != null
                && engine.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING) {
            renegotiations.engineIdle();
        }
    }

    /** Tomcat asks the client for a certificate after the first handshake (TLS 1.2): charged, never refused early. */
    @Override
    public void rehandshake(long timeout) throws IOException {
        renegotiations.serverRenegotiation();
        AdmissionChannel outer = drive();
        try {
            super.rehandshake(timeout);
        } finally {
            undrive(outer);
            renegotiations.serverRenegotiationEnded();
        }
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

    /** The ClientHello verdict this connection was admitted with; null while undecided. */
    String verdictName() {
        Verdict verdict = admission.verdict();
        return verdict == null ? null : verdict.name();
    }

    /** Whether the connector's own application warm-up opened this connection. */
    boolean isWarmUp() {
        return warmUp;
    }

    /** FULL or RESUMED as the server's first flight showed; null before it. */
    String handshakeName() {
        return serverHello.kind() == null ? null : serverHello.kind().name();
    }

    @Override
    public SSLSupport getSSLSupport() {
        SSLSupport engineSupport = super.getSSLSupport();
        if (engineSupport == null) {
            return null;
        }
        Verdict verdict = admission.verdict();
        return new AdmittedSslSupport(engineSupport, verdict == null ? null : verdict.name(),
                serverHello.kind() == null ? null : serverHello.kind().name(), warmUp);
    }
}

package io.tlsadmit.tomcat;

import io.tlsadmit.classifier.ClientHello;
import io.tlsadmit.classifier.ServerPolicy;
import io.tlsadmit.classifier.TlsVersion;
import io.tlsadmit.classifier.Verdict;
import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.gate.ConnectorGate;
import io.tlsadmit.gate.Decision;
import io.tlsadmit.gate.GateConfig;
import io.tlsadmit.gate.HelloAdmission;
import io.tlsadmit.gate.HelloRecords;
import io.tlsadmit.gate.RefuseAction;
import io.tlsadmit.gate.SlowHelloLimits;
import io.tlsadmit.gate.SlowHelloReason;
import io.tlsadmit.gate.source.AddressRanges;
import io.tlsadmit.gate.source.PendingHellos;
import io.tlsadmit.gate.source.SourcePrefix;
import io.tlsadmit.gate.priority.LowPriorityHandshakes;
import io.tlsadmit.gate.warmup.HandshakeWarmUp;
import io.tlsadmit.gate.warmup.RequestWarmUp;
import io.tlsadmit.peek.NativePeek;
import io.tlsadmit.tomcat.worker.RankedWork;
import io.tlsadmit.tomcat.worker.ShortestWorkFirstExecutor;
import io.tlsadmit.tomcat.worker.ShortestWorkFirstQueue;
import io.tlsadmit.tomcat.worker.WorkClass;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import javax.net.ssl.SSLSessionContext;
import org.apache.tomcat.util.net.Acceptor;
import org.apache.tomcat.util.net.NioChannel;
import org.apache.tomcat.util.net.NioEndpoint;
import org.apache.tomcat.util.net.SSLContext;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.apache.tomcat.util.net.SocketBufferHandler;
import org.apache.tomcat.util.net.SocketEvent;
import org.apache.tomcat.util.net.SocketProcessorBase;
import org.apache.tomcat.util.net.SocketWrapperBase;
import org.apache.tomcat.util.net.jsse.JSSEImplementation;
import org.apache.tomcat.util.threads.TaskThreadFactory;

/**
 * Tomcat's NIO endpoint with gated TLS channels. When native-peek is available the acceptor already
 * looks at the first bytes of each accepted connection ({@code recv(MSG_PEEK)}, nothing consumed):
 * if the whole hello is there, the connection is decided before it gets a channel, and a refused one
 * never reaches the poller or a worker thread. Everything else is decided in
 * {@link AdmissionChannel#processSNI()}.
 */
public class AdmissionNioEndpoint extends NioEndpoint {

    /** A typical hello is 0.5 to 2 KB; a larger one is decided by the channel instead. */
    private static final int PEEK_BUFFER = 8192;
    /** What a refused client may have sent before its close: a hello, and more than it, up to its socket buffer. */
    private static final int DISCARD_LIMIT = 64 * 1024;

    /** Record headers can add up to a few times the hello itself when a client fragments it finely. */
    private static final int HELLO_BUFFER_FACTOR = 4;
    /** A warm-up never holds a start longer than this, whatever the key costs (RSA-8192 on a slow CPU). */
    private static final Duration WARM_UP_LIMIT = Duration.ofSeconds(5);
    /** How long the kernel holds a connection that has sent nothing before handing it over (the shortest it can). */
    private static final int DEFER_ACCEPT_SECONDS = 1;

    private volatile ConnectorGate gate;
    private volatile int maxHelloBuffer = HELLO_BUFFER_FACTOR * (ServerPolicy.DEFAULT.maxHelloLength() + 9);
    private volatile boolean nativePeek = true;
    private volatile boolean peekOnAccept;
    private volatile boolean shortestWorkFirst = true;
    private volatile int warmUpHandshakes = AdmissionNioProtocol.DEFAULT_WARM_UP_HANDSHAKES;
    /** 0: full handshakes run on the worker that drives them; 1-19: on threads at that nice value. */
    private volatile int fullHandshakeNice = AdmissionNioProtocol.DEFAULT_FULL_HANDSHAKE_NICE;
    /** Built in {@link #startInternal()}, gone after {@link #stopInternal()}; null when not used. */
    private volatile LowPriorityHandshakes lowPriorityHandshakes;
    private volatile long helloTimeoutNanos = Long.MAX_VALUE;
    private volatile boolean deferringAccept;
    private final HelloAdmission.Server helloServer = new HelloServer();
    private volatile AddressRanges bypassAddresses = AddressRanges.NONE;
    /** While the application warm-up runs: its clients' addresses; everybody else is closed at accept. */
    private volatile Set<SocketAddress> warmUpClients;
    private final LongAdder closedWhileWarmingUp = new LongAdder();

    // Acceptor thread only: setSocketOptions() hands its verdict to the channel's reset(), which
    // Tomcat calls synchronously from it on the same thread.
    private ByteBuffer peekBuffer;
    private ClientHello peekedHello;
    private final byte[] peekedSessionId = new byte[32];
    private Verdict acceptedVerdict;
    private boolean acceptedSessionIdVerified;
    private boolean acceptedHelloInOneRecord;
    private long acceptedNanos;
    private long acceptedSource;
    private long acceptedHost;
    private boolean acceptedBypass;
    private boolean acceptedWarmUp;

    /** The connector's gate and what else its settings tell this endpoint; set by the protocol at init. */
    void gate(ConnectorGate gate, GateConfig config, SlowHelloLimits limits) {
        this.gate = gate;
        gate.slowHelloLimits(limits);
        this.helloTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(limits.helloTimeoutMillis());
        nativePeek(config.nativePeek());
        this.bypassAddresses = config.bypassAddresses();
    }

    ConnectorGate gate() {
        return gate;
    }

    @Override
    protected NioChannel createChannel(SocketBufferHandler buffer) {
        ConnectorGate current = gate;
        if (isSSLEnabled() && current != null) {
            return new AdmissionChannel(buffer, this, current);
        }
        return super.createChannel(buffer);
    }

    /** Whether the connection being set up comes from a bypass address (acceptor thread only). */
    boolean acceptedBypass() {
        return acceptedBypass;
    }

    /** Whether the connection being set up is the application warm-up's ({@link RequestWarmUp}). */
    boolean acceptedWarmUp() {
        return acceptedWarmUp;
    }

    PendingHellos pendingHellos() {
        ConnectorGate current = gate;
        return current.pendingHellos();
    }

    long helloTimeoutNanos() {
        return helloTimeoutNanos;
    }

    void warmUpHandshakes(int handshakes) {
        this.warmUpHandshakes = handshakes;
    }

    /** This endpoint as the gate's state machine asks it, without making those methods JMX attributes. */
    HelloAdmission.Server helloServer() {
        return helloServer;
    }

    /** Answers from this endpoint's current settings and session caches. */
    private final class HelloServer implements HelloAdmission.Server {

        @Override
        public int maxHelloBuffer() {
            return AdmissionNioEndpoint.this.maxHelloBuffer();
        }

        @Override
        public long helloTimeoutNanos() {
            return AdmissionNioEndpoint.this.helloTimeoutNanos();
        }

        @Override
        public boolean isLateGated() {
            return AdmissionNioEndpoint.this.isLateGated();
        }

        @Override
        public boolean canVerifySessionIds() {
            return AdmissionNioEndpoint.this.canVerifySessionIds();
        }

        @Override
        public boolean isSessionCached(String sniHostName, byte[] sessionId, int length) {
            return AdmissionNioEndpoint.this.isSessionCached(sniHostName, sessionId, length);
        }
    }

    void fullHandshakeNice(int nice) {
        this.fullHandshakeNice = nice;
    }

    /** Where admitted new full handshakes run their cryptography; null: on the worker, as Tomcat does. */
    LowPriorityHandshakes lowPriorityHandshakes() {
        return lowPriorityHandshakes;
    }

    @Override
    public void startInternal() throws Exception {
        int nice = fullHandshakeNice;
        if (nice > 0 && gate != null && isSSLEnabled()) {
            // Half the workers may wait for a signature; the other half stay free for pages whatever happens.
            LowPriorityHandshakes handshakes = LowPriorityHandshakes.start(getName(), nice,
                    Math.max(1, getMaxThreads() / 2));
            lowPriorityHandshakes = handshakes;
            getLog().info("tlsadmit: new full handshakes on " + getName() + " run on " + handshakes.threads()
                    + " threads at nice " + nice + handshakes.unavailableReason().map(why -> " (unavailable: " + why
                    + "; they run on the workers)").orElse(""));
        }
        super.startInternal();
    }

    @Override
    public void stopInternal() {
        super.stopInternal();
        LowPriorityHandshakes handshakes = lowPriorityHandshakes;
        lowPriorityHandshakes = null;
        if (handshakes != null) {
            handshakes.close();
        }
    }

    void shortestWorkFirst(boolean enabled) {
        this.shortestWorkFirst = enabled;
    }

    /**
     * Tomcat's own worker pool, but busy workers take short work (established connections,
     * resumptions) before new full handshakes. Not with virtual threads or a shared {@code executor}.
     */
    @Override
    public void createExecutor() {
        if (!shortestWorkFirst || getUseVirtualThreads()) {
            super.createExecutor();
            return;
        }
        ShortestWorkFirstQueue queue = new ShortestWorkFirstQueue(getMaxQueueSize());
        setExecutor(new ShortestWorkFirstExecutor(getMinSpareThreads(), getMaxThreads(), getThreadsMaxIdleTime(), queue,
                new TaskThreadFactory(getName() + "-exec-", getDaemon(), getThreadPriority())));
        internalExecutor = true; // ours to size and stop, like the pool Tomcat would have made
    }

    @Override
    public void shutdownExecutor() {
        if (internalExecutor && getExecutor() instanceof ShortestWorkFirstExecutor pool) {
            setExecutor(null);
            if (!pool.shutdownAndWait(getExecutorTerminationTimeoutMillis())) {
                getLog().warn("tlsadmit: worker threads of " + getName() + " still running after "
                        + getExecutorTerminationTimeoutMillis() + " ms");
            }
            return;
        }
        super.shutdownExecutor();
    }

    @Override
    protected SocketProcessorBase<NioChannel> createSocketProcessor(SocketWrapperBase<NioChannel> socketWrapper,
            SocketEvent event) {
        return new RankedSocketProcessor(socketWrapper, event);
    }

    /**
     * Stamps each hand-off of a gated connection to the workers, so the feedback guard can see how long
     * its first task waited for a thread (the server's queue) apart from how long the client took to send.
     */
    @Override
    public boolean processSocket(SocketWrapperBase<NioChannel> socketWrapper, SocketEvent event, boolean dispatch) {
        if (socketWrapper != null && socketWrapper.getSocket() instanceof AdmissionChannel gated) {
            gated.dispatched(System.nanoTime());
        }
        return super.processSocket(socketWrapper, event, dispatch);
    }

    /** Tomcat's processor, ranked by the channel's state when it is queued. */
    private final class RankedSocketProcessor extends SocketProcessor implements RankedWork {

        RankedSocketProcessor(SocketWrapperBase<NioChannel> socketWrapper, SocketEvent event) {
            super(socketWrapper, event);
        }

        @Override
        public WorkClass workClass() {
            SocketWrapperBase<NioChannel> wrapper = socketWrapper;
            NioChannel channel = wrapper == null ? null : wrapper.getSocket();
            return channel instanceof AdmissionChannel gated ? gated.workClass() : WorkClass.SHORT;
        }
    }

    private void nativePeek(boolean enabled) {
        this.nativePeek = enabled;
        this.peekOnAccept = enabled && NativePeek.isAvailable();
    }

    boolean isPeekingOnAccept() {
        return peekOnAccept;
    }

    String nativePeekStatus() {
        if (peekOnAccept) {
            return deferringAccept ? "native peek on accept, TCP_DEFER_ACCEPT " + DEFER_ACCEPT_SECONDS + " s"
                    : "native peek on accept";
        }
        return nativePeek ? "native peek unavailable (" + NativePeek.unavailableReason() + ")" : "native peek off";
    }

    @Override
    protected boolean setSocketOptions(SocketChannel socket) {
        ConnectorGate current = gate;
        if (current == null || !isSSLEnabled()) {
            return super.setSocketOptions(socket);
        }
        long accepted = System.nanoTime();
        SocketAddress remote = remoteAddress(socket);
        long source = SourcePrefix.of(remote);
        long host = SourcePrefix.host(remote);
        Set<SocketAddress> warming = warmUpClients;
        if (warming != null && !warming.contains(remote)) {
            // Not ready: what a health check or a load balancer sees before this instance is warm.
            closedWhileWarmingUp.increment();
            prepareToRefuse(socket, RefuseAction.CLOSE);
            destroySocket(socket);
            return false;
        }
        // The warm-up is not a client: it neither spends nor waits for the budget.
        acceptedWarmUp = warming != null;
        acceptedBypass = acceptedWarmUp || bypassAddresses.contains(remote);
        if (peekOnAccept && !acceptedBypass) {
            Verdict verdict = peek(socket, current);
            Decision decision = verdict == null ? null
                    : current.decideOnAccept(verdict, source, host, accepted, System.nanoTime());
            if (decision == Decision.REFUSED) {
                prepareToRefuse(socket, current.refuseAction());
                // No wrapper exists yet, so the acceptor's closeSocket() would do nothing: close it
                // here, releasing its maxConnections slot.
                destroySocket(socket);
                return false;
            }
            if (decision == Decision.ADMITTED) {
                acceptedVerdict = verdict;
                acceptedHelloInOneRecord = HelloRecords.inOneRecord(peekBuffer, peekBuffer.limit());
            }
        }
        acceptedNanos = accepted;
        acceptedSource = source;
        acceptedHost = host;
        boolean waitsForHello = acceptedVerdict == null && !acceptedBypass;
        boolean configured;
        try {
            configured = super.setSocketOptions(socket);
        } finally {
            acceptedVerdict = null; // the session-id flag is cleared where it is set, before each peek
            acceptedHelloInOneRecord = false;
        }
        if (configured && waitsForHello) {
            SocketWrapperBase<NioChannel> wrapper = connections.get(socket);
            if (wrapper != null && !current.isObserving()) {
                // Tomcat just set connectionTimeout; until the hello is decided, the hello's own timeout holds.
                wrapper.setReadTimeout(TimeUnit.NANOSECONDS.toMillis(helloTimeoutNanos));
            }
            PendingHellos pending = current.pendingHellos();
            close(current, pending.evictOldestOf(source), SlowHelloReason.SOURCE_LIMIT);
            PendingHellos.Entry oldest;
            while ((oldest = pending.evictOldest()) != null) {
                close(current, oldest, SlowHelloReason.EVICTED);
            }
        }
        return configured;
    }

    /** Closes a connection the slow-hello limits evicted: by a worker, under the wrapper's lock, like a timeout. */
    private void close(ConnectorGate current, PendingHellos.Entry evicted, SlowHelloReason reason) {
        if (evicted != null && current.isObserving()) {
            current.slowHelloWouldClose(reason); // observed: no longer tracked, left open
            return;
        }
        if (evicted != null && evicted.owner() instanceof AdmissionChannel channel) {
            SocketWrapperBase<NioChannel> wrapper = channel.wrapper();
            if (wrapper != null) {
                channel.evict(reason);
                processSocket(wrapper, SocketEvent.ERROR, true);
            }
        }
    }

    private static SocketAddress remoteAddress(SocketChannel socket) {
        try {
            return socket.getRemoteAddress();
        } catch (IOException e) {
            return null; // counted as an unknown source
        }
    }

    /**
     * RESET: linger 0, so close() aborts. CLOSE: consume the peeked bytes first, because closing a socket
     * with unread input makes the kernel answer with a reset instead of an orderly FIN; with native-peek they are
     * dropped in one system call, else read (a switch to non-blocking mode, then a copy).
     */
    private void prepareToRefuse(SocketChannel socket, RefuseAction action) {
        try {
            if (action == RefuseAction.RESET) {
                socket.setOption(StandardSocketOptions.SO_LINGER, 0);
            } else if (peekOnAccept) {
                NativePeek.discard(socket, DISCARD_LIMIT);
            } else {
                socket.configureBlocking(false);
                ByteBuffer unread = peekBuffer();
                unread.clear();
                socket.read(unread);
            }
        } catch (IOException | UnsupportedOperationException e) {
            // closed either way
        }
    }

    /**
     * A final verdict from what has already arrived, or null: the hello is not all here yet (INCOMPLETE), a session
     * id cannot be looked up here, or the socket failed. The channel's first read decides those.
     */
    private Verdict peek(SocketChannel socket, ConnectorGate current) {
        ByteBuffer peekBuffer = peekBuffer();
        peekBuffer.clear();
        acceptedSessionIdVerified = false;
        try {
            Verdict verdict = NativePeek.peek(socket, peekBuffer, current.classifier().policy(), 0);
            if (verdict == Verdict.RESUME_SESSION_ID) {
                return lookUpSessionId(current);
            }
            return verdict.isFinal() ? verdict : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * A TLS 1.2 session id, looked up as the channel would (the session cache of the host the hello names): a
     * resumption when the cache holds it, else a new handshake. Deciding it here spares the channel its own read and
     * classification of the hello (section 7 of docs/benchmarks.md). Null, for the channel to decide, where the
     * cache cannot be asked (an engine without one) or the Java classifier reads the peeked bytes otherwise.
     */
    private Verdict lookUpSessionId(ConnectorGate current) {
        if (!canVerifySessionIds()) {
            return null;
        }
        if (peekedHello == null) {
            peekedHello = new ClientHello();
        }
        if (current.classifier().classify(peekBuffer, peekedHello) != Verdict.RESUME_SESSION_ID) {
            return null;
        }
        acceptedSessionIdVerified = HelloAdmission.sessionIdCached(helloServer, peekedHello, peekedSessionId);
        return acceptedSessionIdVerified ? Verdict.RESUME_SESSION_ID : Verdict.NEW;
    }

    private ByteBuffer peekBuffer() {
        if (peekBuffer == null) {
            peekBuffer = ByteBuffer.allocateDirect(PEEK_BUFFER);
        }
        return peekBuffer;
    }

    /** The verdict the acceptor admitted the connection being set up with; null if it did not decide. */
    Verdict acceptedVerdict() {
        return acceptedVerdict;
    }

    /** Whether the acceptor found the admitted hello's TLS 1.2 session id in the session cache. */
    boolean acceptedSessionIdVerified() {
        return acceptedSessionIdVerified;
    }

    /** Whether the hello the acceptor admitted came in one record: nothing for the channel to join. */
    boolean acceptedHelloInOneRecord() {
        return acceptedHelloInOneRecord;
    }

    long acceptedNanos() {
        return acceptedNanos;
    }

    /** The source prefix of the connection being set up (acceptor thread only, like the verdict). */
    long acceptedSource() {
        return acceptedSource;
    }

    /** The host of the connection being set up (acceptor thread only). */
    long acceptedHost() {
        return acceptedHost;
    }

    @Override
    public void bind() throws Exception {
        super.bind();
        // The TLS contexts exist now: the highest enabled version decides how hellos are classified.
        ConnectorGate current = gate;
        if (current != null && isSSLEnabled()) {
            ServerPolicy policy = new ServerPolicy(serverMaxVersion(), ServerPolicy.DEFAULT.maxHelloLength());
            current.serverPolicy(policy);
            maxHelloBuffer = HELLO_BUFFER_FACTOR * (policy.maxHelloLength() + 9);
            deferAccept();
            warmUp();
        }
    }

    /**
     * Has the kernel hand a connection over only once its first bytes are there ({@code TCP_DEFER_ACCEPT}), so that
     * the peek on accept finds the hello. Without it a client that connects and writes its hello at once still often
     * loses the race with the acceptor: its connection then goes the long way (a channel, the poller, a worker's first
     * read) to the same refusal, which cost about twice the CPU under a flood of new clients (docs/benchmarks.md,
     * section 5, "what a refused new client costs"). A client that sends nothing is held for
     * {@value #DEFER_ACCEPT_SECONDS} s first; from its hand-over on, {@code helloTimeout} and the slow-hello limits
     * apply as before.
     */
    private void deferAccept() {
        deferringAccept = false;
        if (!peekOnAccept || !(getServerSocket() instanceof ServerSocketChannel channel)) {
            return;
        }
        try {
            NativePeek.deferAccept(channel, DEFER_ACCEPT_SECONDS);
            deferringAccept = true;
        } catch (IOException | RuntimeException e) {
            getLog().warn("tlsadmit: TCP_DEFER_ACCEPT not set on " + getName() + " (the peek on accept will find fewer"
                    + " hellos): " + e);
        }
    }

    /**
     * Tomcat's empty wake-up connection would not reach an acceptor under {@code TCP_DEFER_ACCEPT}
     * ({@link DeferredAcceptWake}).
     */
    @Override
    protected void unlockAccept() {
        if (!deferringAccept) {
            super.unlockAccept();
            return;
        }
        Acceptor<SocketChannel> blocked = acceptor;
        if (blocked == null || blocked.getState() != Acceptor.AcceptorState.RUNNING) {
            return;
        }
        try {
            DeferredAcceptWake.wake(getLocalAddress(), getSocketProperties().getUnlockTimeout(),
                    () -> blocked.getState() == Acceptor.AcceptorState.RUNNING);
        } catch (IOException e) {
            getLog().warn("tlsadmit: could not wake the acceptor of " + getName() + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Compiles the TLS handshake before the first client pays for it ({@link HandshakeWarmUp}): the default host's
     * certificates, with its protocols and cipher suites, before the connector accepts.
     */
    private void warmUp() {
        int count = warmUpHandshakes;
        SSLHostConfig config = getSSLHostConfig(null);
        if (count <= 0 || config == null) {
            return;
        }
        long serverCost = 0;
        for (SSLHostConfigCertificate certificate : config.getCertificates()) {
            SSLContext context = certificate.getSslContext();
            if (context == null) {
                continue;
            }
            HandshakeWarmUp.Result result = HandshakeWarmUp.run(() -> {
                javax.net.ssl.SSLEngine engine = context.createSSLEngine();
                engine.setEnabledProtocols(config.getEnabledProtocols());
                engine.setEnabledCipherSuites(config.getEnabledCiphers());
                return engine;
            }, count, WARM_UP_LIMIT);
            // a <Certificate> without type="..." says UNDEFINED, which reads like a fault in the log
            String type = certificate.getType() == SSLHostConfigCertificate.Type.UNDEFINED ? ""
                    : certificate.getType() + " ";
            getLog().info("tlsadmit: TLS warm-up on " + getName() + " (" + type + "certificate): " + result);
            serverCost = Math.max(serverCost, result.serverCpuNanos());
        }
        // An adaptive budget starts from the cost just measured on this key, not from a guess; with several
        // certificates from the dearest, since the first clients' choice is not known.
        long measured = serverCost;
        ConnectorGate current = gate;
        if (current != null) {
            current.budget().view(AdmissionController.class).ifPresent(c -> c.fullHandshakeCostMeasuredAtStart(measured));
        }
    }

    /**
     * Requests {@code paths} over this connector's own port for {@code duration} ({@link RequestWarmUp}), closing
     * every other connection at accept meanwhile; returns once the warm-up has ended. Called with the connector
     * started, before the server reports itself started.
     */
    RequestWarmUp.Result warmUpRequests(List<String> paths, Duration duration) {
        InetAddress bound = getAddress();
        InetAddress address = bound == null || bound.isAnyLocalAddress() ? InetAddress.getLoopbackAddress() : bound;
        int port = getLocalPort() > 0 ? getLocalPort() : getPort();
        // enough clients to keep the CPUs busy while one of them waits for the network or the database
        int clients = Math.min(8, Math.max(2, 2 * Runtime.getRuntime().availableProcessors()));
        Set<SocketAddress> clientAddresses = ConcurrentHashMap.newKeySet();
        closedWhileWarmingUp.reset();
        warmUpClients = clientAddresses;
        try {
            return RequestWarmUp.run(new InetSocketAddress(address, port), "localhost", paths, clients, duration,
                    clientAddresses, this::isRunning); // a server stopped during its start ends the warm-up
        } finally {
            warmUpClients = null;
        }
    }

    /** Connections closed at accept during the last application warm-up: nobody is served before it is warm. */
    long closedWhileWarmingUp() {
        return closedWhileWarmingUp.sum();
    }

    private int serverMaxVersion() {
        for (SSLHostConfig config : findSslHostConfigs()) {
            String[] enabled = config.getEnabledProtocols();
            if (enabled != null && Arrays.asList(enabled).contains("TLSv1.3")) {
                return TlsVersion.TLS1_3;
            }
        }
        return TlsVersion.TLS1_2;
    }

    int maxHelloBuffer() {
        return maxHelloBuffer;
    }

    /** JSSE answers session-id lookups; Tomcat's OpenSSL session context always says "not cached". */
    boolean canVerifySessionIds() {
        return getSslImplementation() instanceof JSSEImplementation;
    }

    /**
     * The engine asks the gate before a full handshake (JSSE: our key manager, OpenSSL: our certificate callback): a
     * full handshake nobody paid for is charged, or refused, when it needs the certificate.
     */
    boolean isLateGated() {
        return getSslImplementation() instanceof LateGatedImplementation;
    }

    /** The engine's late gate finds the connection by the thread driving it (OpenSSL): channels must say which. */
    boolean findsConnectionByThread() {
        return getSslImplementation() instanceof LateGatedImplementation late && late.findsConnectionByThread();
    }

    /** Whether a TLS 1.2 session id is in the server session cache of the host the client named. */
    boolean isSessionCached(String sniHostName, byte[] sessionId, int length) {
        if (length <= 0) {
            return false;
        }
        byte[] id = length == sessionId.length ? sessionId : Arrays.copyOf(sessionId, length);
        SSLHostConfig config = getSSLHostConfig(sniHostName);
        for (SSLHostConfigCertificate certificate : config.getCertificates()) {
            SSLContext context = certificate.getSslContext();
            SSLSessionContext sessions = context == null ? null : context.getServerSessionContext();
            if (sessions != null && sessions.getSession(id) != null) {
                return true;
            }
        }
        return false;
    }
}

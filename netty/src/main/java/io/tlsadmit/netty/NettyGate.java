package io.tlsadmit.netty;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandler;
import io.netty.handler.ssl.SslContext;
import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.admission.control.ControlLoop;
import io.tlsadmit.classifier.ServerPolicy;
import io.tlsadmit.gate.ConnectorGate;
import io.tlsadmit.gate.GateConfig;
import io.tlsadmit.gate.LateGateKeyManager;
import io.tlsadmit.gate.SlowHelloLimits;
import io.tlsadmit.gate.source.AddressRanges;
import io.tlsadmit.gate.warmup.HandshakeWarmUp;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The gate of one Netty TLS server: one budget shared by all its channels. Put {@link #newHandler()} in
 * each channel's pipeline right before the {@code SslHandler}, and build the server's {@code SslContext}
 * with {@link #keyManager} so that an offer to resume that turns into a full handshake is charged too
 * (the late gate; JDK engine only, see {@link #keyManager(KeyManagerFactory)}). Thread-safe;
 * {@link #close()} stops the adaptive budget's control loop.
 *
 * <pre>{@code
 * NettyGate gate = NettyGate.start("https", GateConfig.builder()   // an adaptive budget unless told otherwise
 *         .budget(BudgetType.STATIC).maxFullHandshakesPerSecond(200).fullHandshakeBurst(50)
 *         .build());
 * SslContext tls = SslContextBuilder.forServer(gate.keyManager(keyManagerFactory)).build();
 * // in the ChannelInitializer:
 * ch.pipeline().addLast(gate.newHandler(), tls.newHandler(ch.alloc()), new HttpServerCodec(), ...);
 * }</pre>
 */
public final class NettyGate implements AutoCloseable {

    /** Netty has no connection limit or timeout of its own to derive the slow-hello limits from. */
    private static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(20);
    private static final int MAX_HELLO_BUFFER = 4 * (ServerPolicy.DEFAULT.maxHelloLength() + 9);
    /** As the Tomcat connector's: a warm-up never holds a start up for long, whatever the key costs. */
    private static final Duration WARM_UP_LIMIT = Duration.ofSeconds(5);

    private final ConnectorGate gate;
    private final AddressRanges bypass;
    private final ControlLoop controlLoop;
    private volatile boolean lateGated;
    private volatile SSLSessionContext sessions;

    private NettyGate(ConnectorGate gate, AddressRanges bypass, ControlLoop controlLoop) {
        this.gate = gate;
        this.bypass = bypass;
        this.controlLoop = controlLoop;
    }

    /**
     * A gate with these settings (the names and defaults of the Tomcat connector attributes, valve/README.md),
     * started: an adaptive budget ticks from now on.
     *
     * @param name the {@code connector} label of the metrics
     * @throws IllegalArgumentException naming the setting out of the budget's range
     */
    public static NettyGate start(String name, GateConfig config) {
        Objects.requireNonNull(config, "config");
        ConnectorGate gate = config.newGate(name);
        gate.slowHelloLimits(config.slowHelloLimits(-1, DEFAULT_CONNECTION_TIMEOUT));
        ControlLoop loop = gate.budget().view(AdmissionController.class).map(ControlLoop::new).orElse(null);
        if (loop != null) {
            loop.start();
        }
        return new NettyGate(gate, config.bypassAddresses(), loop);
    }

    /** A gate with every setting at its default (an adaptive budget), started. */
    public static NettyGate start(String name) {
        return start(name, GateConfig.defaults());
    }

    /** The server-neutral gate: its counters, budget and mode. */
    public ConnectorGate gate() {
        return gate;
    }

    /** A handler for one new channel, to be added right before the channel's {@code SslHandler}. */
    public ChannelHandler newHandler() {
        return new AdmissionHandler(this);
    }

    /**
     * The late gate around the server's key manager. The JDK's engine asks it for a certificate only when
     * it has committed to a full handshake, so a false offer to resume is charged there, and refused
     * without a certificate when the budget is empty. BoringSSL ({@code SslProvider.OPENSSL}) asks in every
     * handshake, resumptions included: on its engines the wrapper charges nothing, and a false offer is
     * charged once the server's first flight shows a full handshake (netty/README.md, KeyManagerCallsTest).
     *
     * @throws IllegalArgumentException when the factory has no {@link X509ExtendedKeyManager}
     */
    public KeyManager keyManager(KeyManagerFactory delegate) {
        for (KeyManager manager : delegate.getKeyManagers()) {
            if (manager instanceof X509ExtendedKeyManager extended) {
                return keyManager(extended);
            }
        }
        throw new IllegalArgumentException("the key manager factory has no X509ExtendedKeyManager: "
                + Arrays.toString(delegate.getKeyManagers()));
    }

    public KeyManager keyManager(X509ExtendedKeyManager delegate) {
        lateGated = true;
        return new LateGateKeyManager(delegate);
    }

    /**
     * Lets the gate ask the server's TLS 1.2 session cache whether a session id will resume, so that an
     * unknown id is charged as the new handshake it is. Both engines keep that cache in Java: the JDK's own, and
     * for BoringSSL Netty's {@code OpenSslServerSessionContext}, which BoringSSL asks for every offered id. Needed
     * on BoringSSL above all: it has no late gate, and the gate never distrusts a source for session ids (it
     * counts on this lookup), so without it each false id would be a full handshake charged only on credit.
     *
     * @throws IllegalArgumentException for a client context
     */
    public void sessionCache(SslContext context) {
        if (!context.isServer()) {
            throw new IllegalArgumentException("sessionCache needs the server's SslContext, not a client's");
        }
        sessions = context.sessionContext();
    }

    /**
     * Runs {@code handshakes} full TLS handshakes in memory against engines of {@code context} before the server
     * binds ({@link HandshakeWarmUp}: the JIT compiles the handshake before the first client pays for it, at most 5 s),
     * and lets an adaptive budget start from the server side's cost it measured instead of a guess (on a fresh
     * Tomcat with RSA-4096 the guess made the first second admit 2.7 times the steady rate; docs/benchmarks.md
     * section 4). Counted nowhere, charged to nobody; a failing warm-up is logged and returns what it did.
     */
    public HandshakeWarmUp.Result warmUp(SslContext context, int handshakes) {
        Objects.requireNonNull(context, "context");
        HandshakeWarmUp.Result result = HandshakeWarmUp.run(() -> context.newEngine(ByteBufAllocator.DEFAULT),
                handshakes, WARM_UP_LIMIT);
        gate.budget().view(AdmissionController.class)
                .ifPresent(controller -> controller.fullHandshakeCostMeasuredAtStart(result.serverCpuNanos()));
        return result;
    }

    /** Stops the adaptive budget's control loop; the budget keeps its last rate. */
    @Override
    public void close() {
        if (controlLoop != null) {
            controlLoop.close();
        }
    }

    boolean isLateGated() {
        return lateGated;
    }

    /** A hello in records of ~4 bytes each still fits (Tomcat's connector allows the same). */
    int maxHelloBuffer() {
        return MAX_HELLO_BUFFER;
    }

    long helloTimeoutNanos() {
        SlowHelloLimits limits = gate.slowHelloLimits();
        return limits == null ? DEFAULT_CONNECTION_TIMEOUT.toNanos() : TimeUnit.MILLISECONDS.toNanos(limits.helloTimeoutMillis());
    }

    boolean canVerifySessionIds() {
        return sessions != null;
    }

    /** The server context's one session cache; the SNI host name does not select another in Netty. */
    boolean isSessionCached(byte[] sessionId, int length) {
        SSLSessionContext cache = sessions;
        return cache != null && cache.getSession(Arrays.copyOf(sessionId, length)) != null;
    }

    AddressRanges bypass() {
        return bypass;
    }

    @Override
    public String toString() {
        return "NettyGate[" + gate + (bypass.isEmpty() ? "" : ", bypass " + bypass) + "]";
    }
}

package io.tlsadmit.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPromise;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.ScheduledFuture;
import io.tlsadmit.admission.HandshakeKind;
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
import io.tlsadmit.gate.source.PendingHellos;
import io.tlsadmit.gate.source.SourcePrefix;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;

/**
 * The gate on one channel, placed right before its {@code SslHandler}. Inbound, it holds the bytes back
 * until the ClientHello is complete (over any number of records and reads), asks the gate, and then
 * either passes them on (the hello coalesced into one record when it came fragmented) or closes the
 * channel before the {@code SslHandler} has seen a byte. Outbound, it reads the server's first flight for
 * the truth (full or resumed); meanwhile it adds up the event-loop thread's CPU time spent below it, which
 * is the handshake's: Netty runs the engine, its delegated tasks and the key manager on that thread. When
 * the handshake is over it reports the cost and, on TLS 1.3, removes itself, so an established connection does
 * not pass through it. On TLS 1.2 it stays, handing the client's bytes on whole after a scan of their record
 * headers for a renegotiation ({@link RenegotiationWatch}: refused, the channel is closed before the engine reads
 * the new hello); while a handshake runs it hands them on record by record, so that it knows the handshake has
 * completed before the next record reaches the engine.
 */
final class AdmissionHandler extends ChannelDuplexHandler {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** One parse holder per event-loop thread: a channel is classified on its loop, start to end in one call. */
    private static final FastThreadLocal<ClientHello> HELLOS = new FastThreadLocal<>() {
        @Override
        protected ClientHello initialValue() {
            return new ClientHello();
        }
    };

    private final NettyGate owner;
    private final ConnectorGate gate;
    private final ConnectionAdmission connection;
    private final HelloAdmission admission;
    private final ServerHelloObserver serverHello = new ServerHelloObserver();
    private final RenegotiationWatch renegotiations;
    /** The bytes received before the decision; null once passed on or released. */
    private ByteBuf held;
    private boolean heldIsCopy;
    private SSLEngine engine;
    private ScheduledFuture<?> helloTimeout;
    /** This channel's place among the connections waiting for their hello (maxPendingHellos*). */
    private final PendingHellos.Entry pending = new PendingHellos.Entry(this);
    private ChannelHandlerContext context;
    private boolean handshakeOver;
    /** The engine asks the gate's key manager exactly for full handshakes (the JDK's). */
    private boolean lateGated;
    /** Thread CPU time when the read being passed on started; -1 outside one. */
    private long readStartCpu = -1;
    /** {@link System#nanoTime()} when that read started. */
    private long readStartWall;

    AdmissionHandler(NettyGate owner) {
        this.owner = owner;
        this.gate = owner.gate();
        this.connection = new ConnectionAdmission(gate);
        this.renegotiations = new RenegotiationWatch(connection);
        this.admission = new HelloAdmission(connection, new HelloAdmission.Server() {
            @Override
            public int maxHelloBuffer() {
                return owner.maxHelloBuffer();
            }

            @Override
            public long helloTimeoutNanos() {
                return owner.helloTimeoutNanos();
            }

            @Override
            public boolean isLateGated() {
                return lateGated; // per channel: the engine decides
            }

            @Override
            public boolean canVerifySessionIds() {
                return owner.canVerifySessionIds();
            }

            @Override
            public boolean isSessionCached(String sniHostName, byte[] sessionId, int length) {
                return owner.isSessionCached(sessionId, length);
            }
        });
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        long now = System.nanoTime();
        SocketAddress remote = ctx.channel().remoteAddress();
        connection.reset(now, SourcePrefix.of(remote), SourcePrefix.host(remote));
        admission.reset();
        renegotiations.reset();
        SslHandler ssl = ctx.pipeline().get(SslHandler.class);
        if (ssl != null) {
            engine = ssl.engine();
            // SslHandler's completion event travels on towards the application, away from this handler: its
            // future is how this side learns that the handshake is over (completed on the event loop)
            ssl.handshakeFuture().addListener(done -> handshakeEnded(ctx, done.isSuccess()));
            // BoringSSL asks the key manager in every handshake, resumed or not (KeyManagerCallsTest): no late gate
            lateGated = owner.isLateGated() && !(engine instanceof ReferenceCountedOpenSslEngine);
            if (lateGated) {
                LateGate.bind(engine, connection);
            }
        }
        context = ctx;
        if (owner.bypass().contains(remote)) {
            gate.bypassed(connection);
        } else {
            waitForHello(now);
            long timeout = gate.slowHelloLimits() == null ? 0 : gate.slowHelloLimits().helloTimeoutMillis();
            if (timeout > 0) {
                helloTimeout = ctx.executor().schedule(() -> helloTimedOut(ctx), timeout, TimeUnit.MILLISECONDS);
            }
        }
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (connection.isDecided()) {
            passOn(ctx, msg);
            return;
        }
        if (!(msg instanceof ByteBuf bytes)) {
            ctx.fireChannelRead(msg);
            return;
        }
        hold(ctx, bytes);
        ByteBuffer view = held.nioBuffer(held.readerIndex(), held.readableBytes());
        ClientHello scratch = HELLOS.get();
        // WAIT and GROW alike: the held buffer grows with every read; HelloAdmission bounds it (maxHelloBuffer)
        switch (admission.onBytes(view, false, System.nanoTime(), scratch)) {
            case WAIT, GROW -> {
                return;
            }
            case REFUSE -> {
                stopWaiting();
                refused(ctx);
                return;
            }
            case ADMIT -> stopWaiting();
        }
        Verdict verdict = connection.verdict();
        if (engine != null && gate.blockNewSession(connection)) {
            engine.setEnableSessionCreation(false); // the JDK's engine honours it; OpenSSL's ignores false
        }
        ByteBuf hold = held;
        held = null;
        if (verdict != null && verdict.isHandshake() && scratch.records() > 1) {
            hold = coalesced(ctx, hold, scratch);
        }
        passOn(ctx, hold);
    }

    /**
     * Keeps the bytes until the decision. A hello in one read (the usual case) is kept as it came; one that
     * trickles in is copied once into one buffer, so each reparse reads a contiguous view and a slow client
     * costs memory and copying in proportion to what it sent (the classifier stops at the server's hello
     * length limit, {@code helloTimeout} at the time).
     */
    private void hold(ChannelHandlerContext ctx, ByteBuf bytes) {
        if (held == null) {
            held = bytes;
            return;
        }
        if (!heldIsCopy) {
            ByteBuf copy = ctx.alloc().buffer(Math.max(1024, 2 * (held.readableBytes() + bytes.readableBytes())));
            copy.writeBytes(held);
            held.release();
            held = copy;
            heldIsCopy = true;
        }
        held.writeBytes(bytes);
        bytes.release();
    }

    /** The hello in one record, so the engine parses it once (see {@link HelloRecords}). */
    private static ByteBuf coalesced(ChannelHandlerContext ctx, ByteBuf bytes, ClientHello hello) {
        ByteBuf copy = ctx.alloc().heapBuffer(bytes.readableBytes());
        copy.writeBytes(bytes, bytes.readerIndex(), bytes.readableBytes());
        bytes.release();
        ByteBuffer array = ByteBuffer.wrap(copy.array(), copy.arrayOffset(), copy.readableBytes()).slice();
        copy.writerIndex(HelloRecords.join(array, copy.readableBytes(), hello));
        return copy;
    }

    /**
     * The client's bytes on to the engine, as far as the renegotiation watch lets them: a whole read once the
     * connection is established, record by record while a handshake runs.
     */
    private void passOn(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf bytes) || engine == null || !renegotiations.isWatching()) {
            fire(ctx, msg);
            return;
        }
        int from = bytes.readerIndex();
        int length = bytes.readableBytes();
        ByteBuffer view = bytes.nioBuffer(from, length);
        int base = view.position();
        int at = 0;
        while (at < length && ctx.channel().isActive()) { // the engine may have failed the connection meanwhile
            int end = renegotiations.onInbound(view, base + at, base + length);
            if (end == RenegotiationWatch.REFUSED) {
                bytes.release();
                ctx.close(); // counted by the gate; not a byte of the new hello reached the engine
                return;
            }
            end -= base;
            if (at == 0 && end == length) {
                fire(ctx, bytes);
                engineMayBeIdle();
                return;
            }
            fire(ctx, bytes.retainedSlice(from + at, end - at));
            engineMayBeIdle();
            at = end;
        }
        bytes.release();
    }

    /** An allowed renegotiation is over once the engine has no handshake under way. */
    private void engineMayBeIdle() {
        if (connection.isRenegotiating()
                && engine.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING) {
            renegotiations.engineIdle();
        }
    }

    /**
     * The engine's work below this handler, timed on this thread until the handshake is over (of resumption offers,
     * at most one per {@link ConnectionAdmission#RESUMPTION_TIMING_INTERVAL_NANOS}; {@link
     * ConnectionAdmission#timesHandshakeCpu}).
     */
    private void fire(ChannelHandlerContext ctx, Object msg) {
        if (handshakeOver || !connection.timesHandshakeCpu()) {
            ctx.fireChannelRead(msg);
            return;
        }
        readStartCpu = THREADS.getCurrentThreadCpuTime();
        readStartWall = System.nanoTime();
        try {
            ctx.fireChannelRead(msg);
        } finally {
            addReadCpu();
        }
    }

    /** The CPU time of the read in progress so far; the handshake can end in its middle. */
    private void addReadCpu() {
        if (readStartCpu >= 0) {
            connection.addHandshakeStep(THREADS.getCurrentThreadCpuTime() - readStartCpu,
                    System.nanoTime() - readStartWall);
            readStartCpu = -1;
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (!serverHello.isDone() && msg instanceof ByteBuf out && out.isReadable()) {
            ByteBuffer records = out.nioBuffer(out.readerIndex(), out.readableBytes());
            serverHello.onServerRecords(records, records.position(), records.limit());
            if (serverHello.kind() != null) {
                long now = System.nanoTime();
                gate.serverFlight(connection, serverHello.kind(), serverHello.version(), now);
                if (!lateGated && serverHello.kind() == HandshakeKind.FULL) {
                    gate.uncheckedFullHandshake(connection, now);
                }
            }
        }
        ctx.write(msg, promise);
    }

    private void handshakeEnded(ChannelHandlerContext ctx, boolean success) {
        if (handshakeOver) {
            return;
        }
        if (!success && connection.isNewSessionBlocked()) {
            gate.refusedWithoutNewSession(connection, System.nanoTime());
        }
        addReadCpu();
        handshakeOver = true;
        gate.handshakeEnded(connection);
        if (success) {
            renegotiations.handshakeCompleted(engine.getSession().getProtocol());
        }
        if ((!success || !renegotiations.isWatching()) && !ctx.isRemoved()) {
            ctx.pipeline().remove(this);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        stopWaiting();
        if (!connection.isDecided()) {
            gate.abandoned(connection);
        } else if (!handshakeOver) {
            gate.handshakeEnded(connection);
            handshakeOver = true;
        }
        super.channelInactive(ctx);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        stopWaiting();
        if (held != null) {
            held.release();
            held = null;
        }
        if (lateGated) {
            SSLEngine bound = engine;
            // A TLS 1.2 renegotiation asks the key manager again: keep the binding as long as the channel lives.
            ctx.channel().closeFuture().addListener(f -> LateGate.unbind(bound));
        }
    }

    /**
     * Joins the connections waiting for their hello; when that makes too many, from this source or in all,
     * the one that has waited longest is closed (on its own event loop).
     */
    private void waitForHello(long now) {
        PendingHellos waiting = gate.pendingHellos();
        waiting.add(pending, connection.source(), now);
        evict(waiting.evictOldestOf(connection.source()), SlowHelloReason.SOURCE_LIMIT);
        evict(waiting.evictOldest(), SlowHelloReason.EVICTED);
    }

    private static void evict(PendingHellos.Entry entry, SlowHelloReason reason) {
        if (entry != null && entry.owner() instanceof AdmissionHandler other && other.context != null) {
            other.context.executor().execute(() -> other.slowHello(reason));
        }
    }

    private void helloTimedOut(ChannelHandlerContext ctx) {
        gate.pendingHellos().remove(pending);
        slowHello(SlowHelloReason.TIMEOUT);
    }

    /** Closed by a slow-hello limit, unless the hello was decided meanwhile. */
    private void slowHello(SlowHelloReason reason) {
        if (connection.isDecided() || !context.channel().isActive()) {
            return;
        }
        if (gate.isObserving()) {
            gate.slowHelloWouldClose(reason);
            return;
        }
        gate.slowHelloClosed(reason);
        gate.abandoned(connection);
        refuse(context);
    }

    private void stopWaiting() {
        if (helloTimeout != null) {
            helloTimeout.cancel(false);
            helloTimeout = null;
        }
        gate.pendingHellos().remove(pending);
    }

    /** The state machine said close: the gate's own refusals are counted; a timeout is counted here. */
    private void refused(ChannelHandlerContext ctx) {
        if (admission.refusal() == HelloAdmission.Refusal.HELLO_TIMEOUT) {
            gate.slowHelloClosed(SlowHelloReason.TIMEOUT);
            gate.abandoned(connection);
        } else if (admission.refusal() == HelloAdmission.Refusal.CLIENT_LEFT) {
            gate.abandoned(connection);
        }
        refuse(ctx);
    }

    /** Closed before the {@code SslHandler} saw a byte: nothing is logged, the budget is the metric. */
    private void refuse(ChannelHandlerContext ctx) {
        if (held != null) {
            held.release();
            held = null;
        }
        if (gate.refuseAction() == RefuseAction.RESET) {
            ctx.channel().config().setOption(ChannelOption.SO_LINGER, 0);
        }
        ctx.channel().config().setAutoRead(false);
        ctx.close();
    }
}

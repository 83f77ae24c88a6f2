package io.tlsadmit.attack.client;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A fresh connection per ClientHello at a fixed rate, open loop; each sends its hello and then only listens until
 * the server closes, resets, sends an alert, or {@code answerCap} passes. It never finishes a handshake. With forged
 * resumption offers it is the attacker (every CPU cycle the server spends on it — ticket decryption, key exchange,
 * signing — is wasted); with honest new hellos beyond the budget, the crowd the gate refuses.
 */
public final class HelloFlood extends OpenLoopConnections {
    /** How the driver ends a connection. */
    public enum Ending {
        /**
         * A reset ({@code SO_LINGER} 0), as a flooding tool would: no TIME_WAIT is left on the driver's side, so a few
         * source addresses can sustain hundreds of connections a second without running out of ports.
         */
        RESET,
        /** An orderly close, as a browser's: after the server's FIN the driver answers with its own. */
        ORDERLY
    }

    private final Supplier<byte[]> hellos;
    private final long answerCapNanos;
    private final Deque<Connection> byAge = new ArrayDeque<>();
    private final AtomicLong sent = new AtomicLong();
    private final Map<EndReason, AtomicLong> ends = new EnumMap<>(EndReason.class);
    private final AtomicLong answeredBytes = new AtomicLong();
    private final Ending ending;

    public record Counts(long opened, long openFailures, long hellosSent, Map<String, Long> ends, long bytesFromServer) {
    }

    public HelloFlood(InetSocketAddress server, List<InetAddress> sources, double perSecond, double maxSeconds,
                      Supplier<byte[]> hellos, long answerCapMillis, Ending ending) throws IOException {
        super("hello-flood", server, sources, perSecond, maxSeconds);
        this.hellos = hellos;
        this.ending = ending;
        this.answerCapNanos = answerCapMillis * 1_000_000L;
        for (EndReason reason : EndReason.values()) {
            ends.put(reason, new AtomicLong());
        }
        begin();
    }

    @Override
    void configure(SocketChannel channel) throws IOException {
        super.configure(channel);
        if (ending == Ending.RESET) {
            channel.setOption(StandardSocketOptions.SO_LINGER, 0);
        }
    }

    @Override
    void connected(Connection connection) throws IOException {
        ByteBuffer hello = ByteBuffer.wrap(hellos.get());
        // a few hundred bytes into an empty loopback socket buffer: one write, never a partial one in practice
        while (hello.hasRemaining()) {
            if (connection.channel.write(hello) == 0) {
                Thread.onSpinWait();
            }
        }
        sent.incrementAndGet();
        connection.state = new ServerAnswer();
        byAge.addLast(connection);
        interestInReading(connection);
    }

    @Override
    void received(Connection connection, ByteBuffer bytes) {
        ServerAnswer answer = (ServerAnswer) connection.state;
        int n = bytes.remaining();
        answeredBytes.addAndGet(n);
        if (answer.feed(bytes)) {
            end(connection, EndReason.ALERT);
        }
    }

    @Override
    void expire(long nowNanos) {
        while (!byAge.isEmpty()) {
            Connection oldest = byAge.peekFirst();
            if (oldest.channel.isOpen() && nowNanos - oldest.openedNanos < answerCapNanos) {
                return;
            }
            byAge.removeFirst();
            end(oldest, EndReason.DRIVER_GAVE_UP);
        }
    }

    @Override
    void ended(Connection connection, EndReason reason, long nowNanos) {
        ends.get(reason).incrementAndGet();
    }

    /** Counts so far (the caller takes differences between phases, or uses one flood per phase). */
    public Counts counts() {
        Map<String, Long> byReason = new java.util.LinkedHashMap<>();
        ends.forEach((reason, count) -> byReason.put(reason.name().toLowerCase(java.util.Locale.ROOT), count.get()));
        return new Counts(opened(), openFailures(), sent.get(), byReason, answeredBytes.get());
    }
}

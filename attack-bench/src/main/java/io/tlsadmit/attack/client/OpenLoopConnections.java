package io.tlsadmit.attack.client;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Opens connections at a fixed rate, open loop (the next one is due whatever became of the previous:
 * an attacker does not wait for the server), from source addresses taken in turn, and drives them all
 * from one selector thread so thousands can be in flight at once. What each connection sends and when
 * it ends is the subclass's business.
 */
abstract class OpenLoopConnections implements AutoCloseable {
    /** Reused by every read: nothing the server sends is kept, only looked at. */
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(1 << 16);
    private final InetSocketAddress server;
    private final List<InetAddress> sources;
    private final long intervalNanos;
    private final long stopAtNanos;
    private final Selector selector;
    private final Thread thread;
    private final AtomicLong opened = new AtomicLong();
    private final AtomicLong openFailures = new AtomicLong();
    private volatile boolean running = true;
    private int nextSource;

    /** One connection in flight. */
    static final class Connection {
        final SocketChannel channel;
        final long openedNanos;
        Object state;

        Connection(SocketChannel channel, long openedNanos) {
            this.channel = channel;
            this.openedNanos = openedNanos;
        }
    }

    /** @param maxSeconds no connection is opened after this, whatever happens to {@link #close()} */
    OpenLoopConnections(String name, InetSocketAddress server, List<InetAddress> sources, double perSecond,
                        double maxSeconds) throws IOException {
        this.server = server;
        this.sources = List.copyOf(sources);
        this.intervalNanos = (long) (1e9 / perSecond);
        this.stopAtNanos = System.nanoTime() + (long) (maxSeconds * 1e9);
        this.selector = Selector.open();
        this.thread = new Thread(this::loop, name);
        this.thread.setDaemon(true);
    }

    final void begin() {
        thread.start();
    }

    private void loop() {
        long next = System.nanoTime();
        try {
            while (running) {
                long now = System.nanoTime();
                while (running && next <= now && now < stopAtNanos) {
                    open(now);
                    next += intervalNanos;
                }
                long waitMillis = Math.max(1, Math.min(10, (next - System.nanoTime()) / 1_000_000));
                selector.select(waitMillis);
                for (SelectionKey key : selector.selectedKeys()) {
                    handle(key);
                }
                selector.selectedKeys().clear();
                expire(System.nanoTime());
            }
        } catch (IOException e) {
            throw new IllegalStateException("selector failed", e);
        } finally {
            for (SelectionKey key : selector.keys()) {
                end((Connection) key.attachment(), EndReason.DRIVER_STOPPED);
            }
            try {
                selector.close();
            } catch (IOException ignored) {
                // nothing left to release
            }
        }
    }

    private void open(long now) {
        InetAddress source = sources.get(nextSource++ % sources.size());
        SocketChannel channel = null;
        try {
            channel = SocketChannel.open();
            channel.configureBlocking(false);
            configure(channel);
            channel.bind(new InetSocketAddress(source, 0));
            Connection connection = new Connection(channel, now);
            opened.incrementAndGet();
            if (channel.connect(server)) {
                channel.register(selector, 0, connection);
                connected(connection);
            } else {
                channel.register(selector, SelectionKey.OP_CONNECT, connection);
            }
        } catch (IOException e) {
            openFailures.incrementAndGet();
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // already failed
                }
            }
        }
    }

    private void handle(SelectionKey key) {
        Connection connection = (Connection) key.attachment();
        if (!key.isValid()) {
            return;
        }
        boolean connecting = key.isConnectable();
        try {
            if (connecting) {
                connection.channel.finishConnect();
                connected(connection);
            } else if (key.isReadable()) {
                readBuffer.clear();
                int n = connection.channel.read(readBuffer);
                if (n < 0) {
                    end(connection, EndReason.SERVER_CLOSED);
                } else {
                    readBuffer.flip();
                    received(connection, readBuffer);
                }
            }
        } catch (IOException e) {
            // refused connect, reset by the server, …
            end(connection, connecting ? EndReason.CONNECT_FAILED : EndReason.RESET);
        }
    }

    /** Sends what the connection sends; then {@link #interestInReading} to learn when the server answers or closes. */
    abstract void connected(Connection connection) throws IOException;

    /** Bytes from the server; may call {@link #end}. */
    abstract void received(Connection connection, ByteBuffer bytes);

    /** Called on every loop turn: connections the driver gives up on are ended here. */
    abstract void expire(long nowNanos);

    /** Socket options before connecting. */
    void configure(SocketChannel channel) throws IOException {
        channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
    }

    enum EndReason { SERVER_CLOSED, RESET, ALERT, CONNECT_FAILED, DRIVER_GAVE_UP, DRIVER_STOPPED }

    final void interestInReading(Connection connection) throws IOException {
        connection.channel.keyFor(selector).interestOps(SelectionKey.OP_READ);
    }

    /** Closes the connection (if still open) and reports why, once. */
    final void end(Connection connection, EndReason reason) {
        if (!connection.channel.isOpen()) {
            return;
        }
        try {
            connection.channel.close();
        } catch (IOException ignored) {
            // closing is all we wanted
        }
        ended(connection, reason, System.nanoTime());
    }

    abstract void ended(Connection connection, EndReason reason, long nowNanos);

    final long opened() {
        return opened.get();
    }

    final long openFailures() {
        return openFailures.get();
    }

    /** Stops opening, ends what is still open, waits for the loop to finish. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        selector.wakeup();
        thread.join(30_000);
    }
}

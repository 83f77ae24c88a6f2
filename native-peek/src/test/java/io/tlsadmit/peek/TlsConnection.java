package io.tlsadmit.peek;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;

/** A blocking TLS connection driven by an {@link SSLEngine} over a socket channel, for loopback tests. */
final class TlsConnection {
    private static final ByteBuffer NOTHING = ByteBuffer.allocate(0);

    private final SocketChannel channel;
    private final SSLEngine engine;
    private final ByteBuffer netIn;
    private final ByteBuffer netOut;
    private final ByteBuffer appIn;
    private int firstFlightPieces = 1;
    private long pauseMillis;

    TlsConnection(SocketChannel channel, SSLEngine engine) {
        this.channel = channel;
        this.engine = engine;
        int packet = engine.getSession().getPacketBufferSize();
        this.netIn = ByteBuffer.allocate(packet);
        this.netOut = ByteBuffer.allocate(packet);
        this.appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
    }

    /** Writes the first TLS flight (a client's ClientHello) in {@code pieces} writes, {@code pauseMillis} apart. */
    void firstFlightInPieces(int pieces, long pauseMillis) {
        this.firstFlightPieces = pieces;
        this.pauseMillis = pauseMillis;
    }

    void handshake() throws IOException {
        engine.beginHandshake();
        HandshakeStatus status = engine.getHandshakeStatus();
        while (status != HandshakeStatus.FINISHED && status != HandshakeStatus.NOT_HANDSHAKING) {
            switch (status) {
                case NEED_WRAP -> status = wrap(NOTHING).getHandshakeStatus();
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> status = unwrap().getHandshakeStatus();
                case NEED_TASK -> {
                    Runnable task;
                    while ((task = engine.getDelegatedTask()) != null) {
                        task.run();
                    }
                    status = engine.getHandshakeStatus();
                }
                default -> throw new SSLException("unexpected handshake status " + status);
            }
        }
    }

    void send(String text) throws IOException {
        wrap(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** Application data of the next record that carries any (TLS 1.3 tickets are consumed on the way). */
    String receive() throws IOException {
        appIn.clear();
        while (appIn.position() == 0) {
            unwrap();
        }
        appIn.flip();
        return StandardCharsets.UTF_8.decode(appIn).toString();
    }

    private SSLEngineResult wrap(ByteBuffer app) throws IOException {
        netOut.clear();
        SSLEngineResult result = engine.wrap(app, netOut);
        netOut.flip();
        int pieces = firstFlightPieces;
        firstFlightPieces = 1;
        int pieceSize = Math.max(1, (netOut.remaining() + pieces - 1) / pieces);
        while (netOut.hasRemaining()) {
            ByteBuffer piece = netOut.duplicate();
            piece.limit(Math.min(netOut.limit(), netOut.position() + pieceSize));
            while (piece.hasRemaining()) {
                channel.write(piece);
            }
            netOut.position(piece.position());
            if (netOut.hasRemaining() && pieces > 1) {
                pause();
            }
        }
        return result;
    }

    private SSLEngineResult unwrap() throws IOException {
        while (true) {
            netIn.flip();
            SSLEngineResult result = engine.unwrap(netIn, appIn);
            netIn.compact();
            if (result.getStatus() != SSLEngineResult.Status.BUFFER_UNDERFLOW) {
                return result;
            }
            if (channel.read(netIn) < 0) {
                throw new EOFException("peer closed during TLS");
            }
        }
    }

    private void pause() throws IOException {
        try {
            Thread.sleep(pauseMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}

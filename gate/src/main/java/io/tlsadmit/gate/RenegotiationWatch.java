package io.tlsadmit.gate;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Stands between a client's TLS 1.2 renegotiation and the TLS engine on one connection (reused with it). After the
 * first handshake, the only handshake message a TLS 1.2 client sends is a new ClientHello, in a record of content
 * type handshake (22) whose header stays in the clear; the engine would parse it and, unless told otherwise, run a
 * full handshake that no early decision paid for. This asks {@link ConnectorGate#renegotiation} first: refused, the
 * adapter closes the connection before the engine reads the record. TLS 1.3 has no renegotiation (its
 * post-handshake messages, KeyUpdate and NewSessionTicket, are cheap and travel inside application-data records),
 * so a TLS 1.3 connection is never refused here.
 *
 * <p>An adapter tells it what the engine reports: {@link #handshakeCompleted} once the first handshake is done,
 * {@link #engineIdle()} whenever the engine has no handshake under way (an allowed renegotiation has finished).
 * Then either of two ways in:
 * <ul>
 *   <li>{@link #onInbound}: the client's raw bytes, in order, before the engine sees them, for an adapter that holds
 *       them (Netty's handler before {@code SslHandler}). While a handshake is under way it says how far to hand
 *       them on, one record at a time, so that the adapter learns that the handshake completed before the next
 *       record goes in (a ClientHello sent right behind the first handshake's Finished is a renegotiation too);</li>
 *   <li>{@link #onHandshakeMessage()}: the engine reports a handshake message on an established connection, for an
 *       adapter that cannot see records between the socket and the engine (Tomcat's {@code SecureNioChannel}, whose
 *       read both fills the buffer and unwraps it: the engine's request for a task is the signal there).</li>
 * </ul>
 * Allocates nothing; reads each byte of a record header once and skips record bodies without looking at them, and
 * never relies on a length field for more than where the next header is.
 */
public final class RenegotiationWatch {

    /** {@link #onInbound}: the record that starts here is a renegotiation the gate refused; close the connection. */
    public static final int REFUSED = -1;

    private static final int HEADER_LENGTH = 5;
    private static final int HANDSHAKE = 22;
    private static final String TLS13 = "TLSv1.3";

    /** What {@link #onHandshakeMessage()} tells the adapter. */
    public enum Step {
        /** Let the engine go on. */
        PASS,
        /** Close the connection before the engine processes the message. */
        REFUSE
    }

    private final ConnectionAdmission connection;
    private boolean completed;
    /** The first handshake completed on TLS 1.2 or older: a client handshake record now is a renegotiation. */
    private boolean renegotiable;
    private boolean refused;
    /** Bytes of the current record's header seen so far; 0 = the next byte starts a record. */
    private int headerSeen;
    private int length;
    private int bodyLeft;

    public RenegotiationWatch(ConnectionAdmission connection) {
        this.connection = Objects.requireNonNull(connection, "connection");
    }

    /** A new connection starts at a record boundary. */
    public void reset() {
        completed = false;
        renegotiable = false;
        refused = false;
        headerSeen = 0;
        length = 0;
        bodyLeft = 0;
    }

    /**
     * The first handshake is done.
     *
     * @param protocol the session's protocol as {@code SSLSession.getProtocol()} names it ({@code TLSv1.2})
     */
    public void handshakeCompleted(String protocol) {
        completed = true;
        renegotiable = !TLS13.equals(protocol);
    }

    /** Whether {@link #onInbound} still hands bytes on record by record: the first handshake or a renegotiation runs. */
    public boolean isHandshaking() {
        return !completed || connection.isRenegotiating();
    }

    /** Whether a TLS 1.2 renegotiation may still come: an adapter may stop feeding a TLS 1.3 connection's bytes. */
    public boolean isWatching() {
        return !completed || renegotiable;
    }

    /** A renegotiation was refused on this connection: whatever the engine did with the read must fail. */
    public boolean isRefused() {
        return refused;
    }

    /**
     * The client's bytes {@code [from, to)} of {@code in} (neither position nor limit is moved), in the order
     * received, continuing where the previous call stopped.
     *
     * @return how far the bytes may go on to the engine now: {@code to}, or, while a handshake is under way, the end
     *         of the record under way (the adapter hands that much on, tells this what the engine reports, and calls
     *         again from there); {@link #REFUSED} when a refused renegotiation starts in them
     */
    public int onInbound(ByteBuffer in, int from, int to) {
        int at = from;
        while (at < to) {
            if (headerSeen == 0 && renegotiable && !connection.isRenegotiating()
                    && (in.get(at) & 0xFF) == HANDSHAKE && decide() == Step.REFUSE) {
                return REFUSED;
            }
            if (headerSeen < HEADER_LENGTH) {
                if (headerSeen == 3) {
                    length = (in.get(at) & 0xFF) << 8;
                } else if (headerSeen == 4) {
                    bodyLeft = length | (in.get(at) & 0xFF);
                }
                headerSeen++;
                at++;
            } else {
                int skipped = Math.min(bodyLeft, to - at);
                bodyLeft -= skipped;
                at += skipped;
            }
            if (headerSeen == HEADER_LENGTH && bodyLeft == 0) {
                headerSeen = 0;
                if (isHandshaking()) {
                    return at;
                }
            }
        }
        return to;
    }

    /**
     * The engine has a handshake message to process on this connection (for adapters without {@link #onInbound}).
     * Before the first handshake completes, during an allowed renegotiation, and on TLS 1.3 that is no new
     * renegotiation.
     */
    public Step onHandshakeMessage() {
        if (!renegotiable || connection.isRenegotiating()) {
            return Step.PASS;
        }
        return decide();
    }

    /** The engine has no handshake under way: an allowed renegotiation, if one ran, has finished. */
    public void engineIdle() {
        if (completed && connection.isRenegotiating()) {
            connection.gate().renegotiationFinished(connection);
        }
    }

    /** The server starts a renegotiation of its own (a client certificate asked for): charged, never refused early. */
    public void serverRenegotiation() {
        connection.gate().renegotiation(connection, Initiator.SERVER);
    }

    /** The server's own renegotiation is over, completed or failed. */
    public void serverRenegotiationEnded() {
        connection.gate().renegotiationFinished(connection);
    }

    private Step decide() {
        if (connection.gate().renegotiation(connection, Initiator.CLIENT)) {
            return Step.PASS;
        }
        refused = true;
        return Step.REFUSE;
    }
}

package io.tlsadmit.gate;

import io.tlsadmit.classifier.ClientHello;
import io.tlsadmit.classifier.Verdict;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The gate of one connection before its TLS engine exists, as a state machine a server adapter feeds: the
 * bytes received so far and the time, after every read. It answers what to do next: wait for more of the
 * hello, grow the buffer first, hand the bytes to the engine, or close the connection, and it charges the
 * budget through the {@link ConnectorGate} when the hello is complete. The adapter owns the buffer and lends the
 * classifier's scratch, so nothing here allocates, except the host name a TLS 1.2 session-id lookup needs.
 *
 * <p>One per connection slot, reused: {@link #reset} for each new connection. Touched by one thread at a time.
 */
public final class HelloAdmission {

    /** What the adapter does next. */
    public enum Step {
        /** The hello is incomplete and the buffer has room: read again when the client sends more. */
        WAIT,
        /** The hello is incomplete and the buffer is full: grow it to {@link #capacityWanted()}, then read again. */
        GROW,
        /** Admitted: hand the bytes to the TLS engine (the connection's own read timeout applies from now). */
        ADMIT,
        /** Close the connection: {@link #refusal()} says why. */
        REFUSE
    }

    /** Why a connection was refused before its engine existed. */
    public enum Refusal {
        /** The client closed before its hello was complete (counted when the adapter closes the connection). */
        CLIENT_LEFT,
        /** The hello took longer than {@code helloTimeout} (counted when the adapter closes the connection). */
        HELLO_TIMEOUT,
        /** The gate decided: {@link ConnectionAdmission#verdict()} is what it refused (a new handshake over
         *  budget, not TLS, malformed, or a hello larger than any the policy admits). */
        DECIDED
    }

    /** What the machine asks of the server the connection came in on; answers may change only between connections. */
    public interface Server {

        /** The largest buffer a hello may need; one still incomplete in it is more than any the policy admits. */
        int maxHelloBuffer();

        /** How long after accept the hello may take. */
        long helloTimeoutNanos();

        /** Whether the TLS engine has a late gate ({@link ConnectorGate#decide}). */
        boolean isLateGated();

        /** Whether {@link #isSessionCached} can be asked; without it an offer of a session id is trusted. */
        boolean canVerifySessionIds();

        /** Whether a TLS 1.2 session id ({@code sessionId[0..length)}, reused) is in the session cache of the host. */
        boolean isSessionCached(String sniHostName, byte[] sessionId, int length);
    }

    private final ConnectionAdmission connection;
    private final Server server;
    private final byte[] sessionId = new byte[32];
    private Refusal refusal;
    private int capacityWanted;

    public HelloAdmission(ConnectionAdmission connection, Server server) {
        this.connection = Objects.requireNonNull(connection, "connection");
        this.server = Objects.requireNonNull(server, "server");
    }

    /** A new connection on this slot; the {@link ConnectionAdmission} is reset by its owner. */
    public void reset() {
        refusal = null;
        capacityWanted = 0;
    }

    public ConnectionAdmission connection() {
        return connection;
    }

    /** Why the last {@link Step#REFUSE}; null before one. */
    public Refusal refusal() {
        return refusal;
    }

    /** The capacity the last {@link Step#GROW} asked for. */
    public int capacityWanted() {
        return capacityWanted;
    }

    /**
     * The bytes received so far changed (or the client closed, or time passed).
     *
     * @param received     the bytes from the client so far in {@code [position, limit)}, the hello at
     *                     {@code position}; position and limit are left as they are. The buffer is full when
     *                     {@code limit == capacity}
     * @param clientClosed the client closed its side (the last read returned end of stream)
     * @param scratch      the classifier's working memory, lent for this call (about 15 KB: adapters keep one
     *                     per thread, not per connection)
     */
    public Step onBytes(ByteBuffer received, boolean clientClosed, long nowNanos, ClientHello scratch) {
        ConnectorGate gate = connection.gate();
        Verdict verdict = gate.classifier().classify(received, scratch);
        if (verdict == Verdict.INCOMPLETE) {
            if (clientClosed) {
                return refuse(Refusal.CLIENT_LEFT);
            }
            if (!gate.isObserving() && nowNanos - connection.acceptNanos() > server.helloTimeoutNanos()) {
                // Observing, the gate leaves a slow client to the server's own timeout.
                return refuse(Refusal.HELLO_TIMEOUT);
            }
            if (received.limit() < received.capacity()) {
                return Step.WAIT;
            }
            int maxBuffer = server.maxHelloBuffer();
            if (received.capacity() < maxBuffer) {
                capacityWanted = (int) Math.min(2L * received.capacity(), maxBuffer);
                return Step.GROW;
            }
            verdict = Verdict.MALFORMED; // still incomplete in the largest buffer: e.g. one-byte records
        }
        if (verdict == Verdict.RESUME_SESSION_ID && server.canVerifySessionIds()) {
            if (sessionIdCached(server, scratch, sessionId)) {
                connection.sessionIdVerified();
            } else {
                verdict = Verdict.NEW;
            }
        }
        if (gate.decide(connection, verdict, nowNanos, server.isLateGated()) == Decision.ADMITTED) {
            return Step.ADMIT;
        }
        return refuse(Refusal.DECIDED);
    }

    /**
     * Whether {@code server}'s session cache, for the host the hello names, holds the TLS 1.2 session id the classifier
     * has just read into {@code scratch} (a {@link Verdict#RESUME_SESSION_ID}): the engine will resume it.
     *
     * @param idScratch 32 bytes the caller lends for the id
     */
    public static boolean sessionIdCached(Server server, ClientHello scratch, byte[] idScratch) {
        return server.isSessionCached(scratch.sni(), idScratch, scratch.copySessionId(idScratch));
    }

    private Step refuse(Refusal why) {
        refusal = why;
        return Step.REFUSE;
    }
}

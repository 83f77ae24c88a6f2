package io.tlsadmit.tomcat;

import io.tlsadmit.admission.HandshakeBudget;
import io.tlsadmit.gate.ConnectorGate;
import java.io.IOException;
import java.io.Writer;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;

/**
 * Session-based admission (Cherkasova and Phaal): while a connector's budget for new full handshakes
 * is exhausted, a request that would start a new HTTP session is answered {@code 429} (or {@code 503})
 * with {@code Retry-After}, and every request of an existing session passes. The server is out of room
 * for new clients; a client that is already mid-session is the one whose work must not be lost.
 *
 * <p>"Would start a new session": the request has no valid session (no requested session id, or one
 * the context no longer knows) and goes to a target that has been seen creating a session for such a
 * request. Targets are learnt from what requests really do — context plus servlet path, so each JSP
 * is its own target — because only the application knows whether it calls {@code getSession()}: a
 * session-less API or static file is not a new session and is never refused. The first request to a
 * target is therefore always let through.
 *
 * <p>Exempt are requests on a connection that itself paid for a new full handshake: the gate admitted
 * that client with a token moments ago, and refusing its first request would throw away the most
 * expensive work the server did for it.
 *
 * <p>Why 429 by default: Tomcat closes the connection after a 503 ({@code Http11Processor.statusDropsConnection},
 * Tomcat bug 68901), so a client refused that way has to open a new TLS connection to ask again, a
 * resumption handshake per refusal. A 429 keeps the connection; the refused client asks again on it.
 */
final class NewSessionAdmission {

    static final String ATTRIBUTE = "newSessionPolicy";
    static final String STATUS_ATTRIBUTE = "newSessionStatus";
    private static final int MAX_RETRY_AFTER_SECONDS = 60;
    /** Bounds memory when a servlet mapped to "/" creates sessions under every path it serves. */
    static final int MAX_LEARNT_TARGETS = 10_000;

    private final Set<String> sessionStarters = ConcurrentHashMap.newKeySet();
    private final int status;

    NewSessionAdmission(int status) {
        this.status = status;
    }

    /** @throws IllegalArgumentException naming the attribute */
    static boolean parse(String value) {
        String normalized = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        return switch (normalized) {
            case "on", "true" -> true;
            case "off", "false" -> false;
            default -> throw new IllegalArgumentException(ATTRIBUTE + " must be \"on\" or \"off\", was \"" + value + "\"");
        };
    }

    /**
     * {@code 429} keeps the connection; {@code 503} is offered for a front end that acts on it (e.g. retries
     * another server) and costs the client a new connection per refusal.
     *
     * @throws IllegalArgumentException naming the attribute
     */
    static int parseStatus(String value) {
        String normalized = value == null ? "" : value.trim();
        return switch (normalized) {
            case "429" -> 429;
            case "503" -> 503;
            default -> throw new IllegalArgumentException(STATUS_ATTRIBUTE + " must be 429 or 503, was \"" + value + "\"");
        };
    }

    static boolean hasValidSession(Request request) {
        return request.getRequestedSessionId() != null && request.isRequestedSessionIdValid();
    }

    /**
     * Answers a request without a valid session with the refusal status if it must be refused.
     *
     * @return true if the request was answered and must not go further
     */
    boolean refuse(Request request, Response response) throws IOException {
        if (!request.isSecure()
                || !(request.getConnector().getProtocolHandler() instanceof AdmissionNioProtocol protocol)) {
            return false;
        }
        ConnectorGate gate = protocol.gate();
        if (gate == null || gate.isObserving()) {
            return false; // observing: nothing is refused, so no refusal status either
        }
        HandshakeBudget budget = gate.budget();
        double tokens = budget.availableTokens();
        if (tokens >= 1 || sessionStarters.isEmpty() || paidForFullHandshake(request)) {
            return false;
        }
        String target = target(request);
        if (target == null || !sessionStarters.contains(target)) {
            return false;
        }
        response.setStatus(status);
        response.setHeader("Retry-After", Long.toString(retryAfterSeconds(tokens, budget.fullHandshakesPerSecond())));
        response.setContentType("text/plain; charset=utf-8");
        try (Writer writer = response.getWriter()) {
            writer.write("The server is not taking new sessions right now; please retry later.\n");
        }
        return true;
    }

    /** After a request that came without a valid session: remembers its target if it started one. */
    void learn(Request request) {
        if (request.getSessionInternal(false) == null || sessionStarters.size() >= MAX_LEARNT_TARGETS) {
            return;
        }
        String target = target(request);
        if (target != null) {
            sessionStarters.add(target);
        }
    }

    /** Targets seen starting sessions, for tests and diagnostics. */
    int learntTargets() {
        return sessionStarters.size();
    }

    private static String target(Request request) {
        Context context = request.getContext();
        if (context == null) {
            return null;
        }
        return context.getName() + '\u0000' + request.getServletPath();
    }

    private static boolean paidForFullHandshake(Request request) {
        AdmittedConnection connection = TlsAdmissionValve.admittedConnection(request);
        if (connection != null) {
            return "FULL".equals(connection.handshake())
                    || (connection.handshake() == null && "NEW".equals(connection.verdict()));
        }
        return false;
    }

    /** When the next token is due at the current rate, in whole seconds within [1, 60]. */
    static long retryAfterSeconds(double tokens, double ratePerSecond) {
        if (!(ratePerSecond > 0)) {
            return MAX_RETRY_AFTER_SECONDS;
        }
        double seconds = Math.ceil((1 - Math.max(0, tokens)) / ratePerSecond);
        return (long) Math.max(1, Math.min(MAX_RETRY_AFTER_SECONDS, seconds));
    }
}

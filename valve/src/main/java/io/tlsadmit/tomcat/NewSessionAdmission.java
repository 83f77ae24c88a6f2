package io.tlsadmit.tomcat;

import io.tlsadmit.admission.HandshakeBudget;
import io.tlsadmit.gate.ConnectorGate;
import java.io.IOException;
import java.io.Writer;
import java.util.Locale;
import org.apache.catalina.Globals;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;

/**
 * Session-based admission (Cherkasova and Phaal): while a connector's budget for new full handshakes
 * is exhausted, a request that would start a new HTTP session is answered {@code 503} with
 * {@code Retry-After}, and every request of an existing session passes. The server is out of room
 * for new clients; a client that is already mid-session is the one whose work must not be lost.
 *
 * <p>"Exhausted" means spent by demand: tokens below one at a rate above zero. A rate of 0 is an
 * operator closing the gate to new TLS clients (or a static budget of 0); it says nothing about
 * load, and clients that resume keep being served whatever their HTTP session.
 *
 * <p>"Would start a new session" means: no requested session id, or one the context no longer
 * knows. Exempt are requests on a connection that itself paid for a new full handshake: the gate
 * admitted that client with a token moments ago, and refusing its first request would throw away
 * the most expensive work the server did for it.
 */
final class NewSessionAdmission {

    static final String ATTRIBUTE = "newSessionPolicy";
    private static final int MAX_RETRY_AFTER_SECONDS = 60;

    private NewSessionAdmission() {
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
     * Answers the request with 503 if it must be refused.
     *
     * @return true if the request was answered and must not go further
     */
    static boolean refuse(Request request, Response response) throws IOException {
        if (!request.isSecure()
                || !(request.getConnector().getProtocolHandler() instanceof AdmissionNioProtocol protocol)) {
            return false;
        }
        ConnectorGate gate = protocol.gate();
        if (gate == null) {
            return false;
        }
        HandshakeBudget budget = gate.budget();
        double rate = budget.fullHandshakesPerSecond();
        double tokens = budget.availableTokens();
        if (tokens >= 1 || !(rate > 0) || hasValidSession(request) || paidForFullHandshake(request)) {
            return false;
        }
        response.setStatus(503);
        response.setHeader("Retry-After", Long.toString(retryAfterSeconds(tokens, rate)));
        response.setContentType("text/plain; charset=utf-8");
        try (Writer writer = response.getWriter()) {
            writer.write("The server is not taking new sessions right now; please retry later.\n");
        }
        return true;
    }

    private static boolean hasValidSession(Request request) {
        return request.getRequestedSessionId() != null && request.isRequestedSessionIdValid();
    }

    private static boolean paidForFullHandshake(Request request) {
        if (request.getAttribute(Globals.SSL_SESSION_MGR_ATTR) instanceof AdmittedConnection connection) {
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

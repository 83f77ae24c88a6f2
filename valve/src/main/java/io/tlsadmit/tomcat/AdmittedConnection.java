package io.tlsadmit.tomcat;

/**
 * What the gate knows about the connection a request arrived on. The valve finds it through the request's
 * {@code ServletConnection} (HTTP/1.1), or else through the connection's {@code SSLSupport}, which Tomcat
 * hands to every request as the {@code jakarta.servlet.request.ssl_session_mgr} attribute.
 */
public interface AdmittedConnection {

    /** The ClientHello verdict ({@code RESUME_PSK}, {@code NEW}, ...); {@code null} if not gated. */
    String verdict();

    /** {@code FULL} or {@code RESUMED} as the ServerHello showed; {@code null} if unknown. */
    String handshake();

    /** Whether the connector's own application warm-up ({@code warmUpRequests}) made the request, not a client. */
    boolean warmUp();
}

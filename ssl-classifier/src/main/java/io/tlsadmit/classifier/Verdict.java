package io.tlsadmit.classifier;

/**
 * What the first bytes of a TLS connection predict about the handshake to come.
 *
 * <p>Only {@link #NEW} costs the server a full handshake (asymmetric crypto). The three
 * {@code RESUME_*} verdicts say which mechanism the client offers to resume with; whether the
 * server accepts the offer is only known after the handshake (a ticket may be stale or forged),
 * which is why an admission gate also watches the handshake itself.
 */
public enum Verdict {
    /** TLS 1.3 path and the hello carries {@code pre_shared_key}. */
    RESUME_PSK,
    /** TLS 1.2 path and a non-empty {@code SessionTicket} extension. */
    RESUME_TICKET,
    /** TLS 1.2 path and a non-empty session id (that the session cache holds, when a lookup is given). */
    RESUME_SESSION_ID,
    /** A well-formed ClientHello that will need a full handshake. */
    NEW,
    /** A strict prefix of what may still become a valid ClientHello: wait for more bytes. */
    INCOMPLETE,
    /** The bytes are not a TLS handshake record (plain HTTP to the TLS port, for example). */
    NOT_TLS,
    /** An SSLv2-compatible ClientHello; it can never resume. */
    SSLV2,
    /** A TLS handshake record that breaks the ClientHello's structure or the server's limits. */
    MALFORMED;

    /** The client offers to resume a session: cheap if the server accepts. */
    public boolean isResumption() {
        return this == RESUME_PSK || this == RESUME_TICKET || this == RESUME_SESSION_ID;
    }

    /** A well-formed ClientHello that leads to a handshake, resumed or full. */
    public boolean isHandshake() {
        return isResumption() || this == NEW;
    }

    /** No further bytes can change this verdict. */
    public boolean isFinal() {
        return this != INCOMPLETE;
    }
}

package io.tlsadmit.admission;

/**
 * What a finished TLS handshake really was, read from the server's own ServerHello rather than
 * predicted from the ClientHello. Only a {@link #FULL} handshake pays for the certificate signature
 * and the key exchange that make overload expensive; a {@link #RESUMED} one is cheap and always admitted.
 */
public enum HandshakeKind {
    /** A new session: certificate sent and signed, fresh key exchange. */
    FULL,
    /** An abbreviated handshake on an earlier session (TLS 1.2 session id or ticket, TLS 1.3 PSK). */
    RESUMED
}

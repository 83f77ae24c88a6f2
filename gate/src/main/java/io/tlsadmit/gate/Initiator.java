package io.tlsadmit.gate;

import java.util.Locale;

/** Who started a TLS 1.2 renegotiation on an established connection. */
public enum Initiator {
    /** The client sent a new ClientHello (the THC-SSL-DOS pattern when it asks for a full handshake each time). */
    CLIENT,
    /** The server asked for one, e.g. Tomcat requesting a client certificate after the first handshake. */
    SERVER;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}

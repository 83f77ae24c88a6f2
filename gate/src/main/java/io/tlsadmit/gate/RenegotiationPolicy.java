package io.tlsadmit.gate;

import java.util.Locale;

/** What a gated connector does when a client starts a TLS 1.2 renegotiation on an admitted connection. */
public enum RenegotiationPolicy {
    /** Close the connection before the TLS engine reads the new ClientHello: no cryptography at all. */
    REFUSE,
    /** Let it run; a renegotiation that needs a certificate is charged to the budget and refused when it is empty. */
    CHARGE;

    /** The setting's name, as the Tomcat connector attribute and every adapter call it. */
    public static final String ATTRIBUTE = "clientRenegotiation";

    /** The value as a connector attribute or property writes it. */
    public String attributeValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}

package io.tlsadmit.gate;

import java.util.Locale;

/** What a gated connector does when a client starts a TLS 1.2 renegotiation on an admitted connection. */
public enum RenegotiationPolicy {
    /** Close the connection before the TLS engine reads the new ClientHello: no cryptography at all. */
    REFUSE,
    /** Let it run; a renegotiation that needs a certificate is charged to the budget and refused when it is empty. */
    CHARGE;

    public static final String ATTRIBUTE = "clientRenegotiation";

    public static RenegotiationPolicy parse(String value) {
        if (value != null) {
            switch (value.trim().toLowerCase(Locale.ROOT)) {
                case "refuse":
                    return REFUSE;
                case "charge":
                    return CHARGE;
                default:
                    break;
            }
        }
        throw new IllegalArgumentException(ATTRIBUTE + " must be \"refuse\" or \"charge\", was \"" + value + "\"");
    }

    public String attributeValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}

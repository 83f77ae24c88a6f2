package io.tlsadmit.gate;

import java.util.Locale;

/** Where a predicted resumption that needed a full handshake was refused. */
public enum LateRefusal {
    /** When the engine asked for the certificate with the budget empty: after the key exchange in TLS 1.3. */
    CERTIFICATE,
    /** The engine had been told to create no session, and failed the offer right after parsing the hello. */
    NEW_SESSION;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}

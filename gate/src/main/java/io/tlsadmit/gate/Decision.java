package io.tlsadmit.gate;

import java.util.Locale;

/** What the early gate did with a connection. */
public enum Decision {
    ADMITTED,
    REFUSED;

    /** The Prometheus label value. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}

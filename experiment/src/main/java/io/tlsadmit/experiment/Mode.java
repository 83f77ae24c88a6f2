package io.tlsadmit.experiment;

import java.util.Locale;

/** What stands between the users and RUBiS in one leg of the experiment. */
public enum Mode {
    /** Tomcat's own {@code Http11NioProtocol}: every TLS handshake is accepted. */
    STOCK,
    /** The tlsadmit gate with a fixed budget of new full handshakes per second, tuned at the knee. */
    STATIC,
    /** The tlsadmit gate with its default, adaptive budget. */
    ADAPTIVE,
    /** HAProxy terminates TLS with {@code maxsslrate} in front of Tomcat's plain HTTP connector. */
    HAPROXY;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean gated() {
        return this == STATIC || this == ADAPTIVE;
    }

    public static Mode parse(String text) {
        for (Mode mode : values()) {
            if (mode.label().equals(text.strip().toLowerCase(Locale.ROOT))) {
                return mode;
            }
        }
        throw new IllegalArgumentException("unknown mode '" + text + "' (stock, static, adaptive, haproxy)");
    }
}

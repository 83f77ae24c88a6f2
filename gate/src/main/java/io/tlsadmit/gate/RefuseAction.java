package io.tlsadmit.gate;

import java.util.Locale;

/** What the gate does to a connection it refuses before the handshake. */
public enum RefuseAction {
    /** An orderly close (FIN): the client sees end of stream. */
    CLOSE,
    /** An abortive close (RST, SO_LINGER 0): nothing lingers in TIME_WAIT on the server. */
    RESET;

    /** The setting's name, as the Tomcat connector attribute and every adapter call it. */
    public static final String ATTRIBUTE = "refuseAction";

    /** The value as a connector attribute or property writes it. */
    public String attributeValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}

package io.tlsadmit.gate;

import java.util.Locale;

/** What the gate does to a connection it refuses before the handshake. */
public enum RefuseAction {
    /** An orderly close (FIN): the client sees end of stream. */
    CLOSE,
    /** An abortive close (RST, SO_LINGER 0): nothing lingers in TIME_WAIT on the server. */
    RESET;

    public static final String ATTRIBUTE = "refuseAction";

    public static RefuseAction parse(String value) {
        if (value != null) {
            switch (value.trim().toLowerCase(Locale.ROOT)) {
                case "close":
                    return CLOSE;
                case "reset":
                    return RESET;
                default:
                    break;
            }
        }
        throw new IllegalArgumentException(ATTRIBUTE + " must be \"close\" or \"reset\", was \"" + value + "\"");
    }

    public String attributeValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}

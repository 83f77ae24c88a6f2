package io.tlsadmit.admission.cost;

/**
 * The protocol versions whose handshakes cost differently enough to be tracked apart: a TLS 1.3
 * resumption still runs an ECDHE key exchange, a TLS 1.2 resumption does not.
 */
public enum CostedVersion {
    TLS_1_2("1.2"),
    TLS_1_3("1.3"),
    /** Anything older or unrecognised; kept apart so it cannot skew the two that matter. */
    OTHER("other");

    private final String label;

    CostedVersion(String label) {
        this.label = label;
    }

    /** @param wireVersion the negotiated version as on the wire: {@code 0x0303}, {@code 0x0304} */
    public static CostedVersion fromWire(int wireVersion) {
        switch (wireVersion) {
            case 0x0303:
                return TLS_1_2;
            case 0x0304:
                return TLS_1_3;
            default:
                return OTHER;
        }
    }

    /** The metric label value: {@code 1.2}, {@code 1.3} or {@code other}. */
    public String label() {
        return label;
    }
}

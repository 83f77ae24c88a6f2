package io.tlsadmit.gate;

import java.util.Locale;

/** Whether a gated connector acts on its decisions or only counts them. */
public enum GateMode {
    /** Refuse what the gate decides to refuse. */
    ENFORCE,
    /**
     * Decide everything as {@link #ENFORCE} would, count each refusal in {@code tlsadmit_would_refuse_total}, and
     * refuse nothing: the way to roll the gate out and see what it would do to real traffic first.
     */
    OBSERVE;

    /** The setting's name, as the Tomcat connector attribute and every adapter call it. */
    public static final String ATTRIBUTE = "mode";

    /** The value as a connector attribute or property writes it. */
    public String attributeValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}

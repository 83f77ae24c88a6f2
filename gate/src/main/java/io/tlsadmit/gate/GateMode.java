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

    public static final String ATTRIBUTE = "mode";

    public static GateMode parse(String value) {
        if (value != null) {
            switch (value.trim().toLowerCase(Locale.ROOT)) {
                case "enforce":
                    return ENFORCE;
                case "observe":
                    return OBSERVE;
                default:
                    break;
            }
        }
        throw new IllegalArgumentException(ATTRIBUTE + " must be \"enforce\" or \"observe\", was \"" + value + "\"");
    }

    public String attributeValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}

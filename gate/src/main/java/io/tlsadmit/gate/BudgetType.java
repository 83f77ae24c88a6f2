package io.tlsadmit.gate;

import java.util.Locale;

/** Which budget a gate draws its new full handshakes from. */
public enum BudgetType {
    /** A rate that follows the CPU time handshakes cost and the CPUs the process holds (AdmissionController). */
    ADAPTIVE,
    /** A fixed rate and burst (StaticBudget). */
    STATIC;

    public static final String SETTING = "budget";

    /** The value as a connector attribute or property writes it. */
    public String attributeValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}

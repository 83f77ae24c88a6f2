package io.tlsadmit.cpumanager.config;

import java.util.Locale;

/** Which CPUs the manager shares out each period (the {@code capacity} key; see {@code io.tlsadmit.admission.cpu.Capacity}). */
public enum ShareableCpus {
    /** The {@code cpus} less what processes the manager does not manage used on them, measured each period. */
    MEASURED,
    /** All of {@code cpus}, as the study's manager on a host of its own. */
    ALL;

    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}

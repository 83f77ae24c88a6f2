package io.tlsadmit.cpumanager.config;

import java.util.Locale;

/** How an assignment is made real in the operating system (the {@code enforce} key). */
public enum Enforcement {
    /** A CFS bandwidth limit (cgroup v2 {@code cpu.max}, v1 {@code cpu.cfs_quota_us}): fractions of CPUs. */
    QUOTA,
    /** Disjoint sets of whole CPUs, set on every thread of the process. */
    AFFINITY,
    /** Whole-CPU sets, and within them the fractional quota. */
    BOTH;

    public boolean quota() {
        return this != AFFINITY;
    }

    public boolean affinity() {
        return this != QUOTA;
    }

    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}

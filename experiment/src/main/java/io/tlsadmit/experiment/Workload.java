package io.tlsadmit.experiment;

/**
 * What the users do and over which TLS: a RUBiS mix ({@code browsing}, {@code bidding}) and a TLS version
 * ({@code 1.3}, {@code 1.2}). Each workload has its own knee, so its own search, sweep and flash crowd.
 */
public record Workload(String mix, String tls) {

    public static final Workload STUDY = new Workload("browsing", "1.3");

    /** Suffix of this workload's chart files: none for the study's own (browsing, TLS 1.3), so its names stay. */
    public String chartSuffix() {
        return equals(STUDY) ? "" : "-" + mix + "-tls" + tls;
    }

    public String label() {
        return mix + ", TLS " + tls;
    }
}

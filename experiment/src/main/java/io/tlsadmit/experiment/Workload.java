package io.tlsadmit.experiment;

/**
 * What the users do and over which TLS, against how many server CPUs: a RUBiS mix ({@code browsing},
 * {@code bidding}), a TLS version ({@code 1.3}, {@code 1.2}) and the server's CPUs (1: CPU 0; 2: CPUs 0 and 1, the
 * second shared with Gatling). Each workload has its own knee, so its own search, sweep and flash crowd.
 */
public record Workload(String mix, String tls, int serverCpus) {

    public static final Workload STUDY = new Workload("browsing", "1.3");

    /** On the study's one server CPU. */
    public Workload(String mix, String tls) {
        this(mix, tls, 1);
    }

    /**
     * Suffix of this workload's chart files: none for the study's own (browsing, TLS 1.3, one CPU), so its names
     * stay; {@code -bidding-tls1.2}, {@code -2cpus}, {@code -bidding-tls1.2-2cpus}.
     */
    public String chartSuffix() {
        String suffix = mix.equals(STUDY.mix) && tls.equals(STUDY.tls) ? "" : "-" + mix + "-tls" + tls;
        return serverCpus == 1 ? suffix : suffix + "-" + serverCpus + "cpus";
    }

    public String label() {
        return mix + ", TLS " + tls + ", " + cpusLabel();
    }

    /** {@code 1 server CPU}, or {@code 2 server CPUs (CPU 1 shared with Gatling)}: charts and logs say so. */
    public String cpusLabel() {
        return serverCpus == 1 ? "1 server CPU" : serverCpus + " server CPUs (CPU 1 shared with Gatling)";
    }

    /** The server's CPU list for {@code taskset}: {@code 0}, {@code 0,1}. */
    public String cpuList() {
        return serverCpus == 1 ? "0" : "0-" + (serverCpus - 1);
    }
}

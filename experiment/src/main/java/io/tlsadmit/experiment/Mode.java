package io.tlsadmit.experiment;

import java.util.List;
import java.util.Locale;

/** What stands between the users and RUBiS in one leg of the experiment. */
public enum Mode {
    /** Tomcat's own {@code Http11NioProtocol}: every TLS handshake is accepted. */
    STOCK,
    /** The tlsadmit gate with a fixed budget of new full handshakes per second, tuned at the knee. */
    STATIC,
    /** The tlsadmit gate with its default, adaptive budget. */
    ADAPTIVE,
    /**
     * The adaptive budget with new clients' signatures on threads at nice 19 ({@code fullHandshakeNice="19"}),
     * beside {@link #ADAPTIVE} to measure what the priority changes; not among the default modes.
     */
    ADAPTIVE_NICE,
    /**
     * The adaptive budget planning for the CPUs its neighbours leave ({@code cpuCapacity="measured"}, the default
     * since 2026-11-26), beside {@link #ADAPTIVE}; not among the default modes.
     */
    ADAPTIVE_MEASURED,
    /**
     * The adaptive budget planning for the CPUs it may use ({@code cpuCapacity="allocation"}, the default before
     * 2026-11-26), beside {@link #ADAPTIVE}; not among the default modes.
     */
    ADAPTIVE_ALLOCATION,
    /**
     * The adaptive budget ending refused connections with a reset ({@code refuseAction="reset"}) instead of an
     * orderly close, beside {@link #ADAPTIVE}: what a refusal costs the server's CPU either way; not among the
     * default modes.
     */
    ADAPTIVE_RESET,
    /**
     * The adaptive budget whose guard also watches the CPU's run queue ({@code runQueueTarget="3"}), beside
     * {@link #ADAPTIVE}: page latency against throughput under overload; not among the default modes.
     */
    ADAPTIVE_RUNQUEUE,
    /** HAProxy terminates TLS with {@code maxsslrate} in front of Tomcat's plain HTTP connector. */
    HAPROXY,
    /**
     * HAProxy terminates TLS; new connections over a rate are rejected when accepted, before any TLS work, and the
     * listen backlog is short.
     */
    HAPROXY_REJECT,
    /**
     * HAProxy reads the ClientHello in TCP mode, rejects over a rate the hellos that do not offer a session
     * ticket, and passes the rest to a TLS-terminating frontend.
     */
    HAPROXY_HELLO;

    /** As in {@code steps.csv} and {@code --modes}: {@code haproxy-reject}, not {@code haproxy_reject}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public boolean gated() {
        return this == STATIC || this == ADAPTIVE || !gateSettings().isEmpty();
    }

    /** The gate's {@code budget} attribute: static or adaptive; empty for the ungated modes. */
    public String budget() {
        return this == STATIC ? "static" : gated() ? "adaptive" : "";
    }

    /** The gate's connector attributes beyond its budget that this mode measures; empty for the others. */
    public java.util.Map<String, String> gateSettings() {
        return switch (this) {
            case ADAPTIVE_NICE -> java.util.Map.of("fullHandshakeNice", "19");
            case ADAPTIVE_MEASURED -> java.util.Map.of("cpuCapacity", "measured");
            case ADAPTIVE_ALLOCATION -> java.util.Map.of("cpuCapacity", "allocation");
            case ADAPTIVE_RESET -> java.util.Map.of("refuseAction", "reset");
            case ADAPTIVE_RUNQUEUE -> java.util.Map.of("runQueueTarget", "3");
            default -> java.util.Map.of();
        };
    }

    /** The modes a run has when {@code --modes} is not given: every one but the variants that measure a setting. */
    public static List<Mode> defaults() {
        return java.util.Arrays.stream(values()).filter(mode -> mode.gateSettings().isEmpty()).toList();
    }

    /** HAProxy terminates TLS in front of Tomcat's plain connector, with a rate found by a sweep of its own. */
    public boolean haproxy() {
        return this == HAPROXY || this == HAPROXY_REJECT || this == HAPROXY_HELLO;
    }

    /**
     * The setting the HAProxy modes' rate is, as {@code steps.csv} names the phase that tunes it; empty for the
     * other modes.
     */
    public String rateSetting() {
        return switch (this) {
            case HAPROXY -> "maxsslrate";
            case HAPROXY_REJECT -> "reject-rate";
            case HAPROXY_HELLO -> "new-hello-rate";
            default -> "";
        };
    }

    public static Mode parse(String text) {
        for (Mode mode : values()) {
            if (mode.label().equals(text.strip().toLowerCase(Locale.ROOT))) {
                return mode;
            }
        }
        throw new IllegalArgumentException("unknown mode '" + text + "' (stock, static, adaptive, adaptive-nice,"
                + " adaptive-measured, adaptive-allocation, adaptive-reset, adaptive-runqueue, haproxy, haproxy-reject,"
                + " haproxy-hello)");
    }
}

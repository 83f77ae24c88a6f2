package io.tlsadmit.loadtests.run;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;

/**
 * A run's knobs, from system properties ({@code -Drubis.*}); every one has a default so that
 * {@code mvn gatling:test} alone drives a local server. An invalid value stops the run with the property's name.
 */
public record Settings(
        String baseUrl,
        String contextPath,
        String mix,
        ArrivalModel model,
        double usersPerSecond,
        boolean poissonArrivals,
        int concurrentUsers,
        Duration duration,
        Duration drain,
        int userCount,
        double thinkTimeScale,
        Duration requestTimeout,
        int maxTransitions,
        int connectAttempts,
        int connectionsPerUser,
        int sourceAddresses,
        Duration refusedBackoff,
        String metricsUrl,
        long serverPid,
        Path resultsDir,
        String runName) {

    public enum ArrivalModel { OPEN, CLOSED }

    /**
     * Images on the page's one connection, one after the other ({@code connectionsPerUser = 1}, the default),
     * or inferred from the HTML and fetched over up to that many parallel connections, like a browser.
     */
    public boolean browserLikeResources() {
        return connectionsPerUser > 1;
    }

    public static Settings fromSystemProperties() {
        return from(System.getProperties());
    }

    public static Settings from(Properties p) {
        String runName = text(p, "rubis.runName", "rubis");
        return new Settings(
                text(p, "rubis.baseUrl", "https://127.0.0.1:8443"),
                text(p, "rubis.contextPath", "/rubis"),
                choice(p, "rubis.mix", "browsing", "browsing", "bidding"),
                ArrivalModel.valueOf(choice(p, "rubis.model", "open", "open", "closed").toUpperCase(Locale.ROOT)),
                number(p, "rubis.usersPerSec", 5, 0.001, 100_000),
                Boolean.parseBoolean(choice(p, "rubis.poisson", "true", "true", "false")),
                (int) number(p, "rubis.concurrentUsers", 50, 1, 1_000_000),
                Duration.ofMillis((long) (1000 * number(p, "rubis.durationSec", 60, 0.1, 7 * 24 * 3600))),
                Duration.ofMillis((long) (1000 * number(p, "rubis.drainSec", 120, 0, 7 * 24 * 3600))),
                (int) number(p, "rubis.userCount", 62, 1, Integer.MAX_VALUE),
                number(p, "rubis.thinkTimeScale", 1, 0, 100),
                Duration.ofMillis((long) number(p, "rubis.requestTimeoutMs", 10_000, 1, 3_600_000)),
                (int) number(p, "rubis.maxTransitions", 1000, 1, 1_000_000),
                (int) number(p, "rubis.connectAttempts", 3, 1, 1000),
                (int) number(p, "rubis.connectionsPerUser", 1, 1, 64),
                (int) number(p, "rubis.sourceAddresses", 0, 0, LoopbackSources.MAX),
                Duration.ofMillis((long) number(p, "rubis.refusedBackoffMs", 1000, 0, 600_000)),
                p.getProperty("rubis.metricsUrl", "").strip(),
                (long) number(p, "rubis.serverPid", 0, 0, Long.MAX_VALUE),
                Path.of(text(p, "rubis.resultsDir", p.getProperty("loadtests.target", "target") + "/rubis-runs/"
                        + runName + "-" + System.currentTimeMillis())),
                runName);
    }

    private static String text(Properties p, String name, String fallback) {
        String value = p.getProperty(name, fallback).strip();
        if (value.isEmpty()) {
            throw new IllegalArgumentException(name + " must not be empty");
        }
        return value;
    }

    private static String choice(Properties p, String name, String fallback, String... allowed) {
        String value = text(p, name, fallback).toLowerCase(Locale.ROOT);
        for (String candidate : allowed) {
            if (candidate.equals(value)) {
                return value;
            }
        }
        throw new IllegalArgumentException(name + " must be one of " + String.join(", ", allowed) + ", got '"
                + value + "'");
    }

    private static double number(Properties p, String name, double fallback, double min, double max) {
        String text = p.getProperty(name);
        if (text == null || text.isBlank()) {
            return fallback;
        }
        double value;
        try {
            value = Double.parseDouble(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number, got '" + text + "'");
        }
        if (!(value >= min && value <= max)) {
            throw new IllegalArgumentException(name + " must be in [" + min + ", " + max + "], got " + text);
        }
        return value;
    }
}

package io.tlsadmit.tomcat;

import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.admission.cpu.CpuCapacity;
import io.tlsadmit.gate.BudgetType;
import io.tlsadmit.gate.ConnectorGate;
import io.tlsadmit.gate.GateConfig;
import io.tlsadmit.gate.GateMode;
import io.tlsadmit.gate.RefuseAction;
import io.tlsadmit.gate.RenegotiationPolicy;
import io.tlsadmit.gate.SlowHelloLimits;
import io.tlsadmit.gate.source.AddressRanges;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The gate's connector attributes as server.xml (or the Spring Boot starter, through
 * {@code Connector.setProperty}) wrote them, turned into the gate's typed {@link GateConfig} when the connector
 * initialises. A bad value is an {@link IllegalArgumentException} whose message starts with the attribute's name
 * and quotes the value as written, so the connector can stop Tomcat's start with it.
 */
final class ConnectorAttributes {

    static final String SHORTEST_WORK_FIRST = "shortestWorkFirst";
    static final String WARM_UP_HANDSHAKES = "warmUpHandshakes";
    static final int MAX_WARM_UP_HANDSHAKES = 10_000;
    static final String FULL_HANDSHAKE_NICE = "fullHandshakeNice";
    static final String WARM_UP_REQUESTS = "warmUpRequests";
    static final String WARM_UP_SECONDS = "warmUpSeconds";
    /**
     * With RUBiS on one CPU the process still spent 1.6–2.1× its final CPU per request after 15 s of warm-up, 1.0–1.4×
     * after 30 s (docs/results/2026-11-27-warm-up-curve); a flash crowd after 30 s completed 1,790 sessions, after
     * 15 s 1,526–1,648 (docs/benchmarks.md section 4).
     */
    static final int DEFAULT_WARM_UP_SECONDS = 30;
    static final int MAX_WARM_UP_SECONDS = 600;
    /** A request target as sent on the wire: an absolute path, visible ASCII (percent-encode the rest). */
    private static final Pattern REQUEST_TARGET = Pattern.compile("/[\\x21-\\x7e]*");

    /**
     * CPUs as decimal CPUs ({@code 1.5}) or as a Kubernetes CPU quantity in millicores ({@code 500m}): the
     * Downward API hands a container's CPU request or limit over as a whole number of millicores only, so
     * {@code cpus="${CPU_MILLICORES}m"} in server.xml takes it as the kubelet writes it.
     */
    private static final Pattern CPU_QUANTITY =
            Pattern.compile("((?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?)|(\\d+(?:\\.\\d+)?|\\.\\d+)m");

    private String budget = BudgetType.ADAPTIVE.attributeValue();
    /** null = the budget's own default: static 100/s burst 20; adaptive no cap worth the name, burst automatic. */
    private String maxFullHandshakesPerSecond;
    private String fullHandshakeBurst;
    private String refuseAction = RefuseAction.CLOSE.attributeValue();
    private String nativePeek = "true";
    private String clientRenegotiation = RenegotiationPolicy.REFUSE.attributeValue();
    private String mode = GateMode.ENFORCE.attributeValue();
    private String bypassAddresses;
    private String connectionsPerNewUser = Integer.toString(ConnectorGate.DEFAULT_CONNECTIONS_PER_NEW_USER);
    /** null = the gate's default (GateConfig.slowHelloLimits). */
    private String helloTimeout;
    private String maxPendingHellos;
    private String maxPendingHellosPerSource;
    // budget="adaptive" only; null = the controller's default
    private String cpus;
    private String cpuCapacity;
    private String targetUtilization;
    private String controlPeriod;
    private String minFullHandshakesPerSecond;
    private String queueDelayTarget;
    private String initialFullHandshakeCost;
    private String runQueueTarget;
    // the Tomcat adapter's own
    private String shortestWorkFirst = "true";
    private String warmUpHandshakes = Integer.toString(AdmissionNioProtocol.DEFAULT_WARM_UP_HANDSHAKES);
    private String fullHandshakeNice = Integer.toString(AdmissionNioProtocol.DEFAULT_FULL_HANDSHAKE_NICE);
    private String warmUpRequests = "";
    private String warmUpSeconds = Integer.toString(DEFAULT_WARM_UP_SECONDS);

    /**
     * The gate's settings; the adaptive budget's attributes are read only with {@code budget="adaptive"}.
     *
     * @throws IllegalArgumentException naming the offending attribute
     */
    GateConfig gateConfig() {
        BudgetType type = oneOf(BudgetType.SETTING, budget, BudgetType.ADAPTIVE, BudgetType.STATIC);
        GateConfig.Builder config = GateConfig.builder().budget(type);
        if (maxFullHandshakesPerSecond != null) {
            config.maxFullHandshakesPerSecond(rate(maxFullHandshakesPerSecond));
        }
        if (fullHandshakeBurst != null) {
            config.fullHandshakeBurst(burst(fullHandshakeBurst));
        }
        if (type == BudgetType.ADAPTIVE) {
            adaptive(config);
        }
        config.refuseAction(oneOf(RefuseAction.ATTRIBUTE, refuseAction, RefuseAction.CLOSE, RefuseAction.RESET))
                .clientRenegotiation(oneOf(RenegotiationPolicy.ATTRIBUTE, clientRenegotiation,
                        RenegotiationPolicy.REFUSE, RenegotiationPolicy.CHARGE))
                .connectionsPerNewUser(connectionsPerNewUser())
                .nativePeek(flag(GateConfig.NATIVE_PEEK, nativePeek))
                .bypassAddresses(bypassAddresses())
                .mode(oneOf(GateMode.ATTRIBUTE, mode, GateMode.ENFORCE, GateMode.OBSERVE));
        if (helloTimeout != null) {
            config.helloTimeout(Duration.ofMillis(atLeastOne(SlowHelloLimits.HELLO_TIMEOUT, helloTimeout, "ms")));
        }
        if (maxPendingHellos != null) {
            config.maxPendingHellos(connections(SlowHelloLimits.MAX_PENDING, maxPendingHellos));
        }
        if (maxPendingHellosPerSource != null) {
            config.maxPendingHellosPerSource(connections(SlowHelloLimits.MAX_PENDING_PER_SOURCE,
                    maxPendingHellosPerSource));
        }
        return config.build();
    }

    private void adaptive(GateConfig.Builder config) {
        if (cpus != null) {
            config.cpus(cpus(cpus));
        }
        if (cpuCapacity != null) {
            config.cpuCapacity(oneOf(CpuCapacity.ATTRIBUTE, cpuCapacity, CpuCapacity.ALLOCATION, CpuCapacity.MEASURED));
        }
        if (targetUtilization != null) {
            config.targetUtilization(decimal(AdmissionController.TARGET_UTILIZATION, targetUtilization,
                    "a fraction in (0, 1]"));
        }
        if (controlPeriod != null) {
            config.controlPeriod(Duration.ofMillis(whole(AdmissionController.CONTROL_PERIOD, controlPeriod,
                    "milliseconds")));
        }
        if (queueDelayTarget != null) {
            config.queueDelayTarget(Duration.ofMillis(whole(AdmissionController.QUEUE_DELAY_TARGET, queueDelayTarget,
                    "milliseconds")));
        }
        if (initialFullHandshakeCost != null) {
            config.initialFullHandshakeCost(Duration.of(whole(AdmissionController.INITIAL_COST,
                    initialFullHandshakeCost, "microseconds"), ChronoUnit.MICROS));
        }
        if (runQueueTarget != null) {
            config.runQueueTarget(decimal(AdmissionController.RUN_QUEUE_TARGET, runQueueTarget,
                    "a number of threads waiting for a CPU per CPU (0 = off)"));
        }
        if (minFullHandshakesPerSecond != null) {
            config.minFullHandshakesPerSecond(decimal(AdmissionController.MIN_RATE, minFullHandshakesPerSecond,
                    "a number of new full handshakes per second"));
        }
    }

    /** @throws IllegalArgumentException naming the attribute */
    boolean shortestWorkFirst() {
        return flag(SHORTEST_WORK_FIRST, shortestWorkFirst);
    }

    /** @throws IllegalArgumentException naming the attribute */
    int warmUpHandshakes() {
        try {
            int value = Integer.parseInt(warmUpHandshakes == null ? "" : warmUpHandshakes.trim());
            if (value >= 0 && value <= MAX_WARM_UP_HANDSHAKES) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(WARM_UP_HANDSHAKES + " must be a whole number of handshakes in [0, "
                + MAX_WARM_UP_HANDSHAKES + "] (0 = no warm-up), was \"" + warmUpHandshakes + "\"");
    }

    /**
     * The application's pages to request over the connector's own port at start, in turn; empty = no such warm-up.
     *
     * @throws IllegalArgumentException naming the attribute
     */
    List<String> warmUpRequests() {
        List<String> paths = new ArrayList<>();
        for (String path : (warmUpRequests == null ? "" : warmUpRequests).split(",")) {
            String trimmed = path.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            if (!REQUEST_TARGET.matcher(trimmed).matches()) {
                throw new IllegalArgumentException(WARM_UP_REQUESTS + " must be a comma-separated list of paths, each"
                        + " starting with / in visible ASCII (percent-encode the rest), was \"" + warmUpRequests + "\"");
            }
            paths.add(trimmed);
        }
        return List.copyOf(paths);
    }

    /** @throws IllegalArgumentException naming the attribute */
    Duration warmUpDuration() {
        try {
            int value = Integer.parseInt(warmUpSeconds == null ? "" : warmUpSeconds.trim());
            if (value >= 1 && value <= MAX_WARM_UP_SECONDS) {
                return Duration.ofSeconds(value);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(WARM_UP_SECONDS + " must be a whole number of seconds in [1, "
                + MAX_WARM_UP_SECONDS + "], was \"" + warmUpSeconds + "\"");
    }

    /** @throws IllegalArgumentException naming the attribute */
    int fullHandshakeNice() {
        try {
            int value = Integer.parseInt(fullHandshakeNice == null ? "" : fullHandshakeNice.trim());
            if (value >= 0 && value <= 19) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(FULL_HANDSHAKE_NICE + " must be a Linux nice value in [0, 19] (0 = full"
                + " handshakes run on the workers, 19 = the lowest priority), was \"" + fullHandshakeNice + "\"");
    }

    private int connectionsPerNewUser() {
        try {
            int value = Integer.parseInt(connectionsPerNewUser.trim());
            if (value >= 1 && value <= GateConfig.MAX_CONNECTIONS_PER_NEW_USER) {
                return value;
            }
        } catch (NumberFormatException | NullPointerException e) {
            // reported below in the user's terms
        }
        throw new IllegalArgumentException(GateConfig.CONNECTIONS_PER_NEW_USER + " must be a whole number of"
                + " connections in [1, " + GateConfig.MAX_CONNECTIONS_PER_NEW_USER + "] (1 = no grace), was \""
                + connectionsPerNewUser + "\"");
    }

    private AddressRanges bypassAddresses() {
        try {
            return AddressRanges.parse(bypassAddresses);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(GateConfig.BYPASS_ADDRESSES + " must be a comma-separated list of IPv4"
                    + " and IPv6 addresses and CIDR ranges: " + e.getMessage());
        }
    }

    /** One of two values, written as {@code attributeValue()} in any case, with blanks around. */
    private static <E extends Enum<E>> E oneOf(String attribute, String value, E first, E second) {
        String written = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        for (E candidate : java.util.List.of(first, second)) {
            if (candidate.name().toLowerCase(Locale.ROOT).equals(written)) {
                return candidate;
            }
        }
        throw new IllegalArgumentException(attribute + " must be \"" + first.name().toLowerCase(Locale.ROOT)
                + "\" or \"" + second.name().toLowerCase(Locale.ROOT) + "\", was \"" + value + "\"");
    }

    private static boolean flag(String attribute, String value) {
        String written = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        return switch (written) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(attribute + " must be \"true\" or \"false\", was \""
                    + value + "\"");
        };
    }

    private static double rate(String value) {
        double rate;
        try {
            rate = Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(GateConfig.MAX_FULL_HANDSHAKES_PER_SECOND + " must be a decimal number"
                    + " of new full handshakes per second (0 refuses every new handshake), was \"" + value + "\"");
        }
        if (!Double.isFinite(rate) || rate < 0) {
            throw new IllegalArgumentException(GateConfig.MAX_FULL_HANDSHAKES_PER_SECOND + " must be >= 0, was \""
                    + value + "\"");
        }
        return rate;
    }

    private static long burst(String value) {
        try {
            long burst = Long.parseLong(value.trim());
            if (burst >= 0) {
                return burst;
            }
        } catch (NumberFormatException e) {
            // reported below in the user's terms
        }
        throw new IllegalArgumentException(GateConfig.FULL_HANDSHAKE_BURST + " must be a whole number of handshakes"
                + " >= 0, was \"" + value + "\"");
    }

    private static int connections(String attribute, String value) {
        return (int) Math.min(Integer.MAX_VALUE, atLeastOne(attribute, value, "connections"));
    }

    private static long atLeastOne(String attribute, String value, String unit) {
        try {
            long parsed = Long.parseLong(value.trim());
            if (parsed >= 1) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below in the user's terms
        }
        throw new IllegalArgumentException(attribute + " must be a whole number of " + unit + " >= 1, was \"" + value
                + "\"");
    }

    static double cpus(String value) {
        Matcher quantity = CPU_QUANTITY.matcher(value.trim());
        if (quantity.matches()) {
            // group 1: decimal CPUs, also as Double.toString writes them (1.0E-4, from the Spring Boot starter)
            return quantity.group(1) != null ? Double.parseDouble(quantity.group(1))
                    : Double.parseDouble(quantity.group(2)) / 1000;
        }
        // AdmissionNioProtocol.withPlaceholderHint adds how Tomcat resolves them
        String placeholder = value.contains("${") ? " (an unresolved ${...}: is the variable set?)" : "";
        throw new IllegalArgumentException(AdmissionController.CPUS + " must be a number of CPUs (0 = detect), decimal"
                + " (1.5) or in millicores (1500m), was \"" + value + "\"" + placeholder);
    }

    private static double decimal(String attribute, String value, String meaning) {
        try {
            double parsed = Double.parseDouble(value.trim());
            if (Double.isFinite(parsed)) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below in the user's terms
        }
        throw new IllegalArgumentException(attribute + " must be " + meaning + ", was \"" + value + "\"");
    }

    private static long whole(String attribute, String value, String unit) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(attribute + " must be a whole number of " + unit + ", was \""
                    + value + "\"");
        }
    }

    // ---- as written ------------------------------------------------------------------------------

    String getBudget() {
        return budget;
    }

    void setBudget(String value) {
        budget = value;
    }

    String getMaxFullHandshakesPerSecond() {
        return maxFullHandshakesPerSecond;
    }

    void setMaxFullHandshakesPerSecond(String value) {
        maxFullHandshakesPerSecond = value;
    }

    String getFullHandshakeBurst() {
        return fullHandshakeBurst;
    }

    void setFullHandshakeBurst(String value) {
        fullHandshakeBurst = value;
    }

    String getRefuseAction() {
        return refuseAction;
    }

    void setRefuseAction(String value) {
        refuseAction = value;
    }

    String getNativePeek() {
        return nativePeek;
    }

    void setNativePeek(String value) {
        nativePeek = value;
    }

    String getClientRenegotiation() {
        return clientRenegotiation;
    }

    void setClientRenegotiation(String value) {
        clientRenegotiation = value;
    }

    String getMode() {
        return mode;
    }

    void setMode(String value) {
        mode = value;
    }

    String getBypassAddresses() {
        return bypassAddresses;
    }

    void setBypassAddresses(String value) {
        bypassAddresses = value;
    }

    String getConnectionsPerNewUser() {
        return connectionsPerNewUser;
    }

    void setConnectionsPerNewUser(String value) {
        connectionsPerNewUser = value;
    }

    String getHelloTimeout() {
        return helloTimeout;
    }

    void setHelloTimeout(String value) {
        helloTimeout = value;
    }

    String getMaxPendingHellos() {
        return maxPendingHellos;
    }

    void setMaxPendingHellos(String value) {
        maxPendingHellos = value;
    }

    String getMaxPendingHellosPerSource() {
        return maxPendingHellosPerSource;
    }

    void setMaxPendingHellosPerSource(String value) {
        maxPendingHellosPerSource = value;
    }

    String getCpus() {
        return cpus;
    }

    void setCpus(String value) {
        cpus = value;
    }

    String getCpuCapacity() {
        return cpuCapacity;
    }

    void setCpuCapacity(String value) {
        cpuCapacity = value;
    }

    String getTargetUtilization() {
        return targetUtilization;
    }

    void setTargetUtilization(String value) {
        targetUtilization = value;
    }

    String getControlPeriod() {
        return controlPeriod;
    }

    void setControlPeriod(String value) {
        controlPeriod = value;
    }

    String getMinFullHandshakesPerSecond() {
        return minFullHandshakesPerSecond;
    }

    void setMinFullHandshakesPerSecond(String value) {
        minFullHandshakesPerSecond = value;
    }

    String getQueueDelayTarget() {
        return queueDelayTarget;
    }

    void setQueueDelayTarget(String value) {
        queueDelayTarget = value;
    }

    String getInitialFullHandshakeCost() {
        return initialFullHandshakeCost;
    }

    void setInitialFullHandshakeCost(String value) {
        initialFullHandshakeCost = value;
    }

    String getRunQueueTarget() {
        return runQueueTarget;
    }

    void setRunQueueTarget(String value) {
        runQueueTarget = value;
    }

    String getShortestWorkFirst() {
        return shortestWorkFirst;
    }

    void setShortestWorkFirst(String value) {
        shortestWorkFirst = value;
    }

    String getWarmUpHandshakes() {
        return warmUpHandshakes;
    }

    void setWarmUpHandshakes(String value) {
        warmUpHandshakes = value;
    }

    String getFullHandshakeNice() {
        return fullHandshakeNice;
    }

    void setFullHandshakeNice(String value) {
        fullHandshakeNice = value;
    }

    String getWarmUpRequests() {
        return warmUpRequests;
    }

    void setWarmUpRequests(String value) {
        warmUpRequests = value;
    }

    String getWarmUpSeconds() {
        return warmUpSeconds;
    }

    void setWarmUpSeconds(String value) {
        warmUpSeconds = value;
    }
}

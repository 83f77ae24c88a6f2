package io.tlsadmit.gate;

import io.tlsadmit.admission.HandshakeBudget;
import io.tlsadmit.admission.StaticBudget;
import io.tlsadmit.gate.adaptive.AdaptiveSettings;
import io.tlsadmit.gate.source.AddressRanges;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * The connector attributes of the gate as the user wrote them, checked together at connector init so
 * that a bad value stops Tomcat with a message naming the attribute.
 */
public final class GateSettings {

    public static final String BUDGET = "budget";
    public static final String RATE = StaticBudget.RATE_ATTRIBUTE;
    public static final String BURST = StaticBudget.BURST_ATTRIBUTE;
    public static final String NATIVE_PEEK = "nativePeek";
    public static final String CONNECTIONS_PER_NEW_USER = "connectionsPerNewUser";
    public static final String BYPASS_ADDRESSES = "bypassAddresses";

    private String budget = "adaptive";
    /** null = the budget's own default: static 100/s burst 20; adaptive no cap worth the name, burst automatic. */
    private String maxFullHandshakesPerSecond;
    private String fullHandshakeBurst;
    private final AdaptiveSettings adaptive = new AdaptiveSettings();
    private String refuseAction = "close";
    private String nativePeek = "true";
    private String clientRenegotiation = "refuse";
    private String mode = "enforce";
    private String bypassAddresses;
    private String connectionsPerNewUser = String.valueOf(ConnectorGate.DEFAULT_CONNECTIONS_PER_NEW_USER);
    /** null = default (SlowHelloLimits). */
    private String helloTimeout;
    private String maxPendingHellos;
    private String maxPendingHellosPerSource;

    public String getBudget() {
        return budget;
    }

    public void setBudget(String budget) {
        this.budget = budget;
    }

    public String getMaxFullHandshakesPerSecond() {
        return maxFullHandshakesPerSecond;
    }

    public void setMaxFullHandshakesPerSecond(String value) {
        this.maxFullHandshakesPerSecond = value;
    }

    public String getFullHandshakeBurst() {
        return fullHandshakeBurst;
    }

    public void setFullHandshakeBurst(String value) {
        this.fullHandshakeBurst = value;
    }

    public String getRefuseAction() {
        return refuseAction;
    }

    public void setRefuseAction(String value) {
        this.refuseAction = value;
    }

    public String getNativePeek() {
        return nativePeek;
    }

    public void setNativePeek(String value) {
        this.nativePeek = value;
    }

    public String getClientRenegotiation() {
        return clientRenegotiation;
    }

    public void setClientRenegotiation(String value) {
        this.clientRenegotiation = value;
    }

    public String getHelloTimeout() {
        return helloTimeout;
    }

    public void setHelloTimeout(String value) {
        this.helloTimeout = value;
    }

    public String getMaxPendingHellos() {
        return maxPendingHellos;
    }

    public void setMaxPendingHellos(String value) {
        this.maxPendingHellos = value;
    }

    public String getMaxPendingHellosPerSource() {
        return maxPendingHellosPerSource;
    }

    public void setMaxPendingHellosPerSource(String value) {
        this.maxPendingHellosPerSource = value;
    }

    public String getMode() {
        return mode;
    }

    public void setMode(String value) {
        this.mode = value;
    }

    /** @throws IllegalArgumentException naming the offending attribute */
    public GateMode modeValue() {
        return GateMode.parse(mode);
    }

    public String getBypassAddresses() {
        return bypassAddresses;
    }

    public void setBypassAddresses(String value) {
        this.bypassAddresses = value;
    }

    /** @throws IllegalArgumentException naming the offending attribute */
    public AddressRanges bypassAddressesValue() {
        try {
            return AddressRanges.parse(bypassAddresses);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(BYPASS_ADDRESSES + " must be a comma-separated list of IPv4 and IPv6"
                    + " addresses and CIDR ranges: " + e.getMessage());
        }
    }

    public String getConnectionsPerNewUser() {
        return connectionsPerNewUser;
    }

    public void setConnectionsPerNewUser(String value) {
        this.connectionsPerNewUser = value;
    }

    /** @throws IllegalArgumentException naming the offending attribute */
    public int connectionsPerNewUserValue() {
        try {
            int value = Integer.parseInt(connectionsPerNewUser.trim());
            if (value >= 1 && value <= 64) {
                return value;
            }
        } catch (NumberFormatException | NullPointerException e) {
            // reported below in the user's terms
        }
        throw new IllegalArgumentException(CONNECTIONS_PER_NEW_USER + " must be a whole number of connections in [1, 64]"
                + " (1 = no grace), was \"" + connectionsPerNewUser + "\"");
    }

    /** @throws IllegalArgumentException naming the offending attribute */
    public RenegotiationPolicy clientRenegotiationValue() {
        return RenegotiationPolicy.parse(clientRenegotiation);
    }

    /**
     * @param maxConnections          Tomcat's {@code maxConnections} (-1 = unlimited)
     * @param connectionTimeoutMillis Tomcat's {@code connectionTimeout}
     * @throws IllegalArgumentException naming the offending attribute
     */
    public SlowHelloLimits slowHelloLimits(int maxConnections, long connectionTimeoutMillis) {
        return SlowHelloLimits.resolve(helloTimeout, maxPendingHellos, maxPendingHellosPerSource, maxConnections,
                connectionTimeoutMillis);
    }

    /** @throws IllegalArgumentException naming the offending attribute */
    public boolean nativePeekValue() {
        String value = nativePeek == null ? "" : nativePeek.trim().toLowerCase(Locale.ROOT);
        return switch (value) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(NATIVE_PEEK + " must be \"true\" or \"false\", was \""
                    + nativePeek + "\"");
        };
    }

    /** @throws IllegalArgumentException naming the offending attribute */
    public RefuseAction refuseActionValue() {
        return RefuseAction.parse(refuseAction);
    }

    /** The attributes only {@code budget="adaptive"} reads. */
    public AdaptiveSettings adaptive() {
        return adaptive;
    }

    /**
     * A new budget as configured: static, or adaptive (an {@code AdmissionController} that the
     * connector must tick). @throws IllegalArgumentException naming the offending attribute
     */
    public HandshakeBudget newBudget() {
        String kind = budget == null ? "" : budget.trim().toLowerCase(Locale.ROOT);
        switch (kind) {
            case "static":
                return new StaticBudget(parseRate(maxFullHandshakesPerSecond == null ? "100" : maxFullHandshakesPerSecond),
                        parseBurst(fullHandshakeBurst == null ? "20" : fullHandshakeBurst));
            case "adaptive":
                return adaptive.newController(
                        maxFullHandshakesPerSecond == null ? OptionalDouble.empty()
                                : OptionalDouble.of(parseRate(maxFullHandshakesPerSecond)),
                        fullHandshakeBurst == null ? OptionalLong.empty() : OptionalLong.of(parseBurst(fullHandshakeBurst)));
            default:
                throw new IllegalArgumentException(BUDGET + " must be \"adaptive\" or \"static\", was \"" + budget + "\"");
        }
    }

    static double parseRate(String value) {
        double rate;
        try {
            rate = Double.parseDouble(value.trim());
        } catch (NumberFormatException | NullPointerException e) {
            throw new IllegalArgumentException(RATE + " must be a decimal number of new full handshakes per second"
                    + " (0 refuses every new handshake), was \"" + value + "\"");
        }
        if (!Double.isFinite(rate) || rate < 0) {
            throw new IllegalArgumentException(RATE + " must be >= 0, was \"" + value + "\"");
        }
        return rate;
    }

    static long parseBurst(String value) {
        try {
            long burst = Long.parseLong(value.trim());
            if (burst >= 0) {
                return burst;
            }
        } catch (NumberFormatException | NullPointerException e) {
            // reported below in the user's terms
        }
        throw new IllegalArgumentException(BURST + " must be a whole number of handshakes >= 0, was \"" + value + "\"");
    }
}

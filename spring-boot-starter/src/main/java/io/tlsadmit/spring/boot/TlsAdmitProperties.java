package io.tlsadmit.spring.boot;

import io.tlsadmit.gate.RefuseAction;
import io.tlsadmit.gate.RenegotiationPolicy;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.convert.DurationUnit;

/**
 * {@code tlsadmit.*}: the gate's connector and valve attributes (valve/README.md) in Spring's relaxed
 * binding, one property per attribute, named after it ({@code maxFullHandshakesPerSecond} is
 * {@code tlsadmit.max-full-handshakes-per-second}). A property left unset is not passed on, so the
 * gate's own default applies; the gate checks the values when the connector initialises.
 */
@ConfigurationProperties(TlsAdmitProperties.PREFIX)
public class TlsAdmitProperties {

    public static final String PREFIX = "tlsadmit";

    /** Every connector attribute a property here can set, as {@link #connectorAttributes()} names them. */
    static final Set<String> CONNECTOR_ATTRIBUTES = Set.of("budget", "maxFullHandshakesPerSecond",
            "fullHandshakeBurst", "connectionsPerNewUser", RefuseAction.ATTRIBUTE, "nativePeek",
            RenegotiationPolicy.ATTRIBUTE, "helloTimeout", "maxPendingHellos", "maxPendingHellosPerSource",
            "shortestWorkFirst", "warmUpHandshakes", "warmUpRequests", "warmUpSeconds", "cpus", "cpuCapacity", "targetUtilization", "controlPeriod",
            "minFullHandshakesPerSecond", "queueDelayTarget", "initialFullHandshakeCost", "runQueueTarget", "mode",
            "bypassAddresses");

    /** Which budget decides new full handshakes (the gate's {@code budget} attribute). */
    public enum BudgetKind {
        /** The rate is computed from measured handshake cost and the CPUs this JVM may use. */
        ADAPTIVE,
        /** A fixed token bucket: max-full-handshakes-per-second and full-handshake-burst. */
        STATIC
    }

    /**
     * Whether to gate the HTTPS connector of embedded Tomcat. false leaves Tomcat as Spring Boot makes it:
     * no gated protocol, no valve, no tlsadmit meters.
     */
    private boolean enabled = true;

    /** Which budget decides new full handshakes. The gate's default is adaptive. */
    private BudgetKind budget;

    /**
     * static: new full handshakes admitted per second (default 100; 0 refuses every new handshake,
     * resumptions still pass; may be fractional, 0.5 is one every 2 s). adaptive: the cap on the computed rate.
     */
    private Double maxFullHandshakesPerSecond;

    /**
     * Tokens for new full handshakes saved while traffic is light. static: default 20. adaptive: 0 (the
     * default) follows the rate, ceil(rate x queue-delay-target).
     */
    private Long fullHandshakeBurst;

    /**
     * A new user is a page, not a connection: when the budget admits a host's new connection, its next new
     * connections within 2 s, up to this many in all, are admitted too, on credit repaid before anyone else gets
     * a token (default 6, a browser's connections per host; 1 to 64, 1 = no grace).
     */
    private Integer connectionsPerNewUser;

    /** How a refused connection ends: close (orderly FIN, the default) or reset (RST). */
    private RefuseAction refuseAction;

    /** Classify on the acceptor with the native library when the ClientHello has already arrived (default true). */
    private Boolean nativePeek;

    /**
     * What a client's TLS 1.2 renegotiation gets: refuse (closed before the engine reads it, the default) or
     * charge (a full handshake charged to the budget).
     */
    private RenegotiationPolicy clientRenegotiation;

    /**
     * Longest wait for a complete ClientHello, from accept (default 10s; never longer than Tomcat's connection
     * timeout).
     */
    @DurationUnit(ChronoUnit.MILLIS)
    private Duration helloTimeout;

    /**
     * Connections waiting for their ClientHello at once; over it the oldest is closed (default:
     * max-connections / 2).
     */
    private Integer maxPendingHellos;

    /**
     * Connections from one source (IPv4 /24, IPv6 /64) waiting for their ClientHello at once; over it that
     * source's oldest is closed (default: max(16, max-pending-hellos / 8)).
     */
    private Integer maxPendingHellosPerSource;

    /**
     * When every worker is busy, run established connections and resumptions before new full handshakes
     * (default true). Only with Tomcat's own pool: with spring.threads.virtual.enabled=true Spring Boot gives
     * the connector an executor of virtual threads and there is no queue to order.
     */
    private Boolean shortestWorkFirst;

    /**
     * Full TLS handshakes run in memory before the connector accepts, so that the first clients do not pay for the
     * JIT (default 64; 0 = none).
     */
    private Integer warmUpHandshakes;

    /**
     * Pages of the application (paths such as /, /products?id=1) requested over the HTTPS port at start, before
     * the web server reports started; other connections are closed meanwhile (default none).
     */
    private List<String> warmUpRequests;

    /** How long the warm-up-requests warm-up runs, 1-600 s (default 15). */
    private Integer warmUpSeconds;

    /** adaptive: CPUs to plan for instead of detecting them (cgroup quota, affinity); 0 = detect (the default). */
    private Double cpus;

    /**
     * adaptive: allocation (the default) plans for the CPUs this JVM may use (cgroup quota, affinity); measured also
     * subtracts what other processes use of the affinity mask's CPUs (Linux /proc).
     */
    private String cpuCapacity;

    /** adaptive: share of the allocated CPUs the budget plans to use, in (0, 1] (default 0.97). */
    private Double targetUtilization;

    /** adaptive: how often the rate is recomputed, 10ms to 60s (default 250ms). */
    @DurationUnit(ChronoUnit.MILLIS)
    private Duration controlPeriod;

    /** adaptive: floor of the computed rate, new full handshakes per second (default 1; the cap wins if lower). */
    private Double minFullHandshakesPerSecond;

    /**
     * adaptive: mean wait of a new connection's first task for a worker above which the rate is cut (default 50ms).
     */
    @DurationUnit(ChronoUnit.MILLIS)
    private Duration queueDelayTarget;

    /** adaptive: CPU time of a full handshake assumed until the first one is measured (default 2000us). */
    @DurationUnit(ChronoUnit.MICROS)
    private Duration initialFullHandshakeCost;

    /**
     * adaptive: threads waiting for a CPU per allocated CPU above which the rate is cut too (Linux; default 0, off;
     * 3 trades some throughput for page latency under overload).
     */
    private Double runQueueTarget;

    /**
     * enforce (default) refuses what the gate decides to refuse; observe decides and counts
     * (tlsadmit_would_refuse_total) but refuses nothing: the way to roll the gate out.
     */
    private String mode;

    /**
     * Addresses and CIDR ranges (IPv4, IPv6) whose connections are admitted without a decision, e.g. health
     * checkers and internal callers; counted in tlsadmit_bypassed_total.
     */
    private String bypassAddresses;

    /** Request path at which the valve answers with the gate's Prometheus text (default /tlsadmit/metrics). */
    private String metricsPath;

    /**
     * Who may read the valve's metrics by the TCP peer's address: CIDR ranges and addresses ("10.0.0.0/8, ::1"),
     * or else a regular expression the whole address must match (default: loopback).
     */
    private String metricsAllow;

    /**
     * While the budget is exhausted, answer 503 with Retry-After to requests that would start a new HTTP
     * session (default true, the valve's "on").
     */
    private Boolean newSessionPolicy;

    /**
     * The connector attributes that were set, by attribute name, as the gate parses them.
     * Durations become the attribute's unit (ms, or µs for the initial cost).
     */
    Map<String, String> connectorAttributes() {
        Map<String, String> attributes = new LinkedHashMap<>();
        put(attributes, "budget", budget == null ? null : budget.name().toLowerCase(Locale.ROOT));
        put(attributes, "maxFullHandshakesPerSecond", maxFullHandshakesPerSecond);
        put(attributes, "fullHandshakeBurst", fullHandshakeBurst);
        put(attributes, "connectionsPerNewUser", connectionsPerNewUser);
        put(attributes, RefuseAction.ATTRIBUTE, refuseAction == null ? null : refuseAction.attributeValue());
        put(attributes, "nativePeek", nativePeek);
        put(attributes, RenegotiationPolicy.ATTRIBUTE,
                clientRenegotiation == null ? null : clientRenegotiation.attributeValue());
        put(attributes, "helloTimeout", helloTimeout == null ? null : helloTimeout.toMillis());
        put(attributes, "maxPendingHellos", maxPendingHellos);
        put(attributes, "maxPendingHellosPerSource", maxPendingHellosPerSource);
        put(attributes, "shortestWorkFirst", shortestWorkFirst);
        put(attributes, "warmUpHandshakes", warmUpHandshakes);
        put(attributes, "warmUpRequests", warmUpRequests == null ? null : String.join(",", warmUpRequests));
        put(attributes, "warmUpSeconds", warmUpSeconds);
        put(attributes, "cpus", cpus);
        put(attributes, "cpuCapacity", cpuCapacity);
        put(attributes, "targetUtilization", targetUtilization);
        put(attributes, "controlPeriod", controlPeriod == null ? null : controlPeriod.toMillis());
        put(attributes, "minFullHandshakesPerSecond", minFullHandshakesPerSecond);
        put(attributes, "queueDelayTarget", queueDelayTarget == null ? null : queueDelayTarget.toMillis());
        put(attributes, "initialFullHandshakeCost",
                initialFullHandshakeCost == null ? null : initialFullHandshakeCost.toNanos() / 1000);
        put(attributes, "runQueueTarget", runQueueTarget);
        put(attributes, "mode", mode);
        put(attributes, "bypassAddresses", bypassAddresses);
        return attributes;
    }

    /** The property that sets a connector or valve attribute, e.g. tlsadmit.max-full-handshakes-per-second. */
    static String propertyOf(String attribute) {
        return PREFIX + "." + DataObjectPropertyName.toDashedForm(attribute);
    }

    private static void put(Map<String, String> attributes, String attribute, Object value) {
        if (value != null) {
            attributes.put(attribute, String.valueOf(value));
        }
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public BudgetKind getBudget() {
        return budget;
    }

    public void setBudget(BudgetKind budget) {
        this.budget = budget;
    }

    public Double getMaxFullHandshakesPerSecond() {
        return maxFullHandshakesPerSecond;
    }

    public void setMaxFullHandshakesPerSecond(Double maxFullHandshakesPerSecond) {
        this.maxFullHandshakesPerSecond = maxFullHandshakesPerSecond;
    }

    public Long getFullHandshakeBurst() {
        return fullHandshakeBurst;
    }

    public void setFullHandshakeBurst(Long fullHandshakeBurst) {
        this.fullHandshakeBurst = fullHandshakeBurst;
    }

    public Integer getConnectionsPerNewUser() {
        return connectionsPerNewUser;
    }

    public void setConnectionsPerNewUser(Integer connectionsPerNewUser) {
        this.connectionsPerNewUser = connectionsPerNewUser;
    }

    public RefuseAction getRefuseAction() {
        return refuseAction;
    }

    public void setRefuseAction(RefuseAction refuseAction) {
        this.refuseAction = refuseAction;
    }

    public Boolean getNativePeek() {
        return nativePeek;
    }

    public void setNativePeek(Boolean nativePeek) {
        this.nativePeek = nativePeek;
    }

    public RenegotiationPolicy getClientRenegotiation() {
        return clientRenegotiation;
    }

    public void setClientRenegotiation(RenegotiationPolicy clientRenegotiation) {
        this.clientRenegotiation = clientRenegotiation;
    }

    public Duration getHelloTimeout() {
        return helloTimeout;
    }

    public void setHelloTimeout(Duration helloTimeout) {
        this.helloTimeout = helloTimeout;
    }

    public Integer getMaxPendingHellos() {
        return maxPendingHellos;
    }

    public void setMaxPendingHellos(Integer maxPendingHellos) {
        this.maxPendingHellos = maxPendingHellos;
    }

    public Integer getMaxPendingHellosPerSource() {
        return maxPendingHellosPerSource;
    }

    public void setMaxPendingHellosPerSource(Integer maxPendingHellosPerSource) {
        this.maxPendingHellosPerSource = maxPendingHellosPerSource;
    }

    public Integer getWarmUpHandshakes() {
        return warmUpHandshakes;
    }

    public void setWarmUpHandshakes(Integer warmUpHandshakes) {
        this.warmUpHandshakes = warmUpHandshakes;
    }

    public List<String> getWarmUpRequests() {
        return warmUpRequests;
    }

    public void setWarmUpRequests(List<String> warmUpRequests) {
        this.warmUpRequests = warmUpRequests;
    }

    public Integer getWarmUpSeconds() {
        return warmUpSeconds;
    }

    public void setWarmUpSeconds(Integer warmUpSeconds) {
        this.warmUpSeconds = warmUpSeconds;
    }

    public Boolean getShortestWorkFirst() {
        return shortestWorkFirst;
    }

    public void setShortestWorkFirst(Boolean shortestWorkFirst) {
        this.shortestWorkFirst = shortestWorkFirst;
    }

    public Double getCpus() {
        return cpus;
    }

    public void setCpus(Double cpus) {
        this.cpus = cpus;
    }

    public String getCpuCapacity() {
        return cpuCapacity;
    }

    public void setCpuCapacity(String cpuCapacity) {
        this.cpuCapacity = cpuCapacity;
    }

    public Double getTargetUtilization() {
        return targetUtilization;
    }

    public void setTargetUtilization(Double targetUtilization) {
        this.targetUtilization = targetUtilization;
    }

    public Duration getControlPeriod() {
        return controlPeriod;
    }

    public void setControlPeriod(Duration controlPeriod) {
        this.controlPeriod = controlPeriod;
    }

    public Double getMinFullHandshakesPerSecond() {
        return minFullHandshakesPerSecond;
    }

    public void setMinFullHandshakesPerSecond(Double minFullHandshakesPerSecond) {
        this.minFullHandshakesPerSecond = minFullHandshakesPerSecond;
    }

    public Duration getQueueDelayTarget() {
        return queueDelayTarget;
    }

    public void setQueueDelayTarget(Duration queueDelayTarget) {
        this.queueDelayTarget = queueDelayTarget;
    }

    public Duration getInitialFullHandshakeCost() {
        return initialFullHandshakeCost;
    }

    public void setInitialFullHandshakeCost(Duration initialFullHandshakeCost) {
        this.initialFullHandshakeCost = initialFullHandshakeCost;
    }

    public Double getRunQueueTarget() {
        return runQueueTarget;
    }

    public void setRunQueueTarget(Double runQueueTarget) {
        this.runQueueTarget = runQueueTarget;
    }

    public String getBypassAddresses() {
        return bypassAddresses;
    }

    public void setBypassAddresses(String bypassAddresses) {
        this.bypassAddresses = bypassAddresses;
    }

    public String getMode() {
        return mode;
    }

    public void setMode(String mode) {
        this.mode = mode;
    }

    public String getMetricsPath() {
        return metricsPath;
    }

    public void setMetricsPath(String metricsPath) {
        this.metricsPath = metricsPath;
    }

    public String getMetricsAllow() {
        return metricsAllow;
    }

    public void setMetricsAllow(String metricsAllow) {
        this.metricsAllow = metricsAllow;
    }

    public Boolean getNewSessionPolicy() {
        return newSessionPolicy;
    }

    public void setNewSessionPolicy(Boolean newSessionPolicy) {
        this.newSessionPolicy = newSessionPolicy;
    }
}

package io.tlsadmit.gate;

import io.tlsadmit.admission.HandshakeBudget;
import io.tlsadmit.admission.StaticBudget;
import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.admission.cpu.CpuCapacity;
import io.tlsadmit.gate.adaptive.AdaptiveConfig;
import io.tlsadmit.gate.source.AddressRanges;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Everything a gate is configured with, typed and immutable: what a server adapter turns its own configuration
 * into (Tomcat's connector attributes, a Netty application's code, Spring Boot properties through the connector)
 * and passes on whole. The names of the settings are the Tomcat connector attributes' (valve/README.md has
 * what each does); an unset one keeps its default. A value out of range is an {@link IllegalArgumentException}
 * naming the setting: the builder's own at {@link Builder#build()}, the budget's (its upper limits, the adaptive
 * controller's ranges) when {@link #newBudget()} creates it.
 *
 * <pre>{@code
 * GateConfig config = GateConfig.builder()
 *         .budget(BudgetType.STATIC).maxFullHandshakesPerSecond(200).fullHandshakeBurst(50)
 *         .helloTimeout(Duration.ofSeconds(5))
 *         .build();
 * }</pre>
 */
public final class GateConfig {

    public static final String MAX_FULL_HANDSHAKES_PER_SECOND = StaticBudget.RATE_ATTRIBUTE;
    public static final String FULL_HANDSHAKE_BURST = StaticBudget.BURST_ATTRIBUTE;
    public static final String NATIVE_PEEK = "nativePeek";
    public static final String CONNECTIONS_PER_NEW_USER = "connectionsPerNewUser";
    public static final String BYPASS_ADDRESSES = "bypassAddresses";
    /** Browsers open at most six connections per host name (HTTP/1.1); 64 is far beyond any page. */
    public static final int MAX_CONNECTIONS_PER_NEW_USER = 64;

    private static final double DEFAULT_STATIC_RATE = 100;
    private static final long DEFAULT_STATIC_BURST = 20;

    private final BudgetType budget;
    private final OptionalDouble maxFullHandshakesPerSecond;
    private final OptionalLong fullHandshakeBurst;
    private final AdaptiveConfig adaptive;
    private final RefuseAction refuseAction;
    private final boolean nativePeek;
    private final RenegotiationPolicy clientRenegotiation;
    private final GateMode mode;
    private final AddressRanges bypassAddresses;
    private final int connectionsPerNewUser;
    private final Optional<Duration> helloTimeout;
    private final OptionalInt maxPendingHellos;
    private final OptionalInt maxPendingHellosPerSource;

    private GateConfig(Builder b) {
        budget = b.budget;
        maxFullHandshakesPerSecond = b.maxFullHandshakesPerSecond;
        fullHandshakeBurst = b.fullHandshakeBurst;
        adaptive = new AdaptiveConfig(b.cpus, b.cpuCapacity, b.targetUtilization, b.controlPeriod,
                b.minFullHandshakesPerSecond, b.queueDelayTarget, b.initialFullHandshakeCost, b.runQueueTarget);
        refuseAction = b.refuseAction;
        nativePeek = b.nativePeek;
        clientRenegotiation = b.clientRenegotiation;
        mode = b.mode;
        bypassAddresses = b.bypassAddresses;
        connectionsPerNewUser = b.connectionsPerNewUser;
        helloTimeout = b.helloTimeout;
        maxPendingHellos = b.maxPendingHellos;
        maxPendingHellosPerSource = b.maxPendingHellosPerSource;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Every setting at its default: an adaptive budget, enforced. */
    public static GateConfig defaults() {
        return builder().build();
    }

    /** A builder holding these settings, to change some of them. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.budget = budget;
        b.maxFullHandshakesPerSecond = maxFullHandshakesPerSecond;
        b.fullHandshakeBurst = fullHandshakeBurst;
        b.cpus = adaptive.cpus();
        b.cpuCapacity = adaptive.cpuCapacity();
        b.targetUtilization = adaptive.targetUtilization();
        b.controlPeriod = adaptive.controlPeriod();
        b.minFullHandshakesPerSecond = adaptive.minFullHandshakesPerSecond();
        b.queueDelayTarget = adaptive.queueDelayTarget();
        b.initialFullHandshakeCost = adaptive.initialFullHandshakeCost();
        b.runQueueTarget = adaptive.runQueueTarget();
        b.refuseAction = refuseAction;
        b.nativePeek = nativePeek;
        b.clientRenegotiation = clientRenegotiation;
        b.mode = mode;
        b.bypassAddresses = bypassAddresses;
        b.connectionsPerNewUser = connectionsPerNewUser;
        b.helloTimeout = helloTimeout;
        b.maxPendingHellos = maxPendingHellos;
        b.maxPendingHellosPerSource = maxPendingHellosPerSource;
        return b;
    }

    public BudgetType budget() {
        return budget;
    }

    /** Static: the rate (default 100/s); adaptive: the cap (default the controller's). */
    public OptionalDouble maxFullHandshakesPerSecond() {
        return maxFullHandshakesPerSecond;
    }

    /** Static: default 20; adaptive: default automatic. */
    public OptionalLong fullHandshakeBurst() {
        return fullHandshakeBurst;
    }

    /** The settings only an adaptive budget reads. */
    public AdaptiveConfig adaptive() {
        return adaptive;
    }

    public RefuseAction refuseAction() {
        return refuseAction;
    }

    /** Whether the adapter may classify hellos with native-peek where it loads (Tomcat: at accept). */
    public boolean nativePeek() {
        return nativePeek;
    }

    public RenegotiationPolicy clientRenegotiation() {
        return clientRenegotiation;
    }

    public GateMode mode() {
        return mode;
    }

    public AddressRanges bypassAddresses() {
        return bypassAddresses;
    }

    public int connectionsPerNewUser() {
        return connectionsPerNewUser;
    }

    /** Empty: 10 s, never longer than the server's own connection timeout. */
    public Optional<Duration> helloTimeout() {
        return helloTimeout;
    }

    /** Empty: half the server's connection limit, 10 000 without one. */
    public OptionalInt maxPendingHellos() {
        return maxPendingHellos;
    }

    /** Empty: an eighth of {@link #maxPendingHellos}, at least 16. */
    public OptionalInt maxPendingHellosPerSource() {
        return maxPendingHellosPerSource;
    }

    /**
     * A new budget as configured: static, or adaptive (an {@link AdmissionController} the adapter must tick).
     *
     * @throws IllegalArgumentException naming the setting out of the budget's range
     */
    public HandshakeBudget newBudget() {
        return switch (budget) {
            case STATIC -> new StaticBudget(maxFullHandshakesPerSecond.orElse(DEFAULT_STATIC_RATE),
                    fullHandshakeBurst.orElse(DEFAULT_STATIC_BURST));
            case ADAPTIVE -> adaptive.newController(maxFullHandshakesPerSecond, fullHandshakeBurst);
        };
    }

    /**
     * The gate of one listening port with these settings and a new budget; the adapter still sets its
     * {@link ConnectorGate#slowHelloLimits slow-hello limits} (they depend on the server's own limits, see
     * {@link #slowHelloLimits}) and ticks an adaptive budget.
     *
     * @param name the {@code connector} label of the metrics
     * @throws IllegalArgumentException naming the setting out of the budget's range
     */
    public ConnectorGate newGate(String name) {
        HandshakeBudget budget = newBudget();
        budget.view(AdmissionController.class).ifPresent(controller -> controller.setName(name));
        ConnectorGate gate = new ConnectorGate(name, budget, refuseAction, clientRenegotiation,
                connectionsPerNewUser);
        gate.mode(mode);
        return gate;
    }

    /**
     * How long and how many connections may wait for their hello on a server with these limits of its own.
     *
     * @param maxConnections    the server's connection limit; -1 = unlimited
     * @param connectionTimeout the server's own wait for a request; zero or negative = none
     */
    public SlowHelloLimits slowHelloLimits(int maxConnections, Duration connectionTimeout) {
        long timeout = helloTimeout.map(Duration::toMillis).orElse(SlowHelloLimits.DEFAULT_HELLO_TIMEOUT_MILLIS);
        if (!connectionTimeout.isNegative() && !connectionTimeout.isZero()) {
            timeout = Math.min(timeout, connectionTimeout.toMillis()); // never longer than the server waits anyway
        }
        int pending = maxPendingHellos.orElse(maxConnections > 0 ? Math.max(1, maxConnections / 2)
                : SlowHelloLimits.UNLIMITED_CONNECTIONS_PENDING);
        int perSource = maxPendingHellosPerSource.orElse(Math.max(16, pending / 8));
        return new SlowHelloLimits(timeout, pending, Math.min(perSource, pending));
    }

    @Override
    public String toString() {
        return "GateConfig[budget=" + budget.attributeValue()
                + maxFullHandshakesPerSecond.stream().mapToObj(r -> ", " + MAX_FULL_HANDSHAKES_PER_SECOND + "=" + r)
                        .findFirst().orElse("")
                + fullHandshakeBurst.stream().mapToObj(b -> ", " + FULL_HANDSHAKE_BURST + "=" + b).findFirst().orElse("")
                + ", " + RefuseAction.ATTRIBUTE + "=" + refuseAction.attributeValue() + ", " + GateMode.ATTRIBUTE + "="
                + mode.attributeValue() + "]";
    }

    /** Collects settings; {@link #build()} checks them. Not thread-safe. */
    public static final class Builder {

        private BudgetType budget = BudgetType.ADAPTIVE;
        private OptionalDouble maxFullHandshakesPerSecond = OptionalDouble.empty();
        private OptionalLong fullHandshakeBurst = OptionalLong.empty();
        private OptionalDouble cpus = OptionalDouble.empty();
        private Optional<CpuCapacity> cpuCapacity = Optional.empty();
        private OptionalDouble targetUtilization = OptionalDouble.empty();
        private Optional<Duration> controlPeriod = Optional.empty();
        private OptionalDouble minFullHandshakesPerSecond = OptionalDouble.empty();
        private Optional<Duration> queueDelayTarget = Optional.empty();
        private Optional<Duration> initialFullHandshakeCost = Optional.empty();
        private OptionalDouble runQueueTarget = OptionalDouble.empty();
        private RefuseAction refuseAction = RefuseAction.CLOSE;
        private boolean nativePeek = true;
        private RenegotiationPolicy clientRenegotiation = RenegotiationPolicy.REFUSE;
        private GateMode mode = GateMode.ENFORCE;
        private AddressRanges bypassAddresses = AddressRanges.NONE;
        private int connectionsPerNewUser = ConnectorGate.DEFAULT_CONNECTIONS_PER_NEW_USER;
        private Optional<Duration> helloTimeout = Optional.empty();
        private OptionalInt maxPendingHellos = OptionalInt.empty();
        private OptionalInt maxPendingHellosPerSource = OptionalInt.empty();

        private Builder() {
        }

        public Builder budget(BudgetType type) {
            budget = Objects.requireNonNull(type, BudgetType.SETTING);
            return this;
        }

        /** New full handshakes per second, {@code >= 0} (0 refuses every new handshake). */
        public Builder maxFullHandshakesPerSecond(double rate) {
            maxFullHandshakesPerSecond = OptionalDouble.of(rate);
            return this;
        }

        /** Handshakes the budget may save up, {@code >= 0} (adaptive: 0 = automatic). */
        public Builder fullHandshakeBurst(long burst) {
            fullHandshakeBurst = OptionalLong.of(burst);
            return this;
        }

        /** Adaptive: CPUs to plan for; 0 = detect. */
        public Builder cpus(double value) {
            cpus = OptionalDouble.of(value);
            return this;
        }

        /** Adaptive: whether the detected CPUs exclude what other processes use of the affinity mask. */
        public Builder cpuCapacity(CpuCapacity capacity) {
            cpuCapacity = Optional.of(Objects.requireNonNull(capacity, CpuCapacity.ATTRIBUTE));
            return this;
        }

        public Builder targetUtilization(double fraction) {
            targetUtilization = OptionalDouble.of(fraction);
            return this;
        }

        public Builder controlPeriod(Duration period) {
            controlPeriod = Optional.of(Objects.requireNonNull(period, AdmissionController.CONTROL_PERIOD));
            return this;
        }

        public Builder minFullHandshakesPerSecond(double rate) {
            minFullHandshakesPerSecond = OptionalDouble.of(rate);
            return this;
        }

        public Builder queueDelayTarget(Duration delay) {
            queueDelayTarget = Optional.of(Objects.requireNonNull(delay, AdmissionController.QUEUE_DELAY_TARGET));
            return this;
        }

        public Builder initialFullHandshakeCost(Duration cpuTime) {
            initialFullHandshakeCost = Optional.of(Objects.requireNonNull(cpuTime, AdmissionController.INITIAL_COST));
            return this;
        }

        /** Threads waiting for a CPU per allocated CPU above which the adaptive budget cuts too; 0 = off. */
        public Builder runQueueTarget(double threadsPerCpu) {
            runQueueTarget = OptionalDouble.of(threadsPerCpu);
            return this;
        }

        public Builder refuseAction(RefuseAction action) {
            refuseAction = Objects.requireNonNull(action, RefuseAction.ATTRIBUTE);
            return this;
        }

        public Builder nativePeek(boolean enabled) {
            nativePeek = enabled;
            return this;
        }

        public Builder clientRenegotiation(RenegotiationPolicy policy) {
            clientRenegotiation = Objects.requireNonNull(policy, RenegotiationPolicy.ATTRIBUTE);
            return this;
        }

        public Builder mode(GateMode value) {
            mode = Objects.requireNonNull(value, GateMode.ATTRIBUTE);
            return this;
        }

        /** Peers admitted without a decision (health checkers, internal callers); {@code AddressRanges.parse}. */
        public Builder bypassAddresses(AddressRanges ranges) {
            bypassAddresses = Objects.requireNonNull(ranges, BYPASS_ADDRESSES);
            return this;
        }

        /** New connections of one host admitted together when the budget admits its first, in [1, 64]. */
        public Builder connectionsPerNewUser(int connections) {
            connectionsPerNewUser = connections;
            return this;
        }

        /** Longest wait for a complete ClientHello from accept, at least 1 ms. */
        public Builder helloTimeout(Duration timeout) {
            helloTimeout = Optional.of(Objects.requireNonNull(timeout, SlowHelloLimits.HELLO_TIMEOUT));
            return this;
        }

        /** Connections waiting for their hello before the oldest is closed, {@code >= 1}. */
        public Builder maxPendingHellos(int connections) {
            maxPendingHellos = OptionalInt.of(connections);
            return this;
        }

        /** Connections from one source (IPv4 /24, IPv6 /64) waiting for their hello, {@code >= 1}. */
        public Builder maxPendingHellosPerSource(int connections) {
            maxPendingHellosPerSource = OptionalInt.of(connections);
            return this;
        }

        /** @throws IllegalArgumentException naming the first setting out of its range */
        public GateConfig build() {
            maxFullHandshakesPerSecond.ifPresent(rate -> check(Double.isFinite(rate) && rate >= 0,
                    MAX_FULL_HANDSHAKES_PER_SECOND, "a number of new full handshakes per second >= 0", rate));
            fullHandshakeBurst.ifPresent(burst -> check(burst >= 0, FULL_HANDSHAKE_BURST,
                    "a whole number of handshakes >= 0", burst));
            check(connectionsPerNewUser >= 1 && connectionsPerNewUser <= MAX_CONNECTIONS_PER_NEW_USER,
                    CONNECTIONS_PER_NEW_USER, "a whole number of connections in [1, " + MAX_CONNECTIONS_PER_NEW_USER
                            + "] (1 = no grace)", connectionsPerNewUser);
            helloTimeout.ifPresent(timeout -> check(timeout.compareTo(Duration.of(1, ChronoUnit.MILLIS)) >= 0,
                    SlowHelloLimits.HELLO_TIMEOUT, "at least 1 ms", timeout));
            maxPendingHellos.ifPresent(pending -> check(pending >= 1, SlowHelloLimits.MAX_PENDING,
                    "a whole number of connections >= 1", pending));
            maxPendingHellosPerSource.ifPresent(pending -> check(pending >= 1, SlowHelloLimits.MAX_PENDING_PER_SOURCE,
                    "a whole number of connections >= 1", pending));
            return new GateConfig(this);
        }

        private static void check(boolean valid, String setting, String meaning, Object value) {
            if (!valid) {
                throw new IllegalArgumentException(setting + " must be " + meaning + ", was " + value);
            }
        }
    }
}

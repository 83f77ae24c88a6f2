package io.tlsadmit.gate.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.tlsadmit.admission.HandshakeKind;
import io.tlsadmit.admission.TokenBucket;
import io.tlsadmit.classifier.TlsVersion;
import io.tlsadmit.classifier.Verdict;
import io.tlsadmit.gate.ConnectorGate;
import io.tlsadmit.gate.Decision;
import io.tlsadmit.gate.GateCounters;
import io.tlsadmit.gate.Initiator;
import io.tlsadmit.gate.LateRefusal;
import io.tlsadmit.gate.SlowHelloReason;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * Micrometer meters over the counters of the gates of one server (a Tomcat service, a Netty server), one
 * series per connector (label {@code connector}: the connector's name as Tomcat logs it, or the name a Netty
 * gate was given): connectors have budgets of their
 * own, and a sum would hide which one refuses. Every meter is a function of the gate's own counters,
 * so the hot path never touches Micrometer.
 */
public final class GateMetrics {

    /** The label that tells connectors apart, on every family. */
    public static final String CONNECTOR = "connector";

    private static final String HANDSHAKES = "Handshakes by truth and version, counted when the server sends its first"
            + " flight (a certificate sent is a full handshake done, whether or not the client finishes)";

    private GateMetrics() {
    }

    /** Binds the meters of {@code gates} (and of their adaptive budgets) to {@code registry}. */
    public static void bind(MeterRegistry registry, List<ConnectorGate> gates) {
        for (ConnectorGate gate : gates) {
            bind(registry, gate);
        }
        AdaptiveMetrics.bind(registry, gates);
    }

    private static void bind(MeterRegistry registry, ConnectorGate gate) {
        for (Verdict verdict : Verdict.values()) {
            for (Decision decision : Decision.values()) {
                if (canHappen(verdict, decision)) {
                    counter(registry, gate, "tlsadmit.connections", "TLS connections by ClientHello verdict and gate decision",
                            c -> c.connections(verdict, decision), "verdict", verdict.name(), "decision", decision.label());
                }
            }
            if (verdict.isHandshake()) {
                counter(registry, gate, "tlsadmit.mispredictions",
                        "Handshakes whose truth (ServerHello) differed from the ClientHello verdict",
                        c -> c.mispredictions(verdict), "verdict", verdict.name());
            }
            if (verdict.isResumption() || verdict == Verdict.NEW) {
                for (LateRefusal stage : LateRefusal.values()) {
                    counter(registry, gate, "tlsadmit.late.refusals",
                            "Handshakes refused inside the engine: a predicted resumption (or an allowed renegotiation,"
                                    + " verdict NEW) needed a full handshake the budget had no token for",
                            c -> c.lateRefusals(verdict, stage), "verdict", verdict.name(), "stage", stage.label());
                }
            }
        }
        for (Initiator initiator : Initiator.values()) {
            for (Decision decision : Decision.values()) {
                counter(registry, gate, "tlsadmit.renegotiations", "TLS 1.2 renegotiations by who started them and what the gate did",
                        c -> c.renegotiations(initiator, decision), "initiator", initiator.label(), "decision", decision.label());
            }
        }
        for (Verdict verdict : Verdict.values()) {
            counter(registry, gate, "tlsadmit.would.refuse",
                    "mode=observe: connections the gate would have refused (early or late, or closed as slow hellos:"
                            + " INCOMPLETE) and let through", c -> c.wouldRefusals(verdict), "verdict", verdict.name());
        }
        counter(registry, gate, "tlsadmit.bypassed", "Connections from bypassAddresses or the warm-up at start, admitted without a decision",
                GateCounters::bypassedConnections);
        counter(registry, gate, "tlsadmit.decided.on.accept",
                "Connections decided from the ClientHello the acceptor peeked at, before they had a channel: the cheap"
                        + " path (the rest are decided on a worker's first read)",
                GateCounters::decidedOnAccept);
        counter(registry, gate, "tlsadmit.session.grace",
                "New connections admitted on credit because their host was admitted a moment ago (one page, several connections)",
                GateCounters::sessionGraceAdmissions);
        for (Decision decision : Decision.values()) {
            counter(registry, gate, "tlsadmit.distrusted.offers",
                    "Offers to resume (ticket, PSK) from sources that keep making false ones, by early-gate decision",
                    c -> c.distrustedOffers(decision), "decision", decision.label());
        }
        for (SlowHelloReason reason : SlowHelloReason.values()) {
            counter(registry, gate, "tlsadmit.slow.hellos.closed",
                    "Connections closed while waiting for their ClientHello, by the limit that closed them",
                    c -> c.slowHellos(reason), "reason", reason.label());
        }
        gauge(registry, gate, "tlsadmit.hellos.pending", "Connections accepted whose ClientHello is not decided yet",
                g -> g.pendingHellos().size());
        gauge(registry, gate, "tlsadmit.distrusted.sources",
                "Sources (IPv4 /24, IPv6 /64) whose offers to resume are distrusted now",
                g -> g.falseResumptions().distrustedSources(System.nanoTime()));
        int[] versions = GateCounters.countedVersions();
        for (HandshakeKind kind : HandshakeKind.values()) {
            for (int version : versions) {
                counter(registry, gate, "tlsadmit.handshakes", HANDSHAKES,
                        c -> c.handshakes(kind, version), "kind", kind.name().toLowerCase(Locale.ROOT),
                        "version", TlsVersion.name(version));
            }
            counter(registry, gate, "tlsadmit.handshakes", HANDSHAKES,
                    c -> c.handshakes(kind, GateCounters.OTHER_VERSION), "kind", kind.name().toLowerCase(Locale.ROOT),
                    "version", "other");
        }
        gauge(registry, gate, "tlsadmit.budget.tokens", "Tokens for new full handshakes available now",
                g -> g.budget().availableTokens());
        gauge(registry, gate, "tlsadmit.budget.full.handshakes.per.second", "Refill rate of the full-handshake budget",
                g -> g.budget().fullHandshakesPerSecond());
        FunctionCounter.builder("tlsadmit.budget.refills", gate, GateMetrics::refilledTokens)
                .description("Tokens added to the budget by time (usable refills)").tag(CONNECTOR, gate.name())
                .register(registry);
        FunctionTimer.builder("tlsadmit.classification", gate, g -> g.counters().classifications(),
                        g -> g.counters().classificationNanos(), TimeUnit.NANOSECONDS)
                .description("Time from accept to the gate's decision on the ClientHello").tag(CONNECTOR, gate.name())
                .register(registry);
    }

    private static boolean canHappen(Verdict verdict, Decision decision) {
        if (verdict.isResumption()) {
            return true; // refused: an offer from a distrusted source without a late gate, charged like a new one
        }
        return verdict == Verdict.NEW || decision == Decision.REFUSED;
    }

    private static double refilledTokens(ConnectorGate gate) {
        TokenBucket bucket = gate.budget().bucket();
        return bucket == null ? 0 : bucket.refilledTokens();
    }

    private static void counter(MeterRegistry registry, ConnectorGate gate, String name, String description,
            ToDoubleFunction<GateCounters> count, String... tags) {
        FunctionCounter.builder(name, gate, g -> count.applyAsDouble(g.counters()))
                .description(description).tag(CONNECTOR, gate.name()).tags(tags).register(registry);
    }

    private static void gauge(MeterRegistry registry, ConnectorGate gate, String name, String description,
            ToDoubleFunction<ConnectorGate> value) {
        Gauge.builder(name, gate, value).description(description).tag(CONNECTOR, gate.name()).register(registry);
    }
}

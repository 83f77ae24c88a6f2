package io.tlsadmit.tomcat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.tlsadmit.gate.ConnectorGate;
import io.tlsadmit.gate.metrics.GateMetrics;
import java.util.List;

/**
 * The gate's meters (the {@code tlsadmit_*} families of valve/README.md, one series per gate, labelled
 * {@code connector}) for a registry the host application owns, e.g. Spring Boot's. In a
 * {@code PrometheusMeterRegistry} handshake CPU is a histogram; elsewhere a timer with count and total.
 * Micrometer holds the objects behind function meters weakly: keep the binder, which holds the gates,
 * reachable as long as the meters should report.
 */
public final class GateMeterBinder implements MeterBinder {

    private final List<ConnectorGate> gates;

    public GateMeterBinder(List<ConnectorGate> gates) {
        this.gates = List.copyOf(gates);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        GateMetrics.bind(registry, gates);
    }
}

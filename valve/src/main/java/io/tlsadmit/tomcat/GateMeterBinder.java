package io.tlsadmit.tomcat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.tlsadmit.gate.ConnectorGate;
import java.util.List;

/**
 * The gate's meters (the {@code tlsadmit_*} families of valve/README.md, summed over the given gates) for
 * a registry the host application owns, e.g. Spring Boot's. Micrometer holds the objects behind function
 * meters weakly: the list of gates is this binder's own, so keep the binder reachable as long as the
 * meters should report.
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

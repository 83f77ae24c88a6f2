package io.tlsadmit.netty;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.tlsadmit.gate.ConnectorGate;
import io.tlsadmit.gate.metrics.GateMetrics;
import java.util.ArrayList;
import java.util.List;

/**
 * The gates' meters for the application's registry: the same {@code tlsadmit_*} families as the Tomcat gate
 * (valve/README.md), one series per gate with its name as the {@code connector} label. In a
 * {@code PrometheusMeterRegistry} handshake CPU is a histogram. Micrometer holds the objects behind function
 * meters weakly: keep the binder reachable as long as the meters should report.
 */
public final class NettyGateMeterBinder implements MeterBinder {

    private final List<ConnectorGate> gates;

    public NettyGateMeterBinder(NettyGate... gates) {
        List<ConnectorGate> list = new ArrayList<>();
        for (NettyGate gate : gates) {
            list.add(gate.gate());
        }
        this.gates = List.copyOf(list);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        GateMetrics.bind(registry, gates);
    }
}

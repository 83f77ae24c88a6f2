package io.tlsadmit.spring.boot;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.tlsadmit.gate.ConnectorGate;
import io.tlsadmit.tomcat.GateMeterBinder;
import java.util.List;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The gate's meters (the {@code tlsadmit_*} families of valve/README.md) in the application's registry,
 * so {@code /actuator/prometheus} shows them beside the application's own. Spring Boot binds
 * {@code MeterBinder} beans once every singleton exists, which is after the web server was created and
 * its connectors initialised: the gates are there by then. The valve's endpoint and JMX beans keep
 * their own registry.
 */
final class TlsAdmitMeterBinder implements MeterBinder {

    private static final Log log = LogFactory.getLog(TlsAdmitMeterBinder.class);

    private final GatedTomcatCustomizer customizer;
    /** Holds the gates the meters read: Micrometer itself keeps them only weakly. */
    private MeterBinder gateMeters;

    TlsAdmitMeterBinder(GatedTomcatCustomizer customizer) {
        this.customizer = customizer;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        MeterBinder meters = gateMeters();
        if (meters != null) {
            meters.bindTo(registry);
        }
    }

    /** Null while nothing is gated (no TLS on the server port): no tlsadmit families at all then. */
    private synchronized MeterBinder gateMeters() {
        if (gateMeters == null) {
            List<ConnectorGate> gates = customizer.gates();
            if (gates.isEmpty()) {
                if (customizer.gatesExpected()) {
                    log.warn("tlsadmit: the gated connector had not initialised when the meters were bound;"
                            + " the tlsadmit metrics are missing from " + MeterRegistry.class.getSimpleName());
                }
                return null;
            }
            gateMeters = new GateMeterBinder(gates);
        }
        return gateMeters;
    }
}

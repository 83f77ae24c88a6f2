package io.tlsadmit.spring.boot;

import io.tlsadmit.tomcat.TlsAdmissionValve;
import java.util.Arrays;
import org.apache.catalina.Lifecycle;
import org.apache.catalina.LifecycleEvent;
import org.apache.catalina.LifecycleListener;
import org.apache.catalina.Pipeline;
import org.apache.catalina.connector.Connector;

/**
 * Puts the valve into the engine when the gated connector starts, not when the engine does.
 *
 * <p>The valve finds the gates among the service's connectors when it starts. Spring Boot's embedded
 * Tomcat starts the engine with its connectors taken out of the service (so that no port is bound
 * before the application context is ready) and puts them back later, one by one, starting each: a
 * valve started with the engine would find no gate. Just before the gated connector starts it is back
 * in the service and initialised (its gate exists) but accepts nothing yet, so the valve is in place
 * before the first request on it.
 */
final class ValveOnConnectorStart implements LifecycleListener {

    private final TlsAdmissionValve valve;

    ValveOnConnectorStart(TlsAdmissionValve valve) {
        this.valve = valve;
    }

    @Override
    public void lifecycleEvent(LifecycleEvent event) {
        if (!Lifecycle.BEFORE_START_EVENT.equals(event.getType())
                || !(event.getLifecycle() instanceof Connector connector)) {
            return;
        }
        Pipeline pipeline = connector.getService().getContainer().getPipeline();
        if (installed(pipeline)) {
            return; // a web server restarted by the application: the valve stayed
        }
        pipeline.addValve(valve);
        if (!installed(pipeline)) {
            // Tomcat logs a valve that fails to start and leaves it out; this fails the connector's start, and
            // with it the application's: a server without its admission control must not look healthy.
            throw new IllegalStateException("tlsadmit: " + TlsAdmissionValve.class.getSimpleName()
                    + " did not start on connector " + connector + " (Tomcat logged why above)");
        }
    }

    private boolean installed(Pipeline pipeline) {
        return Arrays.asList(pipeline.getValves()).contains(valve);
    }
}

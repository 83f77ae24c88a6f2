package io.tlsadmit.spring.boot;

import io.tlsadmit.gate.ConnectorGate;
import io.tlsadmit.tomcat.AdmissionNioProtocol;
import io.tlsadmit.tomcat.TlsAdmissionValve;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.connector.Connector;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.tomcat.TomcatWebServerFactory;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

/**
 * Makes embedded Tomcat's connector gated when it serves TLS: the factory creates it with the gated
 * protocol, the {@code tlsadmit.*} properties become its attributes, and the valve joins the engine
 * when the connector starts. Remembers the connectors it gated, for the metrics.
 *
 * <p>Runs last among the factory's customizers, so it sees the SSL configuration the others
 * ({@code server.ssl.*}, an application's own) left; a connector without TLS stays stock (the gate
 * decides on TLS ClientHellos and has nothing to do on plain HTTP).
 */
final class GatedTomcatCustomizer implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered,
        DisposableBean {

    private static final Log log = LogFactory.getLog(GatedTomcatCustomizer.class);

    private final TlsAdmitProperties properties;
    private final List<Connector> gated = new CopyOnWriteArrayList<>();

    GatedTomcatCustomizer(TlsAdmitProperties properties) {
        this.properties = properties;
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        if (!Ssl.isEnabled(factory.getSsl())) {
            log.info("tlsadmit: the server port does not serve TLS (server.ssl), so it is not gated");
            return;
        }
        checkValveProperties();
        String protocol = factory.getProtocol();
        if (!TomcatWebServerFactory.DEFAULT_PROTOCOL.equals(protocol) && !isGated(protocol)) {
            // The gate is an NIO endpoint: silently replacing another protocol would change the server.
            throw new IllegalStateException("tlsadmit: the Tomcat connector's protocol is " + protocol + "; the gate"
                    + " replaces " + TomcatWebServerFactory.DEFAULT_PROTOCOL + " only. Remove the custom protocol or"
                    + " set " + TlsAdmitProperties.PREFIX + ".enabled=false");
        }
        factory.setProtocol(PropertyNamedAdmissionProtocol.class.getName());
        factory.addConnectorCustomizers(this::gate);
    }

    private static boolean isGated(String protocol) {
        try {
            return AdmissionNioProtocol.class.isAssignableFrom(Class.forName(protocol, false,
                    GatedTomcatCustomizer.class.getClassLoader()));
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private void gate(Connector connector) {
        for (Map.Entry<String, String> attribute : properties.connectorAttributes().entrySet()) {
            if (!connector.setProperty(attribute.getKey(), attribute.getValue())) {
                throw unknownAttribute(attribute.getKey(), attribute.getValue());
            }
        }
        connector.addLifecycleListener(new ValveOnConnectorStart(valve()));
        gated.add(connector);
    }

    private static InvalidConfigurationPropertyValueException unknownAttribute(String attribute, String value) {
        return new InvalidConfigurationPropertyValueException(TlsAdmitProperties.propertyOf(attribute), value,
                "The gate on the classpath has no connector attribute " + attribute + ": use a valve version that"
                        + " matches this starter.");
    }

    private TlsAdmissionValve valve() {
        TlsAdmissionValve valve = new TlsAdmissionValve();
        if (properties.getMetricsPath() != null) {
            valve.setMetricsPath(properties.getMetricsPath());
        }
        if (properties.getMetricsAllow() != null) {
            valve.setMetricsAllow(properties.getMetricsAllow());
        }
        if (properties.getNewSessionPolicy() != null) {
            valve.setNewSessionPolicy(properties.getNewSessionPolicy() ? "on" : "off");
        }
        return valve;
    }

    /**
     * The valve checks these only when it starts, inside Tomcat, which logs a valve that fails to start and
     * goes on without it; checked here they stop the start with the property's name.
     */
    private void checkValveProperties() {
        String path = properties.getMetricsPath();
        if (path != null && !path.startsWith("/")) {
            throw new InvalidConfigurationPropertyValueException(TlsAdmitProperties.propertyOf("metricsPath"), path,
                    "It must be a request path starting with '/'.");
        }
        String allow = properties.getMetricsAllow();
        if (allow != null) {
            try {
                Pattern.compile(allow);
            } catch (PatternSyntaxException e) {
                throw new InvalidConfigurationPropertyValueException(TlsAdmitProperties.propertyOf("metricsAllow"),
                        allow, "It must be a regular expression over the peer's address: " + e.getDescription() + ".");
            }
        }
    }

    /**
     * Spring Boot stops its connectors by taking them out of the service and then destroys the service
     * without them, so a gated connector would never be destroyed: its gate's MBeans would outlive the
     * application (and, under devtools restarts, keep the old class loader). By the time the context
     * destroys its beans the web server has stopped; destroying the stopped connector now is what Tomcat
     * would have done.
     */
    @Override
    public void destroy() throws LifecycleException {
        for (Connector connector : gated) {
            if (connector.getState() == LifecycleState.STOPPED) {
                connector.destroy();
            }
        }
    }

    /** Whether a connector was made gated. */
    boolean gatesExpected() {
        return !gated.isEmpty();
    }

    /** The gates of the connectors made gated so far; a gate exists once its connector has initialised. */
    List<ConnectorGate> gates() {
        List<ConnectorGate> gates = new ArrayList<>();
        for (Connector connector : gated) {
            if (connector.getProtocolHandler() instanceof AdmissionNioProtocol protocol && protocol.gate() != null) {
                gates.add(protocol.gate());
            }
        }
        return gates;
    }
}

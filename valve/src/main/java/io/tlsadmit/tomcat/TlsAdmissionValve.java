package io.tlsadmit.tomcat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tlsadmit.gate.ConnectorGate;
import io.tlsadmit.gate.metrics.GateMetrics;
import io.tlsadmit.gate.source.AddressRanges;
import jakarta.servlet.ServletException;
import java.io.IOException;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.catalina.Container;
import org.apache.catalina.Engine;
import org.apache.catalina.Globals;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.util.ServerInfo;
import org.apache.catalina.valves.ValveBase;
import org.apache.juli.logging.Log;
import org.apache.juli.logging.LogFactory;
import org.apache.tomcat.util.net.SecureNioChannel;

/**
 * The gate's face in the container: {@code <Valve className="io.tlsadmit.tomcat.TlsAdmissionValve"/>}
 * in the {@code Engine}. At start it finds the service's {@link AdmissionNioProtocol} connectors and
 * binds their counters to a Prometheus registry; it answers {@code metricsPath} for peers whose socket
 * address matches {@code metricsAllow} (the TCP peer, never an address a {@code RemoteIpValve} took from
 * a forwarded header: a client behind a trusted proxy could claim any), and tells every other request how its connection was admitted
 * (request attributes {@value #VERDICT_ATTRIBUTE} and {@value #HANDSHAKE_ATTRIBUTE}; {@value #WARM_UP_ATTRIBUTE} on the
 * connector's own warm-up requests, so that an {@code AccessLogValve} with that {@code conditionUnless} leaves them out).
 */
public class TlsAdmissionValve extends ValveBase {

    public static final String VERDICT_ATTRIBUTE = "io.tlsadmit.verdict";
    public static final String HANDSHAKE_ATTRIBUTE = "io.tlsadmit.handshake";
    /** Set ({@code Boolean.TRUE}) on the requests of the connector's application warm-up ({@code warmUpRequests}). */
    public static final String WARM_UP_ATTRIBUTE = "io.tlsadmit.warmUp";
    /** The oldest Tomcat release the gate works on. */
    public static final String MINIMUM_TOMCAT = "11.0.12";
    private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    private static final Log log = LogFactory.getLog(TlsAdmissionValve.class);

    private String metricsPath = "/tlsadmit/metrics";
    private String metricsAllow = "127\\.\\d+\\.\\d+\\.\\d+|::1|0:0:0:0:0:0:0:1";
    /** Who may read the metrics: CIDR ranges when the attribute is a list of them, else a regular expression. */
    private volatile Predicate<String> metricsReaders;
    private String newSessionPolicy = "off";
    private String newSessionStatus = "429";
    /** Session-based admission; null when {@code newSessionPolicy="off"}. */
    private volatile NewSessionAdmission newSessions;
    private volatile PrometheusMeterRegistry registry;
    private volatile MeterMBeans mbeans;
    /** Micrometer holds the objects behind function meters weakly: this keeps them alive. */
    private volatile List<ConnectorGate> gates = List.of();

    public TlsAdmissionValve() {
        super(true);
    }

    public String getMetricsPath() {
        return metricsPath;
    }

    public void setMetricsPath(String metricsPath) {
        this.metricsPath = metricsPath;
    }

    /**
     * {@code on}: while the budget is exhausted, requests that would start a new HTTP session are refused.
     * Off by default: the gate's job is the handshake; refusing requests of admitted connections changes what
     * the application answers, which an operator should ask for (valve/README.md).
     */
    public String getNewSessionPolicy() {
        return newSessionPolicy;
    }

    public void setNewSessionPolicy(String policy) {
        this.newSessionPolicy = policy;
    }

    /** The status {@code newSessionPolicy} refuses with: {@code 429} (default, keeps the connection) or {@code 503}. */
    public String getNewSessionStatus() {
        return newSessionStatus;
    }

    public void setNewSessionStatus(String status) {
        this.newSessionStatus = status;
    }

    public String getMetricsAllow() {
        return metricsAllow;
    }

    public void setMetricsAllow(String metricsAllow) {
        this.metricsAllow = metricsAllow;
    }

    /**
     * Checks the attributes here rather than in init: Tomcat logs a valve that fails to initialise and
     * starts without it, while a failed start stops the server, which is what a bad value must do.
     */
    @Override
    protected void startInternal() throws LifecycleException {
        if (metricsPath == null || !metricsPath.startsWith("/")) {
            throw new LifecycleException("tlsadmit: valve attribute metricsPath must be a path starting with '/', was \""
                    + metricsPath + "\"");
        }
        metricsReaders = metricsReaders(metricsAllow);
        try {
            int status = NewSessionAdmission.parseStatus(newSessionStatus);
            newSessions = NewSessionAdmission.parse(newSessionPolicy) ? new NewSessionAdmission(status) : null;
        } catch (IllegalArgumentException e) {
            throw new LifecycleException("tlsadmit: valve attribute " + e.getMessage());
        }
        List<ConnectorGate> found = findGates();
        if (!found.isEmpty()) {
            requireEngineHook();
        }
        PrometheusMeterRegistry created = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        GateMetrics.bind(created, found);
        gates = found;
        registry = created;
        mbeans = new MeterMBeans(created, ManagementFactory.getPlatformMBeanServer(), engine().getName());
        if (found.isEmpty()) {
            log.warn("tlsadmit: no connector of this service uses " + AdmissionNioProtocol.class.getName()
                    + "; metrics stay at zero");
        } else {
            log.info("tlsadmit: valve bound to " + found.size() + " gated connector(s), metrics at " + metricsPath);
        }
        super.startInternal();
    }

    @Override
    protected void stopInternal() throws LifecycleException {
        super.stopInternal();
        PrometheusMeterRegistry old = registry;
        registry = null;
        gates = List.of();
        MeterMBeans exported = mbeans;
        mbeans = null;
        if (exported != null) {
            exported.close();
        }
        if (old != null) {
            old.close();
        }
    }

    /**
     * The connectors are initialised before the engine's valves start, so their gates exist now.
     * @throws LifecycleException if a gated connector failed to initialise (e.g. a bad attribute)
     */
    private List<ConnectorGate> findGates() throws LifecycleException {
        List<ConnectorGate> gates = new ArrayList<>();
        for (Connector connector : engine().getService().findConnectors()) {
            if (connector.getProtocolHandler() instanceof AdmissionNioProtocol protocol) {
                if (protocol.gate() == null) {
                    // Tomcat only logs a connector that failed to initialise and starts without it; a
                    // server without its admission control must not look healthy, so stop the start.
                    throw new LifecycleException(protocol.initFailure() != null ? protocol.initFailure()
                            : "tlsadmit: connector " + protocol.getName() + " failed to initialise");
                }
                gates.add(protocol.gate());
            }
        }
        return List.copyOf(gates);
    }

    /**
     * The gated channel binds the late gate and the session-creation switch to each engine in its override of
     * {@code SecureNioChannel.createSSLEngine}, whose signature is Tomcat 11.0.12's. On an older release the
     * override is never called and those defences would be silently off while the early gate still works, so
     * the start fails instead. A look-up of one method, not a version string: it holds for vendor builds too.
     */
    static void requireEngineHook() throws LifecycleException {
        try {
            SecureNioChannel.class.getDeclaredMethod("createSSLEngine", String.class, List.class, List.class,
                    List.class, List.class, List.class);
        } catch (NoSuchMethodException e) {
            throw new LifecycleException("tlsadmit: needs Tomcat " + MINIMUM_TOMCAT + " or later (its"
                    + " SecureNioChannel.createSSLEngine, where the late gate is bound), this is "
                    + ServerInfo.getServerInfo());
        }
    }

    private Engine engine() throws LifecycleException {
        Container container = getContainer();
        while (container != null && !(container instanceof Engine)) {
            container = container.getParent();
        }
        if (container == null || ((Engine) container).getService() == null) {
            throw new LifecycleException("tlsadmit: " + getClass().getSimpleName() + " must be nested in an Engine");
        }
        return (Engine) container;
    }

    /**
     * {@code metricsAllow} as CIDR ranges ({@code 10.0.0.0/8, 127.0.0.1}) when every entry is an address or a
     * range, the way {@code RemoteCIDRValve} writes them; otherwise a regular expression the whole peer
     * address must match, as before.
     */
    static Predicate<String> metricsReaders(String allow) throws LifecycleException {
        try {
            AddressRanges ranges = AddressRanges.parse(allow);
            if (!ranges.isEmpty()) {
                return peer -> contains(ranges, peer);
            }
        } catch (IllegalArgumentException notCidr) {
            // a regular expression, then
        }
        try {
            Pattern pattern = Pattern.compile(allow);
            return peer -> pattern.matcher(peer).matches();
        } catch (PatternSyntaxException | NullPointerException e) {
            throw new LifecycleException("tlsadmit: valve attribute metricsAllow must be CIDR ranges or a regular"
                    + " expression over the peer address, was \"" + allow + "\"");
        }
    }

    private static boolean contains(AddressRanges ranges, String peer) {
        try {
            // The peer address Tomcat gives is a literal: no name lookup happens here.
            return ranges.contains(InetAddress.getByName(peer));
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /**
     * How the request's connection was admitted; null if not by a gate. HTTP/1.1 on a gated connector: its
     * {@code ServletConnection} ({@link AdmittedHttp11Processor}), cheap. Otherwise (HTTP/2 streams) through
     * the TLS attributes, which makes Tomcat compute all of them for the request.
     */
    static AdmittedConnection admittedConnection(Request request) {
        if (!request.isSecure()) {
            return null;
        }
        if (request.getServletConnection() instanceof AdmittedConnection connection) {
            return connection;
        }
        return request.getAttribute(Globals.SSL_SESSION_MGR_ATTR) instanceof AdmittedConnection connection
                ? connection : null;
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        PrometheusMeterRegistry metrics = registry;
        if (metrics != null && metricsPath.equals(request.getRequestURI())
                && metricsReaders.test(request.getPeerAddr())) {
            response.setStatus(200);
            response.setContentType(PROMETHEUS_TEXT);
            try (Writer writer = response.getWriter()) {
                writer.write(metrics.scrape());
            }
            return;
        }
        AdmittedConnection c = admittedConnection(request);
        if (c != null) {
            if (c.verdict() != null) {
                request.setAttribute(VERDICT_ATTRIBUTE, c.verdict());
            }
            if (c.handshake() != null) {
                request.setAttribute(HANDSHAKE_ATTRIBUTE, c.handshake());
            }
            if (c.warmUp()) {
                request.setAttribute(WARM_UP_ATTRIBUTE, Boolean.TRUE);
            }
        }
        NewSessionAdmission sessions = newSessions;
        if (sessions == null || NewSessionAdmission.hasValidSession(request)) {
            getNext().invoke(request, response);
            return;
        }
        if (sessions.refuse(request, response)) {
            return;
        }
        getNext().invoke(request, response);
        sessions.learn(request);
    }
}

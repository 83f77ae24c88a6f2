package io.tlsadmit.tomcat;

import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.admission.control.ControlLoop;
import io.tlsadmit.gate.BudgetType;
import io.tlsadmit.gate.ConnectorGate;
import io.tlsadmit.gate.GateConfig;
import io.tlsadmit.gate.RefusalEpisodes;
import io.tlsadmit.gate.SlowHelloLimits;
import io.tlsadmit.gate.adaptive.AdaptiveConfig;
import io.tlsadmit.gate.warmup.RequestWarmUp;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.coyote.Processor;
import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.juli.logging.Log;
import org.apache.juli.logging.LogFactory;

/**
 * An HTTP/1.1 NIO TLS connector with admission control: {@code protocol="io.tlsadmit.tomcat.AdmissionNioProtocol"}.
 * Every resumption is admitted; a new full handshake only while the budget has a token, decided on
 * the ClientHello before the TLS engine sees it. The connector attributes are documented in
 * valve/README.md; they are checked when the connector initialises, and a bad value stops it with
 * a message naming the attribute.
 */
public class AdmissionNioProtocol extends Http11NioProtocol {

    private static final Log log = LogFactory.getLog(AdmissionNioProtocol.class);
    public static final String JMX_DOMAIN = "io.tlsadmit";

    private final ConnectorAttributes attributes = new ConnectorAttributes();
    private volatile ConnectorGate gate;
    private volatile BudgetType budgetType;
    /** The application warm-up's pages (none: empty) and how long it runs; set at init. */
    private volatile List<String> warmUpRequests = List.of();
    private volatile Duration warmUpDuration;
    /** Set once the application warm-up has run: what it compiled stays compiled across a connector's restarts. */
    private volatile boolean applicationWarmedUp;
    private volatile String initFailure;
    private ObjectName mbeanName;
    private ObjectName adaptiveMBeanName;
    /**
     * Full handshakes run in memory before the connector accepts. 64: with JSSE and RSA-4096 the first cost 155–193 ms
     * of CPU (both sides), the 64th 12–16 ms (docs/benchmarks.md section 4); 2.6 s at start on one CPU there, the JIT
     * compiler included, 0.2–0.8 s with RSA-2048.
     */
    static final int DEFAULT_WARM_UP_HANDSHAKES = 64;
    static final int DEFAULT_FULL_HANDSHAKE_NICE = 0;
    /** Ticks an adaptive budget while the connector runs; null when stopped or static. */
    private ControlLoop controlLoop;
    /** Checks once a second whether the connector started or stopped refusing, for the log; null when stopped. */
    private ScheduledFuture<?> refusalLog;
    private final RefusalEpisodes refusalEpisodes = new RefusalEpisodes();

    /**
     * Tomcat's OpenSSL (FFM) with the late gate; in the jar's {@code META-INF/versions/22}, so named here, not
     * referenced: Java 17 cannot load it.
     */
    static final String GATED_OPENSSL = "io.tlsadmit.tomcat.GatedOpenSslImplementation";
    /** The first Java release with FFM final (JEP 454), which Tomcat's OpenSSL implementation needs too. */
    static final int GATED_OPENSSL_MIN_JAVA = 22;

    public AdmissionNioProtocol() {
        super(new AdmissionNioEndpoint());
        // The late gate lives in this JSSE implementation; a connector that names its own wins.
        setSslImplementationName(GatedJsseImplementation.class.getName());
    }

    /** Tomcat's HTTP/1.1 processor, through which the valve reads each request's verdict cheaply. */
    @Override
    protected Processor createProcessor() {
        return new AdmittedHttp11Processor(this, getAdapter());
    }

    public String getBudget() {
        return attributes.getBudget();
    }

    public void setBudget(String budget) {
        attributes.setBudget(budget);
    }

    public String getMaxFullHandshakesPerSecond() {
        return attributes.getMaxFullHandshakesPerSecond();
    }

    public void setMaxFullHandshakesPerSecond(String rate) {
        attributes.setMaxFullHandshakesPerSecond(rate);
    }

    public String getFullHandshakeBurst() {
        return attributes.getFullHandshakeBurst();
    }

    public void setFullHandshakeBurst(String burst) {
        attributes.setFullHandshakeBurst(burst);
    }

    public String getRefuseAction() {
        return attributes.getRefuseAction();
    }

    public void setRefuseAction(String action) {
        attributes.setRefuseAction(action);
    }

    public String getNativePeek() {
        return attributes.getNativePeek();
    }

    public void setNativePeek(String nativePeek) {
        attributes.setNativePeek(nativePeek);
    }

    /** {@code refuse} (default) or {@code charge}: what a client's TLS 1.2 renegotiation gets. */
    public String getClientRenegotiation() {
        return attributes.getClientRenegotiation();
    }

    public void setClientRenegotiation(String policy) {
        attributes.setClientRenegotiation(policy);
    }

    /** {@code enforce} (default) or {@code observe}: decide and count, refuse nothing. */
    public String getMode() {
        return attributes.getMode();
    }

    public void setMode(String mode) {
        attributes.setMode(mode);
    }

    /** CIDR ranges whose connections are admitted without a decision (health checkers, internal callers). */
    public String getBypassAddresses() {
        return attributes.getBypassAddresses();
    }

    public void setBypassAddresses(String ranges) {
        attributes.setBypassAddresses(ranges);
    }

    /** New connections of one host admitted together when the budget admits its first (a browser's page). */
    public String getConnectionsPerNewUser() {
        return attributes.getConnectionsPerNewUser();
    }

    public void setConnectionsPerNewUser(String connections) {
        attributes.setConnectionsPerNewUser(connections);
    }

    /** Longest wait for a complete ClientHello, ms from accept. */
    public String getHelloTimeout() {
        return attributes.getHelloTimeout();
    }

    public void setHelloTimeout(String millis) {
        attributes.setHelloTimeout(millis);
    }

    /** Connections waiting for their hello before the oldest is closed. */
    public String getMaxPendingHellos() {
        return attributes.getMaxPendingHellos();
    }

    public void setMaxPendingHellos(String connections) {
        attributes.setMaxPendingHellos(connections);
    }

    /** Connections waiting for their hello from one source (IPv4 /24, IPv6 /64) before more are closed at accept. */
    public String getMaxPendingHellosPerSource() {
        return attributes.getMaxPendingHellosPerSource();
    }

    public void setMaxPendingHellosPerSource(String connections) {
        attributes.setMaxPendingHellosPerSource(connections);
    }

    // ---- budget="adaptive" (valve/README.md) --------------------------------------------------

    public String getCpus() {
        return attributes.getCpus();
    }

    public void setCpus(String cpus) {
        attributes.setCpus(cpus);
    }

    /** allocation (the default) or measured: the CPUs planned for exclude what other processes use of the mask. */
    public String getCpuCapacity() {
        return attributes.getCpuCapacity();
    }

    public void setCpuCapacity(String capacity) {
        attributes.setCpuCapacity(capacity);
    }

    public String getTargetUtilization() {
        return attributes.getTargetUtilization();
    }

    public void setTargetUtilization(String utilization) {
        attributes.setTargetUtilization(utilization);
    }

    public String getControlPeriod() {
        return attributes.getControlPeriod();
    }

    public void setControlPeriod(String millis) {
        attributes.setControlPeriod(millis);
    }

    public String getMinFullHandshakesPerSecond() {
        return attributes.getMinFullHandshakesPerSecond();
    }

    public void setMinFullHandshakesPerSecond(String rate) {
        attributes.setMinFullHandshakesPerSecond(rate);
    }

    public String getQueueDelayTarget() {
        return attributes.getQueueDelayTarget();
    }

    public void setQueueDelayTarget(String millis) {
        attributes.setQueueDelayTarget(millis);
    }

    public String getInitialFullHandshakeCost() {
        return attributes.getInitialFullHandshakeCost();
    }

    public void setInitialFullHandshakeCost(String micros) {
        attributes.setInitialFullHandshakeCost(micros);
    }

    /** Threads waiting for a CPU per allocated CPU above which the adaptive budget cuts too; 0 = off (default). */
    public String getRunQueueTarget() {
        return attributes.getRunQueueTarget();
    }

    public void setRunQueueTarget(String threadsPerCpu) {
        attributes.setRunQueueTarget(threadsPerCpu);
    }

    /** Busy workers take established connections and resumptions before new full handshakes. */
    public String getShortestWorkFirst() {
        return attributes.getShortestWorkFirst();
    }

    public void setShortestWorkFirst(String enabled) {
        attributes.setShortestWorkFirst(enabled);
    }

    /** Full TLS handshakes run in memory at start, so that the first clients do not pay for the JIT; 0 = none. */
    public String getFullHandshakeNice() {
        return attributes.getFullHandshakeNice();
    }

    public void setFullHandshakeNice(String nice) {
        attributes.setFullHandshakeNice(nice);
    }

    public String getWarmUpHandshakes() {
        return attributes.getWarmUpHandshakes();
    }

    public void setWarmUpHandshakes(String handshakes) {
        attributes.setWarmUpHandshakes(handshakes);
    }

    /**
     * Pages of the application (comma-separated paths) requested over this connector's own port at start, for
     * {@code warmUpSeconds}, before the server reports itself started; other connections are closed meanwhile.
     * Only at the connector's first start: a restart (through JMX) finds the code compiled. Empty (the default): none.
     */
    public String getWarmUpRequests() {
        return attributes.getWarmUpRequests();
    }

    public void setWarmUpRequests(String paths) {
        attributes.setWarmUpRequests(paths);
    }

    public String getWarmUpSeconds() {
        return attributes.getWarmUpSeconds();
    }

    public void setWarmUpSeconds(String seconds) {
        attributes.setWarmUpSeconds(seconds);
    }

    /**
     * A {@code ${...}} left in an attribute (e.g. {@code cpus="${CPU_REQUEST}m"} in a container): Tomcat resolves
     * them from system properties only, unless told to read the environment.
     */
    static String withPlaceholderHint(String message) {
        return message != null && message.contains("${")
                ? message + "; Tomcat resolves ${...} from system properties unless"
                        + " org.apache.tomcat.util.digester.PROPERTY_SOURCE is set to"
                        + " org.apache.tomcat.util.digester.EnvironmentPropertySource"
                : message;
    }

    /** Why {@link #init()} refused the configuration; {@code null} if it did not. */
    public String initFailure() {
        return initFailure;
    }

    /** The gate of this connector, once initialised; the valve binds its metrics to it. */
    public ConnectorGate gate() {
        return gate;
    }

    @Override
    public void init() throws Exception {
        if (!isSSLEnabled()) {
            initFailure = "tlsadmit: " + getClass().getSimpleName() + " gates TLS handshakes; set SSLEnabled=\"true\""
                    + " on connector " + getName();
            throw new IllegalArgumentException(initFailure);
        }
        if (GATED_OPENSSL.equals(getSslImplementationName()) && Runtime.version().feature() < GATED_OPENSSL_MIN_JAVA) {
            initFailure = "tlsadmit: invalid connector attribute on " + getName() + ": sslImplementationName="
                    + GATED_OPENSSL + " needs Java " + GATED_OPENSSL_MIN_JAVA + " or later (Tomcat's OpenSSL through"
                    + " FFM); this JVM is Java " + Runtime.version().feature();
            throw new IllegalArgumentException(initFailure);
        }
        GateConfig config;
        ConnectorGate created;
        boolean workerPriority;
        SlowHelloLimits slowHellos;
        int warmUp;
        int handshakeNice;
        List<String> requests;
        Duration requestsFor;
        try {
            config = attributes.gateConfig();
            created = config.newGate(unquotedName());
            workerPriority = attributes.shortestWorkFirst();
            slowHellos = config.slowHelloLimits(getMaxConnections(), Duration.ofMillis(getConnectionTimeout()));
            warmUp = attributes.warmUpHandshakes();
            handshakeNice = attributes.fullHandshakeNice();
            requests = attributes.warmUpRequests();
            requestsFor = attributes.warmUpDuration();
        } catch (IllegalArgumentException e) {
            // Tomcat logs this and leaves the connector failed; the valve then stops the start.
            initFailure = "tlsadmit: invalid connector attribute on " + getName() + ": " + withPlaceholderHint(e.getMessage());
            throw new IllegalArgumentException(initFailure, e);
        }
        gate = created;
        budgetType = config.budget();
        warmUpRequests = requests;
        warmUpDuration = requestsFor;
        AdmissionNioEndpoint endpoint = (AdmissionNioEndpoint) getEndpoint();
        endpoint.gate(created, config, slowHellos);
        endpoint.shortestWorkFirst(workerPriority);
        endpoint.warmUpHandshakes(warmUp);
        endpoint.fullHandshakeNice(handshakeNice);
        super.init();
        registerMBean(created);
        AdmissionController adaptive = created.budget().view(AdmissionController.class).orElse(null);
        if (adaptive != null) {
            adaptiveMBeanName = register("AdaptiveBudget", new AdaptiveBudget(unquotedName(), adaptive));
            log.info("tlsadmit: adaptive budget on " + getName() + ": " + adaptive.cpusAllocated() + " CPUs ("
                    + adaptive.allocation().lastReading().source() + ", affinity from " + AdaptiveConfig.affinitySource()
                    + ", cpuCapacity " + adaptive.getCpuCapacity().attributeValue() + "), targetUtilization " + adaptive.getTargetUtilization() + ", controlPeriod "
                    + adaptive.getControlPeriod() + " ms, cap " + adaptive.getMaxFullHandshakesPerSecond() + "/s");
        }
        log.info("tlsadmit: " + created + (isLateGated() ? ", late gate on" : ", late gate off (sslImplementationName="
                + getSslImplementationName() + ")") + ", " + endpoint.nativePeekStatus());
    }

    private boolean isLateGated() {
        return GatedJsseImplementation.class.getName().equals(getSslImplementationName())
                || GATED_OPENSSL.equals(getSslImplementationName());
    }

    /** In the connector's name ({@code https-opensslffm-nio-8443}), as Tomcat names its own OpenSSL through FFM. */
    @Override
    protected String getSslImplementationShortName() {
        return GATED_OPENSSL.equals(getSslImplementationName()) ? "opensslffm" : super.getSslImplementationShortName();
    }

    private void registerMBean(ConnectorGate created) {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName(JMX_DOMAIN + ":type=Gate,connector=" + getName());
            if (server.isRegistered(name)) {
                server.unregisterMBean(name);
            }
            server.registerMBean(new Gate(created, budgetType.attributeValue(),
                    (AdmissionNioEndpoint) getEndpoint()), name);
            mbeanName = name;
        } catch (JMException e) {
            log.warn("tlsadmit: cannot register the gate MBean of " + getName() + ": " + e.getMessage());
        }
    }

    private ObjectName register(String type, Object mbean) {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName(JMX_DOMAIN + ":type=" + type + ",connector=" + getName());
            if (server.isRegistered(name)) {
                server.unregisterMBean(name);
            }
            server.registerMBean(mbean, name);
            return name;
        } catch (JMException e) {
            log.warn("tlsadmit: cannot register the " + type + " MBean of " + getName() + ": " + e.getMessage());
            return null;
        }
    }

    @Override
    public void start() throws Exception {
        super.start();
        ConnectorGate current = gate;
        if (refusalLog == null && current != null) {
            refusalLog = getUtilityExecutor().scheduleWithFixedDelay(() -> logRefusals(current), 1, 1, TimeUnit.SECONDS);
        }
        if (controlLoop == null && current != null) {
            current.budget().view(AdmissionController.class).ifPresent(adaptive -> {
                controlLoop = new ControlLoop(adaptive);
                controlLoop.start();
            });
        }
        if (!warmUpRequests.isEmpty() && current != null && !applicationWarmedUp) {
            applicationWarmedUp = true;
            warmUpRequests();
        }
    }

    /**
     * The application warm-up ({@link RequestWarmUp}): on Tomcat's start thread, so the server reports itself
     * started once warm, and with every other connection closed at accept, so a health check or load balancer
     * does not find it ready before that. Its result is logged; a failing warm-up never fails the start.
     */
    private void warmUpRequests() {
        AdmissionNioEndpoint endpoint = (AdmissionNioEndpoint) getEndpoint();
        log.info("tlsadmit: application warm-up on " + unquotedName() + ": " + warmUpRequests + " for "
                + warmUpDuration.toSeconds() + " s; other connections are closed until it ends");
        RequestWarmUp.Result result = endpoint.warmUpRequests(warmUpRequests, warmUpDuration);
        log.info("tlsadmit: application warm-up on " + unquotedName() + " done: " + result + "; "
                + endpoint.closedWhileWarmingUp() + " other connections closed meanwhile");
        if (!result.pathsNeverAnswered().isEmpty()) {
            log.warn("tlsadmit: application warm-up on " + unquotedName() + ": no 2xx or 3xx answer for "
                    + result.pathsNeverAnswered() + " (a typo, a page that needs a login, or the server failing):"
                    + " that code is not warmed up");
        }
    }

    /**
     * One line when the connector starts refusing handshakes and one when it has stopped for 30 s, with the
     * counts and the budget then: an operator sees when and why without a line per refused connection.
     */
    private void logRefusals(ConnectorGate current) {
        try {
            boolean observing = current.isObserving();
            RefusalEpisodes.Change change = refusalEpisodes.check(current.counters().handshakeRefusals(observing),
                    System.nanoTime());
            if (change == null) {
                return;
            }
            String verb = observing ? "would have " : "";
            String budget = String.format(Locale.ROOT, "budget %s %.1f new full handshakes/s, %.1f tokens",
                    attributes.getBudget(), current.budget().fullHandshakesPerSecond(), current.budget().availableTokens());
            if (change.started()) {
                log.info("tlsadmit: " + unquotedName() + " " + (observing ? "would start" : "started") + " refusing handshakes: "
                        + change.refusedLastCheck() + " " + verb + "refused in the last second; " + budget);
            } else {
                log.info(String.format(Locale.ROOT, "tlsadmit: %s %s refusing handshakes: %d %srefused over %.0f s; %s",
                        unquotedName(), observing ? "would have stopped" : "stopped", change.refusedSoFar(), verb,
                        change.seconds(), budget));
            }
        } catch (RuntimeException e) {
            log.debug("tlsadmit: refusal log check failed", e); // never let a log line stop the checks
        }
    }

    @Override
    public void stop() throws Exception {
        if (refusalLog != null) {
            refusalLog.cancel(false);
            refusalLog = null;
        }
        stopControlLoop();
        super.stop();
    }

    /** The budget keeps its last rate while the connector is stopped; a restart ticks again. */
    private void stopControlLoop() {
        if (controlLoop != null) {
            controlLoop.close();
            controlLoop = null;
        }
    }

    @Override
    public void destroy() throws Exception {
        stopControlLoop();
        if (adaptiveMBeanName != null) {
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(adaptiveMBeanName);
            } catch (JMException e) {
                log.debug("tlsadmit: adaptive budget MBean already gone", e);
            }
            adaptiveMBeanName = null;
        }
        try {
            super.destroy();
        } finally {
            if (mbeanName != null) {
                try {
                    ManagementFactory.getPlatformMBeanServer().unregisterMBean(mbeanName);
                } catch (JMException e) {
                    log.debug("tlsadmit: gate MBean already gone", e);
                }
                mbeanName = null;
            }
        }
    }

    private String unquotedName() {
        return ObjectName.unquote(getName());
    }
}

package io.tlsadmit.tomcat;

import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.admission.control.ControlLoop;
import io.tlsadmit.gate.ConnectorGate;
import io.tlsadmit.gate.GateSettings;
import io.tlsadmit.gate.RefusalEpisodes;
import io.tlsadmit.gate.GateMode;
import io.tlsadmit.gate.SlowHelloLimits;
import io.tlsadmit.gate.source.AddressRanges;
import io.tlsadmit.gate.adaptive.AdaptiveSettings;
import java.lang.management.ManagementFactory;
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

    private final GateSettings settings = new GateSettings();
    private volatile ConnectorGate gate;
    private volatile String initFailure;
    private ObjectName mbeanName;
    private ObjectName adaptiveMBeanName;
    private String shortestWorkFirst = "true";
    /**
     * Full handshakes run in memory before the connector accepts. 64: with JSSE and RSA-4096 the first cost 155–193 ms
     * of CPU (both sides), the 64th 12–16 ms (docs/benchmarks.md section 4); 2.6 s at start on one CPU there, the JIT
     * compiler included, 0.2–0.8 s with RSA-2048.
     */
    static final int DEFAULT_WARM_UP_HANDSHAKES = 64;
    private String warmUpHandshakes = Integer.toString(DEFAULT_WARM_UP_HANDSHAKES);
    /** Ticks an adaptive budget while the connector runs; null when stopped or static. */
    private ControlLoop controlLoop;
    /** Checks once a second whether the connector started or stopped refusing, for the log; null when stopped. */
    private ScheduledFuture<?> refusalLog;
    private final RefusalEpisodes refusalEpisodes = new RefusalEpisodes();

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
        return settings.getBudget();
    }

    public void setBudget(String budget) {
        settings.setBudget(budget);
    }

    public String getMaxFullHandshakesPerSecond() {
        return settings.getMaxFullHandshakesPerSecond();
    }

    public void setMaxFullHandshakesPerSecond(String rate) {
        settings.setMaxFullHandshakesPerSecond(rate);
    }

    public String getFullHandshakeBurst() {
        return settings.getFullHandshakeBurst();
    }

    public void setFullHandshakeBurst(String burst) {
        settings.setFullHandshakeBurst(burst);
    }

    public String getRefuseAction() {
        return settings.getRefuseAction();
    }

    public void setRefuseAction(String action) {
        settings.setRefuseAction(action);
    }

    public String getNativePeek() {
        return settings.getNativePeek();
    }

    public void setNativePeek(String nativePeek) {
        settings.setNativePeek(nativePeek);
    }

    /** {@code refuse} (default) or {@code charge}: what a client's TLS 1.2 renegotiation gets. */
    public String getClientRenegotiation() {
        return settings.getClientRenegotiation();
    }

    public void setClientRenegotiation(String policy) {
        settings.setClientRenegotiation(policy);
    }

    /** {@code enforce} (default) or {@code observe}: decide and count, refuse nothing. */
    public String getMode() {
        return settings.getMode();
    }

    public void setMode(String mode) {
        settings.setMode(mode);
    }

    /** CIDR ranges whose connections are admitted without a decision (health checkers, internal callers). */
    public String getBypassAddresses() {
        return settings.getBypassAddresses();
    }

    public void setBypassAddresses(String ranges) {
        settings.setBypassAddresses(ranges);
    }

    /** New connections of one host admitted together when the budget admits its first (a browser's page). */
    public String getConnectionsPerNewUser() {
        return settings.getConnectionsPerNewUser();
    }

    public void setConnectionsPerNewUser(String connections) {
        settings.setConnectionsPerNewUser(connections);
    }

    /** Longest wait for a complete ClientHello, ms from accept. */
    public String getHelloTimeout() {
        return settings.getHelloTimeout();
    }

    public void setHelloTimeout(String millis) {
        settings.setHelloTimeout(millis);
    }

    /** Connections waiting for their hello before the oldest is closed. */
    public String getMaxPendingHellos() {
        return settings.getMaxPendingHellos();
    }

    public void setMaxPendingHellos(String connections) {
        settings.setMaxPendingHellos(connections);
    }

    /** Connections waiting for their hello from one source (IPv4 /24, IPv6 /64) before more are closed at accept. */
    public String getMaxPendingHellosPerSource() {
        return settings.getMaxPendingHellosPerSource();
    }

    public void setMaxPendingHellosPerSource(String connections) {
        settings.setMaxPendingHellosPerSource(connections);
    }

    // ---- budget="adaptive" (valve/README.md) --------------------------------------------------

    public String getCpus() {
        return settings.adaptive().getCpus();
    }

    public void setCpus(String cpus) {
        settings.adaptive().setCpus(cpus);
    }

    public String getTargetUtilization() {
        return settings.adaptive().getTargetUtilization();
    }

    public void setTargetUtilization(String utilization) {
        settings.adaptive().setTargetUtilization(utilization);
    }

    public String getControlPeriod() {
        return settings.adaptive().getControlPeriod();
    }

    public void setControlPeriod(String millis) {
        settings.adaptive().setControlPeriod(millis);
    }

    public String getMinFullHandshakesPerSecond() {
        return settings.adaptive().getMinFullHandshakesPerSecond();
    }

    public void setMinFullHandshakesPerSecond(String rate) {
        settings.adaptive().setMinFullHandshakesPerSecond(rate);
    }

    public String getQueueDelayTarget() {
        return settings.adaptive().getQueueDelayTarget();
    }

    public void setQueueDelayTarget(String millis) {
        settings.adaptive().setQueueDelayTarget(millis);
    }

    public String getInitialFullHandshakeCost() {
        return settings.adaptive().getInitialFullHandshakeCost();
    }

    public void setInitialFullHandshakeCost(String micros) {
        settings.adaptive().setInitialFullHandshakeCost(micros);
    }

    /** Busy workers take established connections and resumptions before new full handshakes. */
    public String getShortestWorkFirst() {
        return shortestWorkFirst;
    }

    public void setShortestWorkFirst(String enabled) {
        this.shortestWorkFirst = enabled;
    }

    /** Full TLS handshakes run in memory at start, so that the first clients do not pay for the JIT; 0 = none. */
    public String getWarmUpHandshakes() {
        return warmUpHandshakes;
    }

    public void setWarmUpHandshakes(String handshakes) {
        this.warmUpHandshakes = handshakes;
    }

    private int warmUpHandshakesValue() {
        try {
            int value = Integer.parseInt(warmUpHandshakes == null ? "" : warmUpHandshakes.trim());
            if (value >= 0 && value <= 10_000) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("warmUpHandshakes must be a whole number of handshakes in [0, 10000]"
                + " (0 = no warm-up), was \"" + warmUpHandshakes + "\"");
    }

    private boolean shortestWorkFirstValue() {
        String value = shortestWorkFirst == null ? "" : shortestWorkFirst.trim().toLowerCase(Locale.ROOT);
        return switch (value) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("shortestWorkFirst must be \"true\" or \"false\", was \""
                    + shortestWorkFirst + "\"");
        };
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
        ConnectorGate created;
        boolean nativePeek;
        boolean workerPriority;
        SlowHelloLimits slowHellos;
        AddressRanges bypass;
        GateMode mode;
        int warmUp;
        try {
            created = new ConnectorGate(unquotedName(), settings.newBudget(), settings.refuseActionValue(),
                    settings.clientRenegotiationValue(), settings.connectionsPerNewUserValue());
            nativePeek = settings.nativePeekValue();
            workerPriority = shortestWorkFirstValue();
            slowHellos = settings.slowHelloLimits(getMaxConnections(), getConnectionTimeout());
            bypass = settings.bypassAddressesValue();
            mode = settings.modeValue();
            warmUp = warmUpHandshakesValue();
        } catch (IllegalArgumentException e) {
            // Tomcat logs this and leaves the connector failed; the valve then stops the start.
            initFailure = "tlsadmit: invalid connector attribute on " + getName() + ": " + withPlaceholderHint(e.getMessage());
            throw new IllegalArgumentException(initFailure, e);
        }
        created.mode(mode);
        gate = created;
        AdmissionNioEndpoint endpoint = (AdmissionNioEndpoint) getEndpoint();
        endpoint.gate(created);
        endpoint.nativePeek(nativePeek);
        endpoint.shortestWorkFirst(workerPriority);
        endpoint.slowHelloLimits(slowHellos);
        endpoint.bypassAddresses(bypass);
        endpoint.warmUpHandshakes(warmUp);
        super.init();
        registerMBean(created);
        AdmissionController adaptive = created.budget().view(AdmissionController.class).orElse(null);
        if (adaptive != null) {
            adaptiveMBeanName = register("AdaptiveBudget", new AdaptiveBudget(unquotedName(), adaptive));
            log.info("tlsadmit: adaptive budget on " + getName() + ": " + adaptive.cpusAllocated() + " CPUs ("
                    + adaptive.allocation().lastReading().source() + ", affinity from " + AdaptiveSettings.affinitySource()
                    + "), targetUtilization " + adaptive.getTargetUtilization() + ", controlPeriod "
                    + adaptive.getControlPeriod() + " ms, cap " + adaptive.getMaxFullHandshakesPerSecond() + "/s");
        }
        log.info("tlsadmit: " + created + (isLateGated() ? ", late gate on" : ", late gate off (sslImplementationName="
                + getSslImplementationName() + ")") + ", " + endpoint.nativePeekStatus());
    }

    private boolean isLateGated() {
        return GatedJsseImplementation.class.getName().equals(getSslImplementationName());
    }

    private void registerMBean(ConnectorGate created) {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName(JMX_DOMAIN + ":type=Gate,connector=" + getName());
            if (server.isRegistered(name)) {
                server.unregisterMBean(name);
            }
            server.registerMBean(new Gate(created, settings.getBudget().trim().toLowerCase(Locale.ROOT),
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
                    settings.getBudget(), current.budget().fullHandshakesPerSecond(), current.budget().availableTokens());
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

package io.tlsadmit.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.tomcat.AdaptiveBudgetMXBean;
import io.tlsadmit.tomcat.AdmissionNioProtocol;
import io.tlsadmit.tomcat.GateMXBean;
import io.tlsadmit.tomcat.TlsAdmissionValve;
import io.tlsadmit.tomcat.worker.ShortestWorkFirstExecutor;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.http.HttpClient;
import java.util.Arrays;
import java.util.Optional;
import javax.management.JMX;
import javax.management.ObjectName;
import org.apache.catalina.Valve;
import org.apache.coyote.AbstractProtocol;
import org.apache.coyote.http11.Http11NioProtocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** {@code tlsadmit.*} reach the connector and the valve, bad values stop the start by name, and the off switch. */
@ExtendWith(OutputCaptureExtension.class)
class StarterPropertiesTest {

    @Test
    void connectorAndValvePropertiesReachTheGate() throws Exception {
        ObjectName gateName;
        try (BootApp app = BootApp.start(BootApp.plainKeystore(), "tlsadmit.budget=static",
                "tlsadmit.max-full-handshakes-per-second=0.2", "tlsadmit.full-handshake-burst=1",
                "tlsadmit.connections-per-new-user=1", "tlsadmit.refuse-action=reset",
                "tlsadmit.client-renegotiation=charge", "tlsadmit.hello-timeout=5s",
                "tlsadmit.max-pending-hellos=100", "tlsadmit.max-pending-hellos-per-source=20",
                "tlsadmit.native-peek=false", "tlsadmit.shortest-work-first=false", "tlsadmit.warm-up-handshakes=3",
                "tlsadmit.warm-up-requests=/,/missing", "tlsadmit.warm-up-seconds=1",
                "tlsadmit.metrics-path=/gate/metrics", "tlsadmit.metrics-allow=127\\.0\\.0\\.1",
                "tlsadmit.new-session-policy=off")) {
            AdmissionNioProtocol protocol = assertInstanceOf(AdmissionNioProtocol.class,
                    app.connector().getProtocolHandler());
            assertEquals("static", protocol.getBudget());
            assertEquals("0.2", protocol.getMaxFullHandshakesPerSecond());
            assertEquals("1", protocol.getFullHandshakeBurst());
            assertEquals("1", protocol.getConnectionsPerNewUser());
            assertEquals("reset", protocol.getRefuseAction());
            assertEquals("charge", protocol.getClientRenegotiation());
            assertEquals("5000", protocol.getHelloTimeout());
            assertEquals("100", protocol.getMaxPendingHellos());
            assertEquals("20", protocol.getMaxPendingHellosPerSource());
            assertEquals("false", protocol.getNativePeek());
            assertEquals("3", protocol.getWarmUpHandshakes());
            assertEquals("/,/missing", protocol.getWarmUpRequests());
            assertEquals("1", protocol.getWarmUpSeconds());
            assertFalse(protocol.getExecutor() instanceof ShortestWorkFirstExecutor, "shortest-work-first=false");
            GateMXBean gate = app.gate();
            gateName = new ObjectName(AdmissionNioProtocol.JMX_DOMAIN + ":type=Gate,connector=" + protocol.getName());
            assertTrue(ManagementFactory.getPlatformMBeanServer().isRegistered(gateName));
            assertEquals("static", gate.getBudget());
            assertEquals("reset", gate.getRefuseAction());
            assertEquals(0.2, gate.getMaxFullHandshakesPerSecond(), 1e-9);
            assertEquals(1, gate.getFullHandshakeBurst());
            TlsAdmissionValve valve = valve(app).orElseThrow();
            assertEquals("/gate/metrics", valve.getMetricsPath());
            assertEquals("127\\.0\\.0\\.1", valve.getMetricsAllow());
            assertEquals("off", valve.getNewSessionPolicy());
            // TLS from plain server.ssl.key-store: the first new client takes the one token.
            assertEquals(200, app.https(HttpClient.Version.HTTP_1_1, "/").statusCode());
            assertEquals(1, gate.getNewAdmitted());
            // connections-per-new-user=1: no grace for the same host, the second new client is refused.
            assertThrows(UncheckedIOException.class, () -> app.https(HttpClient.Version.HTTP_1_1, "/"));
            assertEquals(1, gate.getNewAdmitted());
        }
        assertFalse(ManagementFactory.getPlatformMBeanServer().isRegistered(gateName),
                "the gate's MBean leaves with the application");
    }

    @Test
    void adaptivePropertiesReachTheController() throws Exception {
        try (BootApp app = BootApp.start(BootApp.sslBundle(), "tlsadmit.budget=adaptive", "tlsadmit.cpus=1",
                "tlsadmit.target-utilization=0.5", "tlsadmit.control-period=100ms",
                "tlsadmit.min-full-handshakes-per-second=2", "tlsadmit.max-full-handshakes-per-second=500",
                "tlsadmit.queue-delay-target=20ms", "tlsadmit.initial-full-handshake-cost=3ms",
                "tlsadmit.run-queue-target=3")) {
            AdmissionNioProtocol protocol = (AdmissionNioProtocol) app.connector().getProtocolHandler();
            assertEquals("adaptive", protocol.getBudget());
            assertEquals("20", protocol.getQueueDelayTarget());
            assertEquals("3000", protocol.getInitialFullHandshakeCost(), "microseconds");
            assertEquals("3.0", protocol.getRunQueueTarget());
            AdaptiveBudgetMXBean budget = JMX.newMXBeanProxy(ManagementFactory.getPlatformMBeanServer(),
                    new ObjectName(AdmissionNioProtocol.JMX_DOMAIN + ":type=AdaptiveBudget,connector="
                            + protocol.getName()), AdaptiveBudgetMXBean.class);
            assertEquals(0.5, budget.getTargetUtilization(), 1e-9);
            assertEquals(100, budget.getControlPeriod());
            assertEquals(2, budget.getMinFullHandshakesPerSecond(), 1e-9);
            assertEquals(500, budget.getMaxFullHandshakesPerSecond(), 1e-9);
            assertEquals(1, budget.getCpusAllocated(), 1e-9);
            assertInstanceOf(ShortestWorkFirstExecutor.class, ((AbstractProtocol<?>) protocol).getExecutor());
            assertTrue(app.prometheus().has("tlsadmit_cpus_allocated"),
                    "adaptive families in the application's registry");
            assertTrue(app.prometheus().has("tlsadmit_handshake_cpu_seconds_bucket"),
                    "handshake CPU as a histogram in the application's Prometheus registry: " + app.prometheus().text());
        }
    }

    /**
     * A bad value stops the start, and Spring Boot's failure report names the property: values of the wrong
     * type through Spring's binder, values out of range through the gate's own check at connector init.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "tlsadmit.max-full-handshakes-per-second=-1  | tlsadmit.max-full-handshakes-per-second",
        "tlsadmit.max-full-handshakes-per-second=fast | tlsadmit.max-full-handshakes-per-second",
        "tlsadmit.target-utilization=1.5             | tlsadmit.target-utilization",
        "tlsadmit.hello-timeout=0ms                  | tlsadmit.hello-timeout",
        "tlsadmit.budget=dynamic                     | tlsadmit.budget",
        "tlsadmit.connections-per-new-user=100       | tlsadmit.connections-per-new-user",
        "tlsadmit.mode=dry-run                       | tlsadmit.mode",
        "tlsadmit.cpu-capacity=shared                | tlsadmit.cpu-capacity",
        "tlsadmit.bypass-addresses=probes.internal   | tlsadmit.bypass-addresses",
        "tlsadmit.metrics-path=metrics               | tlsadmit.metrics-path"})
    void aBadValueFailsTheStartNamingTheProperty(String setting, String property, CapturedOutput output) {
        RuntimeException failure = assertThrows(RuntimeException.class,
                () -> BootApp.start(BootApp.sslBundle(), setting));
        assertTrue(messages(failure).contains(property), messages(failure));
        String all = output.getAll();
        String report = all.substring(Math.max(0, all.lastIndexOf("APPLICATION FAILED TO START")));
        assertTrue(report.contains("APPLICATION FAILED TO START") && report.contains(property), all);
    }

    @Test
    void disabledLeavesTomcatStock() {
        try (BootApp app = BootApp.start(BootApp.sslBundle(), "tlsadmit.enabled=false",
                "tlsadmit.max-full-handshakes-per-second=-1")) {
            assertSame(Http11NioProtocol.class, app.connector().getProtocolHandler().getClass());
            assertTrue(valve(app).isEmpty());
            assertEquals(200, app.https(HttpClient.Version.HTTP_1_1, "/").statusCode());
            assertFalse(app.prometheus().text().contains("tlsadmit_"));
        }
    }

    @Test
    void withoutTlsTheConnectorStaysStock() {
        try (BootApp app = BootApp.start(java.util.List.of())) {
            assertSame(Http11NioProtocol.class, app.connector().getProtocolHandler().getClass());
            assertTrue(valve(app).isEmpty());
            assertFalse(app.prometheus().text().contains("tlsadmit_"));
        }
    }

    private static Optional<TlsAdmissionValve> valve(BootApp app) {
        Valve[] valves = app.connector().getService().getContainer().getPipeline().getValves();
        return Arrays.stream(valves).filter(TlsAdmissionValve.class::isInstance).map(TlsAdmissionValve.class::cast)
                .findFirst();
    }

    private static String messages(Throwable failure) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            all.append(t).append('\n');
        }
        return all.toString();
    }
}

package io.tlsadmit.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tlsadmit.gate.RefuseAction;
import io.tlsadmit.gate.RenegotiationPolicy;
import io.tlsadmit.tomcat.AdmissionNioProtocol;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.tomcat.util.IntrospectionUtils;
import org.junit.jupiter.api.Test;

class TlsAdmitPropertiesTest {

    private static TlsAdmitProperties everySet() {
        TlsAdmitProperties properties = new TlsAdmitProperties();
        properties.setBudget(TlsAdmitProperties.BudgetKind.STATIC);
        properties.setMaxFullHandshakesPerSecond(0.5);
        properties.setFullHandshakeBurst(3L);
        properties.setConnectionsPerNewUser(4);
        properties.setRefuseAction(RefuseAction.RESET);
        properties.setNativePeek(false);
        properties.setClientRenegotiation(RenegotiationPolicy.CHARGE);
        properties.setHelloTimeout(Duration.ofSeconds(2));
        properties.setMaxPendingHellos(50);
        properties.setMaxPendingHellosPerSource(10);
        properties.setShortestWorkFirst(false);
        properties.setWarmUpHandshakes(8);
        properties.setWarmUpRequests(List.of("/", "/products?id=1"));
        properties.setWarmUpSeconds(20);
        properties.setCpus(1.5);
        properties.setCpuCapacity("measured");
        properties.setTargetUtilization(0.7);
        properties.setControlPeriod(Duration.ofMillis(100));
        properties.setMinFullHandshakesPerSecond(2.0);
        properties.setQueueDelayTarget(Duration.ofMillis(40));
        properties.setInitialFullHandshakeCost(Duration.ofMillis(3));
        properties.setRunQueueTarget(3.0);
        properties.setMode("observe");
        properties.setBypassAddresses("10.0.0.0/8");
        return properties;
    }

    @Test
    void everyPropertyBecomesItsAttributeInTheGateUnits() {
        Map<String, String> attributes = everySet().connectorAttributes();
        assertEquals(TlsAdmitProperties.CONNECTOR_ATTRIBUTES, attributes.keySet(),
                "the failure mapping knows them all");
        assertEquals("static", attributes.get("budget"));
        assertEquals("reset", attributes.get("refuseAction"));
        assertEquals("charge", attributes.get("clientRenegotiation"));
        assertEquals("2000", attributes.get("helloTimeout"), "milliseconds");
        assertEquals("/,/products?id=1", attributes.get("warmUpRequests"), "the list as the attribute takes it");
        assertEquals("20", attributes.get("warmUpSeconds"));
        assertEquals("100", attributes.get("controlPeriod"));
        assertEquals("3000", attributes.get("initialFullHandshakeCost"), "microseconds");
        assertEquals("3.0", attributes.get("runQueueTarget"));
        assertEquals("0.5", attributes.get("maxFullHandshakesPerSecond"));
    }

    @Test
    void unsetPropertiesLeaveTheGateDefaults() {
        assertEquals(Map.of(), new TlsAdmitProperties().connectorAttributes());
    }

    /** Every property names an attribute the gate's protocol has. */
    @Test
    void theGateHasEveryAttribute() {
        AdmissionNioProtocol protocol = new AdmissionNioProtocol();
        everySet().connectorAttributes().forEach((attribute, value) -> assertEquals(true,
                IntrospectionUtils.setProperty(protocol, attribute, value, false), attribute));
    }

    @Test
    void propertyNamesFollowTheAttributes() {
        assertEquals("tlsadmit.max-full-handshakes-per-second",
                TlsAdmitProperties.propertyOf("maxFullHandshakesPerSecond"));
        assertEquals("tlsadmit.hello-timeout", TlsAdmitProperties.propertyOf("helloTimeout"));
    }
}

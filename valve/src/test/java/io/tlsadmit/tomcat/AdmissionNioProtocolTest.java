package io.tlsadmit.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The Tomcat side of a bad attribute's message: what server.xml's placeholders need. */
class AdmissionNioProtocolTest {

    @Test
    void anUnresolvedPlaceholderSaysHowTomcatResolvesEnvironmentVariables() {
        ConnectorAttributes attributes = new ConnectorAttributes();
        attributes.setCpus("${TLSADMIT_CPU_REQUEST_MILLICORES}m");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, attributes::gateConfig);
        String message = AdmissionNioProtocol.withPlaceholderHint(e.getMessage());
        assertTrue(message.startsWith("cpus must be a number of CPUs"), message);
        assertTrue(message.contains("\"${TLSADMIT_CPU_REQUEST_MILLICORES}m\""), message);
        assertTrue(message.contains("org.apache.tomcat.util.digester.EnvironmentPropertySource"), message);
    }

    @Test
    void anyOtherMessageIsLeftAsItIs() {
        assertEquals("cpus must be a number of CPUs, was \"x\"",
                AdmissionNioProtocol.withPlaceholderHint("cpus must be a number of CPUs, was \"x\""));
    }
}

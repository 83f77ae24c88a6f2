package io.tlsadmit.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.gate.GateSettings;
import org.junit.jupiter.api.Test;

/** The Tomcat side of a bad attribute's message: what server.xml's placeholders need. */
class AdmissionNioProtocolTest {

    @Test
    void anUnresolvedPlaceholderSaysHowTomcatResolvesEnvironmentVariables() {
        GateSettings settings = new GateSettings();
        settings.adaptive().setCpus("${TLSADMIT_CPU_REQUEST_MILLICORES}m");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, settings::newBudget);
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

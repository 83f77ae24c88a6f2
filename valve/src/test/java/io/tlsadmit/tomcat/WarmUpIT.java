package io.tlsadmit.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.testing.OpenSslClient;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import io.tlsadmit.testing.TomcatServer;
import io.tlsadmit.testing.TomcatStartException;
import org.junit.jupiter.api.Test;

/**
 * The connector runs full TLS handshakes in memory before it accepts (`warmUpHandshakes`), so a fresh instance's
 * first clients do not pay for the JIT; the warm-up shows in the log and nowhere in the gate's counters or budget.
 */
class WarmUpIT {

    private final TomcatDistribution distribution = GatedTomcat.distribution();
    private final TestKeystore keystore = GatedTomcat.keystore(distribution);

    @Test
    void theHandshakeIsWarmedUpAtStartAndTheWarmUpCountsNowhere() {
        try (TomcatServer tomcat = GatedTomcat.base(distribution, "warm-up")
                .connector(GatedTomcat.gated("warm", keystore, "1", "1"))
                .connector(GatedTomcat.gated("cold", keystore, "1", "1").attribute("warmUpHandshakes", "0"))
                .engineXml("<Valve className=\"" + GatedTomcat.VALVE + "\"/>")
                .build()
                .start()) {
            int warm = tomcat.port("warm");
            String log = tomcat.catalinaOut();
            assertTrue(log.lines().anyMatch(l -> l.contains("TLS warm-up on") && l.contains("-" + warm + " (RSA certificate): 64 full handshakes")), log);
            assertFalse(log.lines().anyMatch(l -> l.contains("TLS warm-up on") && l.contains("-" + tomcat.port("cold") + " ")), log);
            assertFalse(log.contains("warm-up stopped"), log);

            GateMXBean gate = GatedTomcat.gate(tomcat, warm);
            assertEquals(0, gate.getFullHandshakes(), "the warm-up is not a client");
            assertEquals(0, gate.getNewAdmitted());
            assertEquals(0, gate.getLateRefusals());
            // The budget (1 token) is untouched: the first real client gets it.
            assertTrue(OpenSslClient.to(warm, keystore).run().fullHandshake());
            assertEquals(1, gate.getFullHandshakes());
        }
    }

    @Test
    void aWarmUpThatIsNotACountFailsTheStartNamingTheAttribute() {
        TomcatStartException e = GatedTomcat.failedStart(GatedTomcat.base(distribution, "bad-warm-up")
                .connector(GatedTomcat.gated("gate", keystore, "10", "20").attribute("warmUpHandshakes", "lots"))
                .engineXml("<Valve className=\"" + GatedTomcat.VALVE + "\"/>"));
        assertTrue(e.catalinaOut().contains("warmUpHandshakes must be a whole number of handshakes in [0, 10000]"
                + " (0 = no warm-up), was \"lots\""), e.getMessage());
    }
}

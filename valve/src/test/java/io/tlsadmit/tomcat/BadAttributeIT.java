package io.tlsadmit.tomcat;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.testing.ConnectorSpec;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import io.tlsadmit.testing.TomcatStartException;
import org.junit.jupiter.api.Test;

/** A configuration mistake stops Tomcat at start, with a message that names the attribute. */
class BadAttributeIT {

    private final TomcatDistribution distribution = GatedTomcat.distribution();
    private final TestKeystore keystore = GatedTomcat.keystore(distribution);

    @Test
    void invalidConnectorAttributeFailsTheStartNamingTheAttribute() {
        TomcatStartException e = GatedTomcat.failedStart(GatedTomcat.base(distribution, "bad-attribute")
                .connector(GatedTomcat.gated("gate", keystore, "fast", "20"))
                .engineXml("<Valve className=\"" + GatedTomcat.VALVE + "\"/>"));
        assertTrue(e.catalinaOut().contains("maxFullHandshakesPerSecond must be a decimal number"), e.getMessage());
    }

    @Test
    void invalidValveAttributeFailsTheStartNamingTheAttribute() {
        TomcatStartException e = GatedTomcat.failedStart(GatedTomcat.base(distribution, "bad-valve-attribute")
                .connector(GatedTomcat.gated("gate", keystore, "10", "20"))
                .engineXml("<Valve className=\"" + GatedTomcat.VALVE + "\" metricsAllow=\"127.(\"/>"));
        assertTrue(e.catalinaOut().contains("metricsAllow must be CIDR ranges or a regular expression"), e.getMessage());
    }

    @Test
    void invalidNewSessionStatusFailsTheStartNamingTheAttribute() {
        TomcatStartException e = GatedTomcat.failedStart(GatedTomcat.base(distribution, "bad-session-status")
                .connector(GatedTomcat.gated("gate", keystore, "10", "20"))
                .engineXml("<Valve className=\"" + GatedTomcat.VALVE + "\" newSessionPolicy=\"on\" newSessionStatus=\"500\"/>"));
        assertTrue(e.catalinaOut().contains("newSessionStatus must be 429 or 503"), e.getMessage());
    }

    @Test
    void cpusThatIsNeitherDecimalNorMillicoresFailsTheStartNamingTheAttribute() {
        TomcatStartException e = GatedTomcat.failedStart(GatedTomcat.base(distribution, "bad-cpus")
                .connector(ConnectorSpec.https("gate", keystore).protocol(GatedTomcat.PROTOCOL).attribute("cpus", "1500 m"))
                .engineXml("<Valve className=\"" + GatedTomcat.VALVE + "\"/>"));
        assertTrue(e.catalinaOut().contains("cpus must be a number of CPUs (0 = detect), decimal (1.5) or in"
                + " millicores (1500m), was \"1500 m\""), e.getMessage());
    }

    /** Tomcat on this JDK (17): the OpenSSL late gate needs FFM, Java 22+. */
    @Test
    void gatedOpenSslOnJava17FailsTheStartNamingTheAttribute() {
        TomcatStartException e = GatedTomcat.failedStart(GatedTomcat.base(distribution, "openssl-on-17")
                .connector(GatedTomcat.gated("gate", keystore, "10", "20")
                        .attribute("sslImplementationName", AdmissionNioProtocol.GATED_OPENSSL))
                .engineXml("<Valve className=\"" + GatedTomcat.VALVE + "\"/>"));
        assertTrue(e.catalinaOut().contains("sslImplementationName=" + AdmissionNioProtocol.GATED_OPENSSL
                + " needs Java 22 or later"), e.getMessage());
    }
}

package io.tlsadmit.tomcat;

import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.apache.tomcat.util.net.SSLUtil;
import org.apache.tomcat.util.net.jsse.JSSEImplementation;

/**
 * Tomcat's JSSE implementation with the late gate in its key managers. {@link AdmissionNioProtocol}
 * uses it unless the connector names another {@code sslImplementationName}.
 */
public class GatedJsseImplementation extends JSSEImplementation implements LateGatedImplementation {

    @Override
    public SSLUtil getSSLUtil(SSLHostConfigCertificate certificate) {
        return new GatedJsseUtil(certificate);
    }

    /** The key manager is called with the engine: {@code LateGate.of(engine)}, whatever thread runs the task. */
    @Override
    public boolean findsConnectionByThread() {
        return false;
    }
}

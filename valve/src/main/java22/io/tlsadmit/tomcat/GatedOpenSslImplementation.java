package io.tlsadmit.tomcat;

import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLSession;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.apache.tomcat.util.net.SSLImplementation;
import org.apache.tomcat.util.net.SSLSupport;
import org.apache.tomcat.util.net.SSLUtil;

/**
 * Tomcat's OpenSSL implementation (through FFM, {@code tomcat-coyote-ffm.jar}, Java 22 and later) with the late gate:
 * every {@code SSL_CTX} it makes gets a certificate callback ({@link OpenSslCertificateCallback}), which OpenSSL calls
 * only when a handshake will be a full one. Name it as the gated connector's {@code sslImplementationName}.
 *
 * <p>Tomcat's implementation is used as it is, by delegation: this class needs none of its types at compile time,
 * only the public {@code SSLImplementation} and {@code SSLUtil} contracts, and the public
 * {@code OpenSSLContext.getSSLContext()} that hands out the native context.
 */
public class GatedOpenSslImplementation extends SSLImplementation implements LateGatedImplementation {

    static final String TOMCAT_OPENSSL = "org.apache.tomcat.util.net.openssl.panama.OpenSSLImplementation";

    private final SSLImplementation tomcat;

    public GatedOpenSslImplementation() {
        try {
            tomcat = SSLImplementation.getInstance(TOMCAT_OPENSSL);
        } catch (ClassNotFoundException | RuntimeException | LinkageError e) {
            throw new IllegalStateException("sslImplementationName=" + GatedOpenSslImplementation.class.getName()
                    + " needs Tomcat's OpenSSL implementation " + TOMCAT_OPENSSL + " (lib/tomcat-coyote-ffm.jar)", e);
        }
    }

    @Override
    public SSLSupport getSSLSupport(SSLSession session, Map<String, List<String>> additionalAttributes) {
        return tomcat.getSSLSupport(session, additionalAttributes);
    }

    @Override
    public SSLUtil getSSLUtil(SSLHostConfigCertificate certificate) {
        return new GatedOpenSslUtil(tomcat.getSSLUtil(certificate));
    }

    @Override
    public boolean findsConnectionByThread() {
        return true;
    }
}

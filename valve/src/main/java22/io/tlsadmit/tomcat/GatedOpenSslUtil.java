package io.tlsadmit.tomcat;

import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.TrustManager;
import org.apache.tomcat.util.net.SSLContext;
import org.apache.tomcat.util.net.SSLUtil;

/** Tomcat's OpenSSL {@code SSLUtil}, whose contexts get the late gate's certificate callback once made. */
final class GatedOpenSslUtil implements SSLUtil {

    private final SSLUtil tomcat;

    GatedOpenSslUtil(SSLUtil tomcat) {
        this.tomcat = tomcat;
    }

    /** Made and initialised by Tomcat (certificate, ciphers, ALPN); no engine exists yet. */
    @Override
    public SSLContext createSSLContext(List<String> negotiableProtocols) throws Exception {
        SSLContext context = tomcat.createSSLContext(negotiableProtocols);
        try {
            OpenSslCertificateCallback.install(context);
        } catch (RuntimeException e) {
            context.destroy();
            throw e;
        }
        return context;
    }

    @Override
    public KeyManager[] getKeyManagers() throws Exception {
        return tomcat.getKeyManagers();
    }

    @Override
    public TrustManager[] getTrustManagers() throws Exception {
        return tomcat.getTrustManagers();
    }

    @Override
    public void configureSessionContext(SSLSessionContext sslSessionContext) {
        tomcat.configureSessionContext(sslSessionContext);
    }

    @Override
    public String[] getEnabledProtocols() throws IllegalArgumentException {
        return tomcat.getEnabledProtocols();
    }

    @Override
    public String[] getEnabledCiphers() throws IllegalArgumentException {
        return tomcat.getEnabledCiphers();
    }
}

package io.tlsadmit.tomcat;

import io.tlsadmit.gate.LateGateKeyManager;
import javax.net.ssl.KeyManager;
import javax.net.ssl.X509ExtendedKeyManager;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.apache.tomcat.util.net.jsse.JSSEUtil;

/** Builds Tomcat's JSSE contexts with every server key manager wrapped by {@link LateGateKeyManager}. */
final class GatedJsseUtil extends JSSEUtil {

    GatedJsseUtil(SSLHostConfigCertificate certificate) {
        super(certificate);
    }

    @Override
    public KeyManager[] getKeyManagers() throws Exception {
        KeyManager[] managers = super.getKeyManagers();
        if (managers == null) {
            return null;
        }
        for (int i = 0; i < managers.length; i++) {
            if (managers[i] instanceof X509ExtendedKeyManager manager) {
                managers[i] = new LateGateKeyManager(manager);
            }
        }
        return managers;
    }
}

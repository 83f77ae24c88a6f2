package io.tlsadmit.tomcat;

import io.tlsadmit.classifier.ServerPolicy;
import io.tlsadmit.classifier.TlsVersion;
import io.tlsadmit.gate.ConnectorGate;
import java.util.Arrays;
import javax.net.ssl.SSLSessionContext;
import org.apache.tomcat.util.net.NioChannel;
import org.apache.tomcat.util.net.NioEndpoint;
import org.apache.tomcat.util.net.SSLContext;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.apache.tomcat.util.net.SocketBufferHandler;
import org.apache.tomcat.util.net.jsse.JSSEImplementation;

/** Tomcat's NIO endpoint with gated TLS channels. */
public class AdmissionNioEndpoint extends NioEndpoint {

    /** Record headers can add up to a few times the hello itself when a client fragments it finely. */
    private static final int HELLO_BUFFER_FACTOR = 4;

    private volatile ConnectorGate gate;
    private volatile int maxHelloBuffer = HELLO_BUFFER_FACTOR * (ServerPolicy.DEFAULT.maxHelloLength() + 9);

    void gate(ConnectorGate gate) {
        this.gate = gate;
    }

    ConnectorGate gate() {
        return gate;
    }

    @Override
    protected NioChannel createChannel(SocketBufferHandler buffer) {
        ConnectorGate current = gate;
        if (isSSLEnabled() && current != null) {
            return new AdmissionChannel(buffer, this, current);
        }
        return super.createChannel(buffer);
    }

    @Override
    public void bind() throws Exception {
        super.bind();
        // The TLS contexts exist now: the highest enabled version decides how hellos are classified.
        ConnectorGate current = gate;
        if (current != null && isSSLEnabled()) {
            ServerPolicy policy = new ServerPolicy(serverMaxVersion(), ServerPolicy.DEFAULT.maxHelloLength());
            current.serverPolicy(policy);
            maxHelloBuffer = HELLO_BUFFER_FACTOR * (policy.maxHelloLength() + 9);
        }
    }

    private int serverMaxVersion() {
        for (SSLHostConfig config : findSslHostConfigs()) {
            String[] enabled = config.getEnabledProtocols();
            if (enabled != null && Arrays.asList(enabled).contains("TLSv1.3")) {
                return TlsVersion.TLS1_3;
            }
        }
        return TlsVersion.TLS1_2;
    }

    int maxHelloBuffer() {
        return maxHelloBuffer;
    }

    /** JSSE answers session-id lookups; Tomcat's OpenSSL session context always says "not cached". */
    boolean canVerifySessionIds() {
        return getSslImplementation() instanceof JSSEImplementation;
    }

    /** Whether a TLS 1.2 session id is in the server session cache of the host the client named. */
    boolean isSessionCached(String sniHostName, byte[] sessionId, int length) {
        if (length <= 0) {
            return false;
        }
        byte[] id = length == sessionId.length ? sessionId : Arrays.copyOf(sessionId, length);
        SSLHostConfig config = getSSLHostConfig(sniHostName);
        for (SSLHostConfigCertificate certificate : config.getCertificates()) {
            SSLContext context = certificate.getSslContext();
            SSLSessionContext sessions = context == null ? null : context.getServerSessionContext();
            if (sessions != null && sessions.getSession(id) != null) {
                return true;
            }
        }
        return false;
    }
}

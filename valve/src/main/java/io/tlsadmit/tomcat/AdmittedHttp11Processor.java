package io.tlsadmit.tomcat;

import jakarta.servlet.ServletConnection;
import org.apache.coyote.Adapter;
import org.apache.coyote.http11.AbstractHttp11Protocol;
import org.apache.coyote.http11.Http11Processor;
import org.apache.tomcat.util.net.SocketWrapperBase;

/**
 * Tomcat's HTTP/1.1 processor, whose {@link ServletConnection} also tells how the connection was admitted.
 * The valve finds the verdict there for every request. The other way to it, the
 * {@code jakarta.servlet.request.ssl_session_mgr} attribute, makes Tomcat compute every TLS request attribute
 * (the requested ciphers and protocols joined into strings, the session id in hex, the peer and key size) on
 * every request, which stock Tomcat does only for an application that asks: about 25 µs per request on a
 * loaded CPU, a third of what the gate cost per resumed connection (docs/benchmarks.md, section 7).
 */
final class AdmittedHttp11Processor extends Http11Processor {

    AdmittedHttp11Processor(AbstractHttp11Protocol<?> protocol, Adapter adapter) {
        super(protocol, adapter);
    }

    @Override
    protected ServletConnection getServletConnection() {
        ServletConnection connection = super.getServletConnection();
        SocketWrapperBase<?> wrapper = getSocketWrapper();
        if (connection != null && wrapper != null && wrapper.getSocket() instanceof AdmissionChannel channel) {
            return new Admitted(connection, channel.verdictName(), channel.handshakeName(), channel.isWarmUp());
        }
        return connection;
    }

    /** Tomcat's connection, plus the gate's verdict and truth. */
    private record Admitted(ServletConnection connection, String verdict, String handshake, boolean warmUp)
            implements ServletConnection, AdmittedConnection {

        @Override
        public String getConnectionId() {
            return connection.getConnectionId();
        }

        @Override
        public String getProtocol() {
            return connection.getProtocol();
        }

        @Override
        public String getProtocolConnectionId() {
            return connection.getProtocolConnectionId();
        }

        @Override
        public boolean isSecure() {
            return connection.isSecure();
        }
    }
}

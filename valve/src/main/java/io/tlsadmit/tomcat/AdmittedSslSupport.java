package io.tlsadmit.tomcat;

import java.io.IOException;
import java.security.cert.X509Certificate;
import org.apache.tomcat.util.net.SSLSessionManager;
import org.apache.tomcat.util.net.SSLSupport;

/** The engine's own {@link SSLSupport}, plus the gate's verdict and truth for this connection. */
final class AdmittedSslSupport implements SSLSupport, SSLSessionManager, AdmittedConnection {

    private final SSLSupport delegate;
    private final String verdict;
    private final String handshake;
    private final boolean warmUp;

    AdmittedSslSupport(SSLSupport delegate, String verdict, String handshake, boolean warmUp) {
        this.delegate = delegate;
        this.verdict = verdict;
        this.warmUp = warmUp;
        this.handshake = handshake;
    }

    @Override
    public String verdict() {
        return verdict;
    }

    @Override
    public String handshake() {
        return handshake;
    }

    @Override
    public boolean warmUp() {
        return warmUp;
    }

    @Override
    public void invalidateSession() {
        if (delegate instanceof SSLSessionManager manager) {
            manager.invalidateSession();
        }
    }

    @Override
    public String getCipherSuite() throws IOException {
        return delegate.getCipherSuite();
    }

    @Override
    public X509Certificate[] getPeerCertificateChain() throws IOException {
        return delegate.getPeerCertificateChain();
    }

    @Override
    public X509Certificate[] getLocalCertificateChain() {
        return delegate.getLocalCertificateChain();
    }

    @Override
    public Integer getKeySize() throws IOException {
        return delegate.getKeySize();
    }

    @Override
    public String getSessionId() throws IOException {
        return delegate.getSessionId();
    }

    @Override
    public String getProtocol() throws IOException {
        return delegate.getProtocol();
    }

    @Override
    public String getRequestedProtocols() throws IOException {
        return delegate.getRequestedProtocols();
    }

    @Override
    public String getRequestedCiphers() throws IOException {
        return delegate.getRequestedCiphers();
    }
}

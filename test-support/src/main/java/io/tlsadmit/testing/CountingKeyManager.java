package io.tlsadmit.testing;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * A server key manager that counts the certificates a TLS engine chose through {@code chooseEngineServerAlias}:
 * with JSSE exactly its full handshakes (a resumption never asks), which is what tests of the late gate, the
 * warm-up and the engines' behaviour need to know. Everything else is the delegate's.
 */
public final class CountingKeyManager extends X509ExtendedKeyManager {

    private final AtomicInteger calls = new AtomicInteger();
    private final X509ExtendedKeyManager delegate;

    public CountingKeyManager(X509ExtendedKeyManager delegate) {
        this.delegate = delegate;
    }

    /** Certificates chosen so far (engines ask per key type until one has a key: only the answered call counts). */
    public int calls() {
        return calls.get();
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        String alias = delegate.chooseEngineServerAlias(keyType, issuers, engine);
        if (alias != null) {
            calls.incrementAndGet();
        }
        return alias;
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return delegate.chooseServerAlias(keyType, issuers, socket);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return delegate.getServerAliases(keyType, issuers);
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return delegate.getClientAliases(keyType, issuers);
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return delegate.chooseClientAlias(keyType, issuers, socket);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return delegate.getCertificateChain(alias);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return delegate.getPrivateKey(alias);
    }
}

package io.tlsadmit.gate;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The late gate. JSSE asks the key manager for a certificate exactly when it has committed to a full
 * handshake and before it signs anything; a resumption never asks. So a connection that the
 * ClientHello made look like a resumption (a ticket or PSK that turns out stale, foreign or forged)
 * is charged to the budget here, and refused (no certificate: the handshake fails with an alert)
 * when the budget is empty. The same holds for a TLS 1.2 renegotiation that needs a certificate. The
 * connection is found by the engine the call names ({@link LateGate}), whatever thread runs it.
 *
 * <p>JDK 25 also asks while it decodes a stateless session ticket, to restore the local certificate
 * the smaller tickets no longer carry (JDK-8357033). That is not a full handshake and is let through;
 * it is recognised by the session being built from the ticket on the call stack.
 *
 * <p>Server-neutral: Tomcat's JSSE connectors and the Netty gate (JDK and OpenSSL engines) wrap their key
 * managers with it.
 */
public final class LateGateKeyManager extends X509ExtendedKeyManager {

    private static final String TICKET_DECODER = "sun.security.ssl.SSLSessionImpl";
    private static final StackWalker STACK = StackWalker.getInstance();

    private final X509ExtendedKeyManager delegate;

    public LateGateKeyManager(X509ExtendedKeyManager delegate) {
        this.delegate = delegate;
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        ConnectionAdmission connection = LateGate.of(engine);
        if (connection != null && !connection.isFullHandshakeCharged()
                && (connection.isRefusedLate() || !decodingStatelessTicket())
                && !connection.gate().chargeFullHandshake(connection, System.nanoTime())) {
            return null;
        }
        return delegate.chooseEngineServerAlias(keyType, issuers, engine);
    }

    private static boolean decodingStatelessTicket() {
        return STACK.walk(frames -> frames.anyMatch(f -> f.getClassName().equals(TICKET_DECODER)));
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
    public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
        return delegate.chooseEngineClientAlias(keyType, issuers, engine);
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

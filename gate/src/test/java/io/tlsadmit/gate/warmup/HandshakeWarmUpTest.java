package io.tlsadmit.gate.warmup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.testing.TestKeystore;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link HandshakeWarmUp} against real JSSE server engines with a real key. */
class HandshakeWarmUpTest {

    @TempDir
    static Path keys;

    private static SSLContext server;
    private static final AtomicInteger certificateRequests = new AtomicInteger();

    @BeforeAll
    static void serverContext() throws Exception {
        TestKeystore keystore = TestKeystore.create(keys);
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore.path())) {
            store.load(in, keystore.password().toCharArray());
        }
        KeyManagerFactory factory = KeyManagerFactory.getInstance("SunX509");
        factory.init(store, keystore.password().toCharArray());
        X509ExtendedKeyManager counting = new Counting((X509ExtendedKeyManager) factory.getKeyManagers()[0]);
        server = SSLContext.getInstance("TLS");
        server.init(new KeyManager[] {counting}, null, null);
    }

    private static Supplier<SSLEngine> engines(String... protocols) {
        return () -> {
            SSLEngine engine = server.createSSLEngine();
            engine.setEnabledProtocols(protocols);
            return engine;
        };
    }

    @Test
    void runsTheFullHandshakesItWasAskedFor() {
        for (String protocol : new String[] {"TLSv1.3", "TLSv1.2"}) {
            int before = certificateRequests.get();
            HandshakeWarmUp.Result result = HandshakeWarmUp.run(engines(protocol), 6, Duration.ofMinutes(1));
            assertEquals(6, result.handshakes(), protocol + ": " + result);
            // The server's key manager is asked once per full handshake, never for a resumption.
            assertEquals(6, certificateRequests.get() - before, protocol);
            assertTrue(result.firstCpuNanos() > 0 && result.lastCpuNanos() > 0, result.toString());
        }
    }

    @Test
    void stopsAtItsTimeLimit() {
        HandshakeWarmUp.Result result = HandshakeWarmUp.run(engines("TLSv1.3"), 1_000_000, Duration.ofMillis(300));
        assertTrue(result.handshakes() >= 1 && result.handshakes() < 1_000_000, result.toString());
        assertTrue(result.wallNanos() < Duration.ofSeconds(10).toNanos(), result.toString());
    }

    @Test
    void aServerThatCannotHandshakeEndsTheWarmUpWithoutFailingTheStart() throws Exception {
        SSLContext keyless = SSLContext.getInstance("TLS");
        keyless.init(null, null, null);
        HandshakeWarmUp.Result result = HandshakeWarmUp.run(keyless::createSSLEngine, 5, Duration.ofSeconds(10));
        assertEquals(0, result.handshakes());
    }

    /** Counts certificate requests: exactly the server's full handshakes. */
    private static final class Counting extends X509ExtendedKeyManager {
        private final X509ExtendedKeyManager delegate;

        Counting(X509ExtendedKeyManager delegate) {
            this.delegate = delegate;
        }

        @Override
        public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
            String alias = delegate.chooseEngineServerAlias(keyType, issuers, engine);
            if (alias != null) {
                certificateRequests.incrementAndGet();
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
}

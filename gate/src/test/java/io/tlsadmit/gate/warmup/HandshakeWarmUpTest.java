package io.tlsadmit.gate.warmup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.testing.CountingKeyManager;
import io.tlsadmit.testing.TestKeystore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Supplier;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link HandshakeWarmUp} against real JSSE server engines with a real key. */
class HandshakeWarmUpTest {

    @TempDir
    static Path keys;

    private static SSLContext server;
    private static CountingKeyManager counting;

    @BeforeAll
    static void serverContext() throws Exception {
        counting = new CountingKeyManager(TestKeystore.create(keys).keyManager());
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
            int before = counting.calls();
            HandshakeWarmUp.Result result = HandshakeWarmUp.run(engines(protocol), 6, Duration.ofMinutes(1));
            assertEquals(6, result.handshakes(), protocol + ": " + result);
            // The server's key manager is asked once per full handshake, never for a resumption.
            assertEquals(6, counting.calls() - before, protocol);
            assertTrue(result.firstCpuNanos() > 0 && result.lastCpuNanos() > 0, result.toString());
            // The server's side alone, once warm: part of what both sides cost (the client verifies, the server signs).
            assertTrue(result.serverCpuNanos() > 0 && result.serverCpuNanos() < result.firstCpuNanos(), result.toString());
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
        assertEquals(0, result.serverCpuNanos(), "nothing measured: the budget keeps its configured estimate");
    }
}

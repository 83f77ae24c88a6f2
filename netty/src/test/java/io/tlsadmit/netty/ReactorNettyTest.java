package io.tlsadmit.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.tlsadmit.admission.HandshakeKind;
import io.tlsadmit.classifier.TlsVersion;
import io.tlsadmit.classifier.Verdict;
import io.tlsadmit.gate.BudgetType;
import io.tlsadmit.gate.Decision;
import io.tlsadmit.gate.GateConfig;
import io.tlsadmit.gate.GateCounters;
import io.tlsadmit.testing.JdkHttpsGet;
import io.tlsadmit.testing.TestKeystore;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

/**
 * The gate in a real Reactor Netty {@code HttpServer}, wired as netty/README.md shows it: {@code secure(...)} with the
 * gate's key manager in the {@code SslContext}, and the gate's handler added before Reactor's {@code SslHandler} in
 * {@code doOnChannelInit}. One token, spent by the JDK client's first connection: its TLS 1.3 resumption is admitted
 * and served on the empty budget, a new client is refused before the handshake.
 */
class ReactorNettyTest {

    @TempDir
    static Path dir;

    @ParameterizedTest
    @EnumSource(value = SslProvider.class, names = {"JDK", "OPENSSL"})
    void theGateBeforeReactorsSslHandlerAdmitsAResumptionAndRefusesANewClient(SslProvider engine) throws Exception {
        TestKeystore keystore = TestKeystore.create(dir);
        GateConfig config = GateConfig.builder().budget(BudgetType.STATIC).maxFullHandshakesPerSecond(0.001)
                .fullHandshakeBurst(1).connectionsPerNewUser(1).build();
        try (NettyGate gate = NettyGate.start("reactor", config)) {
            SslContext tls = SslContextBuilder.forServer(gate.keyManager(keystore.keyManager()))
                    .sslProvider(engine).protocols("TLSv1.3").build();
            gate.sessionCache(tls);
            DisposableServer server = HttpServer.create()
                    .bindAddress(() -> new InetSocketAddress("127.0.0.1", 0))
                    .secure(spec -> spec.sslContext(tls))
                    .doOnChannelInit((observer, channel, remote) ->
                            channel.pipeline().addBefore(NettyPipeline.SslHandler, "tlsadmit", gate.newHandler()))
                    .handle((request, response) -> response.sendString(Mono.just("served by Reactor Netty")))
                    .bindNow();
            try {
                SSLContext client = keystore.clientContext("TLSv1.3");
                for (int i = 0; i < 2; i++) {
                    String answer = JdkHttpsGet.get(client, server.port(), "/");
                    assertTrue(answer.startsWith("HTTP/1.1 200 OK") && answer.endsWith("served by Reactor Netty"), answer);
                }
                assertThrows(IOException.class, () -> JdkHttpsGet.get(keystore.clientContext("TLSv1.3"), server.port(), "/"));
            } finally {
                server.disposeNow();
            }
            GateCounters counters = gate.gate().counters();
            assertEquals(1, counters.connections(Verdict.NEW, Decision.ADMITTED));
            assertEquals(1, counters.connections(Verdict.RESUME_PSK, Decision.ADMITTED));
            assertEquals(1, counters.connections(Verdict.NEW, Decision.REFUSED));
            assertEquals(1, counters.handshakes(HandshakeKind.FULL, TlsVersion.TLS1_3));
            assertEquals(1, counters.handshakes(HandshakeKind.RESUMED, TlsVersion.TLS1_3));
        }
    }
}

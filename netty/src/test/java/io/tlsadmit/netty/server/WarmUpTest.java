package io.tlsadmit.netty.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.tlsadmit.admission.HandshakeKind;
import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.gate.GateConfig;
import io.tlsadmit.gate.warmup.HandshakeWarmUp;
import io.tlsadmit.netty.NettyGate;
import io.tlsadmit.netty.server.GatedHttpsServer.Engine;
import io.tlsadmit.testing.TestKeystore;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The warm-up on both engines, through the late gate's key manager: counted nowhere, and the budget starts from it. */
class WarmUpTest {

    @TempDir
    static Path dir;

    @ParameterizedTest
    @EnumSource(Engine.class)
    void theAdaptiveBudgetStartsFromTheCostTheWarmUpMeasured(Engine engine) throws Exception {
        TestKeystore keystore = TestKeystore.create(dir);
        try (NettyGate gate = NettyGate.start("warm-" + engine, GateConfig.defaults())) {
            SslContext tls = GatedHttpsServer.sslContext(SslContextBuilder.forServer(gate.keyManager(keystore.keyManager())), engine);
            HandshakeWarmUp.Result result = gate.warmUp(tls, 8);
            assertEquals(8, result.handshakes(), result.toString());
            assertTrue(result.serverCpuNanos() > 0, result.toString());
            AdmissionController budget = gate.gate().budget().view(AdmissionController.class).orElseThrow();
            assertEquals(result.serverCpuNanos(), budget.fullHandshakeCostAtStartNanos());
            assertEquals(0, gate.gate().counters().handshakes(HandshakeKind.FULL), "the warm-up is not a client");
            assertEquals(0, budget.cost().count(HandshakeKind.FULL), "nor a measured handshake");
        }
    }
}

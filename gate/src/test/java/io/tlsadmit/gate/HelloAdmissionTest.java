package io.tlsadmit.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.admission.StaticBudget;
import io.tlsadmit.classifier.ClientHello;
import io.tlsadmit.classifier.ServerPolicy;
import io.tlsadmit.classifier.TlsVersion;
import io.tlsadmit.classifier.Verdict;
import io.tlsadmit.gate.HelloAdmission.Refusal;
import io.tlsadmit.gate.HelloAdmission.Step;
import io.tlsadmit.gate.source.SourcePrefix;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A connection's first bytes fed to the machine as a server adapter would, with recorded ClientHellos. */
class HelloAdmissionTest {

    private static final long TIMEOUT_NANOS = 5_000_000_000L;

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final StaticBudget budget = new StaticBudget(0, 0, clock::get);
    private final ConnectorGate gate = new ConnectorGate("test", budget, RefuseAction.CLOSE);
    private final ConnectionAdmission connection = new ConnectionAdmission(gate);
    private final ClientHello scratch = new ClientHello();
    private int maxBuffer = 1 << 16;
    private boolean sessionCached = true;
    private final HelloAdmission machine = new HelloAdmission(connection, new HelloAdmission.Server() {
        @Override
        public int maxHelloBuffer() {
            return maxBuffer;
        }

        @Override
        public long helloTimeoutNanos() {
            return TIMEOUT_NANOS;
        }

        @Override
        public boolean isLateGated() {
            return true;
        }

        @Override
        public boolean canVerifySessionIds() {
            return true;
        }

        @Override
        public boolean isSessionCached(String sniHostName, byte[] sessionId, int length) {
            return sessionCached && length == 32;
        }
    });

    HelloAdmissionTest() {
        connection.reset(clock.get(), SourcePrefix.UNKNOWN, SourcePrefix.UNKNOWN);
        machine.reset();
    }

    private static byte[] hello(String name) {
        try {
            return Files.readAllBytes(Path.of(System.getProperty("tlsadmit.root", "../"), "testdata/clienthello", name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first {@code length} bytes of {@code hello} received into a buffer of {@code capacity}, in read mode. */
    private static ByteBuffer received(byte[] hello, int length, int capacity) {
        ByteBuffer buffer = ByteBuffer.allocate(capacity);
        buffer.put(hello, 0, length).flip();
        return buffer;
    }

    private Step feed(ByteBuffer received) {
        return machine.onBytes(received, false, clock.get(), scratch);
    }

    @Test
    void waitsForTheWholeHelloThenChargesANewHandshake() {
        budget.setBurst(1);
        budget.setFullHandshakesPerSecond(1);
        clock.addAndGet(1_000_000_000L);
        byte[] hello = hello("curl-server13-1-new.bin");
        ByteBuffer part = received(hello, 100, 4096);
        assertEquals(Step.WAIT, feed(part));
        assertEquals(0, part.position(), "the buffer is the adapter's: position untouched");
        assertEquals(100, part.limit());
        assertFalse(connection.isDecided());
        assertEquals(Step.ADMIT, feed(received(hello, hello.length, 4096)));
        assertEquals(Verdict.NEW, connection.verdict());
        assertTrue(connection.isFullHandshakeCharged());
    }

    @Test
    void refusesANewHandshakeOverBudgetAndSaysItDecided() {
        byte[] hello = hello("curl-server13-1-new.bin");
        assertEquals(Step.REFUSE, feed(received(hello, hello.length, 4096)));
        assertEquals(Refusal.DECIDED, machine.refusal());
        assertEquals(Decision.REFUSED, connection.decision());
        assertEquals(Verdict.NEW, connection.verdict());
    }

    @Test
    void admitsAResumptionWithAnEmptyBudget() {
        byte[] hello = hello("curl-server13-2-resumed.bin");
        assertEquals(Step.ADMIT, feed(received(hello, hello.length, 4096)));
        assertTrue(connection.verdict().isResumption());
        assertFalse(connection.isFullHandshakeCharged());
    }

    @Test
    void asksToGrowAFullBufferUpToTheLimitThenRefusesTheHelloAsMalformed() {
        maxBuffer = 256;
        byte[] hello = hello("curl-server13-1-new.bin");
        assertEquals(Step.GROW, feed(received(hello, 100, 100)));
        assertEquals(200, machine.capacityWanted());
        assertEquals(Step.GROW, feed(received(hello, 200, 200)));
        assertEquals(256, machine.capacityWanted(), "never past the limit");
        assertEquals(Step.REFUSE, feed(received(hello, 256, 256)));
        assertEquals(Refusal.DECIDED, machine.refusal());
        assertEquals(Verdict.MALFORMED, connection.verdict());
    }

    @Test
    void aClientThatLeavesOrIsTooSlowIsClosedUndecided() {
        byte[] hello = hello("curl-server13-1-new.bin");
        assertEquals(Step.REFUSE, machine.onBytes(received(hello, 10, 4096), true, clock.get(), scratch));
        assertEquals(Refusal.CLIENT_LEFT, machine.refusal());
        assertFalse(connection.isDecided(), "counted when the adapter closes the connection");

        machine.reset();
        assertNull(machine.refusal());
        assertEquals(Step.WAIT, machine.onBytes(received(hello, 10, 4096), false, clock.get() + TIMEOUT_NANOS, scratch));
        assertEquals(Step.REFUSE, machine.onBytes(received(hello, 10, 4096), false, clock.get() + TIMEOUT_NANOS + 1, scratch));
        assertEquals(Refusal.HELLO_TIMEOUT, machine.refusal());
    }

    @Test
    void observingLeavesASlowClientToTheServersOwnTimeout() {
        gate.mode(GateMode.OBSERVE);
        byte[] hello = hello("curl-server13-1-new.bin");
        assertEquals(Step.WAIT, machine.onBytes(received(hello, 10, 4096), false, clock.get() + 2 * TIMEOUT_NANOS, scratch));
    }

    @Test
    void aSessionIdTheServerDoesNotHoldIsANewHandshake() {
        gate.serverPolicy(new ServerPolicy(TlsVersion.TLS1_2, 16384));
        byte[] hello = hello("openssl_noticket-server12-2-resumed.bin");
        assertEquals(Step.ADMIT, feed(received(hello, hello.length, 4096)));
        assertEquals(Verdict.RESUME_SESSION_ID, connection.verdict());
        assertTrue(connection.timesHandshakeCpu(), "the connector's first resumption is timed");

        connection.reset(clock.get(), SourcePrefix.UNKNOWN, SourcePrefix.UNKNOWN);
        machine.reset();
        assertEquals(Step.ADMIT, feed(received(hello, hello.length, 4096)));
        assertFalse(connection.timesHandshakeCpu(),
                "the second is not, and that is known at the hello: the cache holds its session");

        connection.reset(clock.get(), SourcePrefix.UNKNOWN, SourcePrefix.UNKNOWN);
        machine.reset();
        sessionCached = false;
        assertEquals(Step.REFUSE, feed(received(hello, hello.length, 4096)));
        assertEquals(Verdict.NEW, connection.verdict(), "refused as new: the budget is empty");
    }
}

package io.tlsadmit.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tlsadmit.admission.StaticBudget;
import io.tlsadmit.classifier.ClientHello;
import io.tlsadmit.gate.source.SourcePrefix;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The state machine runs after every read of every new connection: like the classifier, it must not feed the GC. */
class HelloAdmissionAllocationTest {

    private static ByteBuffer hello(String name, int length) throws IOException {
        byte[] bytes = Files.readAllBytes(Path.of(System.getProperty("tlsadmit.root", "../"), "testdata/clienthello", name));
        ByteBuffer buffer = ByteBuffer.allocate(4096);
        buffer.put(bytes, 0, length < 0 ? bytes.length : length).flip();
        return buffer;
    }

    @Test
    void feedingHellosAllocatesNothingOnceWarm() throws IOException {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "this JVM cannot count allocations per thread");
        threads.setThreadAllocatedMemoryEnabled(true);

        ConnectorGate gate = new ConnectorGate("allocation", new StaticBudget(0, 0), RefuseAction.CLOSE);
        ConnectionAdmission connection = new ConnectionAdmission(gate);
        HelloAdmission machine = new HelloAdmission(connection, new HelloAdmission.Server() {
            @Override
            public int maxHelloBuffer() {
                return 1 << 16;
            }

            @Override
            public long helloTimeoutNanos() {
                return Long.MAX_VALUE;
            }

            @Override
            public boolean isLateGated() {
                return true;
            }

            @Override
            public boolean canVerifySessionIds() {
                return false;
            }

            @Override
            public boolean isSessionCached(String sniHostName, byte[] sessionId, int length) {
                return false;
            }
        });
        ClientHello scratch = new ClientHello();
        ByteBuffer part = hello("curl-server13-1-new.bin", 100);
        ByteBuffer fresh = hello("curl-server13-1-new.bin", -1);
        ByteBuffer resumed = hello("curl-server13-2-resumed.bin", -1);

        ByteBuffer[] inputs = {part, fresh, resumed};
        Runnable work = () -> {
            for (ByteBuffer input : inputs) {
                connection.reset(1, SourcePrefix.UNKNOWN, SourcePrefix.UNKNOWN);
                machine.reset();
                machine.onBytes(input, false, 2, scratch);
            }
        };
        for (int i = 0; i < 20_000; i++) {
            work.run();
        }
        long thread = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < 10_000; i++) {
            work.run();
        }
        long allocated = threads.getThreadAllocatedBytes(thread) - before;
        // The measurement itself may allocate a few bytes; a per-call allocation would show as 100s of KB.
        assertEquals(0, allocated / 1024, "KiB allocated by 30000 onBytes calls (wait, refuse a new one, admit a resumption)");
    }
}

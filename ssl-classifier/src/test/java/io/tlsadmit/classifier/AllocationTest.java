package io.tlsadmit.classifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** The classifier runs once per connection on the acceptor or a poller: it must not feed the GC. */
class AllocationTest {

    @Test
    void classifyingAllocatesNothingOnceWarm() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "this JVM cannot count allocations per thread");
        threads.setThreadAllocatedMemoryEnabled(true);

        ClientHelloClassifier classifier = new ClientHelloClassifier(ServerPolicy.DEFAULT);
        ClientHello hello = new ClientHello();
        ByteBuffer[] inputs = Vectors.all().stream().map(v -> ByteBuffer.wrap(v.bytes())).toArray(ByteBuffer[]::new);
        ByteBuffer fragmented = ByteBuffer.wrap(HelloBuilder.tls13().alpn("h2").pskModes().preSharedKey(1).build(3, 50, 51));
        SessionIdLookup cache = (id, length) -> id[0] == 1;

        Runnable work = () -> {
            for (ByteBuffer input : inputs) {
                classifier.classify(input, hello, cache);
            }
            classifier.classify(fragmented, hello);
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
        assertEquals(0, allocated / 1024, "KiB allocated by " + 10_000 * (inputs.length + 1) + " classify calls");
    }
}

package io.tlsadmit.peek;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.classifier.ClientHello;
import io.tlsadmit.classifier.ClientHelloClassifier;
import io.tlsadmit.classifier.ServerPolicy;
import io.tlsadmit.classifier.TlsVersion;
import io.tlsadmit.classifier.Verdict;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("native")
class NativePeekTest {

    @BeforeAll
    static void libraryLoads() {
        assertTrue(NativePeek.isAvailable(), () -> "native-peek must load in its own build: "
                + NativePeek.unavailableReason());
    }

    @Test
    void jniClassifyGivesTheJavaVerdictForEveryRecordedHelloUnderBothPolicies() {
        Set<Verdict> seen = EnumSet.noneOf(Verdict.class);
        ClientHello hello = new ClientHello();
        for (ServerPolicy policy : new ServerPolicy[] {ServerPolicy.DEFAULT,
                new ServerPolicy(TlsVersion.TLS1_2, 16384)}) {
            ClientHelloClassifier java = new ClientHelloClassifier(policy);
            for (RecordedHellos.Hello recorded : RecordedHellos.all()) {
                Verdict expected = java.classify(ByteBuffer.wrap(recorded.bytes()), hello);
                assertEquals(expected, NativePeek.classify(direct(recorded.bytes(), 0), policy), recorded.file()::toString);
                seen.add(expected);
            }
        }
        assertTrue(seen.containsAll(EnumSet.of(Verdict.NEW, Verdict.RESUME_PSK, Verdict.RESUME_TICKET,
                Verdict.RESUME_SESSION_ID)), "the recordings cover every handshake verdict: " + seen);
    }

    @Test
    void everyVerdictCrossesJniUnderItsOwnName() {
        assertEquals(Verdict.INCOMPLETE, classify(new byte[0]));
        assertEquals(Verdict.NOT_TLS, classify("GET / HTTP/1.1\r\n".getBytes()));
        assertEquals(Verdict.SSLV2, classify(new byte[] {(byte) 0x80, 0x2e, 0x01, 0x03, 0x01}));
        assertEquals(Verdict.MALFORMED, classify(new byte[] {0x16, 0x03, 0x01, 0x00, 0x00}));
    }

    @Test
    void classifyReadsFromPositionToLimitAndLeavesThemAlone() {
        byte[] hello = RecordedHellos.all().get(0).bytes();
        ByteBuffer buffer = direct(hello, 7);
        Verdict verdict = NativePeek.classify(buffer, ServerPolicy.DEFAULT);
        assertEquals(new ClientHelloClassifier(ServerPolicy.DEFAULT).classify(ByteBuffer.wrap(hello), new ClientHello()),
                verdict);
        assertEquals(7, buffer.position());
        assertEquals(7 + hello.length, buffer.limit());
    }

    @Test
    void aHeapBufferIsRefusedWithAClearMessage() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NativePeek.classify(ByteBuffer.allocate(10), ServerPolicy.DEFAULT));
        assertTrue(e.getMessage().contains("direct"));
    }

    @Test
    void allowedCpusCountsAtLeastOneCpu() {
        int cpus = NativePeek.allowedCpus();
        assertTrue(cpus >= 1 && cpus <= 4096, "allowed CPUs: " + cpus);
    }

    @Test
    void allowedCpuListIsTheKernelsListForThisThread() throws Exception {
        int[] cpus = NativePeek.allowedCpuList();
        String listed = java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/thread-self/status")).stream()
                .filter(line -> line.startsWith("Cpus_allowed_list:")).findFirst().orElseThrow()
                .substring("Cpus_allowed_list:".length()).trim();
        java.util.List<Integer> expected = new java.util.ArrayList<>();
        for (String range : listed.split(",")) {
            String[] ends = range.split("-");
            for (int cpu = Integer.parseInt(ends[0]); cpu <= Integer.parseInt(ends[ends.length - 1]); cpu++) {
                expected.add(cpu);
            }
        }
        assertEquals(expected, java.util.Arrays.stream(cpus).boxed().toList(), "Cpus_allowed_list: " + listed);
        assertEquals(NativePeek.allowedCpus(), cpus.length);
    }

    @Test
    void threadCpuNanosIsTheSchedulersRunTimeOfTheThreadNamed() throws Exception {
        java.nio.file.Path self = java.nio.file.Path.of("/proc/thread-self");
        // "<pid>/task/<tid>": this thread's task id, which Java 17 does not otherwise give
        int tid = Integer.parseInt(java.nio.file.Files.readSymbolicLink(self).getFileName().toString());
        long spin = 0;
        for (int round = 0; round < 5; round++) {
            for (long end = System.nanoTime() + 2_000_000; System.nanoTime() < end; ) {
                spin += spin * 31 + 7;
            }
            long before = runNanos(self);
            long native_ = NativePeek.threadCpuNanos(tid);
            long after = runNanos(self);
            assertTrue(before > 0 && before <= native_ && native_ <= after,
                    "schedstat " + before + " ≤ clock " + native_ + " ≤ schedstat " + after + " (" + spin + ")");
        }
    }

    @Test
    void threadCpuNanosReadsAnotherThreadOfThisProcessAndNoOtherProcesssThread() throws Exception {
        java.nio.file.Path tasks = java.nio.file.Path.of("/proc/self/task");
        int other = -1;
        try (var listed = java.nio.file.Files.list(tasks)) {
            String self = java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/thread-self"))
                    .getFileName().toString();
            for (java.nio.file.Path task : listed.toList()) {
                if (!task.getFileName().toString().equals(self) && runNanos(task) > 0) {
                    other = Integer.parseInt(task.getFileName().toString());
                    break;
                }
            }
        }
        assertTrue(other > 0, "another thread of this JVM that has run");
        long before = runNanos(tasks.resolve(Integer.toString(other)));
        long read = NativePeek.threadCpuNanos(other);
        assertTrue(read >= before, "thread " + other + ": clock " + read + " < schedstat " + before);

        // pid 1 is another process's thread (this JVM is never init); 0 and negative ids are no thread at all
        assertEquals(-1, NativePeek.threadCpuNanos(1));
        assertEquals(-1, NativePeek.threadCpuNanos(0));
        assertEquals(-1, NativePeek.threadCpuNanos(-5));
    }

    /** The first field of a task's {@code schedstat}: its run time in nanoseconds. */
    private static long runNanos(java.nio.file.Path task) throws java.io.IOException {
        String text = java.nio.file.Files.readString(task.resolve("schedstat"));
        return Long.parseLong(text.substring(0, text.indexOf(' ')));
    }

    @Test
    void deferAcceptWorksOnABoundServerSocketAndRefusesAClosedOne() throws Exception {
        ServerSocketChannel server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        NativePeek.deferAccept(server, 2);
        server.close();
        assertThrows(ClosedChannelException.class, () -> NativePeek.deferAccept(server, 2));
    }

    @Test
    void peekingAtAClosedChannelIsAClosedChannelError() throws Exception {
        SocketChannel channel = SocketChannel.open();
        channel.close();
        assertThrows(ClosedChannelException.class, () -> NativePeek.peek(channel, ByteBuffer.allocateDirect(64),
                ServerPolicy.DEFAULT, 10));
    }

    private static Verdict classify(byte[] bytes) {
        return NativePeek.classify(direct(bytes, 0), ServerPolicy.DEFAULT);
    }

    private static ByteBuffer direct(byte[] bytes, int offset) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(offset + bytes.length);
        buffer.position(offset);
        buffer.put(bytes);
        buffer.position(offset);
        return buffer;
    }
}

package io.tlsadmit.peek;

import io.tlsadmit.classifier.ClientHello;
import io.tlsadmit.classifier.ClientHelloClassifier;
import io.tlsadmit.classifier.ServerPolicy;
import io.tlsadmit.classifier.Verdict;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Per-connection cost of classifying a real client's hello three ways:
 * {@code javaClassify} (ssl-classifier on a direct buffer, bytes already read), {@code nativeClassify} (the C
 * classifier through JNI on the same buffer), and {@code nativePeek} (JNI + {@code recv(MSG_PEEK)} on a loopback
 * socket whose receive queue holds the hello + the C classifier: the whole cost at accept time).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PeekBenchmark {

    @Param({"curl-server13-1-new", "chromium-server13-1-new", "curl-server13-2-resumed"})
    public String vector;

    private final ClientHelloClassifier classifier = new ClientHelloClassifier(ServerPolicy.DEFAULT);
    private final ClientHello hello = new ClientHello();
    private ByteBuffer direct;
    private ByteBuffer peekBuffer;
    private ServerSocketChannel server;
    private SocketChannel client;
    private SocketChannel accepted;

    @Setup(Level.Trial)
    public void connect() throws IOException {
        if (!NativePeek.isAvailable()) {
            throw new IllegalStateException(NativePeek.unavailableReason());
        }
        String root = System.getProperty("tlsadmit.root", "..");
        byte[] bytes = Files.readAllBytes(Path.of(root, "testdata/clienthello", vector + ".bin"));
        direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
        peekBuffer = ByteBuffer.allocateDirect(32 * 1024);
        server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        client = SocketChannel.open(server.getLocalAddress());
        accepted = server.accept();
        client.write(ByteBuffer.wrap(bytes));
        // The hello stays queued for the whole run: a peek never consumes it.
        if (NativePeek.peek(accepted, peekBuffer, ServerPolicy.DEFAULT, 5_000) == Verdict.INCOMPLETE) {
            throw new IllegalStateException("the hello did not arrive");
        }
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        accepted.close();
        client.close();
        server.close();
    }

    @Benchmark
    public Verdict javaClassify() {
        return classifier.classify(direct, hello);
    }

    @Benchmark
    public Verdict nativeClassify() {
        return NativePeek.classify(direct, ServerPolicy.DEFAULT);
    }

    @Benchmark
    public Verdict nativePeek() throws IOException {
        return NativePeek.peek(accepted, peekBuffer, ServerPolicy.DEFAULT, 0);
    }
}

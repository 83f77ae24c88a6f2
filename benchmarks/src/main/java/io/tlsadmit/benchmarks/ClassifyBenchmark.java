package io.tlsadmit.benchmarks;

import io.tlsadmit.classifier.ClientHello;
import io.tlsadmit.classifier.ClientHelloClassifier;
import io.tlsadmit.classifier.ServerPolicy;
import io.tlsadmit.classifier.Verdict;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of one classification of a real client's hello: what the gate adds to every connection.
 * {@code curl-server13-1-new} is curl's 517-byte hello; {@code chromium-server13-1-new} is Chromium's
 * ~2 KiB hello with an X25519MLKEM768 key share.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ClassifyBenchmark {

    @Param({"curl-server13-1-new", "chromium-server13-1-new", "curl-server13-2-resumed"})
    public String vector;

    private final ClientHelloClassifier classifier = new ClientHelloClassifier(ServerPolicy.DEFAULT);
    private final ClientHello hello = new ClientHello();
    private ByteBuffer heap;
    private ByteBuffer direct;

    @Setup
    public void load() throws IOException {
        String root = System.getProperty("tlsadmit.root", ".");
        byte[] bytes = Files.readAllBytes(Path.of(root, "testdata/clienthello", vector + ".bin"));
        heap = ByteBuffer.wrap(bytes);
        direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
    }

    @Benchmark
    public Verdict classifyHeapBuffer() {
        return classifier.classify(heap, hello);
    }

    /** Tomcat's NIO connector reads the network into direct buffers. */
    @Benchmark
    public Verdict classifyDirectBuffer() {
        return classifier.classify(direct, hello);
    }
}

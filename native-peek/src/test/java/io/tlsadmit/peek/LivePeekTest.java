package io.tlsadmit.peek;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.classifier.ClientHello;
import io.tlsadmit.classifier.ClientHelloClassifier;
import io.tlsadmit.classifier.ServerPolicy;
import io.tlsadmit.classifier.Verdict;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Peeks at real loopback connections, then hands the very same socket to a JSSE {@link SSLEngine}: the handshake
 * completing (and application data flowing) proves the peek consumed nothing.
 */
@Tag("native")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LivePeekTest {
    private static final int PEEK_TIMEOUT_MILLIS = 5_000;

    @TempDir
    static Path keys;
    private static SSLContext tls;
    private static ExecutorService clients;

    private ServerSocketChannel server;
    private final ByteBuffer peekBuffer = ByteBuffer.allocateDirect(32 * 1024);

    @BeforeAll
    static void selfSignedCertificate() throws Exception {
        assertTrue(NativePeek.isAvailable(), NativePeek::unavailableReason);
        Path store = keys.resolve("localhost.p12");
        char[] password = "changeit".toCharArray();
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "localhost", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=localhost", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", store.toString(), "-storepass", "changeit")
                .redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, keytool.waitFor(), output);
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        try (InputStream in = java.nio.file.Files.newInputStream(store)) {
            keyStore.load(in, password);
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keyStore, password);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(keyStore);
        tls = SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        clients = Executors.newCachedThreadPool();
    }

    @AfterAll
    static void stopClients() {
        clients.shutdownNow();
    }

    @BeforeEach
    void listen() throws IOException {
        server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    @AfterEach
    void close() throws IOException {
        server.close();
    }

    /** A client that sends 300 bytes, then reads: "fin" when the server closed in order, else what went wrong. */
    private Future<String> clientThatSendsThenWaitsForTheClose() {
        return clients.submit(() -> {
            try (SocketChannel channel = SocketChannel.open(server.getLocalAddress())) {
                channel.write(ByteBuffer.wrap(new byte[300]));
                try {
                    return channel.read(ByteBuffer.allocate(1)) < 0 ? "fin" : "data";
                } catch (IOException e) {
                    return "failed: " + e.getMessage();
                }
            }
        });
    }

    private static void awaitUnread(SocketChannel accepted, int bytes) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (accepted.socket().getInputStream().available() < bytes) {
            assertTrue(System.nanoTime() < deadline, "the client's bytes did not arrive");
            Thread.sleep(5);
        }
    }

    @Test
    void discardDropsWhatTheClientSentSoThatTheCloseIsAnOrderlyFin() throws Exception {
        Future<String> client = clientThatSendsThenWaitsForTheClose();
        try (SocketChannel accepted = server.accept()) {
            awaitUnread(accepted, 300);
            assertEquals(300, NativePeek.discard(accepted, 64 * 1024));
            assertEquals(0, NativePeek.discard(accepted, 64 * 1024), "nothing left, and no waiting for more");
        }
        assertEquals("fin", client.get(10, TimeUnit.SECONDS));
    }

    @Test
    void closingWithUnreadBytesResetsTheConnectionWhichIsWhyRefusalsDiscardThem() throws Exception {
        Future<String> client = clientThatSendsThenWaitsForTheClose();
        try (SocketChannel accepted = server.accept()) {
            awaitUnread(accepted, 300);
        }
        String seen = client.get(10, TimeUnit.SECONDS);
        assertTrue(seen.startsWith("failed: ") && seen.contains("reset"), seen);
    }

    @Test
    void aJsseHelloWrittenInThreePiecesIsClassifiedAndTheSameSocketStillHandshakes() throws Exception {
        NativePeek.deferAccept(server, 5);
        Future<String> client = clients.submit(() -> {
            try (SocketChannel channel = SocketChannel.open(server.getLocalAddress())) {
                TlsConnection connection = new TlsConnection(channel, clientEngine());
                connection.firstFlightInPieces(3, 50);
                connection.handshake();
                connection.send("ping");
                return connection.receive();
            }
        });
        try (SocketChannel accepted = server.accept()) {
            Verdict verdict = NativePeek.peek(accepted, peekBuffer, ServerPolicy.DEFAULT, PEEK_TIMEOUT_MILLIS);
            assertEquals(Verdict.NEW, verdict);
            ClientHello facts = new ClientHello();
            assertEquals(Verdict.NEW, new ClientHelloClassifier(ServerPolicy.DEFAULT).classify(peekBuffer, facts),
                    "the peeked bytes are left in the buffer for the Java classifier");
            assertEquals(facts.helloLength() + 4 + 5 * facts.records(), peekBuffer.limit(),
                    "a JSSE client sends nothing after its hello until the server answers");

            TlsConnection connection = new TlsConnection(accepted, serverEngine());
            connection.handshake();
            assertEquals("ping", connection.receive());
            connection.send("pong");
        }
        assertEquals("pong", client.get(30, TimeUnit.SECONDS));
    }

    @Test
    void aSilentClientIsIncompleteAtTheDeadlineAndCanStillHandshakeAfterwards() throws Exception {
        CountDownLatch peeked = new CountDownLatch(1);
        Future<String> client = clients.submit(() -> {
            try (SocketChannel channel = SocketChannel.open(server.getLocalAddress())) {
                peeked.await();
                TlsConnection connection = new TlsConnection(channel, clientEngine());
                connection.handshake();
                connection.send("late");
                return "done";
            }
        });
        try (SocketChannel accepted = server.accept()) {
            assertEquals(Verdict.INCOMPLETE, NativePeek.peek(accepted, peekBuffer, ServerPolicy.DEFAULT, 200));
            assertEquals(0, peekBuffer.limit());
            peeked.countDown();
            TlsConnection connection = new TlsConnection(accepted, serverEngine());
            connection.handshake();
            assertEquals("late", connection.receive());
        }
        assertEquals("done", client.get(30, TimeUnit.SECONDS));
    }

    @Test
    void plainHttpIsNotTlsAndEveryByteIsStillThereToRead() throws Exception {
        byte[] request = "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        Future<?> client = clients.submit(() -> {
            try (SocketChannel channel = SocketChannel.open(server.getLocalAddress())) {
                channel.write(ByteBuffer.wrap(request));
                channel.shutdownOutput();
                channel.read(ByteBuffer.allocate(1));
            }
            return null;
        });
        try (SocketChannel accepted = server.accept()) {
            assertEquals(Verdict.NOT_TLS, NativePeek.peek(accepted, peekBuffer, ServerPolicy.DEFAULT,
                    PEEK_TIMEOUT_MILLIS));
            ByteBuffer read = ByteBuffer.allocate(request.length);
            while (read.hasRemaining() && accepted.read(read) >= 0) {
                // the whole request, from its first byte
            }
            assertArrayEquals(request, read.array());
        }
        client.get(30, TimeUnit.SECONDS);
    }

    @Test
    void aNonBlockingChannelWaitsForTheRestOfTheHelloAllTheSame() throws Exception {
        byte[] hello = RecordedHellos.all().get(0).bytes();
        Future<?> client = clients.submit(() -> {
            try (SocketChannel channel = SocketChannel.open(server.getLocalAddress())) {
                channel.write(ByteBuffer.wrap(hello, 0, 7));
                Thread.sleep(50);
                channel.write(ByteBuffer.wrap(hello, 7, hello.length - 7));
                channel.read(ByteBuffer.allocate(1));
            }
            return null;
        });
        try (SocketChannel accepted = server.accept()) {
            accepted.configureBlocking(false);
            Verdict verdict = NativePeek.peek(accepted, peekBuffer, ServerPolicy.DEFAULT, PEEK_TIMEOUT_MILLIS);
            assertEquals(new ClientHelloClassifier(ServerPolicy.DEFAULT).classify(ByteBuffer.wrap(hello),
                    new ClientHello()), verdict);
            assertEquals(hello.length, peekBuffer.limit());
            accepted.configureBlocking(true);
            ByteBuffer read = ByteBuffer.allocate(hello.length);
            while (read.hasRemaining() && accepted.read(read) >= 0) {
                // the whole hello, from its first byte
            }
            assertArrayEquals(hello, read.array());
        }
        client.get(30, TimeUnit.SECONDS);
    }

    @Test
    void aClientThatHangsUpMidHelloIsAnEndOfStream() throws Exception {
        byte[] hello = RecordedHellos.all().get(0).bytes();
        Future<?> client = clients.submit(() -> {
            try (SocketChannel channel = SocketChannel.open(server.getLocalAddress())) {
                channel.write(ByteBuffer.wrap(hello, 0, hello.length / 2));
            }
            return null;
        });
        try (SocketChannel accepted = server.accept()) {
            EOFException e = assertThrows(EOFException.class,
                    () -> NativePeek.peek(accepted, peekBuffer, ServerPolicy.DEFAULT, PEEK_TIMEOUT_MILLIS));
            assertTrue(e.getMessage().contains(hello.length / 2 + " bytes"), e.getMessage());
            assertEquals(hello.length / 2, peekBuffer.limit());
        }
        client.get(30, TimeUnit.SECONDS);
    }

    private static SSLEngine clientEngine() {
        SSLEngine engine = tls.createSSLEngine("localhost", 443);
        engine.setUseClientMode(true);
        return engine;
    }

    private static SSLEngine serverEngine() {
        SSLEngine engine = tls.createSSLEngine();
        engine.setUseClientMode(false);
        return engine;
    }
}

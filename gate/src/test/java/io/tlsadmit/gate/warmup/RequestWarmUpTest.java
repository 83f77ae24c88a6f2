package io.tlsadmit.gate.warmup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.tlsadmit.testing.TestKeystore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@link RequestWarmUp} against the JDK's own HTTPS server on loopback, with a real key. */
class RequestWarmUpTest {

    @TempDir
    Path keys;

    @Test
    void requestsEveryPathFromAddressesTheServerCanRecogniseAndReconnectsToResume() throws Exception {
        Set<SocketAddress> clients = ConcurrentHashMap.newKeySet();
        AtomicInteger strangers = new AtomicInteger();
        AtomicInteger handled = new AtomicInteger();
        HttpsServer server = server(exchange -> {
            // what a gate does at accept: is this connection one of the warm-up's?
            if (!clients.contains(exchange.getRemoteAddress())) {
                strangers.incrementAndGet();
            }
            handled.incrementAndGet();
            byte[] body = "warm".getBytes(StandardCharsets.US_ASCII);
            switch (exchange.getRequestURI().getPath()) {
                case "/fixed" -> {
                    exchange.sendResponseHeaders(200, body.length);
                    exchange.getResponseBody().write(body);
                }
                case "/chunked" -> {
                    exchange.sendResponseHeaders(200, 0); // the JDK server then chunks
                    exchange.getResponseBody().write(body);
                    exchange.getResponseBody().write(body);
                }
                case "/moved" -> {
                    exchange.getResponseHeaders().add("Location", "/fixed");
                    exchange.sendResponseHeaders(302, -1);
                }
                default -> exchange.sendResponseHeaders(404, -1);
            }
            exchange.close();
        });
        try {
            RequestWarmUp.Result result = RequestWarmUp.run(loopback(server.getAddress().getPort()), "localhost",
                    List.of("/fixed", "/chunked", "/moved", "/missing"), 2, Duration.ofMillis(1500), clients, () -> true);
            assertEquals(0, strangers.get(), "every connection came from an address listed while it was open");
            assertEquals(Set.of(), clients, "addresses are taken off the list once closed");
            assertEquals(handled.get(), result.requests());
            assertTrue(result.requests() > 2 * RequestWarmUp.REQUESTS_PER_CONNECTION, result.toString());
            assertTrue(result.connections() > 2, "clients reconnect after " + RequestWarmUp.REQUESTS_PER_CONNECTION
                    + " requests: " + result);
            long[] statuses = result.byStatusClass();
            assertEquals(0, statuses[0] + statuses[4], result.toString());
            assertTrue(statuses[1] > 0 && statuses[2] > 0 && statuses[3] > 0, result.toString());
            assertEquals(result.requests(), statuses[1] + statuses[2] + statuses[3]);
            assertEquals(List.of("/missing"), result.pathsNeverAnswered());
            assertEquals(0, result.failures(), result.toString());
            assertTrue(result.toString().contains(" requests (2xx "), result.toString());
            // the one whole second of a 1.5 s warm-up, measured: its requests, and CPU that the server spent on them
            assertEquals(1, result.seconds().size(), result.toString());
            RequestWarmUp.Second first = result.seconds().get(0);
            assertTrue(first.requests() > 0 && first.requests() <= result.requests(), result.toString());
            assertTrue(first.cpuNanos() > 0, result.toString());
            assertTrue(result.toString().contains("; process CPU per request over each second: "), result.toString());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void theLogLineSumsTheSecondsIntoAtMostTwelveSpansWeightedByRequests() {
        List<RequestWarmUp.Second> seconds = new java.util.ArrayList<>();
        for (int i = 0; i < 25; i++) {
            // 100 requests a second; CPU per request falls 4, 3, 2, 2, 2... ms; the 25th second alone
            seconds.add(new RequestWarmUp.Second(i == 1 ? 300 : 100, i == 0 ? 400_000_000L : i == 1 ? 900_000_000L
                    : 200_000_000L));
        }
        RequestWarmUp.Result result = new RequestWarmUp.Result(2_700, new long[] {0, 2_700, 0, 0, 0}, 340, 0,
                25_200_000_000L, 1_000, 10, seconds, List.of(), null);
        // spans of 3 s: (400 + 900 + 200 ms) / 500 requests = 3.00 ms, then 2.00 ms, and the 25th second alone
        assertTrue(result.toString().endsWith("; process CPU per request over each 3 s: 3.00, 2.00, 2.00, 2.00, 2.00,"
                + " 2.00, 2.00, 2.00, 2.00 ms"), result.toString());
    }

    @Test
    void aPortThatDoesNotServeEndsTheWarmUpWithTheReasonInsteadOfSpinning() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        Set<SocketAddress> clients = ConcurrentHashMap.newKeySet();
        RequestWarmUp.Result result = RequestWarmUp.run(loopback(closed), "localhost", List.of("/"), 2,
                Duration.ofSeconds(60), clients, () -> true);
        assertEquals(0, result.requests());
        assertEquals(2L * RequestWarmUp.MAX_FAILURES_IN_A_ROW, result.failures(), "each client gave up");
        assertNotNull(result.firstFailure());
        assertTrue(result.firstFailure().startsWith("ConnectException"), result.firstFailure());
        assertEquals(List.of("/"), result.pathsNeverAnswered());
        assertEquals(Set.of(), clients);
    }

    @Test
    @Timeout(60) // the warm-up asked for is ten minutes long
    void aServerGoingAwayEndsTheWarmUpBeforeItsTime() throws Exception {
        HttpsServer server = server(exchange -> {
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        try {
            AtomicInteger asked = new AtomicInteger();
            // the server says it is stopping after the clients have asked a few times
            RequestWarmUp.Result result = RequestWarmUp.run(loopback(server.getAddress().getPort()), "localhost",
                    List.of("/"), 2, Duration.ofMinutes(10), ConcurrentHashMap.newKeySet(),
                    () -> asked.incrementAndGet() <= 6);
            assertTrue(result.connections() >= 1 && result.connections() <= 6, result.toString());
            assertEquals(0, result.failures(), result.toString());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aResponseIsReadToItsEndHoweverItIsFramed() throws IOException {
        InputStream in = stream("HTTP/1.1 100 Continue\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"
                + "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nTrailer: x\r\n\r\n"
                + "HTTP/1.1 304 Not Modified\r\nContent-Length: 99\r\n\r\n"
                + "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                + "HTTP/1.0 200 OK\r\n\r\nuntil the end");
        assertEquals(new RequestWarmUp.HttpResponse(200, false), RequestWarmUp.HttpResponse.read(in));
        assertEquals(new RequestWarmUp.HttpResponse(200, false), RequestWarmUp.HttpResponse.read(in));
        assertEquals(new RequestWarmUp.HttpResponse(304, false), RequestWarmUp.HttpResponse.read(in), "no body");
        assertEquals(new RequestWarmUp.HttpResponse(404, true), RequestWarmUp.HttpResponse.read(in));
        assertEquals(new RequestWarmUp.HttpResponse(200, true), RequestWarmUp.HttpResponse.read(in));
        assertEquals(-1, in.read(), "everything consumed");
    }

    @Test
    void aBrokenResponseIsAnIoErrorNotAHang() {
        for (String broken : new String[] {"SSH-2.0-OpenSSH_9.6\r\n", "HTTP/1.1 abc OK\r\n\r\n",
                "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: -x\r\n\r\n",
                "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabXY\r\n0\r\n\r\n", "HTTP/1.1 200 OK\r\nServer: "
                + "x".repeat(20_000) + "\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Le"}) {
            assertThrows(IOException.class, () -> RequestWarmUp.HttpResponse.read(stream(broken)), broken);
        }
    }

    private HttpsServer server(com.sun.net.httpserver.HttpHandler handler) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(new KeyManager[] {TestKeystore.create(keys).keyManager()}, null, null);
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.setHttpsConfigurator(new HttpsConfigurator(context));
        server.createContext("/", handler);
        server.start();
        return server;
    }

    private static InetSocketAddress loopback(int port) {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }

    private static InputStream stream(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.ISO_8859_1));
    }
}

package io.tlsadmit.netty.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * {@code GET http://127.0.0.1:port/tlsadmit/metrics}: the registry's Prometheus text exposition, on its own
 * plain-HTTP listener so that scraping never competes with the gated port for handshake budget. The JDK's
 * HTTP server is enough for one scrape every few seconds; it runs on one thread of its own.
 */
final class ScrapeListener implements AutoCloseable {

    static final String PATH = "/tlsadmit/metrics";
    private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer server;

    private ScrapeListener(HttpServer server) {
        this.server = server;
    }

    static ScrapeListener start(int port, PrometheusMeterRegistry registry) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
        server.createContext(PATH, exchange -> serve(exchange, registry));
        server.start();
        return new ScrapeListener(server);
    }

    private static void serve(HttpExchange exchange, PrometheusMeterRegistry registry) throws IOException {
        try (exchange) {
            if (!PATH.equals(exchange.getRequestURI().getPath())) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            if (!"GET".equals(exchange.getRequestMethod())) {
                exchange.getResponseHeaders().set("Allow", "GET");
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

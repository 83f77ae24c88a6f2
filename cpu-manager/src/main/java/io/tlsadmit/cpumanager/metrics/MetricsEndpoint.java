package io.tlsadmit.cpumanager.metrics;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * {@code http://127.0.0.1:<metricsPort>/metrics}. Loopback only: the manager runs beside the servers,
 * and a scraper elsewhere reaches it through the node's agent, as for the node exporter.
 */
public final class MetricsEndpoint implements AutoCloseable {

    private final HttpServer server;

    public MetricsEndpoint(int port, Supplier<String> text) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
        server.createContext("/metrics", exchange -> {
            byte[] body = text.get().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.setExecutor(Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "tlsadmit-cpu-manager-metrics");
            t.setDaemon(true);
            return t;
        }));
        server.start();
    }

    /** The port bound (the free one picked for {@code metricsPort: 0}). */
    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

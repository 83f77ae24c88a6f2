package io.tlsadmit.attack.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * How the legitimate clients connect: a plain socket from 127.0.0.1 with a connect timeout, then TLS
 * over it named {@code localhost}. The name is the JDK's session-cache key (with the port), so every
 * connection of one SSLContext offers the session the previous one left there.
 */
final class TlsDial {
    static final String HOST = "localhost";
    private static final String GET = "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";

    private TlsDial() {
    }

    static SSLSocket open(SSLContext context, InetSocketAddress server, int timeoutMillis) throws IOException {
        Socket plain = new Socket();
        try {
            plain.connect(server, timeoutMillis);
            plain.setSoTimeout(timeoutMillis);
            return (SSLSocket) context.getSocketFactory().createSocket(plain, HOST, server.getPort(), true);
        } catch (IOException | RuntimeException e) {
            plain.close();
            throw e;
        }
    }

    /** Sends {@code GET /} with {@code Connection: close} and reads to the end; true on a 200. */
    static boolean get(SSLSocket socket) throws IOException {
        socket.getOutputStream().write(GET.getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream response = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        for (int n; (n = in.read(buf)) > 0; ) {
            response.write(buf, 0, Math.min(n, Math.max(0, 64 - response.size())));
        }
        return response.toString(StandardCharsets.US_ASCII).startsWith("HTTP/1.1 200");
    }
}

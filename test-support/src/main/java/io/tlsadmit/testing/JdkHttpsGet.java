package io.tlsadmit.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * One {@code GET} over the JDK's own TLS client ({@link SSLSocket}) to 127.0.0.1, a new connection each time. The
 * client resumes from {@code context}'s session cache: the same context resumes, a fresh one
 * ({@link TestKeystore#clientContext}) is a new client.
 */
public final class JdkHttpsGet {

    private JdkHttpsGet() {
    }

    /**
     * The whole answer (status line, headers, body) to {@code GET path} with {@code Connection: close}.
     *
     * @throws IOException when the server closes or resets the connection before the handshake completes, among others
     */
    public static String get(SSLContext context, int port, String path) throws IOException {
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}

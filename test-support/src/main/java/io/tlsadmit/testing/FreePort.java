package io.tlsadmit.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Free TCP ports on 127.0.0.1, chosen by the kernel. */
public final class FreePort {

    private FreePort() {
    }

    /**
     * A port that was free a moment ago. Another process may take it before Tomcat binds it; the window
     * is small and a failed bind shows up clearly in catalina.out.
     */
    public static int pick() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("No free port on 127.0.0.1", e);
        }
    }
}

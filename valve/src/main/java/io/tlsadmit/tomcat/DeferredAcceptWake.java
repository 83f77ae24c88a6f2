package io.tlsadmit.tomcat;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Wakes an acceptor blocked in {@code accept()} on a listening socket with {@code TCP_DEFER_ACCEPT}. Tomcat wakes
 * its acceptor (on pause, stop and graceful close) by connecting and closing at once; under {@code TCP_DEFER_ACCEPT}
 * the kernel keeps such a connection from {@code accept()} until it brings data, and the close resets it first, so
 * the acceptor stayed blocked: Tomcat logged that it "did not stop cleanly", and after a restart or a resume that
 * old acceptor took the next client's connection only to close it. This connection sends one byte, which hands it
 * over at once; a stopping or paused acceptor closes it unread.
 */
final class DeferredAcceptWake {

    /** Tomcat waits as long for its own unlock. */
    private static final long WAIT_NANOS = 1_000_000_000L;

    private DeferredAcceptWake() {
    }

    /**
     * Connects to {@code listening} (to loopback when it is a wildcard address), sends a byte, and waits up to 1 s
     * while {@code acceptorBlocked} holds.
     *
     * @throws IOException when no connection could be made
     */
    static void wake(InetSocketAddress listening, int connectTimeoutMillis, BooleanSupplier acceptorBlocked)
            throws IOException, InterruptedException {
        IOException failed = null;
        for (InetAddress address : reachable(listening.getAddress())) {
            try (Socket socket = new Socket()) {
                socket.setSoLinger(true, 0); // no TIME_WAIT left behind for a connection that carries nothing
                socket.connect(new InetSocketAddress(address, listening.getPort()), connectTimeoutMillis);
                socket.getOutputStream().write(0);
                // closing before the acceptor has it could reset the connection while the kernel still holds it
                long deadline = System.nanoTime() + WAIT_NANOS;
                while (acceptorBlocked.getAsBoolean() && System.nanoTime() - deadline < 0) {
                    Thread.sleep(1);
                }
                return;
            } catch (IOException e) {
                failed = e;
            }
        }
        throw failed;
    }

    /**
     * Where to connect: the bound address, or loopback for a wildcard; for an IPv6 wildcard (a dual-stack socket)
     * IPv6's loopback and then IPv4's, since containers often have IPv6 turned off on their loopback.
     */
    static List<InetAddress> reachable(InetAddress bound) throws UnknownHostException {
        if (!bound.isAnyLocalAddress()) {
            return List.of(bound);
        }
        InetAddress ipv4 = InetAddress.getByName("127.0.0.1");
        return bound instanceof Inet6Address ? List.of(InetAddress.getByName("::1"), ipv4) : List.of(ipv4);
    }
}

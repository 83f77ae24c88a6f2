package io.tlsadmit.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free TCP ports on 127.0.0.1 for servers the tests start, below the kernel's ephemeral range: a port the kernel
 * hands out for {@code bind(0)} is one it also gives outgoing connections, so a client of an earlier test could hold
 * it by the time the server binds it ("Address already in use", seen in CI). Below that range only another
 * listener can take it in the moment before the server binds.
 *
 * <p>A port is handed out once per JVM: a port is free until its server binds it, so two picks for one server (its
 * connectors and JMX) could draw the same one. They did in CI: two connectors of one Tomcat on one port, the second
 * failed to bind, and its MBean, registered under the same name, replaced the first's.
 */
public final class FreePort {

    private static final int LOWEST = 10_000;
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private FreePort() {
    }

    /**
     * A port that was free a moment ago and that no earlier call returned, below the ephemeral range where the kernel
     * says where it starts.
     */
    public static int pick() {
        int ephemeralStart = ephemeralStart();
        for (int attempt = 0; ephemeralStart > LOWEST + 1_000 && attempt < 100; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, ephemeralStart);
            if (bindable(port) && HANDED_OUT.add(port)) {
                return port;
            }
        }
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = kernelPick();
            if (HANDED_OUT.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException("No port on 127.0.0.1 that was not handed out before");
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int kernelPick() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("No free port on 127.0.0.1", e);
        }
    }

    /** The first port of the kernel's ephemeral range; 0 where it is not known (not Linux). */
    static int ephemeralStart() {
        return ephemeralStart(EPHEMERAL_RANGE);
    }

    /**
     * In one read from the start: a sysctl file answers only a read at offset 0 and reads as ended after it, so
     * {@code Files.readString}, which reads one byte and then the rest, sees "3" of "32768 60999" (on Linux 6.18
     * every port was then picked by the kernel, inside the range this class exists to avoid).
     */
    static int ephemeralStart(Path rangeFile) {
        try (InputStream in = Files.newInputStream(rangeFile)) {
            byte[] buffer = new byte[256];
            int read = in.read(buffer);
            if (read <= 0) {
                return 0;
            }
            return Integer.parseInt(new String(buffer, 0, read, StandardCharsets.US_ASCII).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}

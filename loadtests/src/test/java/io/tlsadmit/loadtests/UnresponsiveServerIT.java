package io.tlsadmit.loadtests;

import static io.tlsadmit.loadtests.GatlingRun.number;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The client's two ways of failing, against servers that misbehave on purpose: one that closes every connection
 * as soon as it arrives (what the gate does to a refused ClientHello) and one that accepts and never answers.
 */
class UnresponsiveServerIT {

    private static final Path RESULTS = Path.of("target", "client-runs");

    @Test
    void aConnectionClosedAtOnceIsRefusedAndRetriedThenTheUserLeaves() throws Exception {
        try (Listener server = new Listener(false)) {
            Map<String, String> run = GatlingRun.run(RESULTS, "closing-server", users(server.port(), 4));

            assertEquals(4, number(run, "sessionsRefused"), () -> "figures: " + run);
            assertEquals(4 * 3, number(run, "connectionsRefused"), () -> "three attempts each; figures: " + run);
            assertEquals(0, number(run, "sessionsAbandoned"), () -> "figures: " + run);
            assertEquals(0, number(run, "knownUsersRefused"), () -> "figures: " + run);
            assertEquals(4 * 3, server.accepted(), "every attempt is a new connection");
        }
    }

    @Test
    void aRequestWithoutAReplyWithinTheTimeoutMakesTheUserGiveUp() throws Exception {
        try (Listener server = new Listener(true)) {
            Map<String, String> run = GatlingRun.run(RESULTS, "silent-server", users(server.port(), 4));

            assertEquals(4, number(run, "sessionsAbandoned"), () -> "figures: " + run);
            assertEquals(4, number(run, "timeouts"), () -> "figures: " + run);
            assertEquals(0, number(run, "connectionsRefused"), () -> "figures: " + run);
            assertEquals(4, server.accepted(), "a user that gives up does not try again");
        }
    }

    private static Map<String, String> users(int port, int users) {
        return new java.util.HashMap<>(Map.of(
                "rubis.baseUrl", "https://127.0.0.1:" + port,
                "rubis.usersPerSec", Integer.toString(users),
                "rubis.durationSec", "1",
                "rubis.poisson", "false",
                "rubis.requestTimeoutMs", "1500",
                "rubis.connectAttempts", "3",
                "rubis.refusedBackoffMs", "100",
                "rubis.drainSec", "30"));
    }

    /** Accepts on loopback; either closes each connection at once or holds it open without a byte. */
    private static final class Listener implements AutoCloseable {

        private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final List<Socket> held = new CopyOnWriteArrayList<>();
        private final Thread acceptor;

        Listener(boolean holdOpen) throws IOException {
            acceptor = new Thread(() -> {
                while (!socket.isClosed()) {
                    try {
                        Socket connection = socket.accept();
                        held.add(connection);
                        if (!holdOpen) {
                            connection.close();
                        }
                    } catch (IOException e) {
                        return; // closed by close()
                    }
                }
            }, "unresponsive-server");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        int accepted() {
            return held.size();
        }

        @Override
        public void close() throws IOException {
            socket.close();
            for (Socket connection : held) {
                connection.close();
            }
        }
    }
}

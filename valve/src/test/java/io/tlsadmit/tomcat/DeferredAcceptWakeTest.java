package io.tlsadmit.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tlsadmit.peek.NativePeek;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** What the kernel does with Tomcat's wake-up connection under {@code TCP_DEFER_ACCEPT}, and with ours. */
class DeferredAcceptWakeTest {

    @Test
    void anEmptyConnectionNeverReachesAcceptButOneThatCarriesAByteDoes() throws Exception {
        assumeTrue(NativePeek.isAvailable(), NativePeek::unavailableReason);
        try (ServerSocketChannel listening = ServerSocketChannel.open()) {
            listening.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            NativePeek.deferAccept(listening, 1);
            listening.configureBlocking(false);
            InetSocketAddress address = (InetSocketAddress) listening.getLocalAddress();

            // Tomcat's unlock: connect, close at once (linger 0)
            try (Socket empty = new Socket()) {
                empty.setSoLinger(true, 0);
                empty.connect(address, 1000);
            }
            Thread.sleep(300);
            assertNull(listening.accept(), "the kernel keeps a connection without data from accept()");

            AtomicReference<SocketChannel> accepted = new AtomicReference<>();
            DeferredAcceptWake.wake(address, 1000, () -> {
                try {
                    SocketChannel channel = listening.accept();
                    if (channel != null) {
                        accepted.set(channel);
                    }
                    return accepted.get() == null;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            try (SocketChannel woken = accepted.get()) {
                assertNotNull(woken, "the wake-up reached accept() within its second");
                ByteBuffer one = ByteBuffer.allocate(2);
                woken.configureBlocking(true);
                woken.read(one);
                assertEquals(0, one.get(0), "one byte, 0: never a TLS record");
            }
        }
    }

    @Test
    void aWildcardListenerIsWokenOverLoopbackIpv6FirstThenIpv4() throws Exception {
        InetAddress ipv4 = InetAddress.getByName("127.0.0.1");
        assertEquals(List.of(ipv4), DeferredAcceptWake.reachable(InetAddress.getByName("0.0.0.0")));
        assertEquals(List.of(InetAddress.getByName("::1"), ipv4), DeferredAcceptWake.reachable(InetAddress.getByName("::")));
        InetAddress bound = InetAddress.getByName("127.0.0.7");
        assertEquals(List.of(bound), DeferredAcceptWake.reachable(bound));
    }
}

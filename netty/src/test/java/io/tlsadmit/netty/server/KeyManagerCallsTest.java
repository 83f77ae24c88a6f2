package io.tlsadmit.netty.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.tlsadmit.netty.server.GatedHttpsServer.Engine;
import io.tlsadmit.testing.CountingKeyManager;
import io.tlsadmit.testing.OpenSslClient;
import io.tlsadmit.testing.TestKeystore;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import java.nio.file.Files;
import java.nio.file.Path;






import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * When does Netty ask the server's key manager for a certificate ({@code chooseEngineServerAlias}), per TLS
 * engine and kind of handshake? The late gate charges the budget there, so it can only be used where it is
 * asked for full handshakes and not for resumptions: the JDK's engine. BoringSSL (netty-tcnative) asks in
 * every handshake, resumptions included. A plain Netty server (no gate) with a counting key manager, and
 * {@code openssl s_client} making a full handshake and then resuming it, per mechanism.
 */
class KeyManagerCallsTest {

    @TempDir
    static Path dir;

    @ParameterizedTest
    @EnumSource(Engine.class)
    void certificateIsAskedForInFullHandshakesOnlyByTheJdkEngine(Engine engine) throws Exception {
        TestKeystore keystore = TestKeystore.create(dir);
        CountingKeyManager counting = new CountingKeyManager(keystore.keyManager());
        SslContext tls = GatedHttpsServer.sslContext(SslContextBuilder.forServer(counting), engine);
        EventLoopGroup loops = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try {
            Channel listener = new ServerBootstrap().group(loops).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(tls.newHandler(ch.alloc()), new HttpServerCodec(), new OkHandler());
                        }
                    })
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
            int port = ((InetSocketAddress) listener.localAddress()).getPort();
            StringBuilder seen = new StringBuilder();
            for (String mechanism : new String[] {"tls13-psk", "tls12-ticket", "tls12-session-id"}) {
                Path session = Files.createTempFile(dir, mechanism, ".pem");
                int before = counting.calls();
                OpenSslClient.Result full = client(port, keystore, mechanism).saveSession(session).run();
                int afterFull = counting.calls();
                OpenSslClient.Result resumed = client(port, keystore, mechanism).resume(session).run();
                int afterResume = counting.calls();
                assertTrue(full.fullHandshake() && full.httpStatus() == 200, full.output());
                seen.append(String.format("%s %s: full %d call(s), resumption %s %d call(s)%n", engine, mechanism,
                        afterFull - before, resumed.reused() ? "reused" : "NOT reused", afterResume - afterFull));
            }
            System.out.print(seen);
            assertEquals(expected(engine), seen.toString());
            listener.close().sync();
        } finally {
            loops.shutdownGracefully().syncUninterruptibly();
        }
    }

    /** What was observed (netty/README.md, "When the key manager is asked"). */
    private static String expected(Engine engine) {
        return switch (engine) {
            case JDK -> """
                    JDK tls13-psk: full 1 call(s), resumption reused 0 call(s)
                    JDK tls12-ticket: full 1 call(s), resumption reused 0 call(s)
                    JDK tls12-session-id: full 1 call(s), resumption reused 0 call(s)
                    """;
            // BoringSSL's certificate callback runs before it decides to resume: no late gate there
            case OPENSSL -> """
                    OPENSSL tls13-psk: full 1 call(s), resumption reused 1 call(s)
                    OPENSSL tls12-ticket: full 1 call(s), resumption reused 1 call(s)
                    OPENSSL tls12-session-id: full 1 call(s), resumption reused 1 call(s)
                    """;
        };
    }

    private static OpenSslClient client(int port, TestKeystore keystore, String mechanism) {
        OpenSslClient client = OpenSslClient.to(port, keystore);
        return switch (mechanism) {
            case "tls13-psk" -> client.tls13();
            case "tls12-ticket" -> client.tls12();
            default -> client.tls12().noTicket();
        };
    }
}

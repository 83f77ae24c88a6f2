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
import io.tlsadmit.testing.OpenSslClient;
import io.tlsadmit.testing.TestKeystore;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
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
        CountingKeyManager counting = new CountingKeyManager(keyManager(keystore));
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
                int before = counting.calls.get();
                OpenSslClient.Result full = client(port, keystore, mechanism).saveSession(session).run();
                int afterFull = counting.calls.get();
                OpenSslClient.Result resumed = client(port, keystore, mechanism).resume(session).run();
                int afterResume = counting.calls.get();
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

    static X509ExtendedKeyManager keyManager(TestKeystore keystore) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore.path())) {
            store.load(in, keystore.password().toCharArray());
        }
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(store, keystore.password().toCharArray());
        return (X509ExtendedKeyManager) factory.getKeyManagers()[0];
    }

    /** Counts {@code chooseEngineServerAlias}; everything else is the delegate's. */
    static final class CountingKeyManager extends X509ExtendedKeyManager {
        final AtomicInteger calls = new AtomicInteger();
        private final X509ExtendedKeyManager delegate;

        CountingKeyManager(X509ExtendedKeyManager delegate) {
            this.delegate = delegate;
        }

        @Override
        public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
            String alias = delegate.chooseEngineServerAlias(keyType, issuers, engine);
            if (alias != null) {
                calls.incrementAndGet(); // once per handshake: the engines ask per key type until one has a key
            }
            return alias;
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return delegate.chooseServerAlias(keyType, issuers, socket);
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return delegate.getServerAliases(keyType, issuers);
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return delegate.getClientAliases(keyType, issuers);
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return delegate.chooseClientAlias(keyType, issuers, socket);
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return delegate.getCertificateChain(alias);
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return delegate.getPrivateKey(alias);
        }
    }
}

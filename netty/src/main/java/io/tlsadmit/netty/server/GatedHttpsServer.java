package io.tlsadmit.netty.server;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.tlsadmit.gate.GateConfig;
import io.tlsadmit.netty.NettyGate;
import io.tlsadmit.netty.NettyGateMeterBinder;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Locale;
import javax.net.ssl.KeyManagerFactory;

/**
 * A Netty 4.2 HTTPS server answering {@code 200 OK}, with the gate before its {@code SslHandler} (or without
 * it, to compare), on the JDK's TLS engine or BoringSSL's, and its metrics on a plain-HTTP port. What the
 * example jar runs, and what the tests start in the test JVM to read the gate's counters directly.
 */
public final class GatedHttpsServer implements AutoCloseable {

    /** The TLS engines Netty offers for a server. */
    public enum Engine {
        JDK(SslProvider.JDK),
        /** BoringSSL through netty-tcnative-boringssl-static. */
        OPENSSL(SslProvider.OPENSSL);

        final SslProvider provider;

        Engine(SslProvider provider) {
            this.provider = provider;
        }

        public static Engine parse(String value) {
            return switch (value == null ? "" : value.trim().toLowerCase(Locale.ROOT)) {
                case "jdk" -> JDK;
                case "openssl" -> OPENSSL;
                default -> throw new IllegalArgumentException("--engine must be \"jdk\" or \"openssl\", was \"" + value + "\"");
            };
        }
    }

    /** The connector label of the example server's metrics. */
    public static final String GATE_NAME = "netty-https";

    private final EventLoopGroup loops;
    private final Channel listener;
    private final NettyGate gate;
    private final PrometheusMeterRegistry registry;
    private final ScrapeListener metrics;

    private GatedHttpsServer(EventLoopGroup loops, Channel listener, NettyGate gate, PrometheusMeterRegistry registry,
            ScrapeListener metrics) {
        this.loops = loops;
        this.listener = listener;
        this.gate = gate;
        this.registry = registry;
        this.metrics = metrics;
    }

    /**
     * @param config      the gate's settings, or null for no gate at all
     * @param metricsPort the metrics listener's port on 127.0.0.1: 0 for any free one, -1 for none
     * @param threads     event-loop threads, 0 for Netty's default (two per CPU)
     */
    public static GatedHttpsServer start(int port, Engine engine, GateConfig config, KeyManagerFactory keys,
            int metricsPort, int threads) throws Exception {
        return start(port, engine, config, keys, metricsPort, threads, 0);
    }

    /**
     * @param warmUpHandshakes full handshakes run in memory before binding ({@link NettyGate#warmUp}), with a gate
     *                         only: 0 for none
     */
    public static GatedHttpsServer start(int port, Engine engine, GateConfig config, KeyManagerFactory keys,
            int metricsPort, int threads, int warmUpHandshakes) throws Exception {
        if (engine == Engine.OPENSSL && !OpenSsl.isAvailable()) {
            throw new IllegalStateException("--engine openssl: BoringSSL is not available on this machine: "
                    + OpenSsl.unavailabilityCause());
        }
        NettyGate gate = config == null ? null : NettyGate.start(GATE_NAME, config);
        SslContextBuilder builder = gate == null ? SslContextBuilder.forServer(keys)
                : SslContextBuilder.forServer(gate.keyManager(keys));
        SslContext tls = sslContext(builder, engine);
        if (gate != null) {
            gate.sessionCache(tls);
            if (warmUpHandshakes > 0) {
                gate.warmUp(tls, warmUpHandshakes);
            }
        }
        EventLoopGroup loops = new MultiThreadIoEventLoopGroup(threads, NioIoHandler.newFactory());
        try {
            OkHandler ok = new OkHandler();
            Channel listener = new ServerBootstrap()
                    .group(loops)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, 4096)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ChannelPipeline pipeline = ch.pipeline();
                            if (gate != null) {
                                pipeline.addLast(gate.newHandler());
                            }
                            pipeline.addLast(tls.newHandler(ch.alloc()), new HttpServerCodec(), ok);
                        }
                    })
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port)).sync().channel();
            PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            if (gate != null) {
                new NettyGateMeterBinder(gate).bindTo(registry);
            }
            ScrapeListener metrics = metricsPort < 0 ? null : ScrapeListener.start(metricsPort, registry);
            return new GatedHttpsServer(loops, listener, gate, registry, metrics);
        } catch (Exception | Error e) {
            loops.shutdownGracefully();
            if (gate != null) {
                gate.close();
            }
            throw e;
        }
    }

    /** TLS 1.3 and 1.2 on the given engine: the versions whose resumptions the gate tells apart. */
    static SslContext sslContext(SslContextBuilder builder, Engine engine) throws javax.net.ssl.SSLException {
        return builder.sslProvider(engine.provider).protocols("TLSv1.3", "TLSv1.2").build();
    }

    /** A PKCS12 key store's key (its one key entry; the key's password is the store's), for both engines. */
    public static KeyManagerFactory keyManagerFactory(Path pkcs12, char[] password)
            throws GeneralSecurityException, IOException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(pkcs12)) {
            store.load(in, password);
        } catch (IOException e) {
            throw new IOException("--key-store " + pkcs12 + " cannot be read as PKCS12 with that password: "
                    + e.getMessage(), e);
        }
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(store, password);
        return factory;
    }

    /** The generated key and certificate as a key manager factory, the form both engines take. */
    public static KeyManagerFactory keyManagerFactory(GeneratedKey key) throws GeneralSecurityException {
        char[] password = new char[0];
        KeyStore store = KeyStore.getInstance("PKCS12");
        try {
            store.load(null, password);
        } catch (java.io.IOException e) {
            throw new GeneralSecurityException("an empty PKCS12 key store could not be created", e);
        }
        store.setKeyEntry("server", key.privateKey(), password, new Certificate[] {key.certificate()});
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(store, password);
        return factory;
    }

    public int port() {
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    /** -1 without a metrics listener. */
    public int metricsPort() {
        return metrics == null ? -1 : metrics.port();
    }

    /** Null when the server runs without a gate. */
    public NettyGate gate() {
        return gate;
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    @Override
    public void close() {
        listener.close().syncUninterruptibly();
        if (metrics != null) {
            metrics.close();
        }
        loops.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        if (gate != null) {
            gate.close();
        }
    }
}

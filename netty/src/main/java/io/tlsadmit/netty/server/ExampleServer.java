package io.tlsadmit.netty.server;

import io.tlsadmit.gate.BudgetType;
import io.tlsadmit.gate.GateConfig;
import io.tlsadmit.gate.GateMode;
import io.tlsadmit.gate.RefuseAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import javax.net.ssl.KeyManagerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code java -jar netty/target/tlsadmit-netty-server.jar --port P --engine jdk|openssl [--budget static --rate R
 * --burst B] --metrics-port M}: the example server (netty/README.md). Prints one line when it is listening and
 * runs until killed.
 */
@Command(name = "tlsadmit-netty-server", mixinStandardHelpOptions = true,
        description = "A Netty 4.2 HTTPS server answering 200 OK, gated by tlsadmit; metrics at"
                + " http://127.0.0.1:<metrics-port>/tlsadmit/metrics")
public final class ExampleServer implements Callable<Integer> {

    /** What the server prints once it accepts connections; tests and scripts wait for it. */
    public static final String READY = "tlsadmit-netty-server: listening on ";
    /** As the Tomcat connector's limit for warmUpHandshakes. */
    private static final int MAX_WARM_UP_HANDSHAKES = 10_000;

    @Option(names = "--port", required = true, description = "HTTPS port on 127.0.0.1")
    int port;

    @Option(names = "--engine", defaultValue = "jdk", description = "TLS engine: jdk or openssl (BoringSSL)")
    String engine;

    @Option(names = "--gate", defaultValue = "on", description = "on, or off to run the same server ungated")
    String gate;

    @Option(names = "--budget", defaultValue = "adaptive", description = "adaptive or static")
    BudgetType budget;

    @Option(names = "--rate", description = "maxFullHandshakesPerSecond (static: the rate; adaptive: the cap)")
    Double rate;

    @Option(names = "--burst", description = "fullHandshakeBurst")
    Long burst;

    @Option(names = "--connections-per-new-user", description = "connectionsPerNewUser (1: no grace for a new"
            + " host's further connections)")
    Integer connectionsPerNewUser;

    @Option(names = "--refuse-action", defaultValue = "close", description = "close (FIN) or reset (RST)")
    RefuseAction refuseAction;

    @Option(names = "--mode", defaultValue = "enforce", description = "enforce or observe")
    GateMode mode;

    @Option(names = "--metrics-port", defaultValue = "-1",
            description = "plain-HTTP metrics port on 127.0.0.1 (0: any free port; default: none)")
    int metricsPort;

    /** Null when not given: {@code rsa}, unless a key store is given instead. */
    @Option(names = "--key", description = "a key generated at start: rsa (RSA-2048, the default) or ec (P-256)")
    String key;

    @Option(names = "--key-store", description = "a PKCS12 key store holding the server's key and certificate, used"
            + " instead of a generated key (its only key entry)")
    Path keyStore;

    @Option(names = "--key-store-password", defaultValue = "", description = "the key store's password (and its key's)")
    String keyStorePassword;

    @Option(names = "--warm-up-handshakes", defaultValue = "64", description = "full TLS handshakes run in memory"
            + " before binding, as the Tomcat connector's warmUpHandshakes (0: none; with the gate only)")
    int warmUpHandshakes;

    @Option(names = "--certificate-out", description = "write the generated certificate here (PEM), for clients that verify")
    Path certificateOut;

    @Option(names = "--threads", defaultValue = "0", description = "event-loop threads (0: Netty's default)")
    int threads;

    @Override
    public Integer call() throws Exception {
        GatedHttpsServer.Engine tlsEngine = GatedHttpsServer.Engine.parse(engine);
        GateConfig config = switch (gate.trim().toLowerCase(Locale.ROOT)) {
            case "on" -> config();
            case "off" -> null;
            default -> throw new IllegalArgumentException("--gate must be \"on\" or \"off\", was \"" + gate + "\"");
        };
        if (warmUpHandshakes < 0 || warmUpHandshakes > MAX_WARM_UP_HANDSHAKES) {
            throw new IllegalArgumentException("--warm-up-handshakes must be a whole number 0-" + MAX_WARM_UP_HANDSHAKES
                    + ", was " + warmUpHandshakes);
        }
        GatedHttpsServer server = GatedHttpsServer.start(port, tlsEngine, config, keys(), metricsPort, threads,
                warmUpHandshakes);
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "tlsadmit-netty-server-stop"));
        System.out.println(READY + "https://127.0.0.1:" + server.port() + " (engine "
                + tlsEngine.name().toLowerCase(Locale.ROOT) + ", " + (server.gate() == null ? "no gate" : server.gate())
                + ")" + (server.metricsPort() < 0 ? ""
                        : ", metrics at http://127.0.0.1:" + server.metricsPort() + ScrapeListener.PATH));
        System.out.flush();
        new CountDownLatch(1).await();
        return 0;
    }

    /** The generated key (its certificate written out if asked), or the key store's. */
    private KeyManagerFactory keys() throws Exception {
        if (keyStore != null) {
            if (key != null) {
                throw new IllegalArgumentException("--key and --key-store exclude each other: a key is generated or read");
            }
            if (certificateOut != null) {
                throw new IllegalArgumentException("--certificate-out writes a generated key's certificate; the key store"
                        + " " + keyStore + " has its own");
            }
            return GatedHttpsServer.keyManagerFactory(keyStore, keyStorePassword.toCharArray());
        }
        GeneratedKey.Type type = switch (key == null ? "rsa" : key.trim().toLowerCase(Locale.ROOT)) {
            case "rsa" -> GeneratedKey.Type.RSA;
            case "ec" -> GeneratedKey.Type.EC;
            default -> throw new IllegalArgumentException("--key must be \"rsa\" or \"ec\", was \"" + key + "\"");
        };
        GeneratedKey generated = GeneratedKey.generate(type);
        if (certificateOut != null) {
            Files.writeString(certificateOut, generated.certificatePem(), StandardCharsets.US_ASCII);
        }
        return GatedHttpsServer.keyManagerFactory(generated);
    }

    /** The options as the gate's settings; picocli has parsed each, the builder checks their ranges. */
    private GateConfig config() {
        GateConfig.Builder config = GateConfig.builder().budget(budget).refuseAction(refuseAction).mode(mode);
        if (rate != null) {
            config.maxFullHandshakesPerSecond(rate);
        }
        if (burst != null) {
            config.fullHandshakeBurst(burst);
        }
        if (connectionsPerNewUser != null) {
            config.connectionsPerNewUser(connectionsPerNewUser);
        }
        return config.build();
    }

    public static void main(String[] args) {
        // enum values as the Tomcat attributes write them (static, reset, observe), in any case
        CommandLine command = new CommandLine(new ExampleServer()).setCaseInsensitiveEnumValuesAllowed(true);
        command.setExecutionExceptionHandler((e, cl, parsed) -> {
            cl.getErr().println("tlsadmit-netty-server: " + e.getMessage());
            return 2;
        });
        System.exit(command.execute(args));
    }
}

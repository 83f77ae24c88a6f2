package io.tlsadmit.attack.scenario;

import io.tlsadmit.attack.client.ResumingProbe;
import io.tlsadmit.attack.client.SlowHelloHold;
import io.tlsadmit.attack.hello.ForgedHello;
import io.tlsadmit.attack.measure.ProbeLatency;
import io.tlsadmit.attack.report.ScenarioReport;
import io.tlsadmit.attack.server.ScenarioAttributes;
import io.tlsadmit.attack.server.GatedServer;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Connections that send the start of a ClientHello and then nothing, at a steady rate, against
 * Tomcat's default {@code maxConnections} (8192) and a 60 s {@code connectionTimeout}: at 140/s for
 * 60 s the held connections approach the limit just as the first ones time out. A resuming user must
 * still get in.
 */
public final class SlowHelloScenario implements Scenario {
    private static final int PREFIX_BYTES = 60;
    private static final double RESUMER_SUCCESS_TARGET = 0.99;
    /** A real client's hello (JDK 17, TLS 1.3), so the slow bytes are exactly what a browser's would be. */
    private static final String REAL_HELLO = "testdata/clienthello/jdk17-server13-1-new.bin";

    @Override
    public String name() {
        return "slow-hello";
    }

    @Override
    public ScenarioReport run(Bench bench) throws Exception {
        ScenarioAttributes settings = ScenarioAttributes.budget(bench.budget(), "5", "5").attribute("connectionTimeout", "60000");
        ScenarioReport report = bench.report(name(), settings.describe() + " maxConnections=8192 (Tomcat's default)");
        List<InetAddress> sources = new ArrayList<>();
        for (int host = 3; host <= 10; host++) {
            sources.add(InetAddress.getByName("127.0.0." + host));
        }
        try (GatedServer server = bench.start(name(), settings);
             ResumingProbe resumer = ResumingProbe.start(bench.keystore().clientContext("TLSv1.3"), server.address(), 15_000)) {
            Bench.log("%s: quiet phase, %.0f s", name(), bench.seconds());
            resumer.swap();
            PhaseWindow quiet = new PhaseWindow("quiet", server, settings.adaptive());
            Thread.sleep((long) (bench.seconds() * 1000));
            PhaseWindow.Result rq = quiet.close();
            ProbeLatency quietResumer = resumer.swap();

            Bench.log("%s: attack phase, %.0f slow connections/s from 127.0.0.3-10 for %.0f s", name(), bench.slowRate(),
                    bench.slowSeconds());
            PhaseWindow attack = new PhaseWindow("slow-hello", server, settings.adaptive());
            SlowHelloHold.Counts held;
            try (SlowHelloHold hold = new SlowHelloHold(server.address(), sources, bench.slowRate(), bench.slowSeconds(),
                    prefix(bench.root()))) {
                long end = System.nanoTime() + (long) (bench.slowSeconds() * 1e9);
                while (System.nanoTime() < end) {
                    Thread.sleep(Math.min(10_000, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
                    SlowHelloHold.Counts now = hold.counts();
                    Bench.log("%s: %d opened, %d open now, %d closed by the server", name(), now.opened(), now.openNow(),
                            now.serverClosed());
                }
                held = hold.counts();
            }
            PhaseWindow.Result ra = attack.close();
            ProbeLatency attackResumer = resumer.swap();

            PhaseWindow.report(rq, report, Double.NaN);
            report.add("quiet", "resumer success %", 100 * quietResumer.successRatio(), "%.1f");
            report.add("quiet", "resumer p99 ms", quietResumer.millisAt(99), "%.1f");
            PhaseWindow.report(ra, report, Double.NaN);
            double success = attackResumer.successRatio();
            report.add("slow-hello", "resumer success %", 100 * success, "%.1f",
                    String.format(Locale.ROOT, "≥ %.0f", 100 * RESUMER_SUCCESS_TARGET), success >= RESUMER_SUCCESS_TARGET);
            report.add("slow-hello", "resumer attempts", attackResumer.successes() + attackResumer.failures(), "%.0f");
            report.add("slow-hello", "resumer p99 ms", attackResumer.millisAt(99), "%.1f");
            report.add("slow-hello", "slow connections opened/s (achieved)", held.opened() / ra.seconds(), "%.1f",
                    String.format(Locale.ROOT, "%.0f offered", bench.slowRate()), held.opened() / ra.seconds() >= 0.95 * bench.slowRate());
            report.add("slow-hello", "slow connections failed to open or connect", held.openFailures() + held.failed(), "%.0f");
            report.add("slow-hello", "slow connections open at most", held.maxOpen(), "%.0f");
            report.add("slow-hello", "slow connections open at the end", held.openNow(), "%.0f");
            report.add("slow-hello", "slow connections closed by the server", held.serverClosed(), "%.0f");
            report.add("slow-hello", "held by the server before closing, median s", held.heldMedianMillis() / 1000, "%.1f");
            report.add("slow-hello", "held by the server before closing, max s", held.heldMaxMillis() / 1000, "%.1f");
        }
        return report;
    }

    private static byte[] prefix(Path root) throws IOException {
        Path real = root.resolve(REAL_HELLO);
        byte[] hello = Files.isRegularFile(real) ? Files.readAllBytes(real) : ForgedHello.tls13New(new Random());
        return Arrays.copyOf(hello, PREFIX_BYTES);
    }
}

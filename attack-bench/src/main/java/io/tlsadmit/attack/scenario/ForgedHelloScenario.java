package io.tlsadmit.attack.scenario;

import io.tlsadmit.attack.client.HelloFlood;
import io.tlsadmit.attack.client.NewClientProbe;
import io.tlsadmit.attack.client.ResumingProbe;
import io.tlsadmit.attack.hello.ForgedHello;
import io.tlsadmit.attack.measure.ProbeLatency;
import io.tlsadmit.attack.report.ScenarioReport;
import io.tlsadmit.attack.server.CounterSnapshot;
import io.tlsadmit.attack.server.ScenarioAttributes;
import io.tlsadmit.attack.server.GatedServer;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Function;

/**
 * Forged resumption offers (a random PSK, or a random TLS 1.2 ticket) flooding in from one source and
 * from 64 different /24s, while a resuming user and legitimate newcomers keep coming. A gate that
 * trusts the offer lets every forged hello through to a full handshake.
 */
public final class ForgedHelloScenario implements Scenario {
    private static final double CPU_TARGET = 0.5;
    private static final double RESUMER_SUCCESS_TARGET = 0.90;
    private static final double RESUMER_P99_FACTOR = 3;
    private static final double NEW_CLIENTS_SHARE = 0.5;
    private static final double NEW_CLIENTS_PER_SECOND = 10;
    private static final long ANSWER_CAP_MILLIS = 2_000;
    private static final int TICKET_LENGTH = 160;

    private final String name;
    private final Function<Random, byte[]> hellos;
    private final boolean tls13;

    private ForgedHelloScenario(String name, Function<Random, byte[]> hellos, boolean tls13) {
        this.name = name;
        this.hellos = hellos;
        this.tls13 = tls13;
    }

    public static ForgedHelloScenario psk() {
        return new ForgedHelloScenario("forged-psk", ForgedHello::tls13Psk, true);
    }

    public static ForgedHelloScenario ticket() {
        return new ForgedHelloScenario("forged-ticket", r -> ForgedHello.tls12Ticket(r, TICKET_LENGTH), false);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ScenarioReport run(Bench bench) throws Exception {
        ScenarioAttributes settings = ScenarioAttributes.budget(bench.budget(), "5", "5");
        ScenarioReport report = bench.report(name, settings.describe());
        try (GatedServer server = bench.start(name, settings);
             ResumingProbe resumer = ResumingProbe.start(bench.keystore().clientContext("TLSv1.3"), server.address(), 15_000);
             NewClientProbe newcomers = new NewClientProbe(() -> bench.keystore().clientContext("TLSv1.3"),
                     server.address(), NEW_CLIENTS_PER_SECOND)) {
            Bench.log("%s: quiet phase, %.0f s", name, bench.seconds());
            Quiet quiet = phase(bench, server, resumer, newcomers, settings, report, "quiet", List.of(), null);
            phase(bench, server, resumer, newcomers, settings, report, "one-source", List.of(address("127.0.0.2")), quiet);
            if (tls13 || bench.ticketFromManySources()) {
                List<InetAddress> many = new ArrayList<>();
                for (int k = 1; k <= 64; k++) {
                    many.add(address("127.0." + k + ".2"));
                }
                phase(bench, server, resumer, newcomers, settings, report, "64-sources", many, quiet);
            }
        }
        return report;
    }

    /** What the attack phases are compared with. */
    private record Quiet(double p99Millis, double newAdmittedPerSecond) {
    }

    private Quiet phase(Bench bench, GatedServer server, ResumingProbe resumer, NewClientProbe newcomers,
                        ScenarioAttributes settings, ScenarioReport report, String phase, List<InetAddress> sources, Quiet quiet)
            throws Exception {
        if (!sources.isEmpty()) {
            Bench.log("%s: %s phase, %.0f forged hellos/s from %d source(s), %.0f s", name, phase, bench.forgedRate(),
                    sources.size(), bench.seconds());
        }
        resumer.swap();
        newcomers.swap();
        PhaseWindow window = new PhaseWindow(phase, server, settings.adaptive());
        HelloFlood flood = null;
        if (!sources.isEmpty()) {
            Random random = new Random();
            flood = new HelloFlood(server.address(), sources, bench.forgedRate(), bench.seconds(),
                    () -> hellos.apply(random), ANSWER_CAP_MILLIS, HelloFlood.Ending.RESET);
        }
        Thread.sleep((long) (bench.seconds() * 1000));
        PhaseWindow.Result r = window.close();
        ProbeLatency resumed = resumer.swap();
        NewClientProbe.Counts fresh = newcomers.swap();
        HelloFlood.Counts forged = null;
        if (flood != null) {
            forged = flood.counts();
            flood.close();
        }

        PhaseWindow.report(r, report, quiet == null ? Double.NaN : CPU_TARGET);
        double success = resumed.successRatio();
        double p99 = resumed.millisAt(99);
        double admitted = fresh.admitted() / r.seconds();
        if (quiet == null) {
            report.add(phase, "resumer success %", 100 * success, "%.1f");
            report.add(phase, "resumer p50 ms", resumed.millisAt(50), "%.1f");
            report.add(phase, "resumer p99 ms", p99, "%.1f");
            report.add(phase, "new clients admitted/s", admitted, "%.1f");
        } else {
            report.add(phase, "resumer success %", 100 * success, "%.1f",
                    String.format(Locale.ROOT, "≥ %.0f", 100 * RESUMER_SUCCESS_TARGET), success >= RESUMER_SUCCESS_TARGET);
            report.add(phase, "resumer p50 ms", resumed.millisAt(50), "%.1f");
            report.add(phase, "resumer p99 / quiet p99", p99 / quiet.p99Millis(), "%.2f",
                    String.format(Locale.ROOT, "≤ %.0f", RESUMER_P99_FACTOR), p99 / quiet.p99Millis() <= RESUMER_P99_FACTOR);
            report.add(phase, "new clients admitted/s vs quiet", admitted / quiet.newAdmittedPerSecond(), "%.2f",
                    String.format(Locale.ROOT, "≥ %.2f (quiet: %.1f/s)", NEW_CLIENTS_SHARE, quiet.newAdmittedPerSecond()),
                    admitted / quiet.newAdmittedPerSecond() >= NEW_CLIENTS_SHARE);
        }
        report.add(phase, "resumer attempts", resumed.successes() + resumed.failures(), "%.0f");
        report.add(phase, "new clients attempted/s", fresh.attempted() / r.seconds(), "%.1f");
        if (forged != null) {
            double achieved = forged.hellosSent() / r.seconds();
            report.add(phase, "forged hellos sent/s (achieved)", achieved, "%.0f",
                    String.format(Locale.ROOT, "%.0f offered", bench.forgedRate()), achieved >= 0.95 * bench.forgedRate());
            report.add(phase, "forged connections that failed to open", forged.openFailures(), "%.0f");
            forged.ends().forEach((reason, count) -> report.add(phase, "forged connections ended: " + reason, count, "%.0f"));
            report.add(phase, "late refusals", CounterSnapshot.sum(r.counters(), "tlsadmit_late_refusals_total"), "%.0f");
            report.add(phase, "full handshakes", CounterSnapshot.sum(r.counters(), "tlsadmit_handshakes_total", "kind=\"full\""), "%.0f");
        }
        return new Quiet(p99, admitted);
    }

    private static InetAddress address(String literal) throws UnknownHostException {
        return InetAddress.getByName(literal);
    }
}

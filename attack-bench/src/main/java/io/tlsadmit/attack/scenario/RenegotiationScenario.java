package io.tlsadmit.attack.scenario;

import io.tlsadmit.attack.client.OpenSslRenegotiation;
import io.tlsadmit.attack.client.RenegotiatingClient;
import io.tlsadmit.attack.report.ScenarioReport;
import io.tlsadmit.attack.server.CounterSnapshot;
import io.tlsadmit.attack.server.ScenarioAttributes;
import io.tlsadmit.attack.server.GatedServer;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * TLS 1.2 client-initiated renegotiation on admitted (resumed) connections. The budget holds one token,
 * spent on the first session: every later full handshake, renegotiations included, is one the gate
 * should have refused or at least counted.
 */
public final class RenegotiationScenario implements Scenario {
    private static final int THREADS = 4;
    private static final double MAX_CPU_RATIO = 1.3;

    @Override
    public String name() {
        return "renegotiation";
    }

    private static ScenarioAttributes settings(Bench bench) {
        return ScenarioAttributes.budget(bench.budget(), "0.01", "1");
    }

    @Override
    public ScenarioReport run(Bench bench) throws Exception {
        ScenarioAttributes settings = settings(bench);
        ScenarioReport report = bench.report(name(), settings.describe());
        try (GatedServer server = bench.start(name(), settings)) {
            RenegotiatingClient client = new RenegotiatingClient(bench.keystore().clientContext("TLSv1.2"), server.address());
            client.establish();
            CounterSnapshot atStart;

            // Both loops once unmeasured, so that neither is measured on a JIT-cold server.
            double warmup = Math.min(10, bench.seconds());
            Bench.log("%s: warming up both loops, %.0f s each", name(), warmup);
            client.baseline(THREADS, warmup);
            client.attack(THREADS, warmup);
            atStart = server.counters();

            // What Tomcat spends doing nothing, so that each loop's CPU per connection is its own.
            PhaseWindow idle = new PhaseWindow("idle", server, settings.adaptive());
            Thread.sleep((long) (Math.min(5, bench.seconds()) * 1000));
            PhaseWindow.Result ri = idle.close();
            double idleCpuPerSecond = ri.serverCpuSeconds() / ri.seconds();

            Bench.log("%s: (a) baseline, %d threads: connect, resume, close, for %.0f s", name(), THREADS, bench.seconds());
            PhaseWindow a = new PhaseWindow("a-resume", server, settings.adaptive());
            RenegotiatingClient.Counts baseline = client.baseline(THREADS, bench.seconds());
            PhaseWindow.Result ra = a.close();

            Bench.log("%s: (b) attack, %d threads: connect, resume, send a renegotiation hello for a new session, close, for %.0f s",
                    name(), THREADS, bench.seconds());
            PhaseWindow b = new PhaseWindow("b-renegotiate", server, settings.adaptive());
            RenegotiatingClient.Counts attack = client.attack(THREADS, bench.seconds());
            PhaseWindow.Result rb = b.close();
            Map<String, Double> whole = server.counters().since(atStart);
            report.note("both loops ran " + warmup + " s unmeasured first (JIT warm-up); the counters count from after it");

            report.add("idle", "Tomcat CPU-s/s with no client", idleCpuPerSecond, "%.4f");
            double msA = loop(report, ra, baseline, idleCpuPerSecond);
            double msB = loop(report, rb, attack, idleCpuPerSecond);
            double ratio = msB / msA;
            report.add("b/a", "Tomcat CPU per connection, attack / baseline", ratio, "%.2f",
                    String.format(Locale.ROOT, "≤ %.1f", MAX_CPU_RATIO), ratio <= MAX_CPU_RATIO);
            double counted = CounterSnapshot.sum(whole, "tlsadmit_handshakes_total", "kind=\"full\"");
            // The client leaves before any answer, so what the server did is read from its CPU, not the client.
            double fullCpuMs = msB - msA;
            report.add("b-a", "Tomcat CPU ms per renegotiation hello beyond a resumption", fullCpuMs, "%.3f");
            report.add("whole", "full handshakes counted by the gate", counted, "%.0f",
                    "= done (0 when the renegotiations were refused; else one per renegotiation hello)",
                    counted == 0 ? fullCpuMs < 0.5 * msA : counted >= attack.renegotiationsSent());
            report.add("whole", "tlsadmit_late_refusals_total increase",
                    CounterSnapshot.sum(whole, "tlsadmit_late_refusals_total"), "%.0f");
            Map<String, Double> renegotiation = new LinkedHashMap<>();
            whole.forEach((series, delta) -> {
                if (series.contains("renegotiation")) {
                    renegotiation.put(series, delta);
                }
            });
            report.note(renegotiation.isEmpty()
                    ? "no counter family named *renegotiation* changed (or the gate has none)"
                    : "renegotiation counters: " + renegotiation);
            report.note("both loops drive an SSLEngine over a socket: the attack sends its renegotiation hello and closes"
                    + " without waiting, as THC-SSL-DOS does; CPU per connection has Tomcat's idle CPU subtracted");
            PhaseWindow.report(ra, report, Double.NaN);
            PhaseWindow.report(rb, report, Double.NaN);
        }
        openSsl(bench, report);
        return report;
    }

    private static double loop(ScenarioReport report, PhaseWindow.Result r, RenegotiatingClient.Counts c,
            double idleCpuPerSecond) {
        double busy = r.serverCpuSeconds() - idleCpuPerSecond * r.seconds();
        double msPerConnection = c.connections() == 0 ? Double.NaN : 1000 * busy / c.connections();
        report.add(r.phase(), "connections/s", c.perSecond(), "%.1f");
        report.add(r.phase(), "connections that resumed", c.resumed(), "%.0f");
        report.add(r.phase(), "connections failed", c.failures(), "%.0f");
        report.add(r.phase(), "Tomcat CPU ms per connection", msPerConnection, "%.3f");
        if (c.renegotiationsSent() > 0) {
            report.add(r.phase(), "renegotiation hellos sent", c.renegotiationsSent(), "%.0f");
        }
        return msPerConnection;
    }

    /** Informational: the same attack with the reference client, against a fresh server (its own token). */
    private static void openSsl(Bench bench, ScenarioReport report) {
        try (GatedServer server = bench.start("renegotiation-openssl", settings(bench))) {
            OpenSslRenegotiation.Outcome outcome = OpenSslRenegotiation.run(server.port(),
                    bench.keystore().certificatePem(), bench.out());
            report.note(String.format("openssl s_client -tls1_2: first handshake %s, resumed %s; %s. Printed after"
                            + " RENEGOTIATING: `%s`", outcome.firstHandshake() ? "ok" : "FAILED",
                    outcome.resumed() ? "yes" : "no", outcome.verdict(), outcome.afterRenegotiating()));
        } catch (Exception e) {
            report.note("openssl s_client check could not run: " + e);
        }
    }
}

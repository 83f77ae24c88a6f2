package io.tlsadmit.bench;

import io.tlsadmit.testing.FullHandshakeCpu;
import io.tlsadmit.testing.PrometheusScrape;
import java.util.Locale;

/**
 * What the gate counted (the server's truth, from its metrics), as totals or over a step: handshakes by kind as the
 * server's records showed them, offers to resume that the gate refused, and the CPU of the full handshakes it timed.
 * Absent for a server without a gate.
 *
 * <p>Why the CPU per full handshake: the guests these runs share slow down for a minute or more at a time (every
 * handshake at 1.4–1.5× its CPU, docs/benchmarks.md section 3, 2026-12-07), and a step that fell in such a spell is
 * otherwise told apart from a step the gate did badly only by guesswork. The gate times every full handshake where
 * its budget learns from them (the adaptive one); elsewhere there are none to read.
 */
record GateTruth(boolean present, double fullHandshakes, double resumedHandshakes, double resumptionOffersRefused,
                 FullHandshakeCpu fullHandshakeCpu) {

    static final GateTruth ABSENT = new GateTruth(false, 0, 0, 0, new FullHandshakeCpu(0, 0));

    private static final String[] RESUMPTIONS = {"RESUME_PSK", "RESUME_TICKET", "RESUME_SESSION_ID"};

    static GateTruth of(PrometheusScrape metrics) {
        if (!metrics.has("tlsadmit_handshakes_total")) {
            return ABSENT;
        }
        double refused = 0;
        for (String verdict : RESUMPTIONS) {
            refused += metrics.value("tlsadmit_connections_total", "verdict", verdict, "decision", "refused");
        }
        return new GateTruth(true, metrics.value("tlsadmit_handshakes_total", "kind", "full"),
                metrics.value("tlsadmit_handshakes_total", "kind", "resumed"), refused, FullHandshakeCpu.of(metrics));
    }

    /** From {@code before} to this; absent unless both are present. */
    GateTruth since(GateTruth before) {
        if (!present || !before.present) {
            return ABSENT;
        }
        return new GateTruth(true, fullHandshakes - before.fullHandshakes, resumedHandshakes - before.resumedHandshakes,
                resumptionOffersRefused - before.resumptionOffersRefused,
                fullHandshakeCpu.since(before.fullHandshakeCpu));
    }

    /** The server's CPU per full handshake it timed, in ms; NaN when it timed none. */
    double fullHandshakeCpuMillis() {
        return fullHandshakeCpu.millisEach();
    }

    @Override
    public String toString() {
        return present ? String.format(Locale.ROOT, "%.0f full and %.0f resumed handshakes, %.0f resumption offers refused",
                fullHandshakes, resumedHandshakes, resumptionOffersRefused) : "no gate";
    }
}

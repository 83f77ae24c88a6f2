package io.tlsadmit.bench;

import io.tlsadmit.testing.PrometheusScrape;
import java.util.Locale;

/**
 * What the gate counted (the server's truth, from its metrics), as totals or over a step: handshakes by kind as the
 * server's records showed them, and offers to resume that the gate refused. Absent for a server without a gate.
 */
record GateTruth(boolean present, double fullHandshakes, double resumedHandshakes, double resumptionOffersRefused) {

    private static final String[] RESUMPTIONS = {"RESUME_PSK", "RESUME_TICKET", "RESUME_SESSION_ID"};

    static GateTruth of(PrometheusScrape metrics) {
        if (!metrics.has("tlsadmit_handshakes_total")) {
            return new GateTruth(false, 0, 0, 0);
        }
        double refused = 0;
        for (String verdict : RESUMPTIONS) {
            refused += metrics.value("tlsadmit_connections_total", "verdict", verdict, "decision", "refused");
        }
        return new GateTruth(true, metrics.value("tlsadmit_handshakes_total", "kind", "full"),
                metrics.value("tlsadmit_handshakes_total", "kind", "resumed"), refused);
    }

    /** From {@code before} to this; absent unless both are present. */
    GateTruth since(GateTruth before) {
        if (!present || !before.present) {
            return new GateTruth(false, 0, 0, 0);
        }
        return new GateTruth(true, fullHandshakes - before.fullHandshakes, resumedHandshakes - before.resumedHandshakes,
                resumptionOffersRefused - before.resumptionOffersRefused);
    }

    @Override
    public String toString() {
        return present ? String.format(Locale.ROOT, "%.0f full and %.0f resumed handshakes, %.0f resumption offers refused",
                fullHandshakes, resumedHandshakes, resumptionOffersRefused) : "no gate";
    }
}

package io.tlsadmit.testing;

import java.util.Map;
import java.util.function.Predicate;

/**
 * The CPU the gate timed for its full handshakes ({@code tlsadmit_handshake_cpu_seconds{kind="full"}}, every TLS
 * version), as totals in one scrape or over the interval between two: what tells a benchmark step that fell in one
 * of a shared machine's slow spells (every handshake at 1.4–1.5× its CPU, docs/benchmarks.md section 3) from a step
 * the gate did badly. Only the adaptive budget times handshakes; with another budget, or none, nothing is timed.
 *
 * @param seconds CPU seconds of the timed full handshakes
 * @param timed   how many were timed
 */
public record FullHandshakeCpu(double seconds, double timed) {

    private static final String METRIC = "tlsadmit_handshake_cpu_seconds";

    /** The totals of every connector's series in {@code metrics}. */
    public static FullHandshakeCpu of(PrometheusScrape metrics) {
        return of(metrics, labels -> true);
    }

    /** The totals of the series whose labels pass {@code series} (a connector's own, say). */
    public static FullHandshakeCpu of(PrometheusScrape metrics, Predicate<Map<String, String>> series) {
        Predicate<Map<String, String>> full = labels -> "full".equals(labels.get("kind")) && series.test(labels);
        return new FullHandshakeCpu(metrics.value(METRIC + "_sum", full), metrics.value(METRIC + "_count", full));
    }

    /** From {@code before} to this. */
    public FullHandshakeCpu since(FullHandshakeCpu before) {
        return new FullHandshakeCpu(seconds - before.seconds, timed - before.timed);
    }

    /** The mean CPU per timed full handshake in ms; NaN when none was timed. */
    public double millisEach() {
        return timed > 0 ? 1000 * seconds / timed : Double.NaN;
    }
}

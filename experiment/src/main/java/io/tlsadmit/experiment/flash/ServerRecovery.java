package io.tlsadmit.experiment.flash;

import java.util.ArrayList;
import java.util.List;

/**
 * The flash crowd seen by the gate, at 100 ms resolution: from samples of its counter of admitted new connections
 * ({@code tlsadmit_connections_total{decision="admitted",verdict="NEW"}}: the tokens it gives out, one per full
 * handshake it lets begin), the seconds from the crowd's first admission until the admitted rate first reaches 90 %
 * of its steady value and holds it to the end of the window. The rate at a sample is the counter's increase over
 * the second before it, so the figure cannot be below about 0.9 s: the floor of a one-second rate, not of the gate.
 *
 * @param steady             admitted new connections per second: given (the sweep's step at the same load) or the
 *                           median rate over the window's last 10 s; NaN when nothing was admitted
 * @param secondsTo90Percent from the last sample before the first admission to the first sample from which every
 *                           rate within the window (its last second left out: the arrivals end within it) stays at
 *                           90 % of {@code steady} or more; -1 when it never holds
 */
public record ServerRecovery(double steady, double secondsTo90Percent) {

    static final double SHARE = 0.9;
    static final long RATE_MS = 1_000;
    static final long STEADY_MS = 10_000;

    /**
     * @param samples  {@code [ms, counter]} in time order, from before the crowd arrived
     * @param windowMs how long users arrived, from the first admission on
     * @param steady   the steady rate measured elsewhere, or NaN for the window's tail
     */
    public static ServerRecovery of(List<double[]> samples, long windowMs, double steady) {
        int first = 1;
        while (first < samples.size() && samples.get(first)[1] <= samples.get(0)[1]) {
            first++;
        }
        if (first >= samples.size()) {
            return new ServerRecovery(Double.NaN, -1);
        }
        double t0 = samples.get(first - 1)[0];
        List<double[]> rates = new ArrayList<>();
        int back = 0;
        // the crowd's arrivals began a little before the first admission, so they end a little before t0 + window:
        // a rate whose second reaches past that end would count the end of the arrivals as the gate's slowness
        for (int i = first; i < samples.size() && samples.get(i)[0] <= t0 + windowMs - RATE_MS; i++) {
            double[] now = samples.get(i);
            while (back + 1 < i && samples.get(back + 1)[0] <= now[0] - RATE_MS) {
                back++;
            }
            double[] then = samples.get(back);
            double span = Math.max(RATE_MS, now[0] - then[0]) / 1000.0;
            rates.add(new double[] {now[0], (now[1] - then[1]) / span});
        }
        if (Double.isNaN(steady)) {
            double end = rates.get(rates.size() - 1)[0];
            steady = Recovery.median(rates.stream().filter(r -> r[0] > end - STEADY_MS).mapToDouble(r -> r[1])
                    .toArray());
        }
        int from = rates.size();
        while (from > 0 && rates.get(from - 1)[1] >= SHARE * steady) {
            from--;
        }
        double seconds = from == rates.size() || !(steady > 0) ? -1 : (rates.get(from)[0] - t0) / 1000.0;
        return new ServerRecovery(steady, seconds);
    }
}

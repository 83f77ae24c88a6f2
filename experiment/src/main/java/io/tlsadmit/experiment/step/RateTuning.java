package io.tlsadmit.experiment.step;

import java.util.ArrayList;
import java.util.List;

/**
 * The choice of a HAProxy mode's rate: candidates at 0.5, 1, 1.5 and 2 × the knee, each measured on a fresh server
 * at 4× the knee; the highest throughput wins. The knee is in new users/s, but HAProxy's rates count connections
 * (a returning user's reconnection too), so the best rate may lie above 2×: while the highest candidate so far
 * wins, the next is one knee more, up to 4× (the load the candidates are measured at).
 */
public final class RateTuning {

    static final double[] FIRST = {0.5, 1, 1.5, 2};
    static final double LAST = 4;

    private final double knee;
    private final List<double[]> measured = new ArrayList<>();

    public RateTuning(double knee) {
        this.knee = knee;
    }

    /** The next rate to measure, or 0 when the choice is made. */
    public int nextRate() {
        int i = measured.size();
        if (i < FIRST.length) {
            return rate(FIRST[i]);
        }
        int last = (int) measured.get(i - 1)[0];
        if (best() != last || last >= rate(LAST)) {
            return 0;
        }
        return Math.min(rate(last / knee + 1), rate(LAST));
    }

    public void record(int rate, double throughput) {
        measured.add(new double[] {rate, throughput});
    }

    /** The measured rate with the highest throughput (the lower one on a tie). */
    public int best() {
        double[] best = null;
        for (double[] m : measured) {
            if (best == null || m[1] > best[1]) {
                best = m;
            }
        }
        if (best == null) {
            throw new IllegalStateException("no rate measured");
        }
        return (int) best[0];
    }

    public double bestThroughput() {
        return measured.stream().mapToDouble(m -> m[1]).max().orElse(-1);
    }

    private int rate(double multiple) {
        return (int) Math.max(1, Math.round(multiple * knee));
    }
}

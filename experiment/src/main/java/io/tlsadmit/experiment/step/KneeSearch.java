package io.tlsadmit.experiment.step;

import java.util.ArrayList;
import java.util.List;

/**
 * Finds the knee of the stock server: the arrival rate of new users at which its throughput peaks. Rates double
 * from a start until throughput has clearly stopped growing, so the search itself stays short and ends past the
 * knee; the knee is the measured rate with the highest throughput.
 */
public final class KneeSearch {

    /** Below this gain over the best so far a doubling of the load is not growth, just noise. */
    static final double GROWTH = 1.05;
    static final int MAX_STEPS = 8;

    private final double startRate;
    private final List<double[]> measured = new ArrayList<>();

    public KneeSearch(double startRate) {
        if (!(startRate > 0)) {
            throw new IllegalArgumentException("start rate must be > 0, got " + startRate);
        }
        this.startRate = startRate;
    }

    /** The next rate to measure, or NaN when the knee has been passed. */
    public double nextRate() {
        if (measured.isEmpty()) {
            return startRate;
        }
        if (measured.size() >= MAX_STEPS || passed()) {
            return Double.NaN;
        }
        return 2 * measured.get(measured.size() - 1)[0];
    }

    public void record(double rate, double throughput) {
        measured.add(new double[] {rate, throughput});
    }

    /** Two doublings in a row without growth over the best before them. */
    private boolean passed() {
        int n = measured.size();
        if (n < 3) {
            return false;
        }
        double bestBefore = 0;
        for (int i = 0; i < n - 2; i++) {
            bestBefore = Math.max(bestBefore, measured.get(i)[1]);
        }
        return measured.get(n - 2)[1] < GROWTH * bestBefore && measured.get(n - 1)[1] < GROWTH * bestBefore;
    }

    public double knee() {
        return kneeOf(measured);
    }

    /** The rate whose throughput is highest (the lower rate on a tie): where more users stop bringing more work. */
    public static double kneeOf(List<double[]> rateAndThroughput) {
        if (rateAndThroughput.isEmpty()) {
            throw new IllegalStateException("no step measured: no knee");
        }
        double[] best = null;
        for (double[] point : rateAndThroughput) {
            if (best == null || point[1] > best[1] || (point[1] == best[1] && point[0] < best[0])) {
                best = point;
            }
        }
        return best[0];
    }
}

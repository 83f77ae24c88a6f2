package io.tlsadmit.experiment.step;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Finds the knee of the stock server: the arrival rate of new users at which its throughput peaks. Rates double
 * from a start until throughput has clearly stopped growing, so the search stays short and ends past the knee.
 * Doubling only brackets the knee: between the last rate that held (grew by 5 % over the best before it) and the
 * next rate doubling measured (the first that did not) the search then bisects until the bracket is narrower than the
 * {@link Resolution}. A midpoint <em>held</em> when its throughput grew over the bracket's lower end by the
 * doubling's criterion pro rata (5 % per doubling of load: {@code GROWTH^log2(mid/low)}, +2.9 % for 1.5×); else it
 * is where the server no longer turns more users into more work, and becomes the upper end. The knee is the last
 * rate that held.
 *
 * <p>Throughput alone overestimates the knee on short steps: just past it a queue builds, but for the length of a
 * step the server still answers about as fast as users arrive, so the step "grew". A rate therefore also holds only
 * while its page p99 stays within {@value #LATENCY_FACTOR} × the start rate's: a queue that grew during the step shows
 * as a p99 of seconds (on the 2-CPU Intel guest, 2026-11-27: 68 ms at 4 users/s, 195 ms at 32, 4.9 s at 64, where
 * throughput still "grew" and the search took 64 for the knee); steady queueing below the knee stays well inside.
 * Doubling stops at the first rate past that bound. A step that did not hold leaves a backlog behind it: the caller
 * measures the next one on a fresh server ({@link #lastHeld()}).
 */
public final class KneeSearch {

    /** Below this gain over the best so far a doubling of the load is not growth, just noise. */
    static final double GROWTH = 1.05;
    static final int MAX_STEPS = 8;
    /** Bisection steps at most, whatever the resolution: 6 halve any bracket to under 2 % of it. */
    static final int MAX_BISECTIONS = 6;
    /** A step's page p99 above this many times the start rate's: a queue grew during it, the server was past its knee. */
    public static final double LATENCY_FACTOR = 10;

    private final double startRate;
    private final Resolution resolution;
    /** {@code [rate, throughput, page p99 ms]} in the order measured. */
    private final List<double[]> measured = new ArrayList<>();
    /** The bracket once doubling has passed the knee: {@code [rate, throughput, p99]} of its ends; null before. */
    private double[] low;
    private double[] high;
    private int bisections;
    private boolean lastHeld = true;

    /** Doubling only, as before issue 14's finer search: the knee is the best doubling. */
    public KneeSearch(double startRate) {
        this(startRate, Resolution.NONE);
    }

    public KneeSearch(double startRate, Resolution resolution) {
        if (!(startRate > 0)) {
            throw new IllegalArgumentException("start rate must be > 0, got " + startRate);
        }
        this.startRate = startRate;
        this.resolution = resolution;
    }

    /** The next rate to measure, or NaN when the knee has been found. */
    public double nextRate() {
        if (measured.isEmpty()) {
            return startRate;
        }
        if (low == null) {
            if (measured.size() < MAX_STEPS && !passed() && withinLatency(measured.get(measured.size() - 1))) {
                return 2 * measured.get(measured.size() - 1)[0];
            }
            bracket();
            if (low == null) {
                return Double.NaN;
            }
        }
        if (high == null || bisections >= MAX_BISECTIONS || high[0] - low[0] <= resolution.width(low[0])) {
            return Double.NaN;
        }
        // one decimal: all a Poisson arrival rate needs, and the rates stay readable in steps.csv
        double mid = Math.round((low[0] + high[0]) * 5) / 10.0;
        return mid > low[0] && mid < high[0] ? mid : Double.NaN;
    }

    /** A step without a page p99: throughput alone decides whether it held. */
    public void record(double rate, double throughput) {
        record(rate, throughput, Double.NaN);
    }

    /**
     * @param pageP99Millis the step's page p99; NaN when it has none (no page came back: its throughput says it)
     */
    public void record(double rate, double throughput, double pageP99Millis) {
        double[] point = {rate, throughput, pageP99Millis};
        double best = measured.stream().mapToDouble(p -> p[1]).max().orElse(0);
        measured.add(point);
        if (low != null && high != null && rate > low[0] && rate < high[0]) {
            bisections++;
            lastHeld = held(point);
            if (lastHeld) {
                low = point;
            } else {
                high = point;
            }
        } else {
            lastHeld = (measured.size() == 1 || throughput >= GROWTH * best) && withinLatency(point);
        }
    }

    /**
     * Whether the last step recorded held: grew, and within the latency bound. One that did not left a queue behind;
     * the next step must start on a fresh server.
     */
    public boolean lastHeld() {
        return lastHeld;
    }

    /** The doubling's growth criterion, pro rata to the load added over the bracket's lower end, and the latency bound. */
    private boolean held(double[] point) {
        double doublings = Math.log(point[0] / low[0]) / Math.log(2);
        return point[1] >= low[1] * Math.pow(GROWTH, doublings) && withinLatency(point);
    }

    /** The start rate's p99 is the reference; without one (or without the step's), throughput alone decides. */
    private boolean withinLatency(double[] point) {
        double reference = measured.get(0)[2];
        return Double.isNaN(reference) || Double.isNaN(point[2]) || point[2] <= LATENCY_FACTOR * reference;
    }

    /**
     * Doubling has passed the knee: the last rate that held (grew by {@code GROWTH} over the best before it, within
     * the latency bound; the start rate holds by definition) and the next rate doubling measured, the first that did
     * not.
     */
    private void bracket() {
        if (Double.isInfinite(resolution.width(1))) {
            return;
        }
        double best = 0;
        int last = 0;
        for (int i = 0; i < measured.size(); i++) {
            if (i == 0 || measured.get(i)[1] >= GROWTH * best && withinLatency(measured.get(i))) {
                last = i;
            }
            best = Math.max(best, measured.get(i)[1]);
        }
        low = measured.get(last);
        high = last + 1 < measured.size() ? measured.get(last + 1) : null;
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

    /**
     * The last rate that held once bisecting; before (or without) bisection, the best doubling within the latency
     * bound.
     */
    public double knee() {
        if (low != null) {
            return low[0];
        }
        List<double[]> within = measured.stream().filter(this::withinLatency).toList();
        return kneeOf(within.isEmpty() ? measured : within);
    }

    /**
     * The knee of a sweep, whose rates were chosen in advance rather than searched: the rate of highest throughput among
     * those whose page p99 stayed within the latency bound of the lowest rate's (all of them if none did).
     *
     * @param steps {@code [rate, throughput, page p99 ms]} each, in any order
     */
    public static double kneeOfSweep(List<double[]> steps) {
        List<double[]> byRate = steps.stream().sorted(java.util.Comparator.comparingDouble(p -> p[0])).toList();
        if (byRate.isEmpty()) {
            throw new IllegalStateException("no step measured: no knee");
        }
        KneeSearch replay = new KneeSearch(byRate.get(0)[0], Resolution.NONE);
        for (double[] step : byRate) {
            replay.record(step[0], step[1], step[2]);
        }
        return replay.knee();
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

    /**
     * How narrow the bracket must become: an absolute width in new users/s, or a share of its lower end
     * ({@code --knee-resolution 8} or {@code 10%}).
     */
    public record Resolution(double value, boolean share) {

        /** No bisection: the knee is the best doubling. */
        public static final Resolution NONE = new Resolution(Double.POSITIVE_INFINITY, false);
        public static final Resolution DEFAULT = new Resolution(0.10, true);

        public double width(double lower) {
            return share ? value * lower : value;
        }

        /** {@code 8} (new users/s), {@code 10%} (of the bracket's lower end), or {@code off}. */
        public static Resolution parse(String text) {
            String t = text.strip().toLowerCase(Locale.ROOT);
            if (t.equals("off")) {
                return NONE;
            }
            boolean share = t.endsWith("%");
            try {
                double v = Double.parseDouble(share ? t.substring(0, t.length() - 1).strip() : t);
                if (v > 0 && Double.isFinite(v) && (!share || v < 100)) {
                    return new Resolution(share ? v / 100 : v, share);
                }
            } catch (NumberFormatException e) {
                // reported below, with the option's name
            }
            throw new IllegalArgumentException("--knee-resolution must be new users/s (e.g. 8), a share of the"
                    + " bracket's lower end below 100 % (e.g. 10%) or off, got '" + text + "'");
        }

        @Override
        public String toString() {
            return Double.isInfinite(value) ? "off"
                    : share ? String.format(Locale.ROOT, "%.0f%%", value * 100) : String.format(Locale.ROOT, "%s", value);
        }
    }
}

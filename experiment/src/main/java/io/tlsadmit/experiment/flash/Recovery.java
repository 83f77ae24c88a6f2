package io.tlsadmit.experiment.flash;

import java.util.Arrays;

/**
 * How fast a server serves a flash crowd: from 1 s buckets of throughput since the crowd arrived, the seconds until
 * throughput first reaches 90 % of the mode's steady value at that load and holds it for the rest of the window.
 * Steady is given (the mode's sweep step at the same load: a warm server's throughput there) or else the median of
 * the window's last 10 s (a median, so one slow second at the end does not move it).
 */
public record Recovery(double steady, int secondsTo90Percent, long refusedMeanwhile) {

    static final double SHARE = 0.9;
    static final int STEADY_SECONDS = 10;

    /**
     * {@code replies[s]} and {@code refused[s]}: replies and refused connections in second {@code s} of the window
     * (second 0 begins when the crowd arrives). The answer counts whole buckets: {@code t} when bucket {@code t - 1}
     * is the first from which every bucket reaches 90 % — by the end of it the server was there; {@code -1} when the
     * last bucket is still below (it never held) or the steady value is 0 (a collapsed server never got there). Refused connections are summed over those {@code t} seconds
     * (the whole window when it never held).
     */
    public static Recovery of(double[] replies, double[] refused) {
        if (replies.length <= STEADY_SECONDS || refused.length != replies.length) {
            throw new IllegalArgumentException("need more than " + STEADY_SECONDS + " seconds of replies and as many"
                    + " of refused connections, got " + replies.length + " and " + refused.length);
        }
        return of(replies, refused, median(Arrays.copyOfRange(replies, replies.length - STEADY_SECONDS, replies.length)));
    }

    /** As {@link #of(double[], double[])}, against a steady value measured elsewhere (the sweep's step). */
    public static Recovery of(double[] replies, double[] refused, double steady) {
        if (refused.length != replies.length) {
            throw new IllegalArgumentException("need as many seconds of refused connections as of replies, got "
                    + refused.length + " and " + replies.length);
        }
        int from = replies.length;
        while (from > 0 && replies[from - 1] >= SHARE * steady) {
            from--;
        }
        int seconds = from == replies.length || steady <= 0 ? -1 : from + 1;
        long refusedMeanwhile = 0;
        for (int s = 0; s < (seconds < 0 ? refused.length : seconds); s++) {
            refusedMeanwhile += Math.round(refused[s]);
        }
        return new Recovery(steady, seconds, refusedMeanwhile);
    }

    /** The median of {@code values}, NaN when there are none. */
    public static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}

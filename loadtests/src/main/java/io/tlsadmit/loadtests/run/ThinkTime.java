package io.tlsadmit.loadtests.run;

/**
 * TPC-W style think time: exponential around the table's mean, capped at ten means (70 s for the 7 s of both
 * RUBiS mixes), all multiplied by a scale so that short runs can think less.
 */
public final class ThinkTime {

    private static final double CAP_IN_MEANS = 10;

    private final double scale;

    public ThinkTime(double scale) {
        if (!(scale >= 0)) {
            throw new IllegalArgumentException("think time scale must be >= 0, got " + scale);
        }
        this.scale = scale;
    }

    /** {@code uniform} in [0, 1): inverse transform of the exponential distribution. */
    public long millis(long meanMillis, double uniform) {
        double mean = meanMillis * scale;
        double draw = -mean * Math.log(1 - uniform);
        return Math.round(Math.min(draw, CAP_IN_MEANS * mean));
    }
}

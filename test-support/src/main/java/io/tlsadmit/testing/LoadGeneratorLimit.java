package io.tlsadmit.testing;

/**
 * When a load generator's own CPU, rather than the server, may have set a measured figure. Every harness here runs
 * its load generator on one CPU beside the server's (Gatling in the RUBiS experiment, the JSSE drivers of the
 * overload and attack benchmarks); one rule for all of them, so that "limited by the load generator" means the same
 * in every summary.
 *
 * <p>Why 90 % of one core: at 8× the capacity in the overload benchmark (2026-12-07, docs/benchmarks.md section 3) the
 * gated servers' steps with the driver at 97-100 % served 126-186 req/s, while those with it at 43-90 % served 199-272
 * but for two whose server, not driver, was at 98-99 %; the RUBiS experiment and the attack benchmark had used the same
 * threshold on their own.
 */
public final class LoadGeneratorLimit {

    /** Share of one core, in percent, from which the load generator is taken to have been the limit. */
    public static final double SATURATED_PERCENT = 90;

    private LoadGeneratorLimit() {
    }

    /** Whether a load generator that used {@code cpuPercentOfOneCore} of its core was the limit. */
    public static boolean reached(double cpuPercentOfOneCore) {
        return cpuPercentOfOneCore >= SATURATED_PERCENT;
    }
}

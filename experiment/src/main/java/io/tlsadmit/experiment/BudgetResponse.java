package io.tlsadmit.experiment;

import io.tlsadmit.experiment.flash.Recovery;
import java.util.ArrayList;
import java.util.List;

/**
 * How the budget followed one change of CPUs, from its samples (issue 14: "the rate within 10 % of its new steady
 * value within 1 s").
 *
 * @param before                    median rate over the second before the change
 * @param steady                    median rate over the second half of the new phase: its new steady value
 * @param secondsToWithin10Percent  from the change to the first sample from which every sample of the phase stays
 *                                  within ±10 % of {@code steady}; -1 when none does
 * @param secondsToFirstWithin10Percent from the change to the first sample within ±10 % of {@code steady}, whether or
 *                                  not the rate stays there: how fast it moved, apart from how steady it is
 * @param shareWithin10Percent      of the phase's samples from 1 s after the change on, the share within ±10 % of
 *                                  {@code steady}: how steady the rate is once it has moved (a feedback loop on noisy
 *                                  measurements leaves the band now and then, which the first time never forgives)
 */
record BudgetResponse(double before, double steady, double secondsToWithin10Percent,
                      double secondsToFirstWithin10Percent, double shareWithin10Percent) {

    /**
     * @param samples  {@code [ms since start, rate]}, in time order
     * @param changeMs when the CPUs changed
     * @param endMs    when the new phase ended
     */
    static BudgetResponse of(List<double[]> samples, long changeMs, long endMs) {
        List<Double> before = new ArrayList<>();
        List<Double> late = new ArrayList<>();
        List<double[]> phase = new ArrayList<>();
        long half = changeMs + (endMs - changeMs) / 2;
        for (double[] s : samples) {
            if (s[0] >= changeMs - 1000 && s[0] < changeMs) {
                before.add(s[1]);
            }
            if (s[0] >= changeMs && s[0] < endMs) {
                phase.add(s);
                if (s[0] >= half) {
                    late.add(s[1]);
                }
            }
        }
        double steady = Recovery.median(late.stream().mapToDouble(Double::doubleValue).toArray());
        double within = -1;
        for (int i = phase.size() - 1; i >= 0 && !Double.isNaN(steady); i--) {
            if (!inBand(phase.get(i)[1], steady)) {
                break;
            }
            within = (phase.get(i)[0] - changeMs) / 1000.0;
        }
        double first = -1;
        int settled = 0;
        int inBand = 0;
        for (double[] s : phase) {
            boolean in = inBand(s[1], steady);
            if (in && first < 0) {
                first = (s[0] - changeMs) / 1000.0;
            }
            if (s[0] >= changeMs + 1000) {
                settled++;
                inBand += in ? 1 : 0;
            }
        }
        return new BudgetResponse(Recovery.median(before.stream().mapToDouble(Double::doubleValue).toArray()), steady,
                within, first, settled == 0 ? Double.NaN : (double) inBand / settled);
    }

    private static boolean inBand(double rate, double steady) {
        return !Double.isNaN(steady) && Math.abs(rate - steady) <= 0.1 * steady;
    }
}

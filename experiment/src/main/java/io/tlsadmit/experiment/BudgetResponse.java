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
 */
record BudgetResponse(double before, double steady, double secondsToWithin10Percent) {

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
            if (Math.abs(phase.get(i)[1] - steady) > 0.1 * steady) {
                break;
            }
            within = (phase.get(i)[0] - changeMs) / 1000.0;
        }
        return new BudgetResponse(Recovery.median(before.stream().mapToDouble(Double::doubleValue).toArray()), steady, within);
    }
}

package io.tlsadmit.experiment.step;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

class RateTuningTest {

    /** Runs the tuning against a made-up throughput curve; returns the rates measured, then the choice. */
    private static List<Integer> tune(double knee, IntToDoubleFunction throughput) {
        RateTuning tuning = new RateTuning(knee);
        List<Integer> tried = new ArrayList<>();
        for (int rate = tuning.nextRate(); rate != 0; rate = tuning.nextRate()) {
            tried.add(rate);
            tuning.record(rate, throughput.applyAsDouble(rate));
        }
        tried.add(tuning.best());
        return tried;
    }

    @Test
    void theFourCandidatesAroundTheKneeWhenOneBelowTheTopWins() {
        assertEquals(List.of(40, 80, 120, 160, 120), tune(80, rate -> rate == 120 ? 2000 : 1000));
    }

    @Test
    void aRateCountingReconnectionsToo_goesOnAKneeAtATimeWhileTheTopWins() {
        // throughput grows up to 3x the knee and falls after: 3x is tried, 4x too, and 3x chosen
        assertEquals(List.of(40, 80, 120, 160, 240, 320, 240), tune(80, rate -> rate <= 240 ? rate : 480 - rate));
        // still growing at 4x: the tuning stops there, at the load it is measured at
        assertEquals(List.of(40, 80, 120, 160, 240, 320, 320), tune(80, rate -> rate));
    }

    @Test
    void aTieGoesToTheLowerRate() {
        assertEquals(List.of(40, 80, 120, 160, 120), tune(80, rate -> Math.min(rate, 120)));
    }

    @Test
    void aTinyKneeStillGivesRatesOfAtLeastOne() {
        assertEquals(List.of(1, 1, 2, 2, 3, 4, 4), tune(1, rate -> rate));
    }
}

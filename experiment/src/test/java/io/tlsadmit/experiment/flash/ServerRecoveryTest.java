package io.tlsadmit.experiment.flash;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServerRecoveryTest {

    /**
     * A counter sampled every 100 ms: idle (the count stays 7) until {@code startMs}, then admitting {@code slow}
     * per second until {@code fastMs}, then {@code fast} per second, until {@code endMs}.
     */
    private static List<double[]> counter(long startMs, long fastMs, long endMs, double slow, double fast) {
        List<double[]> samples = new ArrayList<>();
        double count = 7;
        for (long ms = 0; ms <= endMs; ms += 100) {
            if (ms > startMs) {
                count += (ms > fastMs ? fast : slow) / 10;
            }
            samples.add(new double[] {ms, count});
        }
        return samples;
    }

    @Test
    void theAdmittedRateHoldsNinetyPercentOfTheSweepsSteadyValueAfterTheRampFromTheFirstAdmission() {
        // first admission in the sample at 2.1 s; 20/s until 5 s, then 100/s: the one-second rate reaches 90/s
        // at 5.9 s, i.e. 3.9 s after the last sample before the crowd (2.0 s)
        ServerRecovery r = ServerRecovery.of(counter(2000, 5000, 40_000, 20, 100), 30_000, 100);
        assertEquals(100, r.steady());
        assertEquals(3.9, r.secondsTo90Percent(), 1e-9);
    }

    @Test
    void withoutASweepTheSteadyValueIsTheWindowsTail() {
        ServerRecovery r = ServerRecovery.of(counter(2000, 5000, 40_000, 20, 100), 30_000, Double.NaN);
        assertEquals(100, r.steady(), 1e-9);
        assertEquals(3.9, r.secondsTo90Percent(), 1e-9);
    }

    @Test
    void aGateAtFullRateFromTheStartIsHeldAfterTheOneSecondRatesFloor() {
        ServerRecovery r = ServerRecovery.of(counter(1000, 1000, 20_000, 50, 50), 15_000, 50);
        assertEquals(0.9, r.secondsTo90Percent(), 1e-9, "a one-second rate needs 0.9 s to show 90 %");
    }

    @Test
    void aRateBelowTheSweepsToTheEndNeverHeldAndNoAdmissionNoFigure() {
        assertEquals(-1, ServerRecovery.of(counter(1000, 1000, 20_000, 50, 50), 15_000, 80).secondsTo90Percent());
        ServerRecovery idle = ServerRecovery.of(counter(30_000, 30_000, 20_000, 50, 50), 15_000, 50);
        assertEquals(-1, idle.secondsTo90Percent());
        assertEquals(Double.NaN, idle.steady());
    }

    @Test
    void theEndOfTheArrivalsIsNotTheGateFallingBehind() {
        // admitting 100/s from 2.0 s; the arrivals (which began before the first admission) end at 31.8 s, inside
        // the window's last second: the rate over the second before 32.0 s is 80/s, but it is not counted
        List<double[]> samples = new ArrayList<>();
        double count = 0;
        for (long ms = 0; ms <= 33_000; ms += 100) {
            if (ms > 2000 && ms <= 31_800) {
                count += 10;
            }
            samples.add(new double[] {ms, count});
        }
        assertEquals(0.9, ServerRecovery.of(samples, 30_000, 100).secondsTo90Percent(), 1e-9);
    }
}

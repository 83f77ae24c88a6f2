package io.tlsadmit.loadtests.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ThinkTimeTest {

    @Test
    void drawsAverageTheMeanAndStopAtTenMeans() {
        ThinkTime thinkTime = new ThinkTime(1);
        Random random = new Random(5);
        long max = 0;
        double sum = 0;
        int draws = 200_000;
        for (int i = 0; i < draws; i++) {
            long millis = thinkTime.millis(7000, random.nextDouble());
            max = Math.max(max, millis);
            sum += millis;
        }
        // the cap at 10 means removes e^-10 of the mass: the mean stays within a fraction of a percent
        assertEquals(7000, sum / draws, 7000 * 0.01);
        assertEquals(70_000, thinkTime.millis(7000, 0.99999999));
        assertEquals(true, max <= 70_000);
    }

    @Test
    void theScaleShortensEveryDraw() {
        assertEquals(thinkTimeAt(1, 0.5) / 100, thinkTimeAt(0.01, 0.5), 1);
        assertEquals(0, thinkTimeAt(0, 0.9));
    }

    @Test
    void aNegativeScaleIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> new ThinkTime(-1));
    }

    private static long thinkTimeAt(double scale, double uniform) {
        return new ThinkTime(scale).millis(7000, uniform);
    }
}

package io.tlsadmit.experiment.step;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class KneeSearchTest {

    @Test
    void ratesDoubleFromTheStart() {
        KneeSearch search = new KneeSearch(5);
        assertEquals(5, search.nextRate());
        search.record(5, 100);
        assertEquals(10, search.nextRate());
        search.record(10, 200);
        assertEquals(20, search.nextRate());
    }

    @Test
    void theSearchEndsAfterTwoDoublingsWithoutGrowthAndTheKneeIsThePeak() {
        KneeSearch search = new KneeSearch(10);
        double[][] measured = {{10, 150}, {20, 300}, {40, 580}, {80, 600}, {160, 240}};
        for (double[] step : measured) {
            assertEquals(step[0], search.nextRate());
            search.record(step[0], step[1]);
        }
        // 80 grew by 3 % over 40's 580: noise, not growth; 160 collapsed
        assertTrue(Double.isNaN(search.nextRate()));
        assertEquals(80, search.knee());
    }

    @Test
    void aPlateauEndsTheSearch() {
        KneeSearch search = new KneeSearch(10);
        search.record(10, 500);
        search.record(20, 505);
        search.record(40, 498);
        assertTrue(Double.isNaN(search.nextRate()));
        assertEquals(20, search.knee());
    }

    @Test
    void aServerThatNeverSaturatesStopsTheSearchAfterEightSteps() {
        KneeSearch search = new KneeSearch(1);
        for (int i = 0; i < KneeSearch.MAX_STEPS; i++) {
            double rate = search.nextRate();
            search.record(rate, rate * 10);
        }
        assertTrue(Double.isNaN(search.nextRate()));
        assertEquals(128, search.knee());
    }

    @Test
    void onATieTheLowerRateIsTheKnee() {
        assertEquals(20, KneeSearch.kneeOf(List.of(new double[] {40, 700}, new double[] {20, 700},
                new double[] {10, 300})));
    }

    @Test
    void noStepsNoKnee() {
        assertThrows(IllegalStateException.class, () -> new KneeSearch(4).knee());
        assertThrows(IllegalArgumentException.class, () -> new KneeSearch(0));
    }
}

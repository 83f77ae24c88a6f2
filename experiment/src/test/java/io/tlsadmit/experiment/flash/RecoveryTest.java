package io.tlsadmit.experiment.flash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tlsadmit.experiment.Mode;
import io.tlsadmit.experiment.Workload;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecoveryTest {

    /** 30 s: a ramp, a dip below 90 % at second 6, steady 1000 from second 7 on (with noise). */
    private static final double[] RAMP_AND_DIP = {100, 400, 800, 950, 1000, 990, 850, 960, 1000, 1010, 990, 1000,
        1000, 1000, 980, 1000, 1020, 1000, 1000, 990, 1000, 1000, 1000, 1010, 990, 1000, 1000, 1000, 1000, 995};

    @Test
    void countsUntilThroughputReachesAndHolds90PercentOfTheLast10SecondsMedian() {
        double[] refused = new double[30];
        Arrays.fill(refused, 0, 8, 50);
        Recovery r = Recovery.of(RAMP_AND_DIP, refused);
        assertEquals(1000, r.steady());
        // second 3 (950) reaches 90 %, but second 6 (850) falls back: it holds from second 7, i.e. after 8 s
        assertEquals(8, r.secondsTo90Percent());
        assertEquals(8 * 50, r.refusedMeanwhile());
    }

    @Test
    void aServerAtFullSpeedFromTheFirstSecondTakesOneBucket() {
        double[] flat = new double[20];
        Arrays.fill(flat, 500);
        assertEquals(1, Recovery.of(flat, new double[20]).secondsTo90Percent());
    }

    @Test
    void aLastSecondBelow90PercentNeverHeld() {
        double[] late = new double[15];
        Arrays.fill(late, 100);
        late[14] = 50;
        Recovery r = Recovery.of(late, new double[] {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
        assertEquals(-1, r.secondsTo90Percent());
        assertEquals(15, r.refusedMeanwhile(), "the whole window");
    }

    @Test
    void aServerThatServesNothingAtTheEndNeverGotThere() {
        double[] collapsed = new double[15];
        collapsed[0] = 40;
        double[] refused = new double[15];
        Arrays.fill(refused, 2);
        Recovery r = Recovery.of(collapsed, refused);
        assertEquals(0, r.steady());
        assertEquals(-1, r.secondsTo90Percent(), "90 % of nothing is no recovery");
        assertEquals(30, r.refusedMeanwhile());
    }

    @Test
    void theSteadyValueIsAMedianSoOneOutlierDoesNotMoveIt() {
        assertEquals(3, Recovery.median(new double[] {1, 3, 100}));
        assertEquals(2.5, Recovery.median(new double[] {4, 1, 2, 3}));
    }

    @Test
    void aWindowNoLongerThanTheSteadyPartIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Recovery.of(new double[10], new double[10]));
        assertThrows(IllegalArgumentException.class, () -> Recovery.of(new double[20], new double[19]));
    }

    @Test
    void theCsvKeepsTheColumnsOutsideChecksRead() {
        double[] flat = new double[20];
        Arrays.fill(flat, 500);
        String csv = FlashCrowdCsv.format(List.of(new FlashCrowdResult(Mode.STATIC, Workload.STUDY, 320, flat,
                Recovery.of(flat, new double[20]), "sweep", new ServerRecovery(80, 1.3),
                new FlashCrowdResult.Served(410, 7), ServerStart.WARM)));
        List<String> lines = csv.lines().toList();
        assertEquals(List.of("mode", "mix", "users_per_sec", "seconds_to_90pct", "refused_connections"),
                Arrays.asList(lines.get(0).split(",")).subList(0, 5));
        assertEquals("static,browsing,320,1,0,1.3,500,20,sweep,1.3,80,1,410,7,warm", lines.get(1));
        String stock = FlashCrowdCsv.format(List.of(new FlashCrowdResult(Mode.STOCK, Workload.STUDY, 320, flat,
                Recovery.of(flat, new double[20]), "window-tail", null, new FlashCrowdResult.Served(0, 4379), ServerStart.COLD)))
                .lines().toList().get(1);
        assertEquals("stock,browsing,320,1,0,1.3,500,20,window-tail,,,1,0,4379,cold", stock, "no gate: no server view");
    }

    @Test
    void theSweepsSteadyValueCanBeOneTheColdServerNeverHolds() {
        // the tail's own median (1000) would call it held after 8 s; the warm sweep did 1,200 at this load
        double[] refused = new double[30];
        Recovery r = Recovery.of(RAMP_AND_DIP, refused, 1200);
        assertEquals(1200, r.steady());
        assertEquals(-1, r.secondsTo90Percent(), "1,000 replies/s is below 90 % of 1,200");
        assertEquals(8, Recovery.of(RAMP_AND_DIP, refused, 1050).secondsTo90Percent());
    }
}

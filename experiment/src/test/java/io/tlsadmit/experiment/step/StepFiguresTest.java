package io.tlsadmit.experiment.step;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StepFiguresTest {

    private static final String SUMMARY = """
            {
              "run": "001-stock",
              "sessionsStarted": 120,
              "pageMillisP99": 257,
              "serverCpuSec": null,
              "tlsadmit_connections_total{decision=\\"refused\\",verdict=\\"NEW\\"}": 4
            }
            """;

    private static final String TIMELINE = """
            second,sessions_started,sessions_completed,replies,connections_refused
            0,10,0,5,0
            1,10,2,40,1
            2,10,4,60,3
            3,10,6,80,0
            4,0,10,20,0
            """;

    @Test
    void ratesAreMeansOverTheWindowOnly() {
        StepFigures f = StepFigures.parse(SUMMARY, TIMELINE, 1, 4);
        assertEquals(60, f.perSecond("replies"), 1e-9);
        assertEquals(4, f.perSecond("sessions_completed"), 1e-9);
        assertEquals(4.0 / 3, f.perSecond("connections_refused"), 1e-9);
        assertEquals(3, f.windowSeconds());
    }

    @Test
    void secondsTheRunNeverReachedCountAsNothingHappening() {
        StepFigures f = StepFigures.parse(SUMMARY, TIMELINE, 3, 7);
        assertEquals(25, f.perSecond("replies"), 1e-9);
    }

    @Test
    void summaryFiguresAreNumbersAndNullIsNotMeasured() {
        StepFigures f = StepFigures.parse(SUMMARY, TIMELINE, 0, 5);
        assertEquals(120, f.figure("sessionsStarted"));
        assertEquals(257, f.figure("pageMillisP99"));
        assertTrue(Double.isNaN(f.figure("serverCpuSec")));
        assertTrue(Double.isNaN(f.figure("absent")));
        assertEquals(0, f.perSecond("absent"));
    }

    @Test
    void aBrokenTimelineIsRefusedWithTheReason() {
        assertThrows(IllegalArgumentException.class, () -> StepFigures.parse(SUMMARY, "", 0, 1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StepFigures.parse(SUMMARY, "second,replies\n0,1,2\n", 0, 1));
        assertTrue(e.getMessage().contains("3 cells"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> StepFigures.parse(SUMMARY, TIMELINE, 2, 2));
    }
}

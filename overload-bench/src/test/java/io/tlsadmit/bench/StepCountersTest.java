package io.tlsadmit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.testing.LatencyRecording;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class StepCountersTest {

    @Test
    void latenciesRecordedInNanosecondsAreReportedInMillisecondsToAMicrosecond() {
        LatencyRecording micros = new LatencyRecording();
        for (int ms = 1; ms <= 100; ms++) {
            StepCounters.record(micros, ms * 1_000_000L + 400);
        }
        assertEquals(50.0, StepCounters.millis(micros.snapshot(), 0.5), 0.05);
        assertEquals(99.0, StepCounters.millis(micros.snapshot(), 0.99), 0.1);
    }

    @Test
    void aSubMicrosecondLatencyIsNotLost() {
        LatencyRecording micros = new LatencyRecording();
        StepCounters.record(micros, 300);
        assertEquals(1, micros.snapshot().getTotalCount());
        assertEquals(0.001, StepCounters.millis(micros.snapshot(), 0.5), 1e-9);
    }

    @Test
    void noSamplesNoQuantile() {
        assertTrue(Double.isNaN(StepCounters.millis(new Histogram(3), 0.99)));
    }
}

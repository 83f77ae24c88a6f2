package io.tlsadmit.testing;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Latencies that many threads record at once and that are read while they still record: the load generators'
 * response and handshake times (loadtests, overload-bench), three significant digits, in the caller's unit.
 *
 * <p>Why not one {@code ConcurrentHistogram}: it cannot be read while it is recorded into. A run's figures are taken
 * when its last users' requests may still be answered, and iterating it then threw
 * {@code ConcurrentModificationException} (2026-11-26, the experiment's 4× step, every time). HdrHistogram's
 * {@link Recorder} records wait-free and hands the reader the values recorded since its last read; they are added to
 * a total here, under this object's lock.
 */
public final class LatencyRecording {

    private final Recorder recorder = new Recorder(3);
    private final Histogram total = new Histogram(3);

    /** Any thread; a negative value (a clock that stepped) counts as 0. */
    public void record(long value) {
        recorder.recordValue(Math.max(0, value));
    }

    /** A copy of everything recorded so far, to read at leisure. */
    public synchronized Histogram snapshot() {
        total.add(recorder.getIntervalHistogram());
        return total.copy();
    }
}

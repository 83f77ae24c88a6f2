package io.tlsadmit.attack.measure;

import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/** Successes, failures and the latency of successful attempts of a probing client during one phase. */
public final class ProbeLatency {
    /** Up to a minute with 3 significant digits: the probes give up long before. */
    private final Histogram histogram = new Histogram(60_000_000_000L, 3);
    private final AtomicLong failures = new AtomicLong();

    public synchronized void success(long nanos) {
        histogram.recordValue(Math.max(1, Math.min(nanos, histogram.getHighestTrackableValue())));
    }

    public void failure() {
        failures.incrementAndGet();
    }

    public synchronized long successes() {
        return histogram.getTotalCount();
    }

    public long failures() {
        return failures.get();
    }

    public synchronized double successRatio() {
        long all = successes() + failures();
        return all == 0 ? Double.NaN : (double) successes() / all;
    }

    /** Milliseconds at the percentile (0–100); NaN with no success. */
    public synchronized double millisAt(double percentile) {
        return histogram.getTotalCount() == 0 ? Double.NaN : histogram.getValueAtPercentile(percentile) / 1e6;
    }
}

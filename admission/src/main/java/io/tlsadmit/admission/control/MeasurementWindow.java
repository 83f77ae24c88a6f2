package io.tlsadmit.admission.control;

/**
 * What happened over the last few control periods: CPU by consumer and arrivals by kind. Rates are
 * taken over the whole window so one period's noise (a GC, a burst of arrivals that straddles a
 * tick) does not swing the budget, while a real change is fully visible after the window's length.
 * Used only by the control thread.
 */
final class MeasurementWindow {

    private final long[] elapsed;
    private final long[] fullCpu;
    private final long[] resumedCpu;
    private final long[] otherCpu;
    private final long[] fullArrivals;
    private final long[] resumedArrivals;
    private int next;

    MeasurementWindow(int periods) {
        elapsed = new long[periods];
        fullCpu = new long[periods];
        resumedCpu = new long[periods];
        otherCpu = new long[periods];
        fullArrivals = new long[periods];
        resumedArrivals = new long[periods];
    }

    void add(long elapsedNanos, long fullCpuNanos, long resumedCpuNanos, long otherCpuNanos,
             long fullArrivalCount, long resumedArrivalCount) {
        elapsed[next] = elapsedNanos;
        fullCpu[next] = fullCpuNanos;
        resumedCpu[next] = resumedCpuNanos;
        otherCpu[next] = otherCpuNanos;
        fullArrivals[next] = fullArrivalCount;
        resumedArrivals[next] = resumedArrivalCount;
        next = (next + 1) % elapsed.length;
    }

    /** CPU nanoseconds per second of wall time used by resumed handshakes. */
    double resumedCpuPerSecond() {
        return perSecond(resumedCpu);
    }

    /** CPU nanoseconds per second used by neither kind of handshake: requests, GC, the rest. */
    double otherCpuPerSecond() {
        return perSecond(otherCpu);
    }

    double fullCpuPerSecond() {
        return perSecond(fullCpu);
    }

    double fullArrivalsPerSecond() {
        return perSecond(fullArrivals);
    }

    double resumedArrivalsPerSecond() {
        return perSecond(resumedArrivals);
    }

    private double perSecond(long[] amounts) {
        long wall = 0;
        long sum = 0;
        for (int i = 0; i < elapsed.length; i++) {
            wall += elapsed[i];
            sum += amounts[i];
        }
        return wall == 0 ? 0 : sum * 1e9 / wall;
    }
}

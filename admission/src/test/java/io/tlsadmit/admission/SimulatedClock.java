package io.tlsadmit.admission;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/** A nanosecond clock that moves only when a test says so. Starts far from zero, as nanoTime may. */
public final class SimulatedClock implements LongSupplier {

    private final AtomicLong now = new AtomicLong(7_000_000_000_000L);

    @Override
    public long getAsLong() {
        return now.get();
    }

    public void advance(long amount, TimeUnit unit) {
        now.addAndGet(unit.toNanos(amount));
    }

    public void advanceNanos(long nanos) {
        now.addAndGet(nanos);
    }
}

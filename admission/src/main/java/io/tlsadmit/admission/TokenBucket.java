package io.tlsadmit.admission;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/**
 * A lock-free token bucket: tokens accrue at {@code rate} per second up to a capacity and each
 * admission takes one.
 *
 * <h2>Semantics</h2>
 * <ul>
 *   <li>With {@code rate > 0} the capacity is {@code max(burst, 1)}: a burst of 0 still lets one
 *       handshake through every {@code 1/rate} seconds, it only forbids saving tokens up.</li>
 *   <li>A new bucket with {@code rate > 0} starts full.</li>
 *   <li>{@code rate == 0} grants nothing, whatever the burst. Setting the rate to 0 empties the
 *       bucket; raising it again refills from empty, so an operator who ends an incident by
 *       restoring the rate does not release a burst they never saw accumulate.</li>
 *   <li>Changing the rate first credits the tokens earned at the old rate up to now, so a change
 *       is never retroactive. Lowering the burst drops tokens above the new capacity; raising it
 *       adds none.</li>
 * </ul>
 *
 * <h2>Why fixed point</h2>
 * Tokens are kept as a {@code long} count of <em>token-nanoseconds</em> (one token is 10<sup>9</sup>
 * units), so {@code elapsedNanos × ratePerSecond} is exactly the credit earned. With a whole-number
 * rate the arithmetic is exact: a bucket at 3/s grants its third token at exactly one second,
 * not one ulp before or after, which keeps admissions per second predictable and testable.
 *
 * <h2>Why one atomic state</h2>
 * The rate, capacity, credit and time stamp live in one immutable {@link State} swapped by CAS, so
 * a runtime rate change (JMX, the adaptive controller) is atomic with respect to admissions
 * without a lock on the acceptor path.
 */
public final class TokenBucket {

    /** Token-nanoseconds in one token. */
    private static final long UNIT = 1_000_000_000L;

    /** The largest burst; keeps {@code capacity × UNIT} far inside a {@code long}. */
    public static final long MAX_BURST = 1_000_000_000L;

    /** The largest rate; far above any server, it only keeps the arithmetic finite. */
    public static final double MAX_RATE = 1_000_000_000d;

    private final LongSupplier nanoClock;
    private final AtomicReference<State> state;
    private final LongAdder granted = new LongAdder();
    private final LongAdder refused = new LongAdder();

    /**
     * @param ratePerSecond tokens per second, finite and {@code >= 0}, may be fractional
     * @param burst         tokens that may be saved up, {@code 0..MAX_BURST}
     * @param nanoClock     a monotonic nanosecond clock such as {@code System::nanoTime}
     */
    public TokenBucket(double ratePerSecond, long burst, LongSupplier nanoClock) {
        checkRate(ratePerSecond);
        checkBurst(burst);
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
        long capacity = capacity(ratePerSecond, burst);
        this.state = new AtomicReference<>(
                new State(ratePerSecond, burst, capacity * UNIT, nanoClock.getAsLong(), 0));
    }

    /** A bucket on {@link System#nanoTime()}. */
    public TokenBucket(double ratePerSecond, long burst) {
        this(ratePerSecond, burst, System::nanoTime);
    }

    /** Takes one token if there is one; never blocks. */
    public boolean tryAcquire() {
        return acquireDownTo(0);
    }

    /**
     * Takes one token even when none is left, as long as the bucket then owes at most {@code maxDebt}
     * tokens; what is owed is repaid by the refill before anyone else gets a token. For admissions that
     * must happen together with one already granted (the other connections of a user just admitted):
     * they are paid for, only later, so the rate holds on average. A rate of 0 grants nothing.
     */
    public boolean tryAcquireOnCredit(long maxDebt) {
        return acquireDownTo(-Math.max(0, Math.min(maxDebt, MAX_BURST)) * UNIT);
    }

    /** Takes a token if the credit left after it is at least {@code floorUnits}. */
    private boolean acquireDownTo(long floorUnits) {
        long now = nanoClock.getAsLong();
        while (true) {
            State current = state.get();
            if (current.rate == 0) {
                refused.increment();
                return false;
            }
            State refilled = current.refilledTo(now);
            if (refilled.credit - UNIT < floorUnits) {
                refused.increment();
                return false;
            }
            if (state.compareAndSet(current, refilled.withCredit(refilled.credit - UNIT))) {
                granted.increment();
                return true;
            }
        }
    }

    /** Changes the rate from now on; tokens earned at the old rate up to now are kept. */
    public void setRatePerSecond(double ratePerSecond) {
        checkRate(ratePerSecond);
        update(s -> {
            State refilled = s.refilledTo(nanoClock.getAsLong());
            long capacityUnits = capacity(ratePerSecond, s.burst) * UNIT;
            return new State(ratePerSecond, s.burst, Math.min(refilled.credit, capacityUnits),
                    refilled.stamp, refilled.refilledUnits);
        });
    }

    /** Changes how many tokens may be saved up; tokens above the new capacity are dropped. */
    public void setBurst(long burst) {
        checkBurst(burst);
        update(s -> {
            State refilled = s.refilledTo(nanoClock.getAsLong());
            long capacityUnits = capacity(s.rate, burst) * UNIT;
            return new State(s.rate, burst, Math.min(refilled.credit, capacityUnits),
                    refilled.stamp, refilled.refilledUnits);
        });
    }

    public double ratePerSecond() {
        return state.get().rate;
    }

    public long burst() {
        return state.get().burst;
    }

    /** Tokens available now, fractional, negative while a debt is repaid; does not change the bucket. */
    public double availableTokens() {
        return (double) state.get().refilledTo(nanoClock.getAsLong()).credit / UNIT;
    }

    /** Tokens handed out since creation. */
    public long grantedCount() {
        return granted.sum();
    }

    /** Requests refused for want of a token since creation. */
    public long refusedCount() {
        return refused.sum();
    }

    /**
     * Tokens added by the passage of time since creation, excluding the initial fill and anything
     * that overflowed a full bucket: the refills that were actually usable.
     */
    public double refilledTokens() {
        return (double) state.get().refilledTo(nanoClock.getAsLong()).refilledUnits / UNIT;
    }

    private void update(UnaryOperator<State> change) {
        while (true) {
            State current = state.get();
            if (state.compareAndSet(current, change.apply(current))) {
                return;
            }
        }
    }

    private static long capacity(double rate, long burst) {
        return rate == 0 ? 0 : Math.max(burst, 1);
    }

    private static void checkRate(double rate) {
        if (!(rate >= 0 && rate <= MAX_RATE)) {
            throw new IllegalArgumentException("rate must be a number in [0, " + (long) MAX_RATE + "], was " + rate);
        }
    }

    private static void checkBurst(long burst) {
        if (burst < 0 || burst > MAX_BURST) {
            throw new IllegalArgumentException("burst must be in [0, " + MAX_BURST + "], was " + burst);
        }
    }

    /**
     * Everything that must change together.
     *
     * @param credit        token-nanoseconds available at {@code stamp}
     * @param refilledUnits token-nanoseconds credited by time since creation
     */
    private record State(double rate, long burst, long credit, long stamp, long refilledUnits) {

        State refilledTo(long now) {
            long elapsed = now - stamp;
            if (elapsed <= 0) {
                // A clock that steps back (or a racing reader with an older "now") earns nothing.
                return this;
            }
            long capacityUnits = capacity(rate, burst) * UNIT;
            long headroom = capacityUnits - credit;
            // In double so an idle hour cannot overflow; exact while the product stays below 2^53.
            double earned = elapsed * rate;
            long added = earned >= headroom ? headroom : (long) earned;
            return new State(rate, burst, credit + added, now, refilledUnits + added);
        }

        State withCredit(long newCredit) {
            return new State(rate, burst, newCredit, stamp, refilledUnits);
        }
    }
}

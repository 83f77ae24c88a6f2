package io.tlsadmit.admission;

import java.util.function.LongSupplier;

/**
 * A fixed cap on new full handshakes: {@code maxFullHandshakesPerSecond} with a burst of
 * {@code fullHandshakeBurst}, both changeable at runtime (an operator lowers the rate during an
 * incident; 0 refuses every new handshake while resumptions go on).
 *
 * <p>The setters throw {@link IllegalArgumentException} with a message naming the configuration
 * attribute, so a bad value in {@code server.xml} or over JMX is reported in the user's terms.
 */
public final class StaticBudget implements HandshakeBudget {

    public static final String RATE_ATTRIBUTE = "maxFullHandshakesPerSecond";
    public static final String BURST_ATTRIBUTE = "fullHandshakeBurst";

    private final TokenBucket bucket;

    public StaticBudget(double maxFullHandshakesPerSecond, long fullHandshakeBurst, LongSupplier nanoClock) {
        checkRate(maxFullHandshakesPerSecond);
        checkBurst(fullHandshakeBurst);
        this.bucket = new TokenBucket(maxFullHandshakesPerSecond, fullHandshakeBurst, nanoClock);
    }

    public StaticBudget(double maxFullHandshakesPerSecond, long fullHandshakeBurst) {
        this(maxFullHandshakesPerSecond, fullHandshakeBurst, System::nanoTime);
    }

    @Override
    public boolean tryAcquireFull() {
        return bucket.tryAcquire();
    }

    @Override
    public boolean tryAcquireFullOnCredit(long maxDebt) {
        return bucket.tryAcquireOnCredit(maxDebt);
    }

    @Override
    public double fullHandshakesPerSecond() {
        return bucket.ratePerSecond();
    }

    @Override
    public double availableTokens() {
        return bucket.availableTokens();
    }

    public void setFullHandshakesPerSecond(double maxFullHandshakesPerSecond) {
        checkRate(maxFullHandshakesPerSecond);
        bucket.setRatePerSecond(maxFullHandshakesPerSecond);
    }

    public void setBurst(long fullHandshakeBurst) {
        checkBurst(fullHandshakeBurst);
        bucket.setBurst(fullHandshakeBurst);
    }

    public long burst() {
        return bucket.burst();
    }

    /** The static rate is the cap. */
    @Override
    public double getMaxFullHandshakesPerSecond() {
        return fullHandshakesPerSecond();
    }

    @Override
    public void setMaxFullHandshakesPerSecond(double rate) {
        setFullHandshakesPerSecond(rate);
    }

    @Override
    public long getFullHandshakeBurst() {
        return burst();
    }

    @Override
    public void setFullHandshakeBurst(long burst) {
        setBurst(burst);
    }

    @Override
    public TokenBucket bucket() {
        return bucket;
    }

    static void checkRate(double rate) {
        if (!(rate >= 0 && rate <= TokenBucket.MAX_RATE)) {
            throw new IllegalArgumentException(RATE_ATTRIBUTE + " must be a number of new full handshakes per second in [0, "
                    + (long) TokenBucket.MAX_RATE + "], was " + rate);
        }
    }

    static void checkBurst(long burst) {
        if (burst < 0 || burst > TokenBucket.MAX_BURST) {
            throw new IllegalArgumentException(BURST_ATTRIBUTE + " must be a whole number of handshakes in [0, "
                    + TokenBucket.MAX_BURST + "], was " + burst);
        }
    }

    @Override
    public String toString() {
        return "StaticBudget[" + RATE_ATTRIBUTE + "=" + fullHandshakesPerSecond() + ", " + BURST_ATTRIBUTE + "=" + burst() + "]";
    }
}

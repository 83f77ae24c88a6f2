package io.tlsadmit.loadtests.run;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import io.tlsadmit.testing.LatencyRecording;
import org.HdrHistogram.Histogram;

/**
 * The figures of one run as the users see them: sessions started and how they ended, replies, response times,
 * and a per-second timeline. Gatling 3.13+ keeps its own log binary and no longer writes stats.json, so the
 * simulation records these itself and {@link RunReport} writes them out.
 */
public final class RunRecorder {

    /** Columns of the per-second timeline. */
    public enum Series { SESSIONS_STARTED, SESSIONS_COMPLETED, SESSIONS_ABANDONED, SESSIONS_REFUSED, REPLIES,
        PAGES, ERROR_PAGES, CONNECTIONS_REFUSED, TIMEOUTS,
        /** Users refused for good after they had been served a page (so held a TLS session): should never happen with the gate. */
        KNOWN_USERS_REFUSED,
        /** Users whose first page came back complete (the page and, browser-like, every resource it loaded). */
        FIRST_PAGES,
        /**
         * Users whose first page came back but a resource of it failed (browser-like: one of its parallel
         * connections was refused): the server let the user in and the page is still broken.
         */
        FIRST_PAGES_INCOMPLETE,
        /** Users whose first page request got no reply in time: not refused, so let in, and left without a page. */
        FIRST_PAGES_TIMED_OUT }

    private static final int TIMELINE_SECONDS = 24 * 3600;

    private volatile long startNanos = System.nanoTime();
    private final LongAdder[] totals = new LongAdder[Series.values().length];
    private final AtomicLongArray timeline = new AtomicLongArray(TIMELINE_SECONDS * Series.values().length);
    // milliseconds, three significant digits (exact below 2 s, within 0.1 % above), recorded by thousands of
    // users at once, read while the run's last requests are still answered
    private final LatencyRecording pageTimes = new LatencyRecording();
    /**
     * A user's first page (its connection's handshake, the gate's queue) apart from the pages of users already in:
     * under admission control the two wait for different things, and one percentile over both hides which.
     */
    private final LatencyRecording firstPageTimes = new LatencyRecording();
    private final LatencyRecording laterPageTimes = new LatencyRecording();
    private final LatencyRecording replyTimes = new LatencyRecording();
    private final ConcurrentMap<String, LongAdder> errorPagesByInteraction = new ConcurrentHashMap<>();
    private final AtomicLong lastSecond = new AtomicLong();

    public RunRecorder() {
        for (int i = 0; i < totals.length; i++) {
            totals[i] = new LongAdder();
        }
    }

    /** Time zero of the timeline: when users start to arrive. */
    public void start() {
        startNanos = System.nanoTime();
    }

    public void count(Series series) {
        totals[series.ordinal()].increment();
        long second = Math.min((System.nanoTime() - startNanos) / 1_000_000_000L, TIMELINE_SECONDS - 1);
        lastSecond.accumulateAndGet(second, Math::max);
        timeline.incrementAndGet((int) second * Series.values().length + series.ordinal());
    }

    /** A reply to a page request; {@code first}: the user's first page. */
    public void page(String interaction, long responseMillis, boolean errorPage, boolean first) {
        reply(responseMillis);
        count(Series.PAGES);
        pageTimes.record(responseMillis);
        (first ? firstPageTimes : laterPageTimes).record(responseMillis);
        if (errorPage) {
            count(Series.ERROR_PAGES);
            errorPagesByInteraction.computeIfAbsent(interaction, name -> new LongAdder()).increment();
        }
    }

    /** A reply to any request, a page's or an image's. */
    public void reply(long responseMillis) {
        count(Series.REPLIES);
        replyTimes.record(responseMillis);
    }

    /** Error pages by the interaction that got them: a few are normal (a nickname taken, a bid too low). */
    public Map<String, Long> errorPagesByInteraction() {
        Map<String, Long> counts = new TreeMap<>();
        errorPagesByInteraction.forEach((interaction, count) -> counts.put(interaction, count.sum()));
        return counts;
    }

    public long total(Series series) {
        return totals[series.ordinal()].sum();
    }

    public long at(long second, Series series) {
        return timeline.get((int) second * Series.values().length + series.ordinal());
    }

    /** Seconds covered by the timeline so far. */
    public long seconds() {
        return lastSecond.get() + 1;
    }

    public double elapsedSeconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    public Histogram pageTimes() {
        return pageTimes.snapshot();
    }

    /** Users' first pages only. */
    public Histogram firstPageTimes() {
        return firstPageTimes.snapshot();
    }

    /** Every page but users' first. */
    public Histogram laterPageTimes() {
        return laterPageTimes.snapshot();
    }

    public Histogram replyTimes() {
        return replyTimes.snapshot();
    }
}

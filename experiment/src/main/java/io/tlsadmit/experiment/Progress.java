package io.tlsadmit.experiment;

import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Console progress: what runs now, how long the run has taken and about how long it still needs. */
final class Progress {

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    private final long started = System.nanoTime();
    private long plannedSeconds;
    private long doneSeconds;

    void plan(long seconds) {
        plannedSeconds += seconds;
    }

    void done(long seconds) {
        doneSeconds += seconds;
    }

    void log(String format, Object... args) {
        System.out.printf("%s [%s elapsed, ~%s left] %s%n", LocalTime.now(ZoneOffset.UTC).format(CLOCK),
                format(Duration.ofNanos(System.nanoTime() - started)),
                format(Duration.ofSeconds(Math.max(0, plannedSeconds - doneSeconds))), String.format(format, args));
        System.out.flush();
    }

    /**
     * A leg that failed and was skipped: the exception itself on the progress line (a message alone can be null),
     * its stack trace on standard error, so that the run's log says where it broke.
     */
    void failed(String what, RuntimeException e) {
        log("%s FAILED, going on without it: %s", what, e);
        e.printStackTrace();
    }

    static String format(Duration d) {
        long s = d.toSeconds();
        return String.format("%d:%02d:%02d", s / 3600, (s % 3600) / 60, s % 60);
    }
}

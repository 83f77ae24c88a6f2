package io.tlsadmit.rubis.datagen;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A progress bar on a terminal ({@code \r}-redrawn), or one line per tenth of the work when the output is a file or
 * a pipe, so CI logs stay short.
 */
final class ProgressBar implements LoadProgress {

    private static final int WIDTH = 40;

    private final PrintStream out;
    private final boolean redraw;
    private final long startedNanos = System.nanoTime();
    private int lastTenth = -1;
    private boolean finished;

    ProgressBar(PrintStream out, boolean redraw) {
        this.out = out;
        this.redraw = redraw;
    }

    @Override
    public void advanced(String phase, long done, long total) {
        if (finished) {
            return;
        }
        double fraction = total == 0 ? 1 : (double) done / total;
        double seconds = (System.nanoTime() - startedNanos) / 1e9;
        int filled = (int) Math.round(fraction * WIDTH);
        String line = String.format(Locale.ROOT, "[%s%s] %3d%%  %-9s %,d/%,d rows  %.1f s",
                "#".repeat(filled), ".".repeat(WIDTH - filled), Math.round(fraction * 100), phase, done, total, seconds);
        if (redraw) {
            out.print('\r' + line);
        } else {
            int tenth = (int) (fraction * 10);
            if (tenth == lastTenth) {
                return;
            }
            lastTenth = tenth;
            out.print(line + '\n');
        }
        if (done >= total) {
            finished = true;
            if (redraw) {
                out.print('\n');
            }
        }
        out.flush();
    }
}

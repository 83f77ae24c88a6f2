package io.tlsadmit.loadtests.rubis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A RUBiS transition table: for each page a user is on (a column), the probability of each next state (a row),
 * and the mean think time before each state. Read from the original's TSV layout: a header row of the 27 page
 * names plus {@code think_ms}, then one row per state (27 pages, "Back probability", "End of Session").
 * Columns that do not sum to exactly 1 (several do not, in both mixes) are normalised.
 */
public final class TransitionTable {

    private static final int STATES = Interaction.values().length;

    /** cumulative[from][to]: probability of going to a state at most {@code to}, normalised per column. */
    private final double[][] cumulative;
    private final long[] meanThinkMillis;
    private final String name;

    private TransitionTable(String name, double[][] cumulative, long[] meanThinkMillis) {
        this.name = name;
        this.cumulative = cumulative;
        this.meanThinkMillis = meanThinkMillis;
    }

    /** The mix as shipped in this module's resources: {@code browsing} (the 2005 study's) or {@code bidding}. */
    public static TransitionTable mix(String mix) {
        String resource = "transitions-" + mix + ".tsv";
        try (InputStream in = TransitionTable.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("unknown RUBiS mix '" + mix + "' (browsing or bidding)");
            }
            return parse(mix, in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static TransitionTable parse(String name, InputStream tsv) throws IOException {
        List<String[]> rows = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(tsv, StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.isBlank()) {
                    rows.add(line.split("\t", -1));
                }
            }
        }
        int columns = Interaction.PAGES + 2; // row label, 27 pages, think time
        if (rows.size() != STATES + 1) {
            throw new IllegalArgumentException(name + ": expected a header and " + STATES + " state rows, found "
                    + rows.size() + " rows");
        }
        double[][] probability = new double[Interaction.PAGES][STATES];
        long[] think = new long[STATES];
        for (int to = 0; to < STATES; to++) {
            String[] cells = rows.get(to + 1);
            if (cells.length != columns) {
                throw new IllegalArgumentException(name + ": row " + (to + 2) + " (" + cells[0] + ") has "
                        + cells.length + " cells, expected " + columns);
            }
            for (int from = 0; from < Interaction.PAGES; from++) {
                double p = number(name, cells[from + 1], to, from);
                if (p < 0 || p > 1) {
                    throw new IllegalArgumentException(name + ": probability " + p + " out of [0, 1] in row "
                            + cells[0]);
                }
                probability[from][to] = p;
            }
            think[to] = (long) number(name, cells[columns - 1], to, columns - 2);
        }
        double[][] cumulative = new double[Interaction.PAGES][STATES];
        for (int from = 0; from < Interaction.PAGES; from++) {
            double sum = 0;
            for (double p : probability[from]) {
                sum += p;
            }
            double running = 0;
            for (int to = 0; to < STATES; to++) {
                // a column of zeros is a page no path of this mix reaches; leaving it ends the session
                running += sum == 0 ? (to == Interaction.END.ordinal() ? 1 : 0) : probability[from][to] / sum;
                cumulative[from][to] = running;
            }
            cumulative[from][STATES - 1] = 1; // no rounding gap at the top
        }
        return new TransitionTable(name, cumulative, think);
    }

    private static double number(String table, String cell, int row, int column) {
        try {
            return Double.parseDouble(cell.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "%s: cell '%s' at state row %d, column %d is not a number", table, cell, row + 1, column + 1));
        }
    }

    /**
     * The next state after {@code from}, chosen by {@code uniform} in [0, 1).
     */
    public Interaction next(Interaction from, double uniform) {
        if (!from.isPage()) {
            throw new IllegalArgumentException("no transitions out of " + from);
        }
        double[] column = cumulative[from.ordinal()];
        for (int to = 0; to < STATES; to++) {
            if (uniform < column[to]) {
                return Interaction.values()[to];
            }
        }
        return Interaction.END;
    }

    /** The probability, after normalisation, of going from one state to another. */
    public double probability(Interaction from, Interaction to) {
        double[] column = cumulative[from.ordinal()];
        return column[to.ordinal()] - (to.ordinal() == 0 ? 0 : column[to.ordinal() - 1]);
    }

    /** Mean think time before showing {@code state}, as the table gives it (7 s in both mixes). */
    public long meanThinkMillis(Interaction state) {
        return meanThinkMillis[state.ordinal()];
    }

    public String name() {
        return name;
    }
}

package io.tlsadmit.rubis.datagen;

import java.time.Duration;
import java.util.Map;

/** What a load wrote: rows per table as counted in the database afterwards, and how long it took. */
public record LoadReport(Map<String, Long> rowsPerTable, Duration elapsed) {

    public long rows(String table) {
        Long n = rowsPerTable.get(table);
        if (n == null) {
            throw new IllegalArgumentException("no such table: " + table);
        }
        return n;
    }

    public String describe() {
        StringBuilder out = new StringBuilder();
        rowsPerTable.forEach((table, n) -> out.append(String.format("%-11s %,12d%n", table, n)));
        out.append(String.format("loaded in %.1f s%n", elapsed.toMillis() / 1000.0));
        return out.toString();
    }
}

package io.tlsadmit.experiment.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The experiment's own MariaDB database: {@code rubis-datagen}'s data set, loaded once into a database that nothing
 * serves ({@code rubis_experiment_<scale>_loaded}), and copied from there into the one the servers use
 * ({@code rubis_experiment_<scale>}) whenever the experiment asks for the data as loaded.
 *
 * <p>Why a copy: the bidding mix writes (users register, sell items, bid, buy), and one 6-minute run of two modes
 * left three times the open items it started with (2026-11-27: 328 → 1,384) and a fifth more users. Modes and steps
 * run one after another, so the later ones served another data set than the first. On that grown data the adaptive
 * server's throughput was the same within the machine's noise (two alternated rounds), its page p99 higher in both;
 * small or not, a difference in the data is not one between the modes. Every measured step therefore starts from the
 * loaded data ({@link #restore()}, about 1 s at scale 0.01), and a run never inherits what an earlier run wrote.
 */
public final class RubisDatabase {

    private static final String SERVER = "jdbc:mariadb://127.0.0.1:3306/";
    /** A restore's statements give up after this long waiting for a table that a request holds. */
    static final int LOCK_WAIT_SECONDS = 30;
    private static final String FRESH_SUFFIX = "_restoring";
    private static final String REPLACED_SUFFIX = "_replaced";

    private final String name;
    private final String loaded;
    private final double scale;

    public RubisDatabase(double scale) {
        this.scale = scale;
        // one database per scale: a run at another scale never reuses rows it did not ask for
        this.name = "rubis_experiment_" + String.format(Locale.ROOT, "%s", scale).replace('.', '_');
        this.loaded = name + "_loaded";
    }

    public String jdbcUrl() {
        return SERVER + name;
    }

    /**
     * Loads the data set unless it is already loaded, and makes the served database a copy of it (no server may be
     * using it yet: its tables are created anew); returns what it did.
     */
    public String prepare(Path datagenJar) {
        try {
            String what;
            if (hasRubisTables()) {
                what = "reusing MariaDB data set " + loaded + " (scale " + scale + ")";
            } else {
                load(datagenJar);
                what = "loaded MariaDB data set " + loaded + " at scale " + scale + " with rubis-datagen";
            }
            try (Connection c = connect(); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + name);
                s.execute("CREATE DATABASE " + name);
                for (String table : tables(c).keySet()) {
                    s.execute("CREATE TABLE " + name + "." + table + " LIKE " + loaded + "." + table);
                }
            }
            long millis = restore();
            return what + ", served as " + name + " (restored to it before each measured step, " + millis + " ms)";
        } catch (SQLException e) {
            throw new IllegalStateException("MariaDB on 127.0.0.1:3306 (root, empty password) is needed for --db"
                    + " mariadb (bin/prerequisites starts it), or use --db h2: " + e.getMessage(), e);
        }
    }

    /**
     * Brings the served database back to the data set as loaded, table by table: each table is copied afresh from the
     * loaded one and swapped in by one atomic {@code RENAME TABLE}, so a server's pooled connections stay valid.
     * Returns how long it took, in ms.
     *
     * <p>Why a swap and not {@code TRUNCATE} then a copy in place: a server that collapsed in the step before still
     * works off its backlog of requests after the step's users are gone (stock Tomcat at 2× the bidding knee,
     * 2026-12-07), and the bidding mix writes. {@code TRUNCATE} restarts a table's ids at 1, a late request's row
     * took id 1, and the copy of the loaded rows then failed on it ("Duplicate entry '1' for key 'PRIMARY'"), which
     * ended the mode's sweep. Swapped, a late write lands either in the old table, dropped with it, or in the
     * restored one under the loaded data set's next id, never on a loaded row's. No statement waits longer than
     * {@link #LOCK_WAIT_SECONDS} for a table a request holds.
     */
    public long restore() {
        long start = System.nanoTime();
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("SET SESSION lock_wait_timeout = " + LOCK_WAIT_SECONDS);
            for (Map.Entry<String, Long> table : tables(c).entrySet()) {
                String served = name + "." + table.getKey();
                String fresh = served + FRESH_SUFFIX;
                String replaced = served + REPLACED_SUFFIX;
                s.execute("DROP TABLE IF EXISTS " + fresh + ", " + replaced); // left by an interrupted restore
                s.execute("CREATE TABLE " + fresh + " LIKE " + loaded + "." + table.getKey());
                s.execute("INSERT INTO " + fresh + " SELECT * FROM " + loaded + "." + table.getKey());
                // the copy's counter follows the copied rows, and rubis-datagen starts new items after the old
                // items' ids too: without this a registered item would take an old item's id
                if (table.getValue() != null) {
                    s.execute("ALTER TABLE " + fresh + " AUTO_INCREMENT = " + table.getValue());
                }
                s.execute("RENAME TABLE " + served + " TO " + replaced + ", " + fresh + " TO " + served);
                s.execute("DROP TABLE " + replaced);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot restore " + name + " from " + loaded + ": " + e.getMessage(), e);
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    /** The loaded data set's tables, each with its next auto-increment value (null without one). */
    private Map<String, Long> tables(Connection c) throws SQLException {
        Map<String, Long> tables = new TreeMap<>();
        try (PreparedStatement q = c.prepareStatement(
                "SELECT table_name, auto_increment FROM information_schema.tables WHERE table_schema = ?")) {
            q.setString(1, loaded);
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    long next = rs.getLong(2);
                    tables.put(rs.getString(1), rs.wasNull() ? null : next);
                }
            }
        }
        return tables;
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(SERVER, "root", "");
    }

    private boolean hasRubisTables() throws SQLException {
        try (Connection c = connect();
                PreparedStatement q = c.prepareStatement(
                        "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = ? AND table_name = 'items'")) {
            q.setString(1, loaded);
            try (ResultSet rs = q.executeQuery()) {
                rs.next();
                if (rs.getInt(1) == 0) {
                    return false;
                }
            }
            try (PreparedStatement rows = c.prepareStatement("SELECT COUNT(*) FROM " + loaded + ".users");
                    ResultSet rs = rows.executeQuery()) {
                rs.next();
                if (rs.getLong(1) == 0) {
                    // an interrupted earlier load: start again from an empty database
                    try (PreparedStatement drop = c.prepareStatement("DROP DATABASE " + loaded)) {
                        drop.execute();
                    }
                    return false;
                }
                return true;
            }
        }
    }

    private void load(Path datagenJar) {
        if (!Files.isRegularFile(datagenJar)) {
            throw new IllegalStateException("no " + datagenJar + ": build it (mvn -pl rubis-app -am package)");
        }
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        try {
            Process p = new ProcessBuilder(java.toString(), "-jar", datagenJar.toString(),
                    "--jdbc", SERVER + loaded + "?createDatabaseIfNotExist=true",
                    "--scale", Double.toString(scale), "--seed", "1")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
            if (!p.waitFor(30, TimeUnit.MINUTES) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException("rubis-datagen failed loading " + loaded);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run rubis-datagen: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while loading " + loaded, e);
        }
    }
}

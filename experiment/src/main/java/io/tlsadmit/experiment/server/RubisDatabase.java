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
 * loaded data ({@link #restore()}, 0.5-0.9 s at scale 0.01), and a run never inherits what an earlier run wrote.
 */
public final class RubisDatabase {

    private static final String SERVER = "jdbc:mariadb://127.0.0.1:3306/";

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
     * Brings the served database back to the data set as loaded, table by table, in place: a server's pooled
     * connections stay valid. Call it while no user is inside (between steps). Returns how long it took, in ms.
     */
    public long restore() {
        long start = System.nanoTime();
        try (Connection c = connect(); Statement s = c.createStatement()) {
            for (Map.Entry<String, Long> table : tables(c).entrySet()) {
                String t = table.getKey();
                s.execute("TRUNCATE TABLE " + name + "." + t);
                s.execute("INSERT INTO " + name + "." + t + " SELECT * FROM " + loaded + "." + t);
                // TRUNCATE restarts the counter after the copied rows, and rubis-datagen starts new items after the
                // old items' ids too: without this a registered item would take an old item's id
                if (table.getValue() != null) {
                    s.execute("ALTER TABLE " + name + "." + t + " AUTO_INCREMENT = " + table.getValue());
                }
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

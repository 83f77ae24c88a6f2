package io.tlsadmit.experiment.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The experiment's own MariaDB database, loaded once by {@code rubis-datagen} and reused by later runs: loading
 * scale 0.1 takes half a minute, and every leg of one run must see the same data.
 */
public final class RubisDatabase {

    private static final String SERVER = "jdbc:mariadb://127.0.0.1:3306/";

    private final String name;
    private final double scale;

    public RubisDatabase(double scale) {
        this.scale = scale;
        // one database per scale: a run at another scale never reuses rows it did not ask for
        this.name = "rubis_experiment_" + String.format(Locale.ROOT, "%s", scale).replace('.', '_');
    }

    public String jdbcUrl() {
        return SERVER + name;
    }

    /** Loads the data set unless the database already holds RUBiS tables; returns what it did. */
    public String prepare(Path datagenJar) {
        try {
            if (hasRubisTables()) {
                return "reusing MariaDB database " + name + " (scale " + scale + ")";
            }
            load(datagenJar);
            return "loaded MariaDB database " + name + " at scale " + scale + " with rubis-datagen";
        } catch (SQLException e) {
            throw new IllegalStateException("MariaDB on 127.0.0.1:3306 (root, empty password) is needed for --db"
                    + " mariadb (bin/prerequisites starts it), or use --db h2: " + e.getMessage(), e);
        }
    }

    private boolean hasRubisTables() throws SQLException {
        try (Connection c = DriverManager.getConnection(SERVER, "root", "");
                PreparedStatement q = c.prepareStatement(
                        "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = ? AND table_name = 'items'")) {
            q.setString(1, name);
            try (ResultSet rs = q.executeQuery()) {
                rs.next();
                if (rs.getInt(1) == 0) {
                    return false;
                }
            }
            try (PreparedStatement rows = c.prepareStatement("SELECT COUNT(*) FROM " + name + ".users");
                    ResultSet rs = rows.executeQuery()) {
                rs.next();
                if (rs.getLong(1) == 0) {
                    // an interrupted earlier load: start again from an empty database
                    try (PreparedStatement drop = c.prepareStatement("DROP DATABASE " + name)) {
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
                    "--jdbc", jdbcUrl() + "?createDatabaseIfNotExist=true",
                    "--scale", Double.toString(scale), "--seed", "1")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
            if (!p.waitFor(30, TimeUnit.MINUTES) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException("rubis-datagen failed loading " + name);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run rubis-datagen: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while loading " + name, e);
        }
    }
}

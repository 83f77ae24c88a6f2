package io.tlsadmit.experiment.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Against the local MariaDB (root, empty password; {@code .ci/run} starts it): a step starts from the data as loaded,
 * whatever the steps before it wrote. A scale no run uses keeps the test's databases apart from the experiment's.
 */
class RubisDatabaseTest {

    private static final String SERVER = "jdbc:mariadb://127.0.0.1:3306/";
    private static final double SCALE = 0.0123;
    private static final String SERVED = "rubis_experiment_0_0123";
    private static final String LOADED = SERVED + "_loaded";

    private final RubisDatabase database = new RubisDatabase(SCALE);

    @BeforeEach
    void aLoadedDataSet() throws SQLException {
        dropBoth();
        // what rubis-datagen leaves: open items numbered after the old ones, so new items start at 5,329
        sql("CREATE DATABASE " + LOADED,
                "CREATE TABLE " + LOADED + ".items (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(20) NOT NULL)",
                "CREATE TABLE " + LOADED + ".users (id INT AUTO_INCREMENT PRIMARY KEY, nickname VARCHAR(20) NOT NULL)",
                "CREATE TABLE " + LOADED + ".regions (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL)",
                "INSERT INTO " + LOADED + ".items (id, name) VALUES (1, 'lamp'), (2, 'chair')",
                "ALTER TABLE " + LOADED + ".items AUTO_INCREMENT = 5329",
                "INSERT INTO " + LOADED + ".users (nickname) VALUES ('ann'), ('bob'), ('cy')",
                "INSERT INTO " + LOADED + ".regions VALUES (1, 'Alaska')");
    }

    @AfterEach
    void dropBoth() throws SQLException {
        sql("DROP DATABASE IF EXISTS " + SERVED, "DROP DATABASE IF EXISTS " + LOADED);
    }

    @Test
    void whatAStepWroteIsGoneAfterARestoreAndNewRowsTakeTheLoadedDataSetsNextIds() throws SQLException {
        String note = database.prepare(Path.of("no-datagen-needed.jar"));
        assertTrue(note.startsWith("reusing MariaDB data set " + LOADED), note);
        assertEquals(List.of("1 lamp", "2 chair"), rows("SELECT id, name FROM " + SERVED + ".items ORDER BY id"));

        // a step of the bidding mix: users register, sell, and change what is there
        sql("INSERT INTO " + SERVED + ".items (name) VALUES ('vase')",
                "INSERT INTO " + SERVED + ".users (nickname) VALUES ('dee')",
                "UPDATE " + SERVED + ".items SET name = 'sold' WHERE id = 1",
                "DELETE FROM " + SERVED + ".regions");
        assertEquals(List.of("1 sold", "2 chair", "5329 vase"),
                rows("SELECT id, name FROM " + SERVED + ".items ORDER BY id"));

        database.restore();

        assertEquals(List.of("1 lamp", "2 chair"), rows("SELECT id, name FROM " + SERVED + ".items ORDER BY id"));
        assertEquals(List.of("1 ann", "2 bob", "3 cy"), rows("SELECT id, nickname FROM " + SERVED + ".users ORDER BY id"));
        assertEquals(List.of("1 Alaska"), rows("SELECT id, name FROM " + SERVED + ".regions"));
        // the next registered item is numbered as on the loaded data, not after the rows just copied
        sql("INSERT INTO " + SERVED + ".items (name) VALUES ('desk')",
                "INSERT INTO " + SERVED + ".users (nickname) VALUES ('eve')");
        assertEquals(List.of("5329 desk"), rows("SELECT id, name FROM " + SERVED + ".items WHERE name = 'desk'"));
        assertEquals(List.of("4 eve"), rows("SELECT id, nickname FROM " + SERVED + ".users WHERE nickname = 'eve'"));
    }

    /**
     * A server that collapsed in the step before still works off its backlog while the next step's data is restored,
     * and the bidding mix writes: here a user registers every moment. Restoring with {@code TRUNCATE} gave the late
     * row id 1, and copying the loaded rows then failed on it.
     */
    @Test
    void aServerStillWritingDuringTheRestoreNeitherFailsItNorTakesALoadedRowsId() throws Exception {
        database.prepare(Path.of("no-datagen-needed.jar"));
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicReference<SQLException> writerFailed = new AtomicReference<>();
        Thread lateRequests = new Thread(() -> {
            try (Connection c = DriverManager.getConnection(SERVER, "root", ""); Statement s = c.createStatement()) {
                while (writing.get()) {
                    s.execute("INSERT INTO " + SERVED + ".users (nickname) VALUES ('late')");
                }
            } catch (SQLException e) {
                writerFailed.set(e);
            }
        });
        lateRequests.start();
        try {
            for (int restore = 0; restore < 20; restore++) {
                database.restore();
            }
        } finally {
            writing.set(false);
            lateRequests.join();
        }

        assertNull(writerFailed.get(), "the late requests' own writes failed");
        assertEquals(List.of("1 ann", "2 bob", "3 cy"),
                rows("SELECT id, nickname FROM " + SERVED + ".users WHERE nickname <> 'late' ORDER BY id"));
        assertEquals(List.of("0"),
                rows("SELECT COUNT(*) FROM " + SERVED + ".users WHERE nickname = 'late' AND id < 4"));
        assertEquals(List.of("items", "regions", "users"),
                rows("SELECT table_name FROM information_schema.tables WHERE table_schema = '" + SERVED
                        + "' ORDER BY table_name"), "no table of the swaps is left behind");
    }

    @Test
    void preparingAgainReplacesAServedDatabaseThatEarlierRunsGrew() throws SQLException {
        database.prepare(Path.of("no-datagen-needed.jar"));
        sql("INSERT INTO " + SERVED + ".users (nickname) VALUES ('left'), ('by'), ('a run')");

        database.prepare(Path.of("no-datagen-needed.jar"));

        assertEquals(List.of("3"), rows("SELECT COUNT(*) FROM " + SERVED + ".users"));
    }

    private static void sql(String... statements) throws SQLException {
        try (Connection c = DriverManager.getConnection(SERVER, "root", ""); Statement s = c.createStatement()) {
            for (String statement : statements) {
                s.execute(statement);
            }
        }
    }

    private static List<String> rows(String query) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(SERVER, "root", ""); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(query)) {
            while (rs.next()) {
                StringBuilder row = new StringBuilder(rs.getString(1));
                for (int column = 2; column <= rs.getMetaData().getColumnCount(); column++) {
                    row.append(' ').append(rs.getString(column));
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }
}

package io.tlsadmit.rubis.web;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/** A database of its own for one test class: an H2 file in a temp directory, or a fresh MariaDB database. */
public record TestDatabase(String driverClassName, String url, String user, String password, Runnable dropper)
        implements AutoCloseable {

    static final String MARIADB_SERVER = System.getProperty("rubis.test.mariadb", "jdbc:mariadb://127.0.0.1:3306/");

    public static TestDatabase h2(java.nio.file.Path directory) {
        return new TestDatabase("org.h2.Driver",
                "jdbc:h2:file:" + directory.resolve("rubis").toAbsolutePath() + ";LOCK_TIMEOUT=10000", "rubis", "",
                () -> { });
    }

    /** Creates {@code rubis_test_<random>} on the local MariaDB (root, empty password) and drops it on close. */
    public static TestDatabase mariaDb() throws SQLException {
        String name = "rubis_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection server = DriverManager.getConnection(MARIADB_SERVER, "root", "");
                Statement statement = server.createStatement()) {
            statement.execute("CREATE DATABASE " + name + " CHARACTER SET utf8mb4");
        } catch (SQLException e) {
            throw new SQLException("these tests need MariaDB at " + MARIADB_SERVER
                    + " (user root, empty password): " + e.getMessage(), e);
        }
        return new TestDatabase("org.mariadb.jdbc.Driver", MARIADB_SERVER + name, "root", "", () -> {
            try (Connection server = DriverManager.getConnection(MARIADB_SERVER, "root", "");
                    Statement statement = server.createStatement()) {
                statement.execute("DROP DATABASE IF EXISTS " + name);
            } catch (SQLException e) {
                throw new IllegalStateException("could not drop test database " + name, e);
            }
        });
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    @Override
    public void close() {
        dropper.run();
    }
}

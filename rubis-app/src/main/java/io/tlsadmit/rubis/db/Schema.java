package io.tlsadmit.rubis.db;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Creates the RUBiS tables and tells whether they exist. */
public final class Schema {

    /** Every table, in creation order. */
    public static final List<String> TABLES =
            List.of("categories", "regions", "users", "items", "old_items", "bids", "comments", "buy_now");

    private Schema() {
    }

    public static boolean exists(Connection connection) throws SQLException {
        DatabaseMetaData meta = connection.getMetaData();
        for (String name : new String[] {"items", "ITEMS"}) {
            try (ResultSet tables = meta.getTables(connection.getCatalog(), null, name, new String[] {"TABLE"})) {
                if (tables.next()) {
                    return true;
                }
            }
        }
        return false;
    }

    public static void create(Connection connection, Dialect dialect) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            for (String ddl : statements(dialect)) {
                statement.execute(ddl);
            }
        }
    }

    /** Drops every RUBiS table; for tests and for reloading a database from scratch. */
    public static void drop(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            for (String table : TABLES) {
                statement.execute("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    /** Moves each table's id generator past the largest id loaded, so new rows never collide with loaded ones. */
    public static void restartIdentities(Connection connection, Dialect dialect, long nextUserId, long nextItemId,
            long nextBidId, long nextCommentId) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(dialect.restartIdentity("users", nextUserId));
            statement.execute(dialect.restartIdentity("items", nextItemId));
            statement.execute(dialect.restartIdentity("bids", nextBidId));
            statement.execute(dialect.restartIdentity("comments", nextCommentId));
        }
    }

    static List<String> statements(Dialect dialect) {
        String script;
        try (InputStream in = Schema.class.getResourceAsStream(dialect.schemaResource())) {
            if (in == null) {
                throw new IllegalStateException("missing schema resource " + dialect.schemaResource());
            }
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : script.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.equals(";")) {
                if (!current.toString().isBlank()) {
                    statements.add(current.toString().strip());
                }
                current.setLength(0);
            } else if (!trimmed.startsWith("--")) {
                current.append(line).append('\n');
            }
        }
        if (!current.toString().isBlank()) {
            throw new IllegalStateException("schema " + dialect.name().toLowerCase(Locale.ROOT)
                    + " ends without ';': " + current);
        }
        return statements;
    }
}

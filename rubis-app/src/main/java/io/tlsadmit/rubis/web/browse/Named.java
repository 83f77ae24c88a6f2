package io.tlsadmit.rubis.web.browse;

import io.tlsadmit.rubis.db.Query;
import io.tlsadmit.rubis.web.Rejection;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/** A row of the two reference tables, categories and regions. */
public record Named(int id, String name) {

    public static List<Named> categories(Connection connection) throws SQLException {
        return all(connection, "categories");
    }

    public static List<Named> regions(Connection connection) throws SQLException {
        return all(connection, "regions");
    }

    /** The category, or a 404 {@link Rejection}. */
    public static Named category(Connection connection, int id) throws SQLException {
        return one(connection, "categories", id, "category");
    }

    /** The region, or a 404 {@link Rejection}. */
    public static Named region(Connection connection, int id) throws SQLException {
        return one(connection, "regions", id, "region");
    }

    private static List<Named> all(Connection connection, String table) throws SQLException {
        return Query.sql(connection, "SELECT id, name FROM " + table + " ORDER BY id")
                .list(row -> new Named(row.getInt(1), row.getString(2)));
    }

    private static Named one(Connection connection, String table, int id, String what) throws SQLException {
        return Query.sql(connection, "SELECT id, name FROM " + table + " WHERE id = ?").bind(id)
                .first(row -> new Named(row.getInt(1), row.getString(2)))
                .orElseThrow(() -> Rejection.notFound("There is no " + what + " with id " + id + "."));
    }
}

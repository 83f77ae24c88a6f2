package io.tlsadmit.rubis.db;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;

/** The two databases RUBiS runs on. Queries are portable; only the DDL and identity handling differ. */
public enum Dialect {
    H2("schema-h2.sql"),
    MARIADB("schema-mariadb.sql");

    private final String schemaResource;

    Dialect(String schemaResource) {
        this.schemaResource = schemaResource;
    }

    String schemaResource() {
        return schemaResource;
    }

    public static Dialect of(Connection connection) throws SQLException {
        String product = connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
        if (product.contains("h2")) {
            return H2;
        }
        if (product.contains("mariadb") || product.contains("mysql")) {
            return MARIADB;
        }
        throw new SQLException("unsupported database: " + product + " (RUBiS runs on H2 or MariaDB)");
    }

    public static Dialect ofUrl(String jdbcUrl) {
        if (jdbcUrl.startsWith("jdbc:h2:")) {
            return H2;
        }
        if (jdbcUrl.startsWith("jdbc:mariadb:") || jdbcUrl.startsWith("jdbc:mysql:")) {
            return MARIADB;
        }
        throw new IllegalArgumentException("unsupported JDBC URL (use jdbc:h2:... or jdbc:mariadb://...): " + jdbcUrl);
    }

    public String driverClassName() {
        return this == H2 ? "org.h2.Driver" : "org.mariadb.jdbc.Driver";
    }

    /**
     * Makes the next generated id of {@code table} at least {@code nextId}. The generator writes explicit ids;
     * MariaDB moves AUTO_INCREMENT past them by itself, H2's identity columns do not.
     */
    String restartIdentity(String table, long nextId) {
        return this == H2
                ? "ALTER TABLE " + table + " ALTER COLUMN id RESTART WITH " + nextId
                : "ALTER TABLE " + table + " AUTO_INCREMENT = " + nextId;
    }
}

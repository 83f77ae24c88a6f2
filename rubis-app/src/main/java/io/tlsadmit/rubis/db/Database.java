package io.tlsadmit.rubis.db;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Borrows pooled connections for one unit of work: a read, or a transaction that commits or rolls back whole. */
public final class Database {

    /** Work done on one connection. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    private final DataSource dataSource;

    public Database(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Runs read-only work in auto-commit mode: every statement sees committed data, nothing is held locked. */
    public <T> T read(Work<T> work) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(true);
            return work.run(connection);
        }
    }

    /** Runs work as one transaction: committed if it returns, rolled back if it throws anything. */
    public <T> T transaction(Work<T> work) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                T result = work.run(connection);
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(connection, e);
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        }
    }

    private static void rollbackQuietly(Connection connection, Exception cause) {
        try {
            connection.rollback();
        } catch (SQLException rollbackFailure) {
            cause.addSuppressed(rollbackFailure);
        }
    }
}

package io.tlsadmit.rubis.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One prepared statement with its parameters. Values only ever travel as bound parameters, never as SQL text.
 */
public final class Query {

    /** Maps the current row of a result set. */
    @FunctionalInterface
    public interface RowMapper<T> {
        T map(ResultSet row) throws SQLException;
    }

    private final Connection connection;
    private final String sql;
    private Object[] parameters = new Object[0];

    private Query(Connection connection, String sql) {
        this.connection = connection;
        this.sql = sql;
    }

    public static Query sql(Connection connection, String sql) {
        return new Query(connection, sql);
    }

    public Query bind(Object... values) {
        this.parameters = values.clone();
        return this;
    }

    public <T> List<T> list(RowMapper<T> mapper) throws SQLException {
        try (PreparedStatement statement = prepare(); ResultSet rows = statement.executeQuery()) {
            List<T> result = new ArrayList<>();
            while (rows.next()) {
                result.add(mapper.map(rows));
            }
            return result;
        }
    }

    public <T> Optional<T> first(RowMapper<T> mapper) throws SQLException {
        try (PreparedStatement statement = prepare()) {
            statement.setMaxRows(1);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? Optional.ofNullable(mapper.map(rows)) : Optional.empty();
            }
        }
    }

    /** Runs an INSERT, UPDATE or DELETE and returns the number of rows it changed. */
    public int update() throws SQLException {
        try (PreparedStatement statement = prepare()) {
            return statement.executeUpdate();
        }
    }

    /** Runs an INSERT and returns the id the database generated for the new row. */
    public int insertReturningId() throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql, new String[] {"id"})) {
            bindTo(statement);
            statement.executeUpdate();
            try (ResultSet keys = statement.getGeneratedKeys()) {
                if (!keys.next()) {
                    throw new SQLException("no generated id for: " + sql);
                }
                return keys.getInt(1);
            }
        }
    }

    private PreparedStatement prepare() throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        try {
            bindTo(statement);
        } catch (SQLException e) {
            statement.close();
            throw e;
        }
        return statement;
    }

    private void bindTo(PreparedStatement statement) throws SQLException {
        for (int i = 0; i < parameters.length; i++) {
            statement.setObject(i + 1, parameters[i]);
        }
    }
}

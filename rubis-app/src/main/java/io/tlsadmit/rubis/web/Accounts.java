package io.tlsadmit.rubis.web;

import io.tlsadmit.rubis.db.Query;
import java.sql.Connection;
import java.sql.SQLException;

/** Nickname and password checks: RUBiS has no sessions, every authenticated interaction sends both. */
public final class Accounts {

    public static final int MAX_NICKNAME = 20;
    public static final int MAX_PASSWORD = 20;

    private Accounts() {
    }

    /** The id of the user with this nickname and password, or a 403 {@link Rejection}. */
    public static int authenticate(Connection connection, Params params) throws SQLException {
        String nickname = params.text("nickname", MAX_NICKNAME);
        String password = params.text("password", MAX_PASSWORD);
        return Query.sql(connection, "SELECT id FROM users WHERE nickname = ? AND password = ?")
                .bind(nickname, password)
                .first(row -> row.getInt(1))
                .orElseThrow(Rejection::badCredentials);
    }

    /** Fails with a 404 {@link Rejection} unless a user with this id exists. */
    public static void requireUser(Connection connection, int userId) throws SQLException {
        if (Query.sql(connection, "SELECT 1 FROM users WHERE id = ?").bind(userId).first(row -> 1).isEmpty()) {
            throw Rejection.notFound("There is no user with id " + userId + ".");
        }
    }

    public static String nickname(Connection connection, int userId) throws SQLException {
        return Query.sql(connection, "SELECT nickname FROM users WHERE id = ?").bind(userId)
                .first(row -> row.getString(1))
                .orElseThrow(() -> Rejection.notFound("There is no user with id " + userId + "."));
    }
}

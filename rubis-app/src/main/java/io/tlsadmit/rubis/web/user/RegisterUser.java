package io.tlsadmit.rubis.web.user;

import io.tlsadmit.rubis.db.Query;
import io.tlsadmit.rubis.web.Accounts;
import io.tlsadmit.rubis.web.HtmlPage;
import io.tlsadmit.rubis.web.Params;
import io.tlsadmit.rubis.web.Rejection;
import io.tlsadmit.rubis.web.RubisServlet;
import io.tlsadmit.rubis.web.Site;
import jakarta.servlet.annotation.WebServlet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;

/** Interaction 2: creates an account (rating 0, balance 0) if the nickname is free and the region exists. */
@WebServlet(Site.SERVLETS + "RegisterUser")
public final class RegisterUser extends RubisServlet {

    private static final long serialVersionUID = 1L;
    private static final int MAX_NAME = 20;
    private static final int MAX_EMAIL = 50;
    private static final int MAX_REGION = 25;

    @Override
    protected HtmlPage respond(Params params, Site site) throws SQLException {
        String firstname = params.text("firstname", MAX_NAME);
        String lastname = params.text("lastname", MAX_NAME);
        String nickname = params.text("nickname", Accounts.MAX_NICKNAME);
        String password = params.text("password", Accounts.MAX_PASSWORD);
        String email = params.text("email", MAX_EMAIL);
        String regionName = params.text("region", MAX_REGION);
        int userId;
        try {
            userId = database().transaction(connection -> {
                int region = Query.sql(connection, "SELECT id FROM regions WHERE name = ?").bind(regionName)
                        .first(row -> row.getInt(1))
                        .orElseThrow(() -> Rejection.badRequest("There is no region called " + regionName + "."));
                if (Query.sql(connection, "SELECT 1 FROM users WHERE nickname = ?").bind(nickname)
                        .first(row -> 1).isPresent()) {
                    throw nicknameTaken(nickname);
                }
                return Query.sql(connection, "INSERT INTO users (firstname, lastname, nickname, password, email,"
                                + " rating, balance, creation_date, region) VALUES (?, ?, ?, ?, ?, 0, 0, ?, ?)")
                        .bind(firstname, lastname, nickname, password, email, Timestamp.from(Instant.now()), region)
                        .insertReturningId();
            });
        } catch (SQLException e) {
            // two registrations of one nickname can both pass the check; the unique index stops the second
            if (e.getSQLState() != null && e.getSQLState().startsWith("23")) {
                throw nicknameTaken(nickname);
            }
            throw e;
        }
        return site.page("Welcome").markup("<h2>Welcome ").text(nickname).markup("</h2>\n")
                .markup("<p>Your account has been created with id ").text(userId).markup(" in region ")
                .text(regionName).markup(".</p>\n");
    }

    private static Rejection nicknameTaken(String nickname) {
        return Rejection.conflict("The nickname " + nickname + " is already taken; please choose another one.");
    }
}

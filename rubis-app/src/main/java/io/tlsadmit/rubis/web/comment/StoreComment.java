package io.tlsadmit.rubis.web.comment;

import io.tlsadmit.rubis.db.Query;
import io.tlsadmit.rubis.web.Accounts;
import io.tlsadmit.rubis.web.HtmlPage;
import io.tlsadmit.rubis.web.Params;
import io.tlsadmit.rubis.web.Rejection;
import io.tlsadmit.rubis.web.RubisServlet;
import io.tlsadmit.rubis.web.Site;
import io.tlsadmit.rubis.web.item.Items;
import jakarta.servlet.annotation.WebServlet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;

/** Interaction 20: one transaction stores the comment and adds its rating to the rated user's. */
@WebServlet(Site.SERVLETS + "StoreComment")
public final class StoreComment extends RubisServlet {

    private static final long serialVersionUID = 1L;
    static final int MAX_COMMENT = 2048;

    @Override
    protected HtmlPage respond(Params params, Site site) throws SQLException {
        int to = params.id("to");
        int from = params.id("from");
        int itemId = params.id("itemId");
        Rating rating = Rating.ofPoints(params.intIn("rating", -5, 5));
        String comment = params.text("comment", MAX_COMMENT);
        String target = database().transaction(connection -> {
            Accounts.requireUser(connection, from);
            Items.require(connection, itemId);
            int updated = Query.sql(connection, "UPDATE users SET rating = rating + ? WHERE id = ?")
                    .bind(rating.points(), to)
                    .update();
            if (updated == 0) {
                throw Rejection.notFound("There is no user with id " + to + ".");
            }
            Query.sql(connection, "INSERT INTO comments (from_user_id, to_user_id, item_id, rating, date, comment)"
                            + " VALUES (?, ?, ?, ?, ?, ?)")
                    .bind(from, to, itemId, rating.points(), Timestamp.from(Instant.now()), comment)
                    .update();
            return Accounts.nickname(connection, to);
        });
        return site.page("Comment stored").heading("Your comment has been stored")
                .markup("<p>Your comment about ")
                .link(site.servlet("ViewUserInfo").with("userId", to), target).markup(" is online.</p>\n");
    }
}

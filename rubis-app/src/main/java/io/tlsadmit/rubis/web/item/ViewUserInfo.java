package io.tlsadmit.rubis.web.item;

import io.tlsadmit.rubis.db.Query;
import io.tlsadmit.rubis.web.HtmlPage;
import io.tlsadmit.rubis.web.Params;
import io.tlsadmit.rubis.web.Rejection;
import io.tlsadmit.rubis.web.Site;
import io.tlsadmit.rubis.web.RubisServlet;
import jakarta.servlet.annotation.WebServlet;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;

/** Interaction 10: a user's public profile and every comment about them, each author linked. */
@WebServlet(Site.SERVLETS + "ViewUserInfo")
public final class ViewUserInfo extends RubisServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected HtmlPage respond(Params params, Site site) throws SQLException {
        int userId = params.id("userId");
        return database().read(connection -> {
            HtmlPage page = site.page("User information");
            profile(connection, page, userId);
            return comments(connection, page, userId);
        });
    }

    /** The profile table shared with AboutMe. */
    public static void profile(Connection connection, HtmlPage page, int userId) throws SQLException {
        record Profile(String first, String last, String nickname, String email, int rating, Timestamp since,
                String region) {
        }
        Profile profile = Query.sql(connection, "SELECT u.firstname, u.lastname, u.nickname, u.email, u.rating,"
                        + " u.creation_date, r.name FROM users u LEFT JOIN regions r ON r.id = u.region WHERE u.id = ?")
                .bind(userId)
                .first(row -> new Profile(row.getString(1), row.getString(2), row.getString(3), row.getString(4),
                        row.getInt(5), row.getTimestamp(6), row.getString(7)))
                .orElseThrow(() -> Rejection.notFound("There is no user with id " + userId + "."));
        page.markup("<h2>Information about ").text(profile.nickname()).markup("</h2>\n<table>\n")
                .markup("<tr><th>Real name</th><td>").text(profile.first() + " " + profile.last())
                .markup("</td></tr>\n<tr><th>Email</th><td>").text(profile.email())
                .markup("</td></tr>\n<tr><th>Region</th><td>").text(profile.region() == null ? "" : profile.region())
                .markup("</td></tr>\n<tr><th>Member since</th><td>").date(profile.since())
                .markup("</td></tr>\n<tr><th>Rating</th><td class=\"rating\">").text(profile.rating())
                .markup("</td></tr>\n</table>\n");
    }

    /** The comments about a user, newest first; shared with AboutMe. */
    public static HtmlPage comments(Connection connection, HtmlPage page, int userId) throws SQLException {
        record Comment(int authorId, String author, int rating, Timestamp date, String text) {
        }
        var comments = Query.sql(connection, "SELECT c.from_user_id, u.nickname, c.rating, c.date, c.comment"
                        + " FROM comments c LEFT JOIN users u ON u.id = c.from_user_id"
                        + " WHERE c.to_user_id = ? ORDER BY c.date DESC, c.id DESC")
                .bind(userId)
                .list(row -> new Comment(row.getInt(1), row.getString(2), row.getInt(3), row.getTimestamp(4),
                        row.getString(5)));
        page.markup("<h3>Comments</h3>\n");
        if (comments.isEmpty()) {
            return page.paragraph("There are no comments about this user yet.");
        }
        Site site = page.site();
        for (Comment comment : comments) {
            page.markup("<div class=\"comment\"><p>")
                    .link(site.servlet("ViewUserInfo").with("userId", comment.authorId()),
                            comment.author() == null ? "user " + comment.authorId() : comment.author())
                    .markup(" rated ").text(comment.rating()).markup(" on ").date(comment.date())
                    .markup(":</p>\n<blockquote>").text(comment.text()).markup("</blockquote></div>\n");
        }
        return page;
    }
}

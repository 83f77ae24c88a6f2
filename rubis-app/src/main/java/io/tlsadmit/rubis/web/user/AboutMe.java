package io.tlsadmit.rubis.web.user;

import io.tlsadmit.rubis.db.Query;
import io.tlsadmit.rubis.web.Accounts;
import io.tlsadmit.rubis.web.HtmlPage;
import io.tlsadmit.rubis.web.Params;
import io.tlsadmit.rubis.web.RubisServlet;
import io.tlsadmit.rubis.web.Site;
import io.tlsadmit.rubis.web.item.ViewUserInfo;
import jakarta.servlet.annotation.WebServlet;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Interaction 26: after login, the user's profile and activity: open auctions they bid on, what they sell and sold
 * in the last 30 days, what they won and bought in the last 30 days, and the comments about them.
 */
@WebServlet(Site.SERVLETS + "AboutMe")
public final class AboutMe extends RubisServlet {

    private static final long serialVersionUID = 1L;
    private static final Duration RECENT = Duration.ofDays(30);

    private record Line(int itemId, String name, BigDecimal amount, int quantity, Timestamp date) {
    }

    @Override
    protected HtmlPage respond(Params params, Site site) throws SQLException {
        return database().read(connection -> {
            int userId = Accounts.authenticate(connection, params);
            Instant nowInstant = Instant.now();
            Timestamp now = Timestamp.from(nowInstant);
            Timestamp recent = Timestamp.from(nowInstant.minus(RECENT));
            HtmlPage page = site.page("About me");
            ViewUserInfo.profile(connection, page, userId);

            section(page, "Items you are bidding on", "Your best bid", "Ends", list(connection,
                    "SELECT i.id, i.name, MAX(b.bid), i.quantity, i.end_date FROM bids b JOIN items i ON i.id = b.item_id"
                            + " WHERE b.user_id = ? AND i.end_date >= ?"
                            + " GROUP BY i.id, i.name, i.quantity, i.end_date ORDER BY i.end_date, i.id",
                    userId, now));
            section(page, "Items you are selling", "Price", "Ends", list(connection,
                    "SELECT id, name, CASE WHEN max_bid > initial_price THEN max_bid ELSE initial_price END,"
                            + " quantity, end_date FROM items WHERE seller = ? AND end_date >= ?"
                            + " ORDER BY end_date, id", userId, now));
            section(page, "Items you sold in the last 30 days", "Final price", "Ended", list(connection,
                    "SELECT id, name, max_bid, quantity, end_date FROM items"
                            + " WHERE seller = ? AND end_date < ? AND end_date >= ?"
                            + " UNION ALL SELECT id, name, max_bid, quantity, end_date FROM old_items"
                            + " WHERE seller = ? AND end_date < ? AND end_date >= ?",
                    userId, now, recent, userId, now, recent));
            // won: the user's bid is the auction's best bid (the original listed every ended auction bid on)
            section(page, "Items you won in the last 30 days", "Winning bid", "Ended", list(connection,
                    "SELECT o.id, o.name, MAX(b.bid), MAX(b.qty), o.end_date FROM bids b"
                            + " JOIN old_items o ON o.id = b.item_id"
                            + " WHERE b.user_id = ? AND o.end_date >= ? AND b.bid = o.max_bid"
                            + " GROUP BY o.id, o.name, o.end_date ORDER BY o.end_date DESC, o.id",
                    userId, recent));
            section(page, "Items you bought in the last 30 days", "Buy now price", "Bought", list(connection,
                    "SELECT i.id, i.name, i.buy_now, n.qty, n.date FROM buy_now n JOIN items i ON i.id = n.item_id"
                            + " WHERE n.buyer_id = ? AND n.date >= ?"
                            + " UNION ALL SELECT o.id, o.name, o.buy_now, n.qty, n.date FROM buy_now n"
                            + " JOIN old_items o ON o.id = n.item_id WHERE n.buyer_id = ? AND n.date >= ?",
                    userId, recent, userId, recent));
            return ViewUserInfo.comments(connection, page, userId);
        });
    }

    private static List<Line> list(Connection connection, String sql, Object... parameters) throws SQLException {
        return Query.sql(connection, sql).bind(parameters)
                .list(row -> new Line(row.getInt(1), row.getString(2), row.getBigDecimal(3), row.getInt(4),
                        row.getTimestamp(5)));
    }

    private static void section(HtmlPage page, String title, String amountLabel, String dateLabel, List<Line> lines) {
        page.markup("<h3>").text(title).markup("</h3>\n");
        if (lines.isEmpty()) {
            page.paragraph("None.");
            return;
        }
        page.markup("<table>\n<tr><th>Item</th><th>").text(amountLabel).markup("</th><th>Quantity</th><th>")
                .text(dateLabel).markup("</th></tr>\n");
        for (Line line : lines) {
            page.markup("<tr><td>").link(page.site().servlet("ViewItem").with("itemId", line.itemId()), line.name())
                    .markup("</td><td>").money(line.amount())
                    .markup("</td><td>").text(line.quantity())
                    .markup("</td><td>").date(line.date()).markup("</td></tr>\n");
        }
        page.markup("</table>\n");
    }
}

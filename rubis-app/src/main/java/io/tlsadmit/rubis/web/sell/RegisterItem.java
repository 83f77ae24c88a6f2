package io.tlsadmit.rubis.web.sell;

import io.tlsadmit.rubis.db.Query;
import io.tlsadmit.rubis.web.Accounts;
import io.tlsadmit.rubis.web.HtmlPage;
import io.tlsadmit.rubis.web.Params;
import io.tlsadmit.rubis.web.Rejection;
import io.tlsadmit.rubis.web.RubisServlet;
import io.tlsadmit.rubis.web.Site;
import io.tlsadmit.rubis.web.browse.Named;
import jakarta.servlet.annotation.WebServlet;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** Interaction 24: puts a new item up for auction, from now for 1 to 7 days, and shows it with its new id. */
@WebServlet(Site.SERVLETS + "RegisterItem")
public final class RegisterItem extends RubisServlet {

    private static final long serialVersionUID = 1L;
    static final int MAX_NAME = 100;
    static final int MAX_DESCRIPTION = 8192;
    static final int MIN_DAYS = 1;
    static final int MAX_DAYS = 7;
    static final int MAX_QUANTITY = 1_000_000;

    @Override
    protected HtmlPage respond(Params params, Site site) throws SQLException {
        int categoryId = params.id("category");
        int userId = params.id("userId");
        String name = params.text("name", MAX_NAME);
        String description = params.text("description", MAX_DESCRIPTION);
        BigDecimal initialPrice = params.money("initialPrice");
        BigDecimal reservePrice = params.optionalMoney("reservePrice");
        BigDecimal buyNow = params.optionalMoney("buyNow");
        int quantity = params.intIn("quantity", 1, MAX_QUANTITY);
        int days = params.intIn("duration", MIN_DAYS, MAX_DAYS);
        if (buyNow.signum() > 0 && buyNow.compareTo(initialPrice) < 0) {
            throw Rejection.badRequest("The buy now price cannot be below the initial price.");
        }
        Instant start = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Instant end = start.plus(Duration.ofDays(days));
        int itemId = database().transaction(connection -> {
            Accounts.requireUser(connection, userId);
            Named.category(connection, categoryId);
            return Query.sql(connection, "INSERT INTO items (name, description, initial_price, quantity,"
                            + " reserve_price, buy_now, nb_of_bids, max_bid, start_date, end_date, seller, category)"
                            + " VALUES (?, ?, ?, ?, ?, ?, 0, 0, ?, ?, ?, ?)")
                    .bind(name, description, initialPrice, quantity, reservePrice, buyNow, Timestamp.from(start),
                            Timestamp.from(end), userId, categoryId)
                    .insertReturningId();
        });
        return site.page("Item registered").heading("Your item has been registered")
                .markup("<p>").link(site.servlet("ViewItem").with("itemId", itemId), name)
                .markup(" is on sale as item ").text(itemId).markup(" until ").date(Timestamp.from(end))
                .markup(".</p>\n");
    }
}

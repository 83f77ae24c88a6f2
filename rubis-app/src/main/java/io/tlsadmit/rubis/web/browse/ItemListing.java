package io.tlsadmit.rubis.web.browse;

import io.tlsadmit.rubis.db.Query;
import io.tlsadmit.rubis.web.Href;
import io.tlsadmit.rubis.web.HtmlPage;
import io.tlsadmit.rubis.web.Params;
import io.tlsadmit.rubis.web.Site;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

/**
 * One page of open auctions, soonest ending first, with Previous/Next links; shared by the two searches. Pages are
 * numbered from 0 and hold {@code nbOfItems} rows (25 unless asked otherwise).
 */
final class ItemListing {

    static final int DEFAULT_PAGE_SIZE = 25;
    static final int MAX_PAGE_SIZE = 500;
    static final int MAX_PAGE = 1_000_000;

    private record Row(int id, String name, BigDecimal initialPrice, BigDecimal maxBid, int nbOfBids, Timestamp end) {
    }

    private final int page;
    private final int pageSize;

    ItemListing(Params params) {
        this.page = params.optionalIntIn("page", 0, 0, MAX_PAGE);
        this.pageSize = params.optionalIntIn("nbOfItems", DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE);
    }

    /**
     * Runs {@code selectFromWhere} (which must bind the open-auction bound as its last parameter) and renders the
     * rows. {@code link} makes the search's own URL, to which the paging parameters are added.
     */
    HtmlPage render(Connection connection, HtmlPage html, String selectFromWhere, List<Object> parameters,
            Supplier<Href> link) throws SQLException {
        Object[] bound = new Object[parameters.size() + 3];
        for (int i = 0; i < parameters.size(); i++) {
            bound[i] = parameters.get(i);
        }
        bound[parameters.size()] = Timestamp.from(Instant.now());
        // one row more than shown tells whether there is a next page
        bound[parameters.size() + 1] = pageSize + 1;
        bound[parameters.size() + 2] = (long) page * pageSize;
        List<Row> rows = Query.sql(connection, "SELECT i.id, i.name, i.initial_price, i.max_bid, i.nb_of_bids,"
                        + " i.end_date " + selectFromWhere + " AND i.end_date >= ? ORDER BY i.end_date, i.id"
                        + " LIMIT ? OFFSET ?")
                .bind(bound)
                .list(row -> new Row(row.getInt(1), row.getString(2), row.getBigDecimal(3), row.getBigDecimal(4),
                        row.getInt(5), row.getTimestamp(6)));
        if (rows.isEmpty()) {
            html.markup("<h3>").text(page == 0
                    ? "Sorry, but there are no items available in this category."
                    : "Sorry, but there are no more items available in this category.").markup("</h3>\n");
        } else {
            Site site = html.site();
            html.markup("<table>\n<tr><th>Item</th><th>Price</th><th>Bids</th><th>Ends</th><th></th></tr>\n");
            for (Row row : rows.subList(0, Math.min(pageSize, rows.size()))) {
                BigDecimal price = row.nbOfBids() == 0 ? row.initialPrice() : row.maxBid().max(row.initialPrice());
                html.markup("<tr class=\"item\"><td>")
                        .link(site.servlet("ViewItem").with("itemId", row.id()), row.name())
                        .markup("</td><td>").money(price)
                        .markup("</td><td>").text(row.nbOfBids())
                        .markup("</td><td>").date(row.end())
                        .markup("</td><td>")
                        .imageLink(site.servlet("PutBidAuth").with("itemId", row.id()), "bid_now.jpg", "Bid now", 90,
                                32)
                        .markup("</td></tr>\n");
            }
            html.markup("</table>\n");
        }
        html.markup("<p>");
        if (page > 0) {
            html.link(link.get().with("page", page - 1).with("nbOfItems", pageSize), "Previous page");
        }
        if (rows.size() > pageSize) {
            html.markup(" ").link(link.get().with("page", page + 1).with("nbOfItems", pageSize), "Next page");
        }
        return html.markup("</p>\n");
    }
}

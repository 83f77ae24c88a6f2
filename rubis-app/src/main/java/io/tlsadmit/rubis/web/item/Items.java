package io.tlsadmit.rubis.web.item;

import io.tlsadmit.rubis.db.Query;
import io.tlsadmit.rubis.web.Rejection;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/** Finds auctions by id, among the running ones first and then among the ended ones. */
public final class Items {

    private Items() {
    }

    public static Optional<Item> find(Connection connection, int id) throws SQLException {
        Optional<Item> open = Query.sql(connection, "SELECT " + Item.COLUMNS + " FROM items WHERE id = ?")
                .bind(id).first(row -> Item.read(row, false));
        if (open.isPresent()) {
            return open;
        }
        return Query.sql(connection, "SELECT " + Item.COLUMNS + " FROM old_items WHERE id = ?")
                .bind(id).first(row -> Item.read(row, true));
    }

    /** The item, or a 404 {@link Rejection}. */
    public static Item require(Connection connection, int id) throws SQLException {
        return find(connection, id).orElseThrow(() -> Rejection.notFound("There is no item with id " + id + "."));
    }

    /**
     * The price the item sells at now. With one unit it is the best bid; with several, the lowest of the winning bids
     * once the bids from the top cover the quantity; never below the initial price.
     */
    public static BigDecimal currentPrice(Connection connection, Item item) throws SQLException {
        if (item.nbOfBids() == 0) {
            return item.initialPrice();
        }
        if (item.quantity() <= 1) {
            return item.maxBid().max(item.initialPrice());
        }
        record Bid(BigDecimal amount, int qty) {
        }
        List<Bid> best = Query.sql(connection,
                        "SELECT bid, qty FROM bids WHERE item_id = ? ORDER BY bid DESC, id LIMIT ?")
                .bind(item.id(), item.quantity())
                .list(row -> new Bid(row.getBigDecimal(1), row.getInt(2)));
        BigDecimal price = item.maxBid();
        int covered = 0;
        for (Bid bid : best) {
            price = bid.amount();
            covered += bid.qty();
            if (covered >= item.quantity()) {
                break;
            }
        }
        return price.max(item.initialPrice());
    }
}

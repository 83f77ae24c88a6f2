package io.tlsadmit.rubis.web.item;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;

/** An auction, open or ended ({@code archived}: it lives in old_items). */
public record Item(int id, String name, String description, BigDecimal initialPrice, int quantity,
        BigDecimal reservePrice, BigDecimal buyNow, int nbOfBids, BigDecimal maxBid, Timestamp start, Timestamp end,
        int sellerId, int category, boolean archived) {

    static final String COLUMNS = "id, name, description, initial_price, quantity, reserve_price, buy_now,"
            + " nb_of_bids, max_bid, start_date, end_date, seller, category";

    static Item read(ResultSet row, boolean archived) throws SQLException {
        return new Item(row.getInt(1), row.getString(2), row.getString(3), row.getBigDecimal(4), row.getInt(5),
                row.getBigDecimal(6), row.getBigDecimal(7), row.getInt(8), row.getBigDecimal(9),
                row.getTimestamp(10), row.getTimestamp(11), row.getInt(12), row.getInt(13), archived);
    }

    /** Bids and buy-now are accepted only while the auction runs and something is left to sell. */
    public boolean isOpen(Instant now) {
        return !archived && quantity > 0 && !end.toInstant().isBefore(now);
    }

    /** The least a new bid must offer: the initial price before any bid, then one more than the best bid. */
    public BigDecimal minimumBid() {
        return nbOfBids == 0 ? initialPrice : maxBid.max(initialPrice).add(BigDecimal.ONE);
    }

    public boolean hasReserve() {
        return reservePrice.signum() > 0;
    }

    public boolean hasBuyNow() {
        return buyNow.signum() > 0;
    }
}

package io.tlsadmit.rubis.datagen;

import io.tlsadmit.rubis.db.Dialect;
import io.tlsadmit.rubis.db.Schema;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Writes a RUBiS data set straight into the database with batched prepared statements.
 *
 * <p>Every value but the dates comes from one random stream seeded by the caller, drawn in a fixed order, so a seed
 * and a scale always give the same rows. Dates are offsets from the moment the load starts, because the site only
 * shows auctions whose end date is still ahead.
 *
 * <p>Ids: users 1..U, active items 1..A, ended items A+1..A+O (ViewItem looks an id up in both tables, so the two
 * ranges must not overlap), bids and comments numbered in the order written. Items, their bids and their comment are
 * generated together so that an item's bid count and maximum bid agree with its bids, and users are written last so
 * that each user's rating is the sum of the comments about them.
 */
public final class DataGenerator {

    private static final int BATCH = 1000;
    private static final int PROSE_LENGTH = 64 * 1024;
    private static final int MAX_DESCRIPTION = 8192;
    private static final int MAX_COMMENT = 512;
    private static final int[] RATINGS = {5, 3, 0, -3, -5};
    private static final long DAY_SECONDS = 24 * 3600;

    private final Connection connection;
    private final Dialect dialect;
    private final DataSetSize size;
    private final SplittableRandom random;
    private final Prose prose;
    private final LoadProgress progress;
    private final Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    private final int[] ratingOfUser;
    private final int[] cumulativeCategoryShare;

    private long done;
    private int nextBidId = 1;
    private int nextCommentId = 1;

    public DataGenerator(Connection connection, Dialect dialect, DataSetSize size, long seed, LoadProgress progress) {
        this.connection = connection;
        this.dialect = dialect;
        this.size = size;
        this.random = new SplittableRandom(seed);
        this.prose = new Prose(seed, PROSE_LENGTH);
        this.progress = progress;
        this.ratingOfUser = new int[size.users() + 1];
        this.cumulativeCategoryShare = new int[Catalog.CATEGORIES.size()];
        int sum = 0;
        for (int i = 0; i < cumulativeCategoryShare.length; i++) {
            sum += size.activeItemsPerCategory()[i];
            cumulativeCategoryShare[i] = sum;
        }
    }

    /** Creates the schema if needed, loads the data set into empty tables and returns the row counts. */
    public LoadReport load() throws SQLException {
        long started = System.nanoTime();
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            if (!Schema.exists(connection)) {
                Schema.create(connection, dialect);
                connection.commit();
            }
            requireEmpty();
            writeReferenceData();
            long total = (long) size.activeItems() + size.oldItems() + size.users();
            int activeItems = size.activeItems();
            writeItems("items", 1, activeItems, false, total);
            writeItems("old_items", activeItems + 1, size.oldItems(), true, total);
            writeUsers(total);
            Schema.restartIdentities(connection, dialect, size.users() + 1L,
                    (long) activeItems + size.oldItems() + 1, nextBidId, nextCommentId);
            connection.commit();
            return new LoadReport(countRows(), Duration.ofNanos(System.nanoTime() - started));
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    private void requireEmpty() throws SQLException {
        try (Statement statement = connection.createStatement()) {
            for (String table : new String[] {"users", "items", "old_items", "regions"}) {
                try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
                    rows.next();
                    if (rows.getLong(1) != 0) {
                        throw new SQLException("the database already holds RUBiS data (" + rows.getLong(1) + " rows in "
                                + table + "); load into an empty database");
                    }
                }
            }
        }
    }

    private void writeReferenceData() throws SQLException {
        try (PreparedStatement regions = connection.prepareStatement("INSERT INTO regions (id, name) VALUES (?, ?)");
                PreparedStatement categories =
                        connection.prepareStatement("INSERT INTO categories (id, name) VALUES (?, ?)")) {
            for (int i = 0; i < Catalog.REGIONS.size(); i++) {
                regions.setInt(1, i + 1);
                regions.setString(2, Catalog.REGIONS.get(i));
                regions.addBatch();
            }
            regions.executeBatch();
            for (Catalog.Category category : Catalog.CATEGORIES) {
                categories.setInt(1, category.id());
                categories.setString(2, category.name());
                categories.addBatch();
            }
            categories.executeBatch();
        }
        connection.commit();
    }

    private void writeItems(String table, int firstId, int count, boolean ended, long total) throws SQLException {
        String itemSql = "INSERT INTO " + table + " (id, name, description, initial_price, quantity, reserve_price,"
                + " buy_now, nb_of_bids, max_bid, start_date, end_date, seller, category)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
        try (PreparedStatement items = connection.prepareStatement(itemSql);
                PreparedStatement bids = connection.prepareStatement(
                        "INSERT INTO bids (id, user_id, item_id, qty, bid, max_bid, date) VALUES (?, ?, ?, ?, ?, ?, ?)");
                PreparedStatement comments = connection.prepareStatement("INSERT INTO comments"
                        + " (id, from_user_id, to_user_id, item_id, rating, date, comment) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
            int category = 1;
            int pending = 0;
            for (int i = 0; i < count; i++) {
                int id = firstId + i;
                if (!ended) {
                    while (i >= cumulativeCategoryShare[category - 1]) {
                        category++;
                    }
                }
                writeItem(items, bids, comments, id, ended ? randomCategory() : category, ended);
                if (++pending == BATCH) {
                    flush(items, bids, comments);
                    pending = 0;
                    progress.advanced(table, done, total);
                }
                done++;
            }
            flush(items, bids, comments);
            progress.advanced(table, done, total);
        }
    }

    private void writeItem(PreparedStatement items, PreparedStatement bids, PreparedStatement comments, int id,
            int category, boolean ended) throws SQLException {
        int durationDays = 1 + random.nextInt(7);
        long durationSeconds = durationDays * DAY_SECONDS;
        Instant start;
        Instant end;
        if (ended) {
            end = now.minusSeconds(3600 + random.nextLong(60 * DAY_SECONDS));
            start = end.minusSeconds(durationSeconds);
        } else {
            // at most 90% of the auction has run, so every loaded auction stays open for a while
            start = now.minusSeconds(random.nextLong(durationSeconds * 9 / 10 + 1));
            end = start.plusSeconds(durationSeconds);
        }
        int initialPrice = 1 + random.nextInt(5000);
        int quantity = random.nextInt(10) < 8 ? 1 : 2 + random.nextInt(9);
        int reservePrice = random.nextInt(10) < 4 ? initialPrice + 1 + random.nextInt(1000) : 0;
        int buyNow = random.nextInt(10) == 0 ? Math.max(initialPrice, reservePrice) + 1 + random.nextInt(1000) : 0;
        int seller = 1 + random.nextInt(size.users());
        String name = prose.title(random) + " #" + id;
        String description = prose.slice(random, 1 + random.nextInt(MAX_DESCRIPTION));

        int nbOfBids = random.nextInt(20);
        long runSeconds = Math.max(1, (ended ? end : now).getEpochSecond() - start.getEpochSecond());
        int price = initialPrice;
        for (int b = 0; b < nbOfBids; b++) {
            int raise = 1 + random.nextInt(10);
            price += raise;
            bids.setInt(1, nextBidId++);
            bids.setInt(2, 1 + random.nextInt(size.users()));
            bids.setInt(3, id);
            bids.setInt(4, 1 + random.nextInt(quantity));
            bids.setBigDecimal(5, BigDecimal.valueOf(price));
            bids.setBigDecimal(6, BigDecimal.valueOf(price + 2L * raise));
            // bids come in order, spread over the time the auction has run
            bids.setTimestamp(7, Timestamp.from(start.plusSeconds(runSeconds * (b + 1) / (nbOfBids + 1))));
            bids.addBatch();
        }
        int maxBid = nbOfBids > 0 ? price : 0;

        items.setInt(1, id);
        items.setString(2, name);
        items.setString(3, description);
        items.setBigDecimal(4, BigDecimal.valueOf(initialPrice));
        items.setInt(5, quantity);
        items.setBigDecimal(6, BigDecimal.valueOf(reservePrice));
        items.setBigDecimal(7, BigDecimal.valueOf(buyNow));
        items.setInt(8, nbOfBids);
        items.setBigDecimal(9, BigDecimal.valueOf(maxBid));
        items.setTimestamp(10, Timestamp.from(start));
        items.setTimestamp(11, Timestamp.from(end));
        items.setInt(12, seller);
        items.setInt(13, category);
        items.addBatch();

        if (random.nextInt(100) < 95) {
            int rating = RATINGS[random.nextInt(RATINGS.length)];
            ratingOfUser[seller] += rating;
            comments.setInt(1, nextCommentId++);
            comments.setInt(2, 1 + random.nextInt(size.users()));
            comments.setInt(3, seller);
            comments.setInt(4, id);
            comments.setInt(5, rating);
            comments.setTimestamp(6, Timestamp.from(start.plusSeconds(runSeconds / 2)));
            comments.setString(7, prose.slice(random, 1 + random.nextInt(MAX_COMMENT)));
            comments.addBatch();
        }
    }

    private int randomCategory() {
        int pick = random.nextInt(size.activeItems());
        for (int i = 0; i < cumulativeCategoryShare.length; i++) {
            if (pick < cumulativeCategoryShare[i]) {
                return i + 1;
            }
        }
        throw new AssertionError("pick beyond the last category");
    }

    private void writeUsers(long total) throws SQLException {
        try (PreparedStatement users = connection.prepareStatement("INSERT INTO users (id, firstname, lastname,"
                + " nickname, password, email, rating, balance, creation_date, region)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            int pending = 0;
            for (int k = 1; k <= size.users(); k++) {
                users.setInt(1, k);
                users.setString(2, "First" + k);
                users.setString(3, "Last" + k);
                users.setString(4, "user" + k);
                users.setString(5, "password" + k);
                users.setString(6, "user" + k + "@rubis.test");
                users.setInt(7, ratingOfUser[k]);
                users.setBigDecimal(8, BigDecimal.ZERO);
                users.setTimestamp(9, Timestamp.from(now.minusSeconds(random.nextLong(365 * DAY_SECONDS))));
                users.setInt(10, Catalog.regionOfUser(k));
                users.addBatch();
                done++;
                if (++pending == BATCH) {
                    users.executeBatch();
                    connection.commit();
                    pending = 0;
                    progress.advanced("users", done, total);
                }
            }
            users.executeBatch();
            connection.commit();
            progress.advanced("users", done, total);
        }
    }

    private void flush(PreparedStatement items, PreparedStatement bids, PreparedStatement comments)
            throws SQLException {
        items.executeBatch();
        bids.executeBatch();
        comments.executeBatch();
        connection.commit();
    }

    private Map<String, Long> countRows() throws SQLException {
        Map<String, Long> counts = new LinkedHashMap<>();
        try (Statement statement = connection.createStatement()) {
            for (String table : Schema.TABLES) {
                try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
                    rows.next();
                    counts.put(table, rows.getLong(1));
                }
            }
        }
        return counts;
    }
}

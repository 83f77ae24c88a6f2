package io.tlsadmit.rubis.datagen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.rubis.db.Dialect;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class DataGeneratorTest {

    private static final DataSetSize SMALL = DataSetSize.of(0.001);

    @Test
    void theSameSeedAndScaleGiveTheSameRows() throws SQLException {
        assertEquals(fingerprint(7), fingerprint(7));
    }

    @Test
    void anotherSeedGivesOtherRows() throws SQLException {
        assertNotEquals(fingerprint(7), fingerprint(8));
    }

    @Test
    void itemsAgreeWithTheirBidsAndUsersWithTheCommentsAboutThem() throws SQLException {
        try (Connection connection = memoryDatabase("consistent")) {
            LoadReport report = new DataGenerator(connection, Dialect.H2, SMALL, 3, LoadProgress.SILENT).load();
            assertEquals(SMALL.users(), report.rows("users"));
            assertEquals(SMALL.activeItems(), report.rows("items"));
            assertEquals(SMALL.oldItems(), report.rows("old_items"));
            assertEquals(62, report.rows("regions"));
            assertEquals(20, report.rows("categories"));
            assertEquals(0, single(connection, "SELECT COUNT(*) FROM items i WHERE i.nb_of_bids <>"
                    + " (SELECT COUNT(*) FROM bids b WHERE b.item_id = i.id)"));
            assertEquals(0, single(connection, "SELECT COUNT(*) FROM items i WHERE i.nb_of_bids > 0 AND i.max_bid <>"
                    + " (SELECT MAX(b.bid) FROM bids b WHERE b.item_id = i.id)"));
            assertEquals(0, single(connection, "SELECT COUNT(*) FROM users u WHERE u.rating <>"
                    + " (SELECT COALESCE(SUM(c.rating), 0) FROM comments c WHERE c.to_user_id = u.id)"));
            assertEquals(0, single(connection, "SELECT COUNT(*) FROM items WHERE end_date < CURRENT_TIMESTAMP"));
            assertEquals(0, single(connection, "SELECT COUNT(*) FROM old_items WHERE end_date >= CURRENT_TIMESTAMP"));
            assertEquals(0, single(connection, "SELECT COUNT(*) FROM old_items o JOIN items i ON i.id = o.id"));
            assertEquals(SMALL.activeItemsIn(6), single(connection, "SELECT COUNT(*) FROM items WHERE category = 6"));
            assertEquals(Catalog.regionOfUser(125), single(connection, "SELECT region FROM users WHERE id = 125"));
            assertEquals(1, single(connection,
                    "SELECT COUNT(*) FROM users WHERE nickname = 'user125' AND password = 'password125'"));
        }
    }

    @Test
    void newRowsAreNumberedAfterTheLoadedOnes() throws SQLException {
        try (Connection connection = memoryDatabase("identities")) {
            new DataGenerator(connection, Dialect.H2, SMALL, 3, LoadProgress.SILENT).load();
            try (Statement statement = connection.createStatement()) {
                statement.executeUpdate("INSERT INTO items (name, description, initial_price, quantity, start_date,"
                        + " end_date, seller, category) VALUES ('n', 'd', 1, 1, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP,"
                        + " 1, 1)", Statement.RETURN_GENERATED_KEYS);
                try (ResultSet keys = statement.getGeneratedKeys()) {
                    keys.next();
                    assertEquals(SMALL.activeItems() + SMALL.oldItems() + 1, keys.getInt(1));
                }
            }
        }
    }

    @Test
    void progressRunsFromZeroToEveryRow() throws SQLException {
        AtomicLong last = new AtomicLong(-1);
        List<Long> totals = new ArrayList<>();
        try (Connection connection = memoryDatabase("progress")) {
            new DataGenerator(connection, Dialect.H2, SMALL, 3, (phase, done, total) -> {
                assertTrue(done >= last.get(), "progress never goes back");
                last.set(done);
                totals.add(total);
            }).load();
        }
        long expected = SMALL.users() + SMALL.activeItems() + SMALL.oldItems();
        assertEquals(expected, last.get());
        assertTrue(totals.stream().allMatch(total -> total == expected));
    }

    @Test
    void aDatabaseThatAlreadyHoldsDataIsNotLoadedTwice() throws SQLException {
        try (Connection connection = memoryDatabase("twice")) {
            new DataGenerator(connection, Dialect.H2, SMALL, 3, LoadProgress.SILENT).load();
            SQLException refused = assertThrows(SQLException.class,
                    () -> new DataGenerator(connection, Dialect.H2, SMALL, 3, LoadProgress.SILENT).load());
            assertTrue(refused.getMessage().contains("already holds RUBiS data"));
        }
    }

    @Test
    void scaleOneIsTheFullDataSetOfThePapers() {
        DataSetSize full = DataSetSize.of(1);
        assertEquals(1_000_000, full.users());
        assertEquals(32_667, full.activeItems());
        assertEquals(500_000, full.oldItems());
        assertEquals(7521, full.activeItemsIn(6));
    }

    @Test
    void everyCategoryKeepsAnItemAtTinyScales() {
        DataSetSize tiny = DataSetSize.of(0.0001);
        for (int category = 1; category <= 20; category++) {
            assertTrue(tiny.activeItemsIn(category) >= 1);
        }
    }

    @Test
    void aScaleOutsideTheSupportedRangeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> DataSetSize.of(0));
        assertThrows(IllegalArgumentException.class, () -> DataSetSize.of(-1));
        assertThrows(IllegalArgumentException.class, () -> DataSetSize.of(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> DataSetSize.of(11));
    }

    /** Everything but the dates, which follow the clock. */
    private static String fingerprint(long seed) throws SQLException {
        try (Connection connection = memoryDatabase("fingerprint" + seed)) {
            new DataGenerator(connection, Dialect.H2, SMALL, seed, LoadProgress.SILENT).load();
            StringBuilder out = new StringBuilder();
            for (String sql : List.of(
                    "SELECT id, name, description, initial_price, quantity, reserve_price, buy_now, nb_of_bids,"
                            + " max_bid, seller, category FROM items ORDER BY id",
                    "SELECT id, name, seller, category, max_bid FROM old_items ORDER BY id",
                    "SELECT id, user_id, item_id, qty, bid, max_bid FROM bids ORDER BY id",
                    "SELECT id, from_user_id, to_user_id, item_id, rating, comment FROM comments ORDER BY id",
                    "SELECT id, nickname, rating, region FROM users ORDER BY id")) {
                try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
                    int columns = rows.getMetaData().getColumnCount();
                    while (rows.next()) {
                        for (int c = 1; c <= columns; c++) {
                            out.append(rows.getString(c)).append('|');
                        }
                        out.append('\n');
                    }
                }
            }
            return out.toString();
        }
    }

    static Connection memoryDatabase(String name) throws SQLException {
        return DriverManager.getConnection("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=0");
    }

    private static long single(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}

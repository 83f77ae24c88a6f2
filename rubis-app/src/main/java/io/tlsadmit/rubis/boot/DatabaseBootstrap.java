package io.tlsadmit.rubis.boot;

import io.tlsadmit.rubis.datagen.DataGenerator;
import io.tlsadmit.rubis.datagen.DataSetSize;
import io.tlsadmit.rubis.datagen.LoadProgress;
import io.tlsadmit.rubis.datagen.LoadReport;
import io.tlsadmit.rubis.db.Database;
import io.tlsadmit.rubis.db.Dialect;
import io.tlsadmit.rubis.db.Schema;
import io.tlsadmit.rubis.web.RubisServlet;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Collections;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * Finds the container's DataSource and, when its database holds no RUBiS tables yet, creates them and loads a data
 * set, logging the progress. The load runs before the webapp takes requests, so the first page already has data.
 * A database that cannot be reached does not stop the webapp: its pages answer 503 and /health says DOWN.
 */
@WebListener
public final class DatabaseBootstrap implements ServletContextListener {

    public static final String DATASOURCE = "java:comp/env/jdbc/rubis";

    private static final Logger LOG = Logger.getLogger(DatabaseBootstrap.class.getName());

    @Override
    public void contextInitialized(ServletContextEvent event) {
        ServletContext context = event.getServletContext();
        DataSetSettings settings = DataSetSettings.from(context);
        DataSource dataSource;
        try {
            dataSource = (DataSource) new InitialContext().lookup(DATASOURCE);
        } catch (NamingException | ClassCastException e) {
            LOG.log(Level.SEVERE, "RUBiS needs a DataSource at " + DATASOURCE + " (see META-INF/context.xml)", e);
            return;
        }
        context.setAttribute(RubisServlet.DATABASE, new Database(dataSource));
        try (Connection connection = dataSource.getConnection()) {
            Dialect dialect = Dialect.of(connection);
            if (Schema.exists(connection)) {
                LOG.info(() -> "RUBiS database found on " + describe(connection));
                return;
            }
            if (!settings.autoload()) {
                LOG.severe("RUBiS tables are missing and rubis.autoload is false; load them with rubis-datagen.jar");
                return;
            }
            DataSetSize size = DataSetSize.of(settings.scale());
            LOG.info(() -> String.format("RUBiS database is empty: loading scale %s (seed %d): %,d users,"
                    + " %,d active items, %,d ended items into %s", settings.scale(), settings.seed(), size.users(),
                    size.activeItems(), size.oldItems(), describe(connection)));
            LoadReport report = new DataGenerator(connection, dialect, size, settings.seed(), new LoggedProgress())
                    .load();
            LOG.info(() -> "RUBiS data loaded:\n" + report.describe());
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.SEVERE, "RUBiS could not prepare its database; pages will answer 503 until it is fixed", e);
        }
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        // drivers this webapp loaded (H2 and MariaDB from WEB-INF/lib) would pin its class loader after undeploy
        ClassLoader webapp = Thread.currentThread().getContextClassLoader();
        for (Driver driver : Collections.list(DriverManager.getDrivers())) {
            if (driver.getClass().getClassLoader() == webapp) {
                try {
                    DriverManager.deregisterDriver(driver);
                } catch (SQLException e) {
                    LOG.log(Level.WARNING, "could not deregister " + driver.getClass().getName(), e);
                }
            }
        }
    }

    private static String describe(Connection connection) {
        try {
            return connection.getMetaData().getDatabaseProductName() + " at " + connection.getMetaData().getURL();
        } catch (SQLException e) {
            return "the configured database";
        }
    }

    /** Logs a line per tenth of the load, so a large load shows it is alive without flooding the log. */
    private static final class LoggedProgress implements LoadProgress {
        private int lastTenth = -1;

        @Override
        public void advanced(String phase, long done, long total) {
            int tenth = total == 0 ? 10 : (int) (done * 10 / total);
            if (tenth != lastTenth) {
                lastTenth = tenth;
                LOG.info(String.format("RUBiS load %3d%%: %s, %,d of %,d rows", tenth * 10, phase, done, total));
            }
        }
    }
}

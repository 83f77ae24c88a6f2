package io.tlsadmit.rubis.datagen;

import io.tlsadmit.rubis.db.Dialect;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Properties;

/**
 * {@code java -jar rubis-datagen.jar --jdbc URL --scale S --seed N [--user U] [--password P]}: creates the RUBiS
 * schema if missing and loads a data set into it. Exit status 0 on success, 1 on a database error, 2 on bad usage.
 */
public final class DataGenCommand {

    static final String USAGE = """
            usage: java -jar rubis-datagen.jar --jdbc URL [--scale S] [--seed N] [--user U] [--password P]
              --jdbc URL      jdbc:h2:file:/path/rubis  or  jdbc:mariadb://127.0.0.1:3306/rubis
              --scale S       fraction of the full RUBiS data set (1 = 1,000,000 users, 32,667 active items,
                              500,000 ended auctions); default 0.01
              --seed N        random seed; the same seed and scale give the same rows; default 1
              --user U        database user (default: none for H2, root for MariaDB)
              --password P    database password (default: empty)
            """;

    private DataGenCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            err.print(USAGE);
            return 2;
        }
        if (options.help) {
            out.print(USAGE);
            return 0;
        }
        try {
            Dialect dialect = Dialect.ofUrl(options.jdbcUrl);
            Class.forName(dialect.driverClassName());
            Properties credentials = new Properties();
            String user = options.user != null ? options.user : (dialect == Dialect.MARIADB ? "root" : "");
            credentials.setProperty("user", user);
            credentials.setProperty("password", options.password);
            DataSetSize size = DataSetSize.of(options.scale);
            out.printf(Locale.ROOT, "loading RUBiS scale %s (seed %d): %,d users, %,d active items, %,d ended items%n",
                    options.scale, options.seed, size.users(), size.activeItems(), size.oldItems());
            try (Connection connection = DriverManager.getConnection(options.jdbcUrl, credentials)) {
                LoadReport report = new DataGenerator(connection, dialect, size, options.seed,
                        new ProgressBar(out, System.console() != null)).load();
                out.print(report.describe());
            }
            return 0;
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return 2;
        } catch (ClassNotFoundException e) {
            err.println("error: JDBC driver not on the class path: " + e.getMessage());
            return 1;
        } catch (SQLException e) {
            err.println("error: " + e.getMessage());
            return 1;
        }
    }

    private static final class Options {
        String jdbcUrl;
        double scale = 0.01;
        long seed = 1;
        String user;
        String password = "";
        boolean help;

        static Options parse(String[] args) {
            Options options = new Options();
            for (int i = 0; i < args.length; i++) {
                String flag = args[i];
                if (flag.equals("--help") || flag.equals("-h")) {
                    options.help = true;
                    return options;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("missing value after " + flag);
                }
                String value = args[++i];
                switch (flag) {
                    case "--jdbc" -> options.jdbcUrl = value;
                    case "--scale" -> options.scale = parseNumber(flag, value);
                    case "--seed" -> options.seed = (long) parseWhole(flag, value);
                    case "--user" -> options.user = value;
                    case "--password" -> options.password = value;
                    default -> throw new IllegalArgumentException("unknown option " + flag);
                }
            }
            if (options.jdbcUrl == null) {
                throw new IllegalArgumentException("--jdbc is required");
            }
            return options;
        }

        private static double parseNumber(String flag, String value) {
            try {
                return Double.parseDouble(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(flag + " needs a number, got '" + value + "'");
            }
        }

        private static long parseWhole(String flag, String value) {
            try {
                return Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(flag + " needs a whole number, got '" + value + "'");
            }
        }
    }
}

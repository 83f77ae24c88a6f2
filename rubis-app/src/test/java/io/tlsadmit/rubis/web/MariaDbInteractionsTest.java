package io.tlsadmit.rubis.web;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The interaction specification on MariaDB (127.0.0.1:3306, root, empty password, or -Drubis.test.mariadb=URL),
 * in a database of its own created for the run and dropped after it.
 */
class MariaDbInteractionsTest extends InteractionsContract {

    @TempDir
    static Path work;

    private static TestDatabase database;
    private static EmbeddedRubis server;

    @BeforeAll
    static void start() throws Exception {
        database = TestDatabase.mariaDb();
        server = EmbeddedRubis.start(database, work);
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            if (database != null) {
                database.close();
            }
        }
    }

    @Override
    protected EmbeddedRubis server() {
        return server;
    }

    @Override
    protected TestDatabase database() {
        return database;
    }
}

package io.tlsadmit.rubis.web;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** The interaction specification on the embedded default database, H2, loaded by the webapp on first start. */
class H2InteractionsTest extends InteractionsContract {

    @TempDir
    static Path work;

    private static TestDatabase database;
    private static EmbeddedRubis server;

    @BeforeAll
    static void start() throws Exception {
        database = TestDatabase.h2(work.resolve("h2"));
        server = EmbeddedRubis.start(database, work);
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
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

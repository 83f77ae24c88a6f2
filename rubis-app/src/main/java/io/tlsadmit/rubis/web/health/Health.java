package io.tlsadmit.rubis.web.health;

import io.tlsadmit.rubis.db.Database;
import io.tlsadmit.rubis.db.Query;
import io.tlsadmit.rubis.web.RubisServlet;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code /health}: 200 and {@code status: UP} when a pooled connection answers and the data is loaded, 503 and
 * {@code status: DOWN} otherwise. Plain text for probes and scripts; cheap enough to poll (index lookups only).
 */
@WebServlet("/health")
public final class Health extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(Health.class.getName());

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object attribute = getServletContext().getAttribute(RubisServlet.DATABASE);
        int status;
        String body;
        if (!(attribute instanceof Database database)) {
            status = 503;
            body = "status: DOWN\nreason: the database was not set up at start-up; see the log\n";
        } else {
            try {
                body = database.read(connection -> {
                    String product = connection.getMetaData().getDatabaseProductName() + " "
                            + connection.getMetaData().getDatabaseProductVersion();
                    long users = Query.sql(connection, "SELECT MAX(id) FROM users").first(row -> row.getLong(1))
                            .orElse(0L);
                    long items = Query.sql(connection, "SELECT MAX(id) FROM items").first(row -> row.getLong(1))
                            .orElse(0L);
                    return (users > 0 ? "status: UP\n" : "status: DOWN\nreason: no users loaded\n")
                            + "database: " + product + "\nmax user id: " + users + "\nmax item id: " + items + "\n";
                });
                status = body.startsWith("status: UP") ? 200 : 503;
            } catch (SQLException e) {
                LOG.log(Level.WARNING, "health check failed", e);
                status = 503;
                body = "status: DOWN\nreason: database unreachable\n";
            }
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType("text/plain;charset=UTF-8");
        response.setHeader("Cache-Control", "no-store");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }
}

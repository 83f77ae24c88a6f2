package io.tlsadmit.rubis.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.rubis.web.TestDatabase;
import io.tlsadmit.testing.ConnectorSpec;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import io.tlsadmit.testing.TomcatServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The packaged WAR in the real Tomcat distribution, over HTTPS: once as shipped (H2 under the work directory,
 * loaded at start-up, driver in WEB-INF/lib seen by Tomcat's pool), once with the MariaDB context file.
 */
class DistributionDeploymentIT {

    private static final Path WAR = Path.of(System.getProperty("rubis.war", "target/rubis.war"));
    private static final Path MARIADB_CONTEXT =
            Path.of(System.getProperty("rubis.mariadb.context", "target/rubis-mariadb.xml"));

    @Test
    void theWarAsShippedServesHomeAndASearchOverHttpsFromItsOwnH2Database() throws Exception {
        TomcatDistribution distribution = TomcatDistribution.fromBuild();
        TestKeystore keystore = keystore(distribution);
        try (TomcatServer tomcat = TomcatServer.builder(distribution)
                .name("rubis-h2")
                .connector(ConnectorSpec.https("tls", keystore))
                .webapp(WAR)
                .catalinaOpt("-Drubis.scale=0.001")
                .build()
                .start()) {
            HttpClient client = client(keystore);
            String base = "https://127.0.0.1:" + tomcat.port("tls") + "/rubis/";
            assertServesHomeAndSearch(client, base, tomcat);
            assertTrue(Files.isDirectory(tomcat.base().resolve("work/rubis-h2")), "H2 lives under the work directory");
            assertTrue(tomcat.catalinaOut().contains("RUBiS data loaded"), "the first start loads the data");
        }
    }

    @Test
    void theMariaDbContextFileSwitchesTheSameWarToMariaDb() throws Exception {
        TomcatDistribution distribution = TomcatDistribution.fromBuild();
        TestKeystore keystore = keystore(distribution);
        try (TestDatabase database = TestDatabase.mariaDb();
                TomcatServer tomcat = TomcatServer.builder(distribution)
                        .name("rubis-mariadb")
                        .connector(ConnectorSpec.https("tls", keystore))
                        .webapp(WAR)
                        .file("conf/Catalina/localhost/rubis.xml", Files.readString(MARIADB_CONTEXT))
                        .catalinaOpt("-Drubis.scale=0.001")
                        .catalinaOpt("-Drubis.jdbc.url=" + database.url())
                        .build()
                        .start()) {
            HttpClient client = client(keystore);
            String base = "https://127.0.0.1:" + tomcat.port("tls") + "/rubis/";
            assertServesHomeAndSearch(client, base, tomcat);
            HttpResponse<String> health = get(client, base + "health");
            assertTrue(health.body().contains("database: MariaDB"), health.body());
        }
    }

    private static TestKeystore keystore(TomcatDistribution distribution) {
        return TestKeystore.create(distribution.home().getParent().resolve("keystores"), TestKeystore.KeyType.RSA_2048);
    }

    private static HttpClient client(TestKeystore keystore) {
        return HttpClient.newBuilder().sslContext(keystore.clientContext("TLSv1.3"))
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    private static void assertServesHomeAndSearch(HttpClient client, String base, TomcatServer tomcat)
            throws Exception {
        HttpResponse<String> home = get(client, base);
        assertEquals(200, home.statusCode(), tomcat.tail());
        assertTrue(home.body().contains("Welcome to RUBiS"));
        HttpResponse<String> health = get(client, base + "health");
        assertEquals(200, health.statusCode(), health.body() + "\n" + tomcat.tail());
        HttpResponse<String> search = get(client, base + "servlet/SearchItemsByCategory?category=6&nbOfItems=20");
        assertEquals(200, search.statusCode(), search.body());
        assertTrue(search.body().contains("ViewItem?itemId="), search.body());
        assertTrue(search.body().contains("Items in category Collectibles"));
    }

    private static HttpResponse<String> get(HttpClient client, String url) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).GET().build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
}

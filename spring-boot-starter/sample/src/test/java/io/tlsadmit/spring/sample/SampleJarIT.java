package io.tlsadmit.spring.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tlsadmit.testing.Jdk;
import io.tlsadmit.testing.PrometheusScrape;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;

/** The sample jar exactly as the outside check runs it, and once more with virtual threads. */
class SampleJarIT {

    @Test
    void theSampleAdmitsAResumptionAndRefusesANewClientOverBudget() throws Exception {
        try (SampleProcess sample = SampleProcess.start(Jdk.current(), "--tlsadmit.budget=static",
                "--tlsadmit.max-full-handshakes-per-second=0.2", "--tlsadmit.full-handshake-burst=1")) {
            SSLContext user = sample.clientContext();
            HttpResponse<String> first = sample.get(user);
            assertEquals(200, first.statusCode(), sample.output());
            assertTrue(first.body().contains("verdict: NEW\nhandshake: FULL"), first.body());
            assertTrue(first.body().contains("-exec-"), "Tomcat's own worker threads: " + first.body());
            // The one token is spent, the next comes in 5 s: another user's new client is refused before its handshake.
            assertThrows(IOException.class, () -> sample.handshakeFrom("127.0.0.2", sample.clientContext()));
            HttpResponse<String> again = sample.get(user);
            assertEquals(200, again.statusCode());
            assertTrue(again.body().contains("verdict: RESUME_PSK\nhandshake: RESUMED"), again.body());

            PrometheusScrape metrics = sample.prometheus();
            assertEquals(1, metrics.value("tlsadmit_connections_total", "verdict", "NEW", "decision", "refused"),
                    metrics.text());
            assertEquals(1, metrics.value("tlsadmit_connections_total", "verdict", "RESUME_PSK",
                    "decision", "admitted"));
            assertEquals(1, metrics.value("tlsadmit_handshakes_total", "kind", "resumed"));
            assertEquals(0.2, metrics.value("tlsadmit_budget_full_handshakes_per_second"), 1e-9);
        }
    }

    /**
     * Spring Boot's virtual threads (Java 21+) replace Tomcat's pool with an executor of virtual threads, so
     * the gate's shortest-work-first queue is not installed; admission is the same.
     */
    @Test
    void withVirtualThreadsRequestsRunOnVirtualThreads() throws Exception {
        Optional<Jdk> jdk = Jdk.find(25).or(() -> Jdk.find(21));
        assumeTrue(jdk.isPresent(), "no JDK 21 or later under /usr/lib/jvm: virtual threads not tested");
        try (SampleProcess sample = SampleProcess.start(jdk.get(), "--spring.threads.virtual.enabled=true",
                "--tlsadmit.budget=static", "--tlsadmit.max-full-handshakes-per-second=0.2",
                "--tlsadmit.full-handshake-burst=1")) {
            HttpResponse<String> first = sample.get(sample.clientContext());
            assertEquals(200, first.statusCode(), sample.output());
            assertTrue(first.body().contains("thread: VirtualThread["), first.body());
            assertThrows(IOException.class, () -> sample.handshakeFrom("127.0.0.2", sample.clientContext()));
            assertEquals(1, sample.prometheus().value("tlsadmit_connections_total", "verdict", "NEW",
                    "decision", "refused"));
        }
    }
}

package io.tlsadmit.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * {@code server.shutdown=graceful} with the gated connector: Spring Boot pauses the connector, lets the requests in
 * flight finish, then stops it. Spring Boot binds its connectors on start ({@code bindOnInit=false}), so the stop
 * closes the listening socket and Tomcat's acceptor ends with it; the standalone case, where the socket stays bound
 * and the acceptor must be woken through the connector's {@code TCP_DEFER_ACCEPT}, is {@code ConnectorLifecycleIT}'s.
 */
@ExtendWith(OutputCaptureExtension.class)
class GracefulShutdownTest {

    @Test
    void theRequestInFlightFinishesAndTheAcceptorStopsCleanly(CapturedOutput output) throws Exception {
        BootApp app = BootApp.start(BootApp.sslBundle(), "server.shutdown=graceful",
                "spring.lifecycle.timeout-per-shutdown-phase=20s");
        CompletableFuture<HttpResponse<String>> inFlight = CompletableFuture.supplyAsync(
                () -> app.https(HttpClient.Version.HTTP_1_1, "/slow?millis=2000"));
        Thread.sleep(700); // handshake done, the request sleeping in the controller
        app.close();
        HttpResponse<String> answer = inFlight.get(10, TimeUnit.SECONDS);
        assertEquals(200, answer.statusCode(), answer.body());
        assertEquals("slept 2000 ms\n", answer.body());
        assertTrue(output.getAll().contains("Graceful shutdown complete"), output.getAll());
        assertFalse(output.getAll().contains("did not stop cleanly"), output.getAll());
    }
}

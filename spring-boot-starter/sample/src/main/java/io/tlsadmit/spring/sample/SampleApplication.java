package io.tlsadmit.spring.sample;

import io.tlsadmit.tomcat.TlsAdmissionValve;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.Arrays;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A Spring Boot application that depends on the starter and nothing else of tlsadmit: HTTPS with the
 * gate on {@code server.port}, Actuator's Prometheus endpoint on {@code management.server.port}.
 * {@code GET /} tells the client how its connection was admitted and which thread served it.
 */
@SpringBootApplication
@RestController
public class SampleApplication {

    public static void main(String[] args) throws IOException {
        SpringApplication application = new SpringApplication(SampleApplication.class);
        if (Arrays.stream(args).noneMatch(arg -> arg.startsWith("--server.ssl."))) {
            // Default properties: anything in application.yml or on the command line still wins.
            application.setDefaultProperties(SampleKeystore.generate().serverSslProperties());
        }
        application.run(args);
    }

    @GetMapping(value = "/", produces = "text/plain")
    String index(HttpServletRequest request) {
        return "tlsadmit sample\n"
                + "verdict: " + request.getAttribute(TlsAdmissionValve.VERDICT_ATTRIBUTE) + "\n"
                + "handshake: " + request.getAttribute(TlsAdmissionValve.HANDSHAKE_ATTRIBUTE) + "\n"
                + "protocol: " + request.getProtocol() + "\n"
                + "thread: " + Thread.currentThread() + "\n";
    }
}

package io.tlsadmit.spring.boot;

import io.tlsadmit.tomcat.TlsAdmissionValve;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The smallest application a user would gate: one page that tells how its connection was admitted. */
@SpringBootConfiguration
@EnableAutoConfiguration
@RestController
public class GatedTestApplication {

    @GetMapping("/")
    String index(HttpServletRequest request) {
        return "verdict=" + request.getAttribute(TlsAdmissionValve.VERDICT_ATTRIBUTE)
                + " handshake=" + request.getAttribute(TlsAdmissionValve.HANDSHAKE_ATTRIBUTE)
                + " protocol=" + request.getProtocol() + "\n";
    }

    /** A request that takes its time: still in flight when a graceful shutdown begins. */
    @GetMapping("/slow")
    String slow(@RequestParam("millis") long millis) throws InterruptedException {
        Thread.sleep(millis);
        return "slept " + millis + " ms\n";
    }
}

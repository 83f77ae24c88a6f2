package io.tlsadmit.experiment.server;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class HaproxyConfigTest {

    @Test
    void terminatesTlsAtTheChosenVersionAndForwardsToTomcatsPlainConnector() {
        String config = Haproxy.config(Path.of("/tmp/server.pem"), "1.2", 18443, 18080, 40, 1000);
        assertTrue(config.contains("timeout http-keep-alive 1000ms"), config);
        assertTrue(config.contains("bind 127.0.0.1:18443 ssl crt /tmp/server.pem"), config);
        assertTrue(config.contains("ssl-min-ver TLSv1.2 ssl-max-ver TLSv1.2"), config);
        assertTrue(config.contains("server tomcat 127.0.0.1:18080"), config);
        assertTrue(config.contains("maxsslrate 40"), config);
    }

    @Test
    void withoutARateThereIsNoLimitLine() {
        String config = Haproxy.config(Path.of("/tmp/server.pem"), "1.3", 18443, 18080, 0, 1000);
        assertFalse(config.contains("maxsslrate"), config);
        assertTrue(config.contains("ssl-min-ver TLSv1.3 ssl-max-ver TLSv1.3"), config);
    }
}

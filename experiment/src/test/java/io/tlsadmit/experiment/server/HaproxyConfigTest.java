package io.tlsadmit.experiment.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.experiment.Mode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The text of each HAProxy mode's configuration; HaproxyConfigCheckIT has HAProxy itself read every one. */
class HaproxyConfigTest {

    private static final Path PEM = Path.of("/tmp/server.pem");
    private static final Path KEYS = Path.of("/tmp/tls-ticket-keys");

    private static String config(Mode mode, String tls, int rate) {
        return new Haproxy.Config(mode, PEM, KEYS, tls, 18443, 18080, rate, 1000, 1).text();
    }

    @Test
    void terminatesTlsAtTheChosenVersionAndForwardsToTomcatsPlainConnector() {
        String config = config(Mode.HAPROXY, "1.2", 40);
        assertTrue(config.contains("timeout http-keep-alive 1000ms"), config);
        assertTrue(config.contains("bind 127.0.0.1:18443 ssl crt /tmp/server.pem tls-ticket-keys /tmp/tls-ticket-keys"),
                config);
        assertTrue(config.contains("ssl-min-ver TLSv1.2 ssl-max-ver TLSv1.2"), config);
        assertTrue(config.contains("server tomcat 127.0.0.1:18080"), config);
        assertTrue(config.contains("maxsslrate 40"), config);
        assertTrue(config.contains("nbthread 1"), config);
    }

    @Test
    void withoutARateThereIsNoLimitLine() {
        String config = config(Mode.HAPROXY, "1.3", 0);
        assertFalse(config.contains("maxsslrate"), config);
        assertTrue(config.contains("ssl-min-ver TLSv1.3 ssl-max-ver TLSv1.3"), config);
    }

    @Test
    void theRejectingModeRefusesOverTheRateAsItAcceptsWithAShortBacklog() {
        String config = config(Mode.HAPROXY_REJECT, "1.3", 70);
        assertFalse(config.contains("maxsslrate"), config);
        assertTrue(config.contains("ssl crt /tmp/server.pem tls-ticket-keys /tmp/tls-ticket-keys backlog "
                + Haproxy.SHORT_BACKLOG), config);
        assertTrue(config.contains("tcp-request connection reject if { sc0_gpc0_rate ge 70 }"), config);
        // only admitted connections count: the increment comes after the reject rule
        assertTrue(config.indexOf("tcp-request connection sc-inc-gpc0(0)")
                > config.indexOf("tcp-request connection reject"), config);
    }

    @Test
    void theHelloModeLimitsOnlyHellosWithoutATicketAndTerminatesTlsBehindAnAbstractSocket() {
        String config = config(Mode.HAPROXY_HELLO, "1.2", 90);
        assertTrue(config.contains("bind 127.0.0.1:18443 backlog " + Haproxy.SHORT_BACKLOG + "\n"), config);
        assertTrue(config.contains("acl offers_ticket req.ssl_st_ext 2"), config);
        assertTrue(config.contains("tcp-request content reject if !offers_ticket { sc0_gpc0_rate ge 90 }"), config);
        assertTrue(config.contains("server tls abns@tlsadmit-experiment-tls-18443 send-proxy-v2"), config);
        assertTrue(config.contains("bind abns@tlsadmit-experiment-tls-18443 accept-proxy ssl crt /tmp/server.pem"),
                config);
    }

    @Test
    void theCpuChangeGetsAThreadPerCpu() {
        String config = new Haproxy.Config(Mode.HAPROXY_REJECT, PEM, KEYS, "1.3", 18443, 18080, 70, 1000, 2).text();
        assertTrue(config.contains("nbthread 2"), config);
    }

    @Test
    void onlyHaproxyModesAndSensibleNumbers() {
        assertEquals("not a HAProxy mode: static", assertThrows(IllegalArgumentException.class,
                () -> config(Mode.STATIC, "1.3", 1)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> config(Mode.HAPROXY_REJECT, "1.3", -1));
    }
}

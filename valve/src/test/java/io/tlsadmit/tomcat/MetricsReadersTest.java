package io.tlsadmit.tomcat;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Predicate;
import org.apache.catalina.LifecycleException;
import org.junit.jupiter.api.Test;

class MetricsReadersTest {

    @Test
    void cidrRangesWhenEveryEntryIsOne() throws Exception {
        Predicate<String> readers = TlsAdmissionValve.metricsReaders("10.0.0.0/8, 127.0.0.1, 2001:db8::/32");
        assertTrue(readers.test("10.20.30.40"));
        assertTrue(readers.test("127.0.0.1"));
        assertFalse(readers.test("127.0.0.2"), "an address alone is that address, not a pattern where '.' is any character");
        assertTrue(readers.test("2001:db8:0:0:0:0:0:1"));
        assertFalse(readers.test("192.0.2.1"));
    }

    @Test
    void otherwiseTheRegularExpressionOfEarlierReleases() throws Exception {
        Predicate<String> loopback = TlsAdmissionValve.metricsReaders("127\\.\\d+\\.\\d+\\.\\d+|::1|0:0:0:0:0:0:0:1");
        assertTrue(loopback.test("127.0.0.9"));
        assertTrue(loopback.test("0:0:0:0:0:0:0:1"));
        assertFalse(loopback.test("10.0.0.1"));
        assertThrows(LifecycleException.class, () -> TlsAdmissionValve.metricsReaders("(["));
    }
}

package io.tlsadmit.gate.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;

class SourcePrefixTest {

    private static long of(String address) throws UnknownHostException {
        return SourcePrefix.of(InetAddress.getByName(address));
    }

    @Test
    void ipv4CountsPerSlash24AndMappedAddressesAsTheirIpv4() throws Exception {
        assertEquals(of("192.0.2.1"), of("192.0.2.254"));
        assertNotEquals(of("192.0.2.1"), of("192.0.3.1"));
        assertEquals(of("192.0.2.1"), of("::ffff:192.0.2.9"));
        assertEquals("192.0.2.0/24", SourcePrefix.format(of("192.0.2.1")));
    }

    @Test
    void ipv6CountsPerSlash64() throws Exception {
        assertEquals(of("2001:db8:0:1::1"), of("2001:db8:0:1:ffff::2"));
        assertNotEquals(of("2001:db8:0:1::1"), of("2001:db8:0:2::1"));
        assertEquals("2001:db8:0:1::/64", SourcePrefix.format(of("2001:db8:0:1::1")));
        assertNotEquals(SourcePrefix.UNKNOWN, of("::1"), "loopback still counts");
    }
}

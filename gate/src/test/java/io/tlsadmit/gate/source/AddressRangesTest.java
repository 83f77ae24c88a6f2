package io.tlsadmit.gate.source;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class AddressRangesTest {

    private static boolean in(AddressRanges ranges, String address) throws Exception {
        return ranges.contains(InetAddress.getByName(address));
    }

    @Test
    void cidrRangesAndSingleAddressesOfBothFamilies() throws Exception {
        AddressRanges ranges = AddressRanges.parse(" 10.0.0.0/8, 192.0.2.7 ,2001:db8:1::/48, 172.16.0.0/12");
        assertTrue(in(ranges, "10.255.0.1"));
        assertFalse(in(ranges, "11.0.0.1"));
        assertTrue(in(ranges, "192.0.2.7"));
        assertFalse(in(ranges, "192.0.2.8"), "an address alone is a /32");
        assertTrue(in(ranges, "172.31.255.255"));
        assertFalse(in(ranges, "172.32.0.0"));
        assertTrue(in(ranges, "2001:db8:1:ffff::1"));
        assertFalse(in(ranges, "2001:db8:2::1"));
        assertTrue(in(ranges, "::ffff:10.1.1.1"), "an IPv4-mapped IPv6 address is its IPv4 address");
        assertTrue(in(AddressRanges.parse("0.0.0.0/0"), "203.0.113.9"));
        assertFalse(in(AddressRanges.NONE, "127.0.0.1"));
    }

    @Test
    void hostNamesAndBadPrefixesAreErrorsNotLookups() {
        assertThrows(IllegalArgumentException.class, () -> AddressRanges.parse("localhost"));
        assertThrows(IllegalArgumentException.class, () -> AddressRanges.parse("10.0.0.0/33"));
        assertThrows(IllegalArgumentException.class, () -> AddressRanges.parse("10.0.0.0/x"));
        assertThrows(IllegalArgumentException.class, () -> AddressRanges.parse("2001:db8::/129"));
    }
}

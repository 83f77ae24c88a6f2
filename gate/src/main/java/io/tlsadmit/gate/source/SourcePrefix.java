package io.tlsadmit.gate.source;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * Where a connection comes from, as far as accounting per source goes: an IPv4 /24 or an IPv6 /64,
 * packed in a {@code long}. One host rarely has more than a /24 or a /64 to itself, and an attacker
 * who owns one can pick any address inside it, so counting per address would count nothing.
 */
public final class SourcePrefix {

    /** No address (a Unix socket, or the address could not be read): never counted. */
    public static final long UNKNOWN = 0;

    /*
     * IPv4 prefixes live under ffff:ffff::/32, a range IANA reserves, so no real IPv6 /64 collides
     * with them; IPv4-mapped IPv6 addresses count as the IPv4 address they carry.
     */
    private static final long IPV4_TAG = 0xFFFF_FFFF_0000_0000L;
    /** Whole IPv4 addresses (hosts) under another reserved /32, apart from the /24 prefixes. */
    private static final long IPV4_HOST_TAG = 0xFFFF_FFFE_0000_0000L;

    private SourcePrefix() {
    }

    public static long of(SocketAddress address) {
        return address instanceof InetSocketAddress inet ? of(inet.getAddress()) : UNKNOWN;
    }

    public static long of(InetAddress address) {
        if (address instanceof Inet4Address) {
            return ipv4(address.getAddress(), 0);
        }
        if (address instanceof Inet6Address) {
            byte[] bytes = address.getAddress();
            if (isIpv4Mapped(bytes)) {
                return ipv4(bytes, 12);
            }
            long prefix = 0;
            for (int i = 0; i < 8; i++) {
                prefix = (prefix << 8) | (bytes[i] & 0xff);
            }
            return prefix == UNKNOWN ? 1 : prefix; // ::/64 (loopback ::1 among others) must still count
        }
        return UNKNOWN;
    }

    private static long ipv4(byte[] bytes, int at) {
        return IPV4_TAG | ((bytes[at] & 0xffL) << 16) | ((bytes[at + 1] & 0xffL) << 8) | (bytes[at + 2] & 0xffL);
    }

    private static boolean isIpv4Mapped(byte[] bytes) {
        for (int i = 0; i < 10; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff;
    }

    /**
     * One host: an IPv4 address, or an IPv6 /64 (a host's temporary addresses change within its /64).
     * For what belongs to one client, such as the connections a browser opens for one page.
     */
    public static long host(SocketAddress address) {
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            byte[] bytes = inet.getAddress().getAddress();
            if (bytes.length == 4 || isIpv4Mapped(bytes)) {
                int at = bytes.length == 4 ? 0 : 12;
                return IPV4_HOST_TAG | ((bytes[at] & 0xffL) << 24) | ((bytes[at + 1] & 0xffL) << 16)
                        | ((bytes[at + 2] & 0xffL) << 8) | (bytes[at + 3] & 0xffL);
            }
            return of(inet.getAddress());
        }
        return UNKNOWN;
    }

    /** For logs and tests: {@code 192.0.2.0/24}, {@code 2001:db8:0:1::/64}. */
    public static String format(long prefix) {
        if (prefix == UNKNOWN) {
            return "unknown";
        }
        if ((prefix & IPV4_TAG) == IPV4_TAG) {
            return ((prefix >>> 16) & 0xff) + "." + ((prefix >>> 8) & 0xff) + "." + (prefix & 0xff) + ".0/24";
        }
        StringBuilder text = new StringBuilder();
        for (int group = 3; group >= 0; group--) {
            text.append(Long.toHexString((prefix >>> (group * 16)) & 0xffff)).append(':');
        }
        return text.append(":/64").toString();
    }
}

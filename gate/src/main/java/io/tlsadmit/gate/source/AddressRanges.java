package io.tlsadmit.gate.source;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * A list of address ranges in CIDR notation, IPv4 and IPv6, as Tomcat's {@code RemoteCIDRValve} writes
 * them: {@code "10.0.0.0/8, 192.168.1.7, 2001:db8::/32"} (an address without a prefix is that one
 * address). Only literals: a host name is an error, never a DNS lookup. Immutable, thread-safe.
 */
public final class AddressRanges {

    private record Range(byte[] network, int prefixBits) {
    }

    private final List<Range> ranges;
    private final String text;

    private AddressRanges(List<Range> ranges, String text) {
        this.ranges = ranges;
        this.text = text;
    }

    /** No range: matches nothing. */
    public static final AddressRanges NONE = new AddressRanges(List.of(), "");

    /** @throws IllegalArgumentException naming the entry that is not an address or a CIDR range */
    public static AddressRanges parse(String list) {
        if (list == null || list.isBlank()) {
            return NONE;
        }
        List<Range> ranges = new ArrayList<>();
        for (String entry : list.split(",")) {
            String trimmed = entry.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            int slash = trimmed.indexOf('/');
            String address = slash < 0 ? trimmed : trimmed.substring(0, slash);
            byte[] bytes = literal(address, trimmed);
            int bits = bytes.length * 8;
            if (slash >= 0) {
                try {
                    bits = Integer.parseInt(trimmed.substring(slash + 1));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("\"" + trimmed + "\" has no prefix length after '/'");
                }
                if (bits < 0 || bits > bytes.length * 8) {
                    throw new IllegalArgumentException("\"" + trimmed + "\": the prefix length must be 0 to "
                            + bytes.length * 8);
                }
            }
            ranges.add(new Range(mask(bytes, bits), bits));
        }
        return new AddressRanges(List.copyOf(ranges), list.trim());
    }

    private static byte[] literal(String address, String entry) {
        // Digits, hex, dots and colons only: InetAddress would otherwise resolve a host name.
        if (address.isEmpty() || !address.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == '.' || c == ':')) {
            throw new IllegalArgumentException("\"" + entry + "\" is not an IPv4 or IPv6 address or CIDR range");
        }
        try {
            return InetAddress.getByName(address).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("\"" + entry + "\" is not an IPv4 or IPv6 address or CIDR range");
        }
    }

    private static byte[] mask(byte[] address, int bits) {
        byte[] masked = address.clone();
        for (int i = 0; i < masked.length; i++) {
            int keep = Math.max(0, Math.min(8, bits - 8 * i));
            masked[i] &= (byte) (0xff00 >>> keep);
        }
        return masked;
    }

    public boolean isEmpty() {
        return ranges.isEmpty();
    }

    public boolean contains(SocketAddress address) {
        return address instanceof InetSocketAddress inet && inet.getAddress() != null && contains(inet.getAddress());
    }

    public boolean contains(InetAddress address) {
        if (ranges.isEmpty()) {
            return false;
        }
        byte[] bytes = address.getAddress();
        if (address instanceof Inet6Address && isIpv4Mapped(bytes)) {
            bytes = new byte[] {bytes[12], bytes[13], bytes[14], bytes[15]};
        }
        for (Range range : ranges) {
            if (matches(bytes, range)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(byte[] address, Range range) {
        if (address.length != range.network.length) {
            return false;
        }
        int bits = range.prefixBits;
        for (int i = 0; i < address.length && bits > 0; i++, bits -= 8) {
            int significant = (0xff00 >>> Math.min(8, bits)) & 0xff;
            if (((address[i] ^ range.network[i]) & significant) != 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean isIpv4Mapped(byte[] bytes) {
        for (int i = 0; i < 10; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff;
    }

    @Override
    public String toString() {
        return text;
    }
}

package io.tlsadmit.classifier;

/** Protocol version numbers as they appear on the wire, and their conventional names. */
public final class TlsVersion {
    public static final int SSL3 = 0x0300;
    public static final int TLS1_0 = 0x0301;
    public static final int TLS1_1 = 0x0302;
    public static final int TLS1_2 = 0x0303;
    public static final int TLS1_3 = 0x0304;

    private TlsVersion() {
    }

    /** The JSSE-style name ({@code TLSv1.3}), {@code 0x%04x} for other values, null for 0 (unknown). */
    public static String name(int version) {
        switch (version) {
            case 0: return null;
            case SSL3: return "SSLv3";
            case TLS1_0: return "TLSv1";
            case TLS1_1: return "TLSv1.1";
            case TLS1_2: return "TLSv1.2";
            case TLS1_3: return "TLSv1.3";
            default: return String.format("0x%04x", version);
        }
    }

    /**
     * GREASE values (RFC 8701) are {@code 0x?a?a} with equal bytes; clients sprinkle them in lists
     * so that servers learn to ignore unknown values. They never count as a real version.
     */
    public static boolean isGrease(int value) {
        return (value & 0x0f0f) == 0x0a0a && (value >>> 8) == (value & 0xff);
    }
}

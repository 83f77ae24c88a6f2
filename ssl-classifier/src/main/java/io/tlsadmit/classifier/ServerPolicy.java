package io.tlsadmit.classifier;

/**
 * What the server will do with a ClientHello, as far as the verdict depends on it.
 *
 * @param maxVersion     the highest protocol version the server negotiates: {@link TlsVersion#TLS1_2}
 *                       or {@link TlsVersion#TLS1_3}. A server capped at 1.2 resumes 1.3-capable
 *                       clients with tickets or session ids, never with a PSK.
 * @param maxHelloLength the largest ClientHello body (the 24-bit handshake length) accepted; a larger
 *                       declared length is refused from the header alone, before the bytes arrive.
 */
public record ServerPolicy(int maxVersion, int maxHelloLength) {

    /** TLS 1.3 and 16 KiB, enough for post-quantum key shares with room to spare. */
    public static final ServerPolicy DEFAULT = new ServerPolicy(TlsVersion.TLS1_3, 16384);

    /** The protocol allows up to 2^24 - 1; anything near that is an attack, not a client. */
    public static final int MAX_HELLO_LENGTH_LIMIT = (1 << 24) - 1;

    public ServerPolicy {
        if (maxVersion != TlsVersion.TLS1_2 && maxVersion != TlsVersion.TLS1_3) {
            throw new IllegalArgumentException(String.format(
                    "maxVersion must be TLS 1.2 (0x0303) or TLS 1.3 (0x0304), was 0x%04x", maxVersion));
        }
        if (maxHelloLength < 64 || maxHelloLength > MAX_HELLO_LENGTH_LIMIT) {
            throw new IllegalArgumentException("maxHelloLength must be between 64 and "
                    + MAX_HELLO_LENGTH_LIMIT + " bytes, was " + maxHelloLength);
        }
    }

    /** @param maxVersion {@code "1.2"} or {@code "1.3"} (also {@code TLSv1.2}, {@code TLSv1.3}) */
    public static ServerPolicy of(String maxVersion, int maxHelloLength) {
        String v = maxVersion == null ? "" : maxVersion.trim();
        if (v.startsWith("TLSv")) {
            v = v.substring(4);
        }
        switch (v) {
            case "1.2": return new ServerPolicy(TlsVersion.TLS1_2, maxHelloLength);
            case "1.3": return new ServerPolicy(TlsVersion.TLS1_3, maxHelloLength);
            default: throw new IllegalArgumentException(
                    "server max version must be 1.2 or 1.3, was '" + maxVersion + "'");
        }
    }
}

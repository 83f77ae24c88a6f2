package io.tlsadmit.gate;

import io.tlsadmit.admission.HandshakeKind;
import io.tlsadmit.classifier.TlsVersion;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Learns what a handshake really was from the records the server sends, whatever TLS engine wrote
 * them (JSSE or OpenSSL): the prediction from the ClientHello is checked against this truth.
 *
 * <ul>
 *   <li>TLS 1.3: the ServerHello decides. It carries {@code pre_shared_key} exactly when the server
 *       accepted a PSK, i.e. resumed. A HelloRetryRequest (a ServerHello with the special random) is
 *       skipped: the real ServerHello follows in a later flight.</li>
 *   <li>TLS 1.2 and older: the message after the ServerHello decides. A full handshake continues with
 *       Certificate, ServerKeyExchange, CertificateRequest or ServerHelloDone; a resumption with
 *       NewSessionTicket or ChangeCipherSpec.</li>
 * </ul>
 *
 * One instance per connection, reused after {@link #reset()}. Input is whole records (that is what
 * {@code SSLEngine.wrap} produces), but a handshake message may span records and is reassembled.
 * Anything it cannot parse makes it give up quietly: the truth is then unknown, never wrong.
 */
public final class ServerHelloObserver {

    private static final int RECORD_HEADER = 5;
    private static final int HANDSHAKE_HEADER = 4;
    private static final int CONTENT_CHANGE_CIPHER_SPEC = 20;
    private static final int CONTENT_HANDSHAKE = 22;
    private static final int SERVER_HELLO = 2;
    private static final int NEW_SESSION_TICKET = 4;
    private static final int CERTIFICATE = 11;
    private static final int SERVER_KEY_EXCHANGE = 12;
    private static final int CERTIFICATE_REQUEST = 13;
    private static final int SERVER_HELLO_DONE = 14;
    private static final int EXT_PRE_SHARED_KEY = 41;
    private static final int EXT_SUPPORTED_VERSIONS = 43;
    /** A ServerHello is a few hundred bytes (about 1.2 KB with a post-quantum key share); this only bounds memory. */
    private static final int MAX_SERVER_HELLO = 1 << 16;

    /** SHA-256("HelloRetryRequest"), the random of a HelloRetryRequest (RFC 8446, 4.1.3). */
    private static final byte[] HELLO_RETRY_RANDOM = {
        (byte) 0xCF, 0x21, (byte) 0xAD, 0x74, (byte) 0xE5, (byte) 0x9A, 0x61, 0x11,
        (byte) 0xBE, 0x1D, (byte) 0x8C, 0x02, 0x1E, 0x65, (byte) 0xB8, (byte) 0x91,
        (byte) 0xC2, (byte) 0xA2, 0x11, 0x16, 0x7A, (byte) 0xBB, (byte) 0x8C, 0x5E,
        0x07, (byte) 0x9E, 0x09, (byte) 0xE2, (byte) 0xC8, (byte) 0xA8, 0x33, (byte) 0x9C};

    /** The current handshake message, header included, as far as it has arrived. */
    private byte[] message = new byte[512];
    private int fill;
    /** Body bytes of an uninteresting message still to skip. */
    private int skip;
    /** The negotiated version once a TLS 1.2-or-older ServerHello was seen; 0 before. */
    private int legacyHelloVersion;
    private HandshakeKind kind;
    private int version;
    private boolean gaveUp;

    public void reset() {
        fill = 0;
        skip = 0;
        legacyHelloVersion = 0;
        kind = null;
        version = 0;
        gaveUp = false;
    }

    /** True once the truth is known or can no longer be learnt; further input is ignored. */
    public boolean isDone() {
        return kind != null || gaveUp;
    }

    /** What the handshake was; {@code null} while unknown. */
    public HandshakeKind kind() {
        return kind;
    }

    /** The negotiated wire version (e.g. {@code 0x0304}) once {@link #kind()} is known, else 0. */
    public int version() {
        return version;
    }

    /**
     * Feeds records the server is sending: bytes {@code [from, to)} of {@code out}, read with absolute
     * gets so the buffer's position and limit are untouched.
     */
    public void onServerRecords(ByteBuffer out, int from, int to) {
        int i = from;
        while (!isDone() && to - i >= RECORD_HEADER) {
            int type = out.get(i) & 0xff;
            int length = ((out.get(i + 3) & 0xff) << 8) | (out.get(i + 4) & 0xff);
            int start = i + RECORD_HEADER;
            int end = Math.min(start + length, to);
            if (type == CONTENT_HANDSHAKE) {
                handshakeBytes(out, start, end);
            } else if (type == CONTENT_CHANGE_CIPHER_SPEC && legacyHelloVersion != 0) {
                // TLS 1.2 abbreviated handshake: the server goes straight to its Finished.
                decide(HandshakeKind.RESUMED, legacyHelloVersion);
            }
            i = start + length;
        }
    }

    private void handshakeBytes(ByteBuffer out, int pos, int end) {
        while (pos < end && !isDone()) {
            if (skip > 0) {
                int n = Math.min(skip, end - pos);
                skip -= n;
                pos += n;
                continue;
            }
            if (fill < HANDSHAKE_HEADER) {
                int n = Math.min(HANDSHAKE_HEADER - fill, end - pos);
                out.get(pos, message, fill, n);
                fill += n;
                pos += n;
                if (fill == HANDSHAKE_HEADER) {
                    onMessageHeader();
                }
                continue;
            }
            int total = HANDSHAKE_HEADER + bodyLength();
            int n = Math.min(total - fill, end - pos);
            out.get(pos, message, fill, n);
            fill += n;
            pos += n;
            if (fill == total) {
                onServerHello(total);
                fill = 0;
            }
        }
    }

    /** The header is complete: decide, collect the body (ServerHello only) or skip it. */
    private void onMessageHeader() {
        int type = message[0] & 0xff;
        int length = bodyLength();
        if (legacyHelloVersion != 0) {
            switch (type) {
                case CERTIFICATE, SERVER_KEY_EXCHANGE, CERTIFICATE_REQUEST, SERVER_HELLO_DONE ->
                        decide(HandshakeKind.FULL, legacyHelloVersion);
                case NEW_SESSION_TICKET -> decide(HandshakeKind.RESUMED, legacyHelloVersion);
                default -> gaveUp = true;
            }
            return;
        }
        if (type != SERVER_HELLO) {
            skip = length;
            fill = 0;
            return;
        }
        if (length > MAX_SERVER_HELLO) {
            gaveUp = true;
            return;
        }
        if (message.length < HANDSHAKE_HEADER + length) {
            message = Arrays.copyOf(message, HANDSHAKE_HEADER + length);
        }
        if (length == 0) {
            gaveUp = true;
        }
    }

    private int bodyLength() {
        return ((message[1] & 0xff) << 16) | ((message[2] & 0xff) << 8) | (message[3] & 0xff);
    }

    private void onServerHello(int end) {
        int p = HANDSHAKE_HEADER;
        // legacy_version(2) random(32) session_id_length(1)
        if (end - p < 35) {
            gaveUp = true;
            return;
        }
        int negotiated = u16(p);
        boolean helloRetry = Arrays.equals(message, p + 2, p + 34, HELLO_RETRY_RANDOM, 0, 32);
        p += 34;
        p += 1 + (message[p] & 0xff);
        p += 3; // cipher_suite(2) compression_method(1)
        if (p > end) {
            gaveUp = true;
            return;
        }
        boolean psk = false;
        if (p < end) {
            if (end - p < 2 || p + 2 + u16(p) != end) {
                gaveUp = true;
                return;
            }
            p += 2;
            while (p < end) {
                if (end - p < 4) {
                    gaveUp = true;
                    return;
                }
                int type = u16(p);
                int length = u16(p + 2);
                p += 4;
                if (length > end - p) {
                    gaveUp = true;
                    return;
                }
                if (type == EXT_SUPPORTED_VERSIONS && length == 2) {
                    negotiated = u16(p);
                } else if (type == EXT_PRE_SHARED_KEY) {
                    psk = true;
                }
                p += length;
            }
        }
        if (helloRetry) {
            return; // the ServerHello that counts comes after the client's second hello
        }
        if (negotiated == TlsVersion.TLS1_3) {
            decide(psk ? HandshakeKind.RESUMED : HandshakeKind.FULL, negotiated);
        } else {
            legacyHelloVersion = negotiated;
        }
    }

    private int u16(int at) {
        return ((message[at] & 0xff) << 8) | (message[at + 1] & 0xff);
    }

    private void decide(HandshakeKind kind, int version) {
        this.kind = kind;
        this.version = version;
    }
}

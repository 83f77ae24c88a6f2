package io.tlsadmit.classifier;

import java.nio.ByteBuffer;

/**
 * Predicts, from the first bytes of a TLS connection, whether the handshake will be a resumption
 * (cheap) or a full handshake (asymmetric crypto), before any crypto is done.
 *
 * <p>The session id alone cannot tell: TLS 1.3 clients send a random 32-byte {@code legacy_session_id}
 * in every hello (RFC 8446 D.4) and resume with {@code pre_shared_key}; TLS 1.2 clients resume with
 * tickets (RFC 5077) or session ids. The rules are in {@code docs/verdicts.md}; the C classifier in
 * native-peek implements the same rules and is tested against this one.
 *
 * <p>Immutable and thread-safe; all per-call state lives in the caller's {@link ClientHello}. A call
 * reads only {@code [position, limit)} of the buffer with absolute gets, changes nothing in it, never
 * throws on any bytes, and allocates nothing. It parses from the start each time: call it again with
 * more bytes after {@link Verdict#INCOMPLETE}.
 */
public final class ClientHelloClassifier {
    private static final int CLIENT_HELLO = 1;
    private static final int SSLV2_CLIENT_HELLO = 1;
    private static final int RANDOM_LENGTH = 32;
    private static final int MAX_SESSION_ID = 32;

    private static final int EXT_SERVER_NAME = 0;
    private static final int EXT_ALPN = 16;
    private static final int EXT_SESSION_TICKET = 35;
    private static final int EXT_PRE_SHARED_KEY = 41;
    private static final int EXT_EARLY_DATA = 42;
    private static final int EXT_SUPPORTED_VERSIONS = 43;

    private final ServerPolicy policy;

    public ClientHelloClassifier(ServerPolicy policy) {
        if (policy == null) {
            throw new IllegalArgumentException("policy must not be null");
        }
        this.policy = policy;
    }

    public ServerPolicy policy() {
        return policy;
    }

    /** Classifies without a session cache: a TLS 1.2 session id counts as an offer to resume. */
    public Verdict classify(ByteBuffer src, ClientHello out) {
        return classify(src, out, null);
    }

    /**
     * @param lookup the server's TLS 1.2 session cache, or null; asked only for a session id on the
     *               TLS 1.2 path without a ticket, and a miss turns the verdict into {@link Verdict#NEW}
     */
    public Verdict classify(ByteBuffer src, ClientHello out, SessionIdLookup lookup) {
        out.clear();
        Verdict verdict = parse(src, out, lookup);
        out.verdict = verdict;
        if (verdict != Verdict.INCOMPLETE) {
            out.bytesNeeded = 0;
        }
        out.stream.release();
        return verdict;
    }

    private Verdict parse(ByteBuffer src, ClientHello out, SessionIdLookup lookup) {
        int start = src.position();
        int limit = src.limit();
        int available = limit - start;
        HandshakeStream s = out.stream;
        s.records = 0;
        if (available == 0) {
            return incomplete(out, HandshakeStream.RECORD_HEADER);
        }
        int first = src.get(start) & 0xff;
        if (first != HandshakeStream.HANDSHAKE) {
            if ((first & 0x80) == 0) {
                return Verdict.NOT_TLS;
            }
            // SSLv2 framing: two length bytes (high bit set), then the message type.
            if (available < 3) {
                return incomplete(out, 3 - available);
            }
            return (src.get(start + 2) & 0xff) == SSLV2_CLIENT_HELLO ? Verdict.SSLV2 : Verdict.NOT_TLS;
        }
        if (available < HandshakeStream.RECORD_HEADER) {
            return incomplete(out, HandshakeStream.RECORD_HEADER - available);
        }
        if ((src.get(start + 1) & 0xff) != 3) {
            return Verdict.NOT_TLS;
        }
        int recordLength = ((src.get(start + 3) & 0xff) << 8) | (src.get(start + 4) & 0xff);
        if (recordLength == 0 || recordLength > HandshakeStream.MAX_RECORD_PAYLOAD) {
            return malformed(out, "a record length is 0 or over 2^14");
        }
        s.start(src, start + HandshakeStream.RECORD_HEADER, recordLength, limit);

        int type = s.u8();
        if (type < 0) {
            return stop(out, type);
        }
        if (type != CLIENT_HELLO) {
            return malformed(out, "the first handshake message is not a ClientHello");
        }
        int length = s.u24();
        if (length < 0) {
            return stop(out, length);
        }
        out.helloLength = length;
        if (length > policy.maxHelloLength()) {
            return malformed(out, "the ClientHello is longer than the server accepts");
        }
        int end = s.logical() + length;
        s.helloEnd = end;
        int r = body(s, out, end);
        if (r < 0) {
            return stop(out, r);
        }
        return verdict(out, lookup);
    }

    private int body(HandshakeStream s, ClientHello out, int end) {
        if (s.logical() + 2 + RANDOM_LENGTH + 1 > end) {
            return s.broken("the ClientHello is too short for version, random and session id");
        }
        int version = s.u16();
        if (version < 0) {
            return version;
        }
        out.legacyVersion = version;
        out.clientMaxVersion = version;
        int r = s.skip(RANDOM_LENGTH);
        if (r < 0) {
            return r;
        }
        int sessionIdLength = s.u8();
        if (sessionIdLength < 0) {
            return sessionIdLength;
        }
        if (sessionIdLength > MAX_SESSION_ID) {
            return s.broken("the session id is longer than 32 bytes");
        }
        if (s.logical() + sessionIdLength > end) {
            return s.broken("the session id overruns the ClientHello");
        }
        out.sessionIdLength = sessionIdLength;
        r = s.copy(out.sessionId, 0, sessionIdLength);
        if (r < 0) {
            return r;
        }

        if (s.logical() + 2 > end) {
            return s.broken("the cipher suites overrun the ClientHello");
        }
        int suites = s.u16();
        if (suites < 0) {
            return suites;
        }
        if (suites < 2 || (suites & 1) != 0) {
            return s.broken("the cipher suite list is empty or of odd length");
        }
        if (s.logical() + suites > end) {
            return s.broken("the cipher suites overrun the ClientHello");
        }
        r = s.skip(suites);
        if (r < 0) {
            return r;
        }

        if (s.logical() + 1 > end) {
            return s.broken("the compression methods overrun the ClientHello");
        }
        int compressions = s.u8();
        if (compressions < 0) {
            return compressions;
        }
        if (compressions < 1) {
            return s.broken("the compression method list is empty");
        }
        if (s.logical() + compressions > end) {
            return s.broken("the compression methods overrun the ClientHello");
        }
        r = s.skip(compressions);
        if (r < 0) {
            return r;
        }

        if (s.logical() == end) {
            return 0; // no extensions: allowed, though no modern client sends such a hello
        }
        if (s.logical() + 2 > end) {
            return s.broken("a stray byte follows the compression methods");
        }
        int extensionsLength = s.u16();
        if (extensionsLength < 0) {
            return extensionsLength;
        }
        if (s.logical() + extensionsLength != end) {
            return s.broken("the extensions do not end where the ClientHello ends");
        }
        return extensions(s, out, end);
    }

    private int extensions(HandshakeStream s, ClientHello out, int end) {
        while (s.logical() < end) {
            if (s.logical() + 4 > end) {
                return s.broken("an extension header overruns the extensions");
            }
            int type = s.u16();
            if (type < 0) {
                return type;
            }
            int length = s.u16();
            if (length < 0) {
                return length;
            }
            out.extensions++;
            int dataEnd = s.logical() + length;
            if (dataEnd > end) {
                return s.broken("an extension overruns the extensions");
            }
            if (!out.firstSighting(type)) {
                return s.broken("an extension type repeats");
            }
            if (type == EXT_PRE_SHARED_KEY && dataEnd != end) {
                return s.broken("pre_shared_key is not the last extension");
            }
            int r;
            switch (type) {
                case EXT_SERVER_NAME:
                    r = serverName(s, out, length, dataEnd);
                    break;
                case EXT_ALPN:
                    r = alpn(s, out, length, dataEnd);
                    break;
                case EXT_SESSION_TICKET:
                    out.ticketLength = length;
                    r = s.skip(length);
                    break;
                case EXT_PRE_SHARED_KEY:
                    r = preSharedKey(s, out, length, dataEnd);
                    break;
                case EXT_EARLY_DATA:
                    out.earlyData = true;
                    r = length == 0 ? 0 : s.broken("early_data in a ClientHello is not empty");
                    break;
                case EXT_SUPPORTED_VERSIONS:
                    r = supportedVersions(s, out, length);
                    break;
                default:
                    r = s.skip(length); // unknown and GREASE extensions are skipped by their length
                    break;
            }
            if (r < 0) {
                return r;
            }
        }
        return 0;
    }

    private static int serverName(HandshakeStream s, ClientHello out, int length, int dataEnd) {
        if (length < 2) {
            return s.broken("server_name is too short for its list length");
        }
        int listLength = s.u16();
        if (listLength < 0) {
            return listLength;
        }
        if (listLength != length - 2) {
            return s.broken("the server_name list length disagrees with the extension length");
        }
        while (s.logical() < dataEnd) {
            if (s.logical() + 3 > dataEnd) {
                return s.broken("a server_name entry header overruns its list");
            }
            int nameType = s.u8();
            if (nameType < 0) {
                return nameType;
            }
            int nameLength = s.u16();
            if (nameLength < 0) {
                return nameLength;
            }
            if (s.logical() + nameLength > dataEnd) {
                return s.broken("a server name overruns its list");
            }
            int r;
            if (nameType == 0) {
                if (nameLength == 0 || nameLength > ClientHello.MAX_SNI_LENGTH) {
                    return s.broken("a host_name is empty or longer than 255 bytes");
                }
                if (out.sniLength < 0) {
                    r = s.copy(out.sni, 0, nameLength);
                    if (r == 0) {
                        out.sniLength = nameLength;
                    }
                } else {
                    r = s.skip(nameLength);
                }
            } else {
                r = s.skip(nameLength);
            }
            if (r < 0) {
                return r;
            }
        }
        return 0;
    }

    private static int alpn(HandshakeStream s, ClientHello out, int length, int dataEnd) {
        if (length < 2) {
            return s.broken("ALPN is too short for its list length");
        }
        int listLength = s.u16();
        if (listLength < 0) {
            return listLength;
        }
        if (listLength != length - 2 || listLength < 2) {
            return s.broken("the ALPN list length is wrong");
        }
        while (s.logical() < dataEnd) {
            int nameLength = s.u8();
            if (nameLength < 0) {
                return nameLength;
            }
            if (nameLength == 0 || s.logical() + nameLength > dataEnd) {
                return s.broken("an ALPN protocol name is empty or overruns its list");
            }
            int r;
            if (out.alpnCount < ClientHello.MAX_ALPN_NAMES) {
                r = s.copy(out.alpn, out.alpnOffset(out.alpnCount), nameLength);
                if (r == 0) {
                    out.addAlpn(nameLength);
                }
            } else {
                r = s.skip(nameLength);
            }
            if (r < 0) {
                return r;
            }
        }
        return 0;
    }

    private static int preSharedKey(HandshakeStream s, ClientHello out, int length, int dataEnd) {
        if (length < 2) {
            return s.broken("pre_shared_key is too short for its identities length");
        }
        int identitiesLength = s.u16();
        if (identitiesLength < 0) {
            return identitiesLength;
        }
        int identitiesEnd = s.logical() + identitiesLength;
        // at least one identity (2-byte length, 1 byte, 4-byte age), then room for the binders length
        if (identitiesLength < 7 || identitiesEnd + 2 > dataEnd) {
            return s.broken("the pre_shared_key identities are empty or overrun the extension");
        }
        while (s.logical() < identitiesEnd) {
            if (s.logical() + 2 > identitiesEnd) {
                return s.broken("a PSK identity header overruns the identities");
            }
            int identityLength = s.u16();
            if (identityLength < 0) {
                return identityLength;
            }
            if (identityLength == 0 || s.logical() + identityLength + 4 > identitiesEnd) {
                return s.broken("a PSK identity is empty or overruns the identities");
            }
            int r = s.skip(identityLength + 4);
            if (r < 0) {
                return r;
            }
            out.pskIdentities++;
        }
        int bindersLength = s.u16();
        if (bindersLength < 0) {
            return bindersLength;
        }
        if (bindersLength < 33 || s.logical() + bindersLength != dataEnd) {
            return s.broken("the PSK binders are too short or do not fill the extension");
        }
        while (s.logical() < dataEnd) {
            int binderLength = s.u8();
            if (binderLength < 0) {
                return binderLength;
            }
            if (binderLength < 32 || s.logical() + binderLength > dataEnd) {
                return s.broken("a PSK binder is shorter than 32 bytes or overruns the binders");
            }
            int r = s.skip(binderLength);
            if (r < 0) {
                return r;
            }
        }
        return 0;
    }

    private static int supportedVersions(HandshakeStream s, ClientHello out, int length) {
        if (length < 1) {
            return s.broken("supported_versions is empty");
        }
        int listLength = s.u8();
        if (listLength < 0) {
            return listLength;
        }
        if (listLength != length - 1 || listLength < 2 || (listLength & 1) != 0) {
            return s.broken("the supported_versions list length is wrong");
        }
        int highest = 0;
        boolean tls13 = false;
        for (int i = 0; i < listLength / 2; i++) {
            int version = s.u16();
            if (version < 0) {
                return version;
            }
            if (version == TlsVersion.TLS1_3) {
                tls13 = true;
            }
            if (!TlsVersion.isGrease(version) && version > highest) {
                highest = version;
            }
        }
        out.offersTls13 = tls13;
        if (highest != 0) {
            out.clientMaxVersion = highest;
        }
        return 0;
    }

    private Verdict verdict(ClientHello out, SessionIdLookup lookup) {
        if (out.offersTls13 && policy.maxVersion() >= TlsVersion.TLS1_3) {
            // TLS 1.3 ignores the session id and cannot resume a TLS 1.2 ticket.
            return out.pskIdentities > 0 ? Verdict.RESUME_PSK : Verdict.NEW;
        }
        if (out.ticketLength > 0) {
            return Verdict.RESUME_TICKET;
        }
        if (out.sessionIdLength > 0) {
            if (lookup != null && !lookup.isCached(out.sessionId, out.sessionIdLength)) {
                return Verdict.NEW;
            }
            return Verdict.RESUME_SESSION_ID;
        }
        return Verdict.NEW;
    }

    private static Verdict stop(ClientHello out, int code) {
        if (code == HandshakeStream.NEED_MORE) {
            return incomplete(out, out.stream.needed);
        }
        return malformed(out, out.stream.brokenReason);
    }

    private static Verdict incomplete(ClientHello out, int needed) {
        out.bytesNeeded = needed;
        return Verdict.INCOMPLETE;
    }

    private static Verdict malformed(ClientHello out, String reason) {
        out.malformedReason = reason;
        return Verdict.MALFORMED;
    }
}

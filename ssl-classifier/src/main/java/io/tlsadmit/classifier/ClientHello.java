package io.tlsadmit.classifier;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The verdict on a ClientHello and the facts read on the way, for metrics and logs.
 *
 * <p>An instance is reusable scratch space: {@link ClientHelloClassifier#classify} overwrites it on
 * every call without allocating, so keep one per thread (not per connection) and copy out what must
 * outlive the call. Not thread-safe. Facts are recorded as far as the parse got, so an
 * {@code INCOMPLETE} or {@code MALFORMED} verdict still says what was seen.
 */
public final class ClientHello {
    static final int MAX_SNI_LENGTH = 255;
    static final int MAX_ALPN_NAMES = 8;
    private static final int MAX_ALPN_NAME_LENGTH = 255;
    private static final int TRACKED_EXTENSIONS = 64;

    Verdict verdict = Verdict.INCOMPLETE;
    int bytesNeeded;
    String malformedReason;
    int legacyVersion;
    int clientMaxVersion;
    boolean offersTls13;
    int sessionIdLength;
    final byte[] sessionId = new byte[32];
    int ticketLength;
    int pskIdentities;
    boolean earlyData;
    int sniLength = -1;
    final byte[] sni = new byte[MAX_SNI_LENGTH];
    int alpnCount;
    final int[] alpnLength = new int[MAX_ALPN_NAMES];
    final byte[] alpn = new byte[MAX_ALPN_NAMES * MAX_ALPN_NAME_LENGTH];
    int helloLength;
    int extensions;

    /** The parse position; lives here so the classifier itself stays immutable and shareable. */
    final HandshakeStream stream = new HandshakeStream();

    // Extension types seen in this hello, to refuse repeats in O(1) without a set per call.
    private final long[] seenTypes = new long[65536 / 64];
    private final int[] touchedTypes = new int[TRACKED_EXTENSIONS];
    private int touched;

    void clear() {
        verdict = Verdict.INCOMPLETE;
        bytesNeeded = 0;
        malformedReason = null;
        legacyVersion = 0;
        clientMaxVersion = 0;
        offersTls13 = false;
        sessionIdLength = 0;
        ticketLength = -1;
        pskIdentities = 0;
        earlyData = false;
        sniLength = -1;
        alpnCount = 0;
        helloLength = 0;
        extensions = 0;
        if (touched > TRACKED_EXTENSIONS) {
            Arrays.fill(seenTypes, 0L);
        } else {
            for (int i = 0; i < touched; i++) {
                seenTypes[touchedTypes[i] >>> 6] = 0L;
            }
        }
        touched = 0;
    }

    /** Marks an extension type as seen; false if it was seen before in this hello. */
    boolean firstSighting(int type) {
        long bit = 1L << (type & 63);
        int word = type >>> 6;
        if ((seenTypes[word] & bit) != 0) {
            return false;
        }
        seenTypes[word] |= bit;
        if (touched < TRACKED_EXTENSIONS) {
            touchedTypes[touched] = type;
        }
        touched++;
        return true;
    }

    void addAlpn(int length) {
        alpnLength[alpnCount++] = length;
    }

    int alpnOffset(int index) {
        return index * MAX_ALPN_NAME_LENGTH;
    }

    public Verdict verdict() {
        return verdict;
    }

    /** With {@link Verdict#INCOMPLETE}: bytes still missing from the current record (or the hello, if it ends first); 0 otherwise. */
    public int bytesNeeded() {
        return bytesNeeded;
    }

    /** Why the hello was {@link Verdict#MALFORMED}; null for any other verdict. */
    public String malformedReason() {
        return malformedReason;
    }

    /** The hello's {@code legacy_version}; 0 if not reached. */
    public int legacyVersion() {
        return legacyVersion;
    }

    /** The highest non-GREASE version in {@code supported_versions}, else {@code legacy_version}; 0 if not reached. */
    public int clientMaxVersion() {
        return clientMaxVersion;
    }

    /** {@code supported_versions} lists TLS 1.3. */
    public boolean offersTls13() {
        return offersTls13;
    }

    public int sessionIdLength() {
        return sessionIdLength;
    }

    /** Copies the session id into {@code dst} (32 bytes suffice) and returns its length. */
    public int copySessionId(byte[] dst) {
        System.arraycopy(sessionId, 0, dst, 0, sessionIdLength);
        return sessionIdLength;
    }

    /** Length of the {@code SessionTicket} extension's data; -1 when the extension is absent. */
    public int ticketLength() {
        return ticketLength;
    }

    /** Identities offered in {@code pre_shared_key}; 0 when absent. */
    public int pskIdentities() {
        return pskIdentities;
    }

    public boolean earlyData() {
        return earlyData;
    }

    /** The first {@code host_name} of {@code server_name}, or null. Allocates: call it off the hot path. */
    public String sni() {
        return sniLength < 0 ? null : new String(sni, 0, sniLength, StandardCharsets.ISO_8859_1);
    }

    /** The first {@value #MAX_ALPN_NAMES} ALPN protocol names. Allocates: call it off the hot path. */
    public List<String> alpn() {
        List<String> names = new ArrayList<>(alpnCount);
        for (int i = 0; i < alpnCount; i++) {
            names.add(new String(alpn, alpnOffset(i), alpnLength[i], StandardCharsets.ISO_8859_1));
        }
        return names;
    }

    /** The 24-bit ClientHello length from the handshake header; 0 if not reached. */
    public int helloLength() {
        return helloLength;
    }

    /** TLS records the hello spanned (as far as read). */
    public int records() {
        return stream.records;
    }

    /** Extensions read. */
    public int extensions() {
        return extensions;
    }

    /** One line of JSON in the form both CLIs print (docs/verdicts.md). */
    public String toJson(String file) {
        StringBuilder json = new StringBuilder(320);
        json.append("{\"file\":");
        appendString(json, file);
        json.append(",\"verdict\":\"").append(verdict.name()).append('"');
        json.append(",\"bytes_needed\":").append(bytesNeeded);
        json.append(",\"sni\":");
        if (sniLength < 0) {
            json.append("null");
        } else {
            appendString(json, sni());
        }
        json.append(",\"alpn\":[");
        List<String> names = alpn();
        for (int i = 0; i < names.size(); i++) {
            if (i > 0) {
                json.append(',');
            }
            appendString(json, names.get(i));
        }
        json.append(']');
        json.append(",\"legacy_version\":");
        appendString(json, TlsVersion.name(legacyVersion));
        json.append(",\"client_max_version\":");
        appendString(json, TlsVersion.name(clientMaxVersion));
        json.append(",\"session_id_len\":").append(sessionIdLength);
        json.append(",\"ticket_len\":").append(ticketLength);
        json.append(",\"psk_identities\":").append(pskIdentities);
        json.append(",\"early_data\":").append(earlyData);
        json.append(",\"hello_length\":").append(helloLength);
        json.append(",\"records\":").append(records());
        json.append(",\"extensions\":").append(extensions);
        return json.append('}').toString();
    }

    private static void appendString(StringBuilder json, String value) {
        if (value == null) {
            json.append("null");
            return;
        }
        json.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                json.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                json.append(String.format("\\u%04x", (int) c));
            } else {
                json.append(c);
            }
        }
        json.append('"');
    }

    @Override
    public String toString() {
        return toJson(null);
    }
}

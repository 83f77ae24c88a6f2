/*
 * ClientHello classifier: docs/verdicts.md in C.
 *
 * The hello is read as a handshake stream: the concatenation of the payloads
 * of consecutive handshake records. Reads step into the next record header
 * only when they need a byte from it, so errors come in stream order and bytes
 * after the hello (a following record header included) are never looked at.
 *
 * Length fields are compared with the declared end of their container before
 * the bytes they cover are read, so an overrun is MALFORMED however little
 * has arrived, while every strict prefix of a well-formed hello is INCOMPLETE.
 *
 * The checks and the moments facts are recorded follow the Java classifier
 * (io.tlsadmit.classifier.ClientHelloClassifier) step for step: both must
 * print the same JSON for every input, and the agreement test compares them.
 */
#include "tlsadmit_classify.h"

#include <string.h>

#define RECORD_HEADER 5
#define CONTENT_HANDSHAKE 0x16
#define CLIENT_HELLO 1
#define SSLV2_CLIENT_HELLO 1
#define RANDOM_LENGTH 32

#define EXT_SERVER_NAME 0
#define EXT_ALPN 16
#define EXT_SESSION_TICKET 35
#define EXT_PRE_SHARED_KEY 41
#define EXT_EARLY_DATA 42
#define EXT_SUPPORTED_VERSIONS 43

/* Stream reads return a value >= 0, or one of these. */
#define NEED_MORE (-1)
#define BROKEN (-2)

#define TRY(expr)                \
    do {                         \
        long r_ = (expr);        \
        if (r_ < 0) return r_;   \
    } while (0)

typedef struct stream {
    const uint8_t *buf;
    size_t limit;      /* bytes present */
    size_t pos;        /* offset in buf of the next payload byte */
    size_t record_end; /* offset in buf just past the current record's declared payload */
    size_t logical;    /* offset in the handshake stream */
    size_t hello_end;  /* logical end of the hello once its header is read */
    bool hello_known;
    tlsadmit_hello_facts *out;
} stream;

/*
 * Duplicate extension types are found with a 65536-bit set. Clearing 8 KiB per
 * hello would cost more than the rest of the parse, so words are zeroed lazily:
 * `valid` (128 bytes, cleared up front) says which words have been written.
 */
typedef struct type_set {
    uint64_t valid[1024 / 64];
    uint64_t words[1024];
} type_set;

static bool first_sighting(type_set *set, unsigned type)
{
    unsigned word = type >> 6;
    uint64_t valid_bit = (uint64_t)1 << (word & 63);
    uint64_t bit = (uint64_t)1 << (type & 63);
    if (!(set->valid[word >> 6] & valid_bit)) {
        set->valid[word >> 6] |= valid_bit;
        set->words[word] = 0;
    }
    if (set->words[word] & bit) return false;
    set->words[word] |= bit;
    return true;
}

enum { HANDSHAKE_HEADER = 4 };

static long broken(stream *s, const char *reason)
{
    s->out->malformed_reason = reason;
    return BROKEN;
}

static long need(stream *s, size_t bytes)
{
    s->out->bytes_needed = (uint32_t)bytes;
    return NEED_MORE;
}

/* At the end of what arrived, inside a record: the missing bytes of the
 * record, or of the hello if it ends first; before the hello's length is known,
 * of its 4-byte handshake header (the record may hold more than the hello). */
static long need_more(stream *s, size_t rest_of_record)
{
    size_t rest = s->hello_known ? s->hello_end - s->logical : HANDSHAKE_HEADER - s->logical;
    return need(s, rest < rest_of_record ? rest : rest_of_record);
}

/* Makes at least one payload byte readable at pos, entering the next record if needed. */
static long ready(stream *s)
{
    if (s->pos < s->record_end) return s->pos < s->limit ? 0 : need_more(s, s->record_end - s->pos);
    if (s->limit - s->pos < RECORD_HEADER) return need(s, s->pos + RECORD_HEADER - s->limit);
    const uint8_t *h = s->buf + s->pos;
    size_t length = (size_t)h[3] << 8 | h[4];
    if (h[0] != CONTENT_HANDSHAKE) return broken(s, "a record of another type interrupts the ClientHello");
    if (h[1] != 3) return broken(s, "a record of the ClientHello has a version other than 3.x");
    if (length == 0 || length > TLSADMIT_MAX_RECORD) return broken(s, "a record length is 0 or over 2^14");
    s->pos += RECORD_HEADER;
    s->record_end = s->pos + length;
    s->out->records++;
    return s->pos < s->limit ? 0 : need_more(s, length);
}

/* Payload bytes readable at pos without crossing a record boundary. */
static inline size_t contiguous(const stream *s)
{
    size_t end = s->record_end < s->limit ? s->record_end : s->limit;
    return s->pos < end ? end - s->pos : 0;
}

static long u8(stream *s)
{
    if (contiguous(s) == 0) TRY(ready(s));
    s->logical++;
    return s->buf[s->pos++];
}

static long u16(stream *s)
{
    if (contiguous(s) >= 2) { /* the common case: both bytes in this record */
        long value = (long)s->buf[s->pos] << 8 | s->buf[s->pos + 1];
        s->pos += 2;
        s->logical += 2;
        return value;
    }
    long high = u8(s);
    if (high < 0) return high;
    long low = u8(s);
    return low < 0 ? low : high << 8 | low;
}

static long u24(stream *s)
{
    long high = u8(s);
    if (high < 0) return high;
    long low = u16(s);
    return low < 0 ? low : high << 16 | low;
}

/* Copies n bytes of the handshake stream to dst, or skips them when dst is NULL. */
static long take(stream *s, uint8_t *dst, size_t n)
{
    while (n > 0) {
        TRY(ready(s));
        size_t present = (s->record_end < s->limit ? s->record_end : s->limit) - s->pos;
        size_t step = n < present ? n : present;
        if (dst != NULL) {
            memcpy(dst, s->buf + s->pos, step);
            dst += step;
        }
        s->pos += step;
        s->logical += step;
        n -= step;
    }
    return 0;
}

static long skip(stream *s, size_t n) { return take(s, NULL, n); }

static bool is_grease(long v)
{
    return (v & 0x0f0f) == 0x0a0a && (v >> 8) == (v & 0xff);
}

static long server_name(stream *s, long length, size_t data_end)
{
    tlsadmit_hello_facts *out = s->out;
    if (length < 2) return broken(s, "server_name is too short for its list length");
    long list_length = u16(s);
    if (list_length < 0) return list_length;
    if (list_length != length - 2)
        return broken(s, "the server_name list length disagrees with the extension length");
    while (s->logical < data_end) {
        if (s->logical + 3 > data_end) return broken(s, "a server_name entry header overruns its list");
        long name_type = u8(s);
        if (name_type < 0) return name_type;
        long name_length = u16(s);
        if (name_length < 0) return name_length;
        if (s->logical + (size_t)name_length > data_end) return broken(s, "a server name overruns its list");
        if (name_type == 0) {
            if (name_length == 0 || name_length > TLSADMIT_SNI_MAX)
                return broken(s, "a host_name is empty or longer than 255 bytes");
            if (!out->has_sni) {
                TRY(take(s, (uint8_t *)out->sni, (size_t)name_length));
                out->sni[name_length] = '\0';
                out->sni_len = (uint16_t)name_length;
                out->has_sni = true;
                continue;
            }
        }
        TRY(skip(s, (size_t)name_length));
    }
    return 0;
}

static long alpn(stream *s, long length, size_t data_end)
{
    tlsadmit_hello_facts *out = s->out;
    if (length < 2) return broken(s, "ALPN is too short for its list length");
    long list_length = u16(s);
    if (list_length < 0) return list_length;
    if (list_length != length - 2 || list_length < 2) return broken(s, "the ALPN list length is wrong");
    while (s->logical < data_end) {
        long name_length = u8(s);
        if (name_length < 0) return name_length;
        if (name_length == 0 || s->logical + (size_t)name_length > data_end)
            return broken(s, "an ALPN protocol name is empty or overruns its list");
        if (out->alpn_count < TLSADMIT_ALPN_MAX_NAMES) {
            TRY(take(s, (uint8_t *)out->alpn[out->alpn_count], (size_t)name_length));
            out->alpn_len[out->alpn_count++] = (uint8_t)name_length;
        } else {
            TRY(skip(s, (size_t)name_length));
        }
    }
    return 0;
}

static long pre_shared_key(stream *s, long length, size_t data_end)
{
    if (length < 2) return broken(s, "pre_shared_key is too short for its identities length");
    long identities_length = u16(s);
    if (identities_length < 0) return identities_length;
    size_t identities_end = s->logical + (size_t)identities_length;
    /* at least one identity (2-byte length, 1 byte, 4-byte age), then room for the binders length */
    if (identities_length < 7 || identities_end + 2 > data_end)
        return broken(s, "the pre_shared_key identities are empty or overrun the extension");
    while (s->logical < identities_end) {
        if (s->logical + 2 > identities_end) return broken(s, "a PSK identity header overruns the identities");
        long identity_length = u16(s);
        if (identity_length < 0) return identity_length;
        if (identity_length == 0 || s->logical + (size_t)identity_length + 4 > identities_end)
            return broken(s, "a PSK identity is empty or overruns the identities");
        TRY(skip(s, (size_t)identity_length + 4));
        s->out->psk_identities++;
    }
    long binders_length = u16(s);
    if (binders_length < 0) return binders_length;
    if (binders_length < 33 || s->logical + (size_t)binders_length != data_end)
        return broken(s, "the PSK binders are too short or do not fill the extension");
    while (s->logical < data_end) {
        long binder_length = u8(s);
        if (binder_length < 0) return binder_length;
        if (binder_length < 32 || s->logical + (size_t)binder_length > data_end)
            return broken(s, "a PSK binder is shorter than 32 bytes or overruns the binders");
        TRY(skip(s, (size_t)binder_length));
    }
    return 0;
}

static long supported_versions(stream *s, long length)
{
    if (length < 1) return broken(s, "supported_versions is empty");
    long list_length = u8(s);
    if (list_length < 0) return list_length;
    if (list_length != length - 1 || list_length < 2 || (list_length & 1) != 0)
        return broken(s, "the supported_versions list length is wrong");
    long highest = 0;
    bool tls13 = false;
    for (long i = 0; i < list_length / 2; i++) {
        long version = u16(s);
        if (version < 0) return version;
        if (version == TLSADMIT_TLS1_3) tls13 = true;
        if (!is_grease(version) && version > highest) highest = version;
    }
    s->out->offers_tls13 = tls13;
    if (highest != 0) s->out->client_max_version = (uint16_t)highest;
    return 0;
}

static long extensions(stream *s, size_t end)
{
    tlsadmit_hello_facts *out = s->out;
    type_set seen;
    memset(seen.valid, 0, sizeof seen.valid);
    while (s->logical < end) {
        if (s->logical + 4 > end) return broken(s, "an extension header overruns the extensions");
        long type = u16(s);
        if (type < 0) return type;
        long length = u16(s);
        if (length < 0) return length;
        out->extensions++;
        size_t data_end = s->logical + (size_t)length;
        if (data_end > end) return broken(s, "an extension overruns the extensions");
        if (!first_sighting(&seen, (unsigned)type)) return broken(s, "an extension type repeats");
        if (type == EXT_PRE_SHARED_KEY && data_end != end)
            return broken(s, "pre_shared_key is not the last extension");
        switch (type) {
        case EXT_SERVER_NAME:
            TRY(server_name(s, length, data_end));
            break;
        case EXT_ALPN:
            TRY(alpn(s, length, data_end));
            break;
        case EXT_SESSION_TICKET:
            out->ticket_len = (int32_t)length;
            TRY(skip(s, (size_t)length));
            break;
        case EXT_PRE_SHARED_KEY:
            TRY(pre_shared_key(s, length, data_end));
            break;
        case EXT_EARLY_DATA:
            out->early_data = true;
            if (length != 0) return broken(s, "early_data in a ClientHello is not empty");
            break;
        case EXT_SUPPORTED_VERSIONS:
            TRY(supported_versions(s, length));
            break;
        default: /* unknown and GREASE extensions are skipped by their length */
            TRY(skip(s, (size_t)length));
            break;
        }
    }
    return 0;
}

static long body(stream *s, size_t end)
{
    tlsadmit_hello_facts *out = s->out;
    if (s->logical + 2 + RANDOM_LENGTH + 1 > end)
        return broken(s, "the ClientHello is too short for version, random and session id");
    long version = u16(s);
    if (version < 0) return version;
    out->legacy_version = (uint16_t)version;
    out->client_max_version = (uint16_t)version;
    TRY(skip(s, RANDOM_LENGTH));

    long session_id_length = u8(s);
    if (session_id_length < 0) return session_id_length;
    if (session_id_length > TLSADMIT_SESSION_ID_MAX) return broken(s, "the session id is longer than 32 bytes");
    if (s->logical + (size_t)session_id_length > end) return broken(s, "the session id overruns the ClientHello");
    out->session_id_len = (uint8_t)session_id_length;
    TRY(take(s, out->session_id, (size_t)session_id_length));

    if (s->logical + 2 > end) return broken(s, "the cipher suites overrun the ClientHello");
    long suites = u16(s);
    if (suites < 0) return suites;
    if (suites < 2 || (suites & 1) != 0) return broken(s, "the cipher suite list is empty or of odd length");
    if (s->logical + (size_t)suites > end) return broken(s, "the cipher suites overrun the ClientHello");
    TRY(skip(s, (size_t)suites));

    if (s->logical + 1 > end) return broken(s, "the compression methods overrun the ClientHello");
    long compressions = u8(s);
    if (compressions < 0) return compressions;
    if (compressions < 1) return broken(s, "the compression method list is empty");
    if (s->logical + (size_t)compressions > end) return broken(s, "the compression methods overrun the ClientHello");
    TRY(skip(s, (size_t)compressions));

    if (s->logical == end) return 0; /* no extensions: allowed, though no modern client sends such a hello */
    if (s->logical + 2 > end) return broken(s, "a stray byte follows the compression methods");
    long extensions_length = u16(s);
    if (extensions_length < 0) return extensions_length;
    if (s->logical + (size_t)extensions_length != end)
        return broken(s, "the extensions do not end where the ClientHello ends");
    return extensions(s, end);
}

static tlsadmit_verdict final_verdict(const tlsadmit_hello_facts *f, const tlsadmit_policy *policy)
{
    /* TLS 1.3 ignores the session id and cannot resume a TLS 1.2 ticket. */
    if (f->offers_tls13 && policy->max_version >= TLSADMIT_TLS1_3)
        return f->psk_identities > 0 ? TLSADMIT_RESUME_PSK : TLSADMIT_NEW;
    if (f->ticket_len > 0) return TLSADMIT_RESUME_TICKET;
    if (f->session_id_len > 0) return TLSADMIT_RESUME_SESSION_ID;
    return TLSADMIT_NEW;
}

static void reset(tlsadmit_hello_facts *out)
{
    /* Not a whole memset: the SNI and ALPN buffers are only read up to their
     * recorded lengths, and clearing them would dominate the cost. */
    out->verdict = TLSADMIT_INCOMPLETE;
    out->bytes_needed = 0;
    out->legacy_version = 0;
    out->client_max_version = 0;
    out->offers_tls13 = false;
    out->session_id_len = 0;
    out->ticket_len = -1;
    out->psk_identities = 0;
    out->early_data = false;
    out->has_sni = false;
    out->sni_len = 0;
    out->sni[0] = '\0';
    out->alpn_count = 0;
    out->hello_length = 0;
    out->records = 0;
    out->extensions = 0;
    out->malformed_reason = NULL;
}

static tlsadmit_verdict hello(stream *s, const tlsadmit_policy *policy)
{
    tlsadmit_hello_facts *out = s->out;
    long r = u8(s);
    if (r < 0) return r == NEED_MORE ? TLSADMIT_INCOMPLETE : TLSADMIT_MALFORMED;
    if (r != CLIENT_HELLO) {
        broken(s, "the first handshake message is not a ClientHello");
        return TLSADMIT_MALFORMED;
    }
    long length = u24(s);
    if (length < 0) return length == NEED_MORE ? TLSADMIT_INCOMPLETE : TLSADMIT_MALFORMED;
    out->hello_length = (uint32_t)length;
    if ((uint32_t)length > policy->max_hello_length) {
        broken(s, "the ClientHello is longer than the server accepts");
        return TLSADMIT_MALFORMED;
    }
    s->hello_end = s->logical + (size_t)length;
    s->hello_known = true;
    r = body(s, s->hello_end);
    if (r < 0) return r == NEED_MORE ? TLSADMIT_INCOMPLETE : TLSADMIT_MALFORMED;
    return final_verdict(out, policy);
}

static tlsadmit_verdict parse(const uint8_t *buf, size_t len, const tlsadmit_policy *policy,
                              tlsadmit_hello_facts *out)
{
    if (len == 0) {
        out->bytes_needed = RECORD_HEADER;
        return TLSADMIT_INCOMPLETE;
    }
    if (buf[0] != CONTENT_HANDSHAKE) {
        if ((buf[0] & 0x80) == 0) return TLSADMIT_NOT_TLS;
        /* SSLv2 framing: two length bytes (high bit set), then the message type. */
        if (len < 3) {
            out->bytes_needed = (uint32_t)(3 - len);
            return TLSADMIT_INCOMPLETE;
        }
        return buf[2] == SSLV2_CLIENT_HELLO ? TLSADMIT_SSLV2 : TLSADMIT_NOT_TLS;
    }
    if (len < RECORD_HEADER) {
        out->bytes_needed = (uint32_t)(RECORD_HEADER - len);
        return TLSADMIT_INCOMPLETE;
    }
    if (buf[1] != 3) return TLSADMIT_NOT_TLS;
    size_t record_length = (size_t)buf[3] << 8 | buf[4];
    if (record_length == 0 || record_length > TLSADMIT_MAX_RECORD) {
        out->malformed_reason = "a record length is 0 or over 2^14";
        return TLSADMIT_MALFORMED;
    }
    out->records = 1;
    stream s = {
        .buf = buf,
        .limit = len,
        .pos = RECORD_HEADER,
        .record_end = RECORD_HEADER + record_length,
        .logical = 0,
        .hello_end = 0,
        .hello_known = false,
        .out = out,
    };
    return hello(&s, policy);
}

tlsadmit_verdict tlsadmit_classify(const uint8_t *buf, size_t len,
                                   const tlsadmit_policy *policy,
                                   tlsadmit_hello_facts *out)
{
    reset(out);
    tlsadmit_verdict verdict = parse(buf, len, policy, out);
    out->verdict = verdict;
    if (verdict != TLSADMIT_INCOMPLETE) out->bytes_needed = 0;
    if (verdict != TLSADMIT_MALFORMED) out->malformed_reason = NULL;
    return verdict;
}

const char *tlsadmit_verdict_name(tlsadmit_verdict verdict)
{
    static const char *const names[TLSADMIT_VERDICT_COUNT] = {
        "RESUME_PSK", "RESUME_TICKET", "RESUME_SESSION_ID", "NEW",
        "INCOMPLETE", "NOT_TLS", "SSLV2", "MALFORMED",
    };
    unsigned v = (unsigned)verdict;
    return v < TLSADMIT_VERDICT_COUNT ? names[v] : "?";
}

const char *tlsadmit_version_name(uint16_t version)
{
    switch (version) {
    case 0x0300: return "SSLv3";
    case 0x0301: return "TLSv1";
    case 0x0302: return "TLSv1.1";
    case 0x0303: return "TLSv1.2";
    case 0x0304: return "TLSv1.3";
    default: return NULL;
    }
}

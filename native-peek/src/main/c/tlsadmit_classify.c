/*
 * ClientHello classifier: docs/verdicts.md in C.
 *
 * The hello is read as a handshake stream: the concatenation of the payloads
 * of consecutive handshake records. A cursor walks that stream field by field
 * and only steps into the next record header when a field needs bytes from it,
 * so errors are reported in stream order and bytes after the hello (including
 * a following record header) are never looked at.
 *
 * Every read of a field is checked twice, in this order:
 *   1. against the declared end of its container (hello, extension block,
 *      extension, list): overrun is MALFORMED no matter what has arrived;
 *   2. against the bytes present: missing bytes are INCOMPLETE.
 * That order is what makes every strict prefix of a well-formed hello
 * INCOMPLETE while a structural error shows as soon as its proof has arrived.
 */
#include "tlsadmit_classify.h"

#include <string.h>

enum status { OK = 0, INCOMPLETE, MALFORMED };

#define TRY(expr)                  \
    do {                           \
        enum status st_ = (expr);  \
        if (st_ != OK) return st_; \
    } while (0)

#define RECORD_HEADER 5
#define CONTENT_HANDSHAKE 0x16
#define HANDSHAKE_CLIENT_HELLO 1
#define UNBOUNDED ((size_t)-1)

#define EXT_SERVER_NAME 0
#define EXT_ALPN 16
#define EXT_SESSION_TICKET 35
#define EXT_PRE_SHARED_KEY 41
#define EXT_EARLY_DATA 42
#define EXT_SUPPORTED_VERSIONS 43

typedef struct cursor {
    const uint8_t *buf;
    size_t len;
    size_t at;       /* offset in buf of the next handshake-stream byte */
    size_t rec_end;  /* offset in buf just past the current record's declared payload */
    size_t pos;      /* offset in the handshake stream */
    tlsadmit_hello_facts *out;
} cursor;

/*
 * Duplicate extension types are found with a 65536-bit set. Clearing 8 KiB per
 * hello would cost more than the rest of the parse, so words are zeroed lazily:
 * `valid` (128 bytes, cleared up front) says which words have been written.
 */
typedef struct type_set {
    uint64_t valid[1024 / 64];
    uint64_t words[1024];
} type_set;

static bool type_set_add(type_set *set, uint16_t type)
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

static enum status malformed(cursor *c, const char *reason)
{
    c->out->malformed_reason = reason;
    return MALFORMED;
}

static enum status incomplete(cursor *c, size_t needed)
{
    c->out->bytes_needed = needed > UINT32_MAX ? UINT32_MAX : (uint32_t)needed;
    return INCOMPLETE;
}

static size_t min_size(size_t a, size_t b) { return a < b ? a : b; }

/*
 * Steps over the header of the record that starts at c->rec_end. Its type and
 * major version are checked as soon as each byte is present; the length needs
 * the whole header.
 */
static enum status next_record(cursor *c)
{
    size_t hdr = c->rec_end;
    size_t present = c->len - hdr;
    if (present >= 1 && c->buf[hdr] != CONTENT_HANDSHAKE)
        return malformed(c, "record of another type inside the hello");
    if (present >= 2 && c->buf[hdr + 1] != 3)
        return malformed(c, "record version major is not 3");
    if (present < RECORD_HEADER) return incomplete(c, RECORD_HEADER - present);
    size_t length = (size_t)c->buf[hdr + 3] << 8 | c->buf[hdr + 4];
    if (length == 0 || length > TLSADMIT_MAX_RECORD)
        return malformed(c, "record length is 0 or over 16384");
    c->out->records++;
    c->at = hdr + RECORD_HEADER;
    c->rec_end = c->at + length;
    return OK;
}

/*
 * Reads the next k bytes of the handshake stream into dst (NULL skips them).
 * limit is the declared end, in stream offsets, of the innermost container.
 */
static enum status take(cursor *c, size_t k, size_t limit, uint8_t *dst, const char *overrun)
{
    if (k > limit - c->pos) return malformed(c, overrun);
    while (k > 0) {
        if (c->at == c->rec_end) TRY(next_record(c));
        size_t in_record = c->rec_end - c->at;
        size_t present = c->len > c->at ? c->len - c->at : 0;
        size_t chunk = min_size(k, min_size(in_record, present));
        if (chunk == 0) return incomplete(c, min_size(k, in_record));
        if (dst != NULL) {
            memcpy(dst, c->buf + c->at, chunk);
            dst += chunk;
        }
        c->at += chunk;
        c->pos += chunk;
        k -= chunk;
    }
    return OK;
}

static enum status take_u8(cursor *c, size_t limit, unsigned *v, const char *overrun)
{
    uint8_t b[1];
    TRY(take(c, 1, limit, b, overrun));
    *v = b[0];
    return OK;
}

static enum status take_u16(cursor *c, size_t limit, unsigned *v, const char *overrun)
{
    uint8_t b[2];
    TRY(take(c, 2, limit, b, overrun));
    *v = (unsigned)b[0] << 8 | b[1];
    return OK;
}

static enum status take_u24(cursor *c, size_t limit, uint32_t *v, const char *overrun)
{
    uint8_t b[3];
    TRY(take(c, 3, limit, b, overrun));
    *v = (uint32_t)b[0] << 16 | (uint32_t)b[1] << 8 | b[2];
    return OK;
}

static bool is_grease(unsigned v)
{
    return (v & 0x0f0f) == 0x0a0a && (v >> 8) == (v & 0xff);
}

static enum status server_name(cursor *c, size_t end, size_t ext_len)
{
    unsigned list_len;
    TRY(take_u16(c, end, &list_len, "server_name list length overruns the extension"));
    if (list_len != ext_len - 2) return malformed(c, "server_name list length differs from the extension");
    while (c->pos < end) {
        unsigned type, name_len;
        TRY(take_u8(c, end, &type, "server_name entry overruns the list"));
        TRY(take_u16(c, end, &name_len, "server_name entry overruns the list"));
        if (type == 0 && (name_len == 0 || name_len > TLSADMIT_SNI_MAX))
            return malformed(c, "host_name is empty or over 255 bytes");
        if (type == 0 && !c->out->has_sni) {
            TRY(take(c, name_len, end, (uint8_t *)c->out->sni, "host_name overruns the list"));
            c->out->sni[name_len] = '\0';
            c->out->sni_len = (uint16_t)name_len;
            c->out->has_sni = true;
        } else {
            TRY(take(c, name_len, end, NULL, "server_name entry overruns the list"));
        }
    }
    return OK;
}

static enum status alpn(cursor *c, size_t end, size_t ext_len)
{
    unsigned list_len;
    TRY(take_u16(c, end, &list_len, "ALPN list length overruns the extension"));
    if (list_len != ext_len - 2 || list_len < 2)
        return malformed(c, "ALPN list length differs from the extension or is under 2");
    tlsadmit_hello_facts *out = c->out;
    while (c->pos < end) {
        unsigned name_len;
        TRY(take_u8(c, end, &name_len, "ALPN name overruns the list"));
        if (name_len == 0) return malformed(c, "empty ALPN protocol name");
        if (!out->alpn_truncated && out->alpn_used + 1u + name_len <= TLSADMIT_ALPN_CAPACITY) {
            TRY(take(c, name_len, end, out->alpn + out->alpn_used + 1, "ALPN name overruns the list"));
            out->alpn[out->alpn_used] = (uint8_t)name_len;
            out->alpn_used = (uint16_t)(out->alpn_used + 1 + name_len);
        } else {
            TRY(take(c, name_len, end, NULL, "ALPN name overruns the list"));
            out->alpn_truncated = true;
        }
        out->alpn_count++;
    }
    return OK;
}

static enum status supported_versions(cursor *c, size_t end, size_t ext_len)
{
    unsigned list_len;
    TRY(take_u8(c, end, &list_len, "supported_versions list length overruns the extension"));
    if (list_len != ext_len - 1 || list_len < 2 || list_len % 2 != 0)
        return malformed(c, "supported_versions list length is odd, under 2 or differs from the extension");
    unsigned highest = 0;
    while (c->pos < end) {
        unsigned version;
        TRY(take_u16(c, end, &version, "supported_versions list overruns the extension"));
        if (version == TLSADMIT_TLS1_3) c->out->offers_tls13 = true;
        if (!is_grease(version) && version > highest) highest = version;
    }
    if (highest != 0) c->out->client_max_version = (uint16_t)highest;
    return OK;
}

static enum status pre_shared_key(cursor *c, size_t end)
{
    unsigned ids_len, binders_len;
    TRY(take_u16(c, end, &ids_len, "pre_shared_key identities length overruns the extension"));
    if (ids_len < 7) return malformed(c, "pre_shared_key identities list under 7 bytes");
    if (ids_len > end - c->pos) return malformed(c, "pre_shared_key identities overrun the extension");
    size_t ids_end = c->pos + ids_len;
    while (c->pos < ids_end) {
        unsigned id_len;
        TRY(take_u16(c, ids_end, &id_len, "pre_shared_key identity overruns the list"));
        if (id_len == 0) return malformed(c, "empty pre_shared_key identity");
        TRY(take(c, id_len, ids_end, NULL, "pre_shared_key identity overruns the list"));
        TRY(take(c, 4, ids_end, NULL, "pre_shared_key ticket age overruns the list"));
        c->out->psk_identities++;
    }
    TRY(take_u16(c, end, &binders_len, "pre_shared_key binders length overruns the extension"));
    if (binders_len < 33) return malformed(c, "pre_shared_key binders list under 33 bytes");
    if (binders_len != end - c->pos) return malformed(c, "pre_shared_key lists differ from the extension length");
    while (c->pos < end) {
        unsigned binder_len;
        TRY(take_u8(c, end, &binder_len, "pre_shared_key binder overruns the list"));
        if (binder_len < 32) return malformed(c, "pre_shared_key binder under 32 bytes");
        TRY(take(c, binder_len, end, NULL, "pre_shared_key binder overruns the list"));
    }
    return OK;
}

static enum status extension_body(cursor *c, unsigned type, size_t ext_len)
{
    size_t end = c->pos + ext_len;
    tlsadmit_hello_facts *out = c->out;
    switch (type) {
    case EXT_SERVER_NAME:
        return server_name(c, end, ext_len);
    case EXT_ALPN:
        return alpn(c, end, ext_len);
    case EXT_SUPPORTED_VERSIONS:
        return supported_versions(c, end, ext_len);
    case EXT_PRE_SHARED_KEY:
        out->has_psk = true;
        return pre_shared_key(c, end);
    case EXT_EARLY_DATA:
        if (ext_len != 0) return malformed(c, "early_data in a ClientHello is not empty");
        out->early_data = true;
        return OK;
    case EXT_SESSION_TICKET:
        out->ticket_len = (int32_t)ext_len;
        return take(c, ext_len, end, NULL, "SessionTicket overruns the extension");
    default:
        return take(c, ext_len, end, NULL, "extension overruns the extension block");
    }
}

static enum status extensions(cursor *c, size_t hello_end)
{
    unsigned block_len;
    TRY(take_u16(c, hello_end, &block_len, "extensions length overruns the hello"));
    if (block_len != hello_end - c->pos) return malformed(c, "extensions do not end with the hello");
    type_set seen;
    memset(seen.valid, 0, sizeof seen.valid);
    bool psk_seen = false;
    while (c->pos < hello_end) {
        if (psk_seen) return malformed(c, "pre_shared_key is not the last extension");
        unsigned type, ext_len;
        TRY(take_u16(c, hello_end, &type, "extension header overruns the extension block"));
        if (!type_set_add(&seen, (uint16_t)type)) return malformed(c, "duplicate extension");
        c->out->extensions++;
        TRY(take_u16(c, hello_end, &ext_len, "extension header overruns the extension block"));
        if (ext_len > hello_end - c->pos) return malformed(c, "extension overruns the extension block");
        TRY(extension_body(c, type, ext_len));
        psk_seen = type == EXT_PRE_SHARED_KEY;
    }
    return OK;
}

static enum status client_hello(cursor *c, uint32_t max_hello_length)
{
    tlsadmit_hello_facts *out = c->out;
    unsigned type, value;
    uint32_t hello_len;
    TRY(take_u8(c, UNBOUNDED, &type, NULL));
    if (type != HANDSHAKE_CLIENT_HELLO) return malformed(c, "handshake message is not a ClientHello");
    TRY(take_u24(c, UNBOUNDED, &hello_len, NULL));
    out->hello_length = hello_len;
    if (hello_len > max_hello_length) return malformed(c, "ClientHello longer than the policy allows");
    size_t hello_end = c->pos + hello_len;

    TRY(take_u16(c, hello_end, &value, "legacy_version overruns the hello"));
    out->legacy_version = (uint16_t)value;
    out->client_max_version = (uint16_t)value;
    TRY(take(c, 32, hello_end, NULL, "random overruns the hello"));

    TRY(take_u8(c, hello_end, &value, "session id overruns the hello"));
    if (value > TLSADMIT_SESSION_ID_MAX) return malformed(c, "session id longer than 32 bytes");
    out->session_id_len = (uint8_t)value;
    TRY(take(c, value, hello_end, out->session_id, "session id overruns the hello"));

    TRY(take_u16(c, hello_end, &value, "cipher suites overrun the hello"));
    if (value < 2 || value % 2 != 0) return malformed(c, "cipher suites length is odd or under 2");
    TRY(take(c, value, hello_end, NULL, "cipher suites overrun the hello"));

    TRY(take_u8(c, hello_end, &value, "compression methods overrun the hello"));
    if (value < 1) return malformed(c, "no compression methods");
    TRY(take(c, value, hello_end, NULL, "compression methods overrun the hello"));

    if (c->pos == hello_end) return OK; /* no extensions: a pre-TLS-1.2-style hello */
    return extensions(c, hello_end);
}

static tlsadmit_verdict final_verdict(const tlsadmit_hello_facts *f, const tlsadmit_policy *policy)
{
    if (f->offers_tls13 && policy->max_version >= TLSADMIT_TLS1_3)
        return f->has_psk ? TLSADMIT_RESUME_PSK : TLSADMIT_NEW;
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
    out->has_psk = false;
    out->early_data = false;
    out->has_sni = false;
    out->sni_len = 0;
    out->sni[0] = '\0';
    out->alpn_count = 0;
    out->alpn_used = 0;
    out->alpn_truncated = false;
    out->hello_length = 0;
    out->records = 0;
    out->extensions = 0;
    out->malformed_reason = NULL;
}

static tlsadmit_verdict decide(tlsadmit_hello_facts *out, tlsadmit_verdict verdict)
{
    out->verdict = verdict;
    if (verdict != TLSADMIT_INCOMPLETE) out->bytes_needed = 0;
    return verdict;
}

static tlsadmit_verdict need(tlsadmit_hello_facts *out, size_t bytes)
{
    out->bytes_needed = (uint32_t)bytes;
    return decide(out, TLSADMIT_INCOMPLETE);
}

tlsadmit_verdict tlsadmit_classify(const uint8_t *buf, size_t len,
                                   const tlsadmit_policy *policy,
                                   tlsadmit_hello_facts *out)
{
    reset(out);
    if (len == 0) return need(out, RECORD_HEADER);
    if (buf[0] & 0x80) {
        /* SSLv2 framing: 2-byte length, then the message type. */
        if (len < 3) return need(out, 3 - len);
        return decide(out, buf[2] == 1 ? TLSADMIT_SSLV2 : TLSADMIT_NOT_TLS);
    }
    if (buf[0] != CONTENT_HANDSHAKE) return decide(out, TLSADMIT_NOT_TLS);
    if (len >= 2 && buf[1] != 3) return decide(out, TLSADMIT_NOT_TLS);

    /* The first record header goes through the same code as later ones; only
     * its type and major version mean NOT_TLS rather than MALFORMED, and both
     * were checked above. */
    cursor c = {.buf = buf, .len = len, .at = 0, .rec_end = 0, .pos = 0, .out = out};
    switch (client_hello(&c, policy->max_hello_length)) {
    case OK:
        return decide(out, final_verdict(out, policy));
    case INCOMPLETE:
        return decide(out, TLSADMIT_INCOMPLETE);
    case MALFORMED:
    default:
        return decide(out, TLSADMIT_MALFORMED);
    }
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

/*
 * ClientHello classification from the first bytes of a TLS connection.
 *
 * The rules are docs/verdicts.md, shared with the Java classifier
 * (io.tlsadmit.classifier); both must give the same verdict and facts for
 * every input. The classifier reads only [buf, buf + len), never allocates,
 * keeps no state between calls and is safe to call from any thread.
 */
#ifndef TLSADMIT_CLASSIFY_H
#define TLSADMIT_CLASSIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Same names and order as the Java enum io.tlsadmit.classifier.Verdict:
 * the JNI binding passes the ordinal across. */
typedef enum tlsadmit_verdict {
    TLSADMIT_RESUME_PSK = 0,
    TLSADMIT_RESUME_TICKET,
    TLSADMIT_RESUME_SESSION_ID,
    TLSADMIT_NEW,
    TLSADMIT_INCOMPLETE,
    TLSADMIT_NOT_TLS,
    TLSADMIT_SSLV2,
    TLSADMIT_MALFORMED
} tlsadmit_verdict;

#define TLSADMIT_VERDICT_COUNT 8

#define TLSADMIT_TLS1_2 0x0303
#define TLSADMIT_TLS1_3 0x0304

/* The largest TLS plaintext record payload (RFC 8446 5.1). */
#define TLSADMIT_MAX_RECORD 16384
#define TLSADMIT_SNI_MAX 255
#define TLSADMIT_SESSION_ID_MAX 32
/* Only the first ALPN names are kept (docs/verdicts.md); each is at most 255 bytes. */
#define TLSADMIT_ALPN_MAX_NAMES 8
#define TLSADMIT_ALPN_NAME_MAX 255

typedef struct tlsadmit_policy {
    uint16_t max_version;      /* TLSADMIT_TLS1_2 or TLSADMIT_TLS1_3 */
    uint32_t max_hello_length; /* the largest accepted 24-bit hello length */
} tlsadmit_policy;

/* What the parse found, as far as it got (docs/verdicts.md, "Facts"). */
typedef struct tlsadmit_hello_facts {
    tlsadmit_verdict verdict;
    uint32_t bytes_needed;       /* > 0 only with TLSADMIT_INCOMPLETE */
    uint16_t legacy_version;     /* 0 if not reached */
    uint16_t client_max_version; /* 0 if not reached */
    bool offers_tls13;
    uint8_t session_id_len;
    uint8_t session_id[TLSADMIT_SESSION_ID_MAX];
    int32_t ticket_len;          /* -1 when SessionTicket is absent */
    uint32_t psk_identities;
    bool early_data;
    bool has_sni;
    uint16_t sni_len;
    char sni[TLSADMIT_SNI_MAX + 1]; /* raw bytes, NUL-terminated for convenience */
    uint8_t alpn_count;          /* names kept, at most TLSADMIT_ALPN_MAX_NAMES */
    uint8_t alpn_len[TLSADMIT_ALPN_MAX_NAMES];
    char alpn[TLSADMIT_ALPN_MAX_NAMES][TLSADMIT_ALPN_NAME_MAX];
    uint32_t hello_length;
    uint32_t records;
    uint32_t extensions;
    const char *malformed_reason; /* static text, NULL unless MALFORMED */
} tlsadmit_hello_facts;

tlsadmit_verdict tlsadmit_classify(const uint8_t *buf, size_t len,
                                   const tlsadmit_policy *policy,
                                   tlsadmit_hello_facts *out);

/* "NEW", "MALFORMED", ...; "?" for a value outside the enum. */
const char *tlsadmit_verdict_name(tlsadmit_verdict verdict);

/* "TLSv1.3" etc. for known versions, NULL otherwise (callers format 0x%04x). */
const char *tlsadmit_version_name(uint16_t version);

#ifdef __cplusplus
}
#endif

#endif

/* Builds ClientHello handshake messages and frames them into records, for tests. */
#ifndef TLSADMIT_HELLO_BUILDER_H
#define TLSADMIT_HELLO_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#define HELLO_MAX 70000

typedef struct hello {
    uint8_t msg[HELLO_MAX]; /* the handshake message: type, 24-bit length, body */
    size_t len;
    size_t ext_block;       /* offset of the extensions length, 0 before hello_extensions() */
} hello;

/* Header, legacy_version, random, session id of sid_len bytes, two cipher suites, null compression. */
void hello_start(hello *h, uint16_t legacy_version, uint8_t sid_len);
void hello_extensions(hello *h);
void hello_ext(hello *h, uint16_t type, const uint8_t *data, size_t len);
void hello_ext_sni(hello *h, const char *host);
void hello_ext_alpn(hello *h, const char *const *names, size_t count);
void hello_ext_versions(hello *h, const uint16_t *versions, size_t count);
void hello_ext_psk(hello *h, unsigned identities);
/* Patches the lengths; call after the last extension. */
void hello_finish(hello *h);

/* Frames the message into records of at most record_payload bytes; returns the wire length. */
size_t hello_frame(const hello *h, size_t record_payload, uint8_t *out, size_t cap);

#endif

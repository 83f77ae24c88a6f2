#include "hello_builder.h"

#include <string.h>

static void put(hello *h, const void *data, size_t len)
{
    if (len > 0) memcpy(h->msg + h->len, data, len);
    h->len += len;
}

static void put8(hello *h, unsigned v) { h->msg[h->len++] = (uint8_t)v; }

static void put16(hello *h, unsigned v)
{
    put8(h, v >> 8);
    put8(h, v);
}

static void patch16(hello *h, size_t at, size_t v)
{
    h->msg[at] = (uint8_t)(v >> 8);
    h->msg[at + 1] = (uint8_t)v;
}

void hello_start(hello *h, uint16_t legacy_version, uint8_t sid_len)
{
    h->len = 0;
    h->ext_block = 0;
    put8(h, 1);
    put8(h, 0), put8(h, 0), put8(h, 0);
    put16(h, legacy_version);
    for (int i = 0; i < 32; i++) put8(h, (unsigned)(i * 7));
    put8(h, sid_len);
    for (unsigned i = 0; i < sid_len; i++) put8(h, 0xa0 + i);
    put16(h, 4), put16(h, 0x1301), put16(h, 0xc02f);
    put8(h, 1), put8(h, 0);
}

void hello_extensions(hello *h)
{
    h->ext_block = h->len;
    put16(h, 0);
}

void hello_ext(hello *h, uint16_t type, const uint8_t *data, size_t len)
{
    put16(h, type);
    put16(h, (unsigned)len);
    put(h, data, len);
}

void hello_ext_sni(hello *h, const char *host)
{
    size_t n = strlen(host);
    put16(h, 0), put16(h, (unsigned)(n + 5)), put16(h, (unsigned)(n + 3));
    put8(h, 0), put16(h, (unsigned)n);
    put(h, host, n);
}

void hello_ext_alpn(hello *h, const char *const *names, size_t count)
{
    size_t list = 0;
    for (size_t i = 0; i < count; i++) list += 1 + strlen(names[i]);
    put16(h, 16), put16(h, (unsigned)(list + 2)), put16(h, (unsigned)list);
    for (size_t i = 0; i < count; i++) {
        put8(h, (unsigned)strlen(names[i]));
        put(h, names[i], strlen(names[i]));
    }
}

void hello_ext_versions(hello *h, const uint16_t *versions, size_t count)
{
    put16(h, 43), put16(h, (unsigned)(1 + 2 * count)), put8(h, (unsigned)(2 * count));
    for (size_t i = 0; i < count; i++) put16(h, versions[i]);
}

void hello_ext_psk(hello *h, unsigned identities)
{
    size_t ids = identities * (2 + 16 + 4), binders = identities * (1 + 32);
    put16(h, 41), put16(h, (unsigned)(2 + ids + 2 + binders));
    put16(h, (unsigned)ids);
    for (unsigned i = 0; i < identities; i++) {
        put16(h, 16);
        for (int b = 0; b < 16; b++) put8(h, i);
        put16(h, 0), put16(h, 1000);
    }
    put16(h, (unsigned)binders);
    for (unsigned i = 0; i < identities; i++) {
        put8(h, 32);
        for (int b = 0; b < 32; b++) put8(h, 0x55);
    }
}

void hello_finish(hello *h)
{
    if (h->ext_block != 0) patch16(h, h->ext_block, h->len - h->ext_block - 2);
    size_t body = h->len - 4;
    h->msg[1] = (uint8_t)(body >> 16);
    h->msg[2] = (uint8_t)(body >> 8);
    h->msg[3] = (uint8_t)body;
}

size_t hello_frame(const hello *h, size_t record_payload, uint8_t *out, size_t cap)
{
    size_t wire = 0;
    for (size_t at = 0; at < h->len; at += record_payload) {
        size_t n = h->len - at < record_payload ? h->len - at : record_payload;
        if (wire + 5 + n > cap) return 0;
        out[wire] = 0x16, out[wire + 1] = 3, out[wire + 2] = 1;
        out[wire + 3] = (uint8_t)(n >> 8), out[wire + 4] = (uint8_t)n;
        memcpy(out + wire + 5, h->msg + at, n);
        wire += 5 + n;
    }
    return wire;
}

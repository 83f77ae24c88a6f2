/* libFuzzer harness: any input, both policies; memory errors are caught by the
 * sanitizers, broken invariants by abort(). */
#include <stdlib.h>

#include "tlsadmit_classify.h"

static void check_invariants(const tlsadmit_hello_facts *f, tlsadmit_verdict v)
{
    if (v != f->verdict || (unsigned)v >= TLSADMIT_VERDICT_COUNT) abort();
    if ((v == TLSADMIT_INCOMPLETE) != (f->bytes_needed > 0)) abort();
    if ((v == TLSADMIT_MALFORMED) != (f->malformed_reason != NULL)) abort();
    if (f->sni_len > TLSADMIT_SNI_MAX || f->alpn_count > TLSADMIT_ALPN_MAX_NAMES) abort();
    if (f->session_id_len > TLSADMIT_SESSION_ID_MAX) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const tlsadmit_policy policies[] = {
        {.max_version = TLSADMIT_TLS1_3, .max_hello_length = 16384},
        {.max_version = TLSADMIT_TLS1_2, .max_hello_length = 512},
    };
    for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++) {
        tlsadmit_hello_facts facts;
        tlsadmit_verdict v = tlsadmit_classify(data, size, &policies[i], &facts);
        check_invariants(&facts, v);
    }
    return 0;
}

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

/*
 * A final verdict never changes when more bytes arrive: a reader that steps by
 * bytes_needed and stops at the first final verdict must agree with the
 * verdict on the whole input, facts included.
 */
static void check_final_verdicts_are_stable(const uint8_t *data, size_t size, const tlsadmit_policy *policy,
                                            const tlsadmit_hello_facts *whole)
{
    tlsadmit_hello_facts step;
    size_t len = 0;
    while (tlsadmit_classify(data, len, policy, &step) == TLSADMIT_INCOMPLETE) {
        if (step.bytes_needed > size - len) return; /* the input ends first */
        len += step.bytes_needed;
    }
    if (step.verdict != whole->verdict || step.hello_length != whole->hello_length ||
        step.records != whole->records || step.extensions != whole->extensions ||
        step.session_id_len != whole->session_id_len || step.ticket_len != whole->ticket_len ||
        step.psk_identities != whole->psk_identities || step.client_max_version != whole->client_max_version)
        abort();
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
        check_final_verdicts_are_stable(data, size, &policies[i], &facts);
    }
    return 0;
}

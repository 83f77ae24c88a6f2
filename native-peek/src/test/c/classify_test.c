/* Specification of tlsadmit_classify (docs/verdicts.md) by example. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hello_builder.h"
#include "tlsadmit_classify.h"

static const tlsadmit_policy TLS13 = {.max_version = TLSADMIT_TLS1_3, .max_hello_length = 16384};
static const tlsadmit_policy TLS12 = {.max_version = TLSADMIT_TLS1_2, .max_hello_length = 16384};

static hello h;
static uint8_t wire[80000];
static tlsadmit_hello_facts facts;

/* Classifies from an exact-size heap copy, so ASan catches any read past the end. */
static tlsadmit_verdict classify_exact(const uint8_t *bytes, size_t len, const tlsadmit_policy *policy)
{
    uint8_t *copy = calloc(len > 0 ? len : 1, 1);
    if (copy == NULL) abort();
    if (len > 0) memcpy(copy, bytes, len);
    tlsadmit_verdict v = tlsadmit_classify(copy, len, policy, &facts);
    free(copy);
    return v;
}

static const char *const H2_HTTP11[] = {"h2", "http/1.1"};
static const uint16_t GREASE_13_12[] = {0x5a5a, 0x0304, 0x0303};

/* A Chrome-like TLS 1.3 hello: SNI, ALPN, supported_versions with GREASE, 32-byte session id. */
static size_t modern_hello(size_t record_payload)
{
    hello_start(&h, 0x0303, 32);
    hello_extensions(&h);
    hello_ext(&h, 0x0a0a, NULL, 0);
    hello_ext_sni(&h, "shop.example");
    hello_ext_alpn(&h, H2_HTTP11, 2);
    hello_ext_versions(&h, GREASE_13_12, 3);
    hello_finish(&h);
    return hello_frame(&h, record_payload, wire, sizeof wire);
}

static void a_tls13_hello_is_new_and_reports_its_facts(void)
{
    size_t n = modern_hello(16384);
    CHECK_EQ(TLSADMIT_NEW, classify_exact(wire, n, &TLS13));
    CHECK_EQ(0, facts.bytes_needed);
    CHECK(facts.has_sni && strcmp(facts.sni, "shop.example") == 0);
    CHECK_EQ(2, facts.alpn_count);
    CHECK(facts.alpn_len[0] == 2 && memcmp(facts.alpn[0], "h2", 2) == 0);
    CHECK(facts.alpn_len[1] == 8 && memcmp(facts.alpn[1], "http/1.1", 8) == 0);
    CHECK_EQ(0x0303, facts.legacy_version);
    CHECK_EQ(0x0304, facts.client_max_version);
    CHECK_EQ(32, facts.session_id_len);
    CHECK_EQ(-1, facts.ticket_len);
    CHECK_EQ(h.len - 4, facts.hello_length);
    CHECK_EQ(1, facts.records);
    CHECK_EQ(4, facts.extensions);
    CHECK(facts.malformed_reason == NULL);
}

static void a_tls13_hello_to_a_tls12_server_is_session_id_resumption(void)
{
    size_t n = modern_hello(16384);
    CHECK_EQ(TLSADMIT_RESUME_SESSION_ID, classify_exact(wire, n, &TLS12));
}

static void every_strict_prefix_of_a_hello_is_incomplete_and_needs_no_more_than_the_rest(void)
{
    size_t record_sizes[] = {16384, 100, 7, 1};
    for (size_t r = 0; r < sizeof record_sizes / sizeof record_sizes[0]; r++) {
        size_t n = modern_hello(record_sizes[r]);
        for (size_t len = 0; len < n; len++) {
            tlsadmit_verdict v = classify_exact(wire, len, &TLS13);
            CHECK_EQ(TLSADMIT_INCOMPLETE, v);
            CHECK(facts.bytes_needed >= 1 && facts.bytes_needed <= n - len);
            if (v != TLSADMIT_INCOMPLETE) {
                fprintf(stderr, "  record size %zu, prefix %zu\n", record_sizes[r], len);
                return;
            }
        }
        CHECK_EQ(TLSADMIT_NEW, classify_exact(wire, n, &TLS13));
    }
}

static void a_hello_split_into_one_byte_records_counts_every_record(void)
{
    size_t n = modern_hello(1);
    CHECK_EQ(TLSADMIT_NEW, classify_exact(wire, n, &TLS13));
    CHECK_EQ(h.len, facts.records);
    CHECK(strcmp(facts.sni, "shop.example") == 0);
}

static void bytes_after_the_hello_are_ignored(void)
{
    size_t n = modern_hello(16384);
    memcpy(wire + n, "\x17\x09garbage", 9);
    CHECK_EQ(TLSADMIT_NEW, classify_exact(wire, n + 9, &TLS13));
    CHECK_EQ(1, facts.records);
}

static void nothing_yet_needs_a_record_header(void)
{
    CHECK_EQ(TLSADMIT_INCOMPLETE, classify_exact(wire, 0, &TLS13));
    CHECK_EQ(5, facts.bytes_needed);
    CHECK_EQ(TLSADMIT_INCOMPLETE, classify_exact((const uint8_t *)"\x16\x03", 2, &TLS13));
    CHECK_EQ(3, facts.bytes_needed);
}

static void plain_http_is_not_tls(void)
{
    CHECK_EQ(TLSADMIT_NOT_TLS, classify_exact((const uint8_t *)"G", 1, &TLS13));
    CHECK_EQ(TLSADMIT_NOT_TLS, classify_exact((const uint8_t *)"GET / HTTP/1.1\r\n", 16, &TLS13));
    CHECK_EQ(0, facts.bytes_needed);
}

static void a_handshake_record_with_another_major_version_is_not_tls_once_its_header_is_whole(void)
{
    CHECK_EQ(TLSADMIT_INCOMPLETE, classify_exact((const uint8_t *)"\x16\x04\x01\x00", 4, &TLS13));
    CHECK_EQ(1, facts.bytes_needed);
    CHECK_EQ(TLSADMIT_NOT_TLS, classify_exact((const uint8_t *)"\x16\x04\x01\x00\x10", 5, &TLS13));
    CHECK_EQ(0, facts.records);
}

static void sslv2_framing_is_recognised_from_three_bytes(void)
{
    CHECK_EQ(TLSADMIT_INCOMPLETE, classify_exact((const uint8_t *)"\x80\x2e", 2, &TLS13));
    CHECK_EQ(1, facts.bytes_needed);
    CHECK_EQ(TLSADMIT_SSLV2, classify_exact((const uint8_t *)"\x80\x2e\x01\x03\x01", 5, &TLS13));
    CHECK_EQ(TLSADMIT_NOT_TLS, classify_exact((const uint8_t *)"\x80\x2e\x02", 3, &TLS13));
}

static void record_lengths_of_zero_or_over_16384_are_malformed(void)
{
    CHECK_EQ(TLSADMIT_MALFORMED, classify_exact((const uint8_t *)"\x16\x03\x01\x00\x00", 5, &TLS13));
    CHECK_EQ(TLSADMIT_MALFORMED, classify_exact((const uint8_t *)"\x16\x03\x01\x40\x01", 5, &TLS13));
    CHECK_EQ(TLSADMIT_INCOMPLETE, classify_exact((const uint8_t *)"\x16\x03\x01\x40\x00", 5, &TLS13));
}

static void a_non_handshake_record_inside_the_hello_is_malformed(void)
{
    size_t n = modern_hello(50);
    CHECK(n > 60);
    wire[55] = 0x17;
    CHECK_EQ(TLSADMIT_INCOMPLETE, classify_exact(wire, 59, &TLS13));
    CHECK_EQ(1, facts.bytes_needed);
    CHECK_EQ(TLSADMIT_MALFORMED, classify_exact(wire, 60, &TLS13));
    CHECK_EQ(1, facts.records);
}

static void a_later_record_with_another_major_version_is_malformed(void)
{
    size_t n = modern_hello(50);
    CHECK(n > 60);
    wire[56] = 0x02;
    CHECK_EQ(TLSADMIT_MALFORMED, classify_exact(wire, 60, &TLS13));
}

static void another_handshake_message_is_malformed_from_its_first_byte(void)
{
    CHECK_EQ(TLSADMIT_MALFORMED, classify_exact((const uint8_t *)"\x16\x03\x01\x00\x40\x02", 6, &TLS13));
}

static void a_hello_longer_than_the_policy_allows_is_malformed(void)
{
    size_t n = modern_hello(16384);
    tlsadmit_policy small = {.max_version = TLSADMIT_TLS1_3, .max_hello_length = (uint32_t)(h.len - 5)};
    CHECK_EQ(TLSADMIT_MALFORMED, classify_exact(wire, 9, &small));
    CHECK_EQ(h.len - 4, facts.hello_length);
    small.max_hello_length = (uint32_t)(h.len - 4);
    CHECK_EQ(TLSADMIT_NEW, classify_exact(wire, n, &small));
}

static size_t build(void (*extensions)(void), uint8_t sid_len)
{
    hello_start(&h, 0x0303, sid_len);
    if (extensions != NULL) {
        hello_extensions(&h);
        extensions();
    }
    hello_finish(&h);
    return hello_frame(&h, 16384, wire, sizeof wire);
}

static void a_hello_without_extensions_is_allowed(void)
{
    size_t n = build(NULL, 0);
    CHECK_EQ(TLSADMIT_NEW, classify_exact(wire, n, &TLS13));
    CHECK_EQ(0, facts.extensions);
    CHECK_EQ(0x0303, facts.client_max_version);
    n = build(NULL, 16);
    CHECK_EQ(TLSADMIT_RESUME_SESSION_ID, classify_exact(wire, n, &TLS13));
}

static void ticket(void) { hello_ext(&h, 35, (const uint8_t *)"0123456789", 10); }
static void empty_ticket(void) { hello_ext(&h, 35, NULL, 0); }

static void a_non_empty_session_ticket_is_ticket_resumption(void)
{
    size_t n = build(ticket, 32);
    CHECK_EQ(TLSADMIT_RESUME_TICKET, classify_exact(wire, n, &TLS13));
    CHECK_EQ(10, facts.ticket_len);
    n = build(empty_ticket, 0);
    CHECK_EQ(TLSADMIT_NEW, classify_exact(wire, n, &TLS13));
    CHECK_EQ(0, facts.ticket_len);
}

static void tls13_with_psk(void)
{
    hello_ext_versions(&h, GREASE_13_12, 3);
    hello_ext(&h, 42, NULL, 0);
    hello_ext_psk(&h, 2);
}

static void a_tls13_psk_is_psk_resumption_only_when_the_server_speaks_tls13(void)
{
    size_t n = build(tls13_with_psk, 32);
    CHECK_EQ(TLSADMIT_RESUME_PSK, classify_exact(wire, n, &TLS13));
    CHECK_EQ(2, facts.psk_identities);
    CHECK(facts.early_data);
    CHECK_EQ(TLSADMIT_RESUME_SESSION_ID, classify_exact(wire, n, &TLS12));
}

static void psk_then_sni(void)
{
    hello_ext_psk(&h, 1);
    hello_ext_sni(&h, "a.example");
}

static void a_pre_shared_key_that_is_not_last_is_malformed(void)
{
    size_t n = build(psk_then_sni, 0);
    CHECK_EQ(TLSADMIT_MALFORMED, classify_exact(wire, n, &TLS13));
}

static void two_sni(void)
{
    hello_ext_sni(&h, "a.example");
    hello_ext_sni(&h, "b.example");
}

static void a_repeated_extension_is_malformed(void)
{
    size_t n = build(two_sni, 0);
    CHECK_EQ(TLSADMIT_MALFORMED, classify_exact(wire, n, &TLS13));
}

static void early_data_with_a_body(void) { hello_ext(&h, 42, (const uint8_t *)"x", 1); }
static void empty_host_name(void) { hello_ext_sni(&h, ""); }
static void empty_alpn_name(void)
{
    static const char *const names[] = {"h2", ""};
    hello_ext_alpn(&h, names, 2);
}
static void odd_versions(void) { hello_ext(&h, 43, (const uint8_t *)"\x03\x03\x04\x03", 4); }

static void malformed_extension_bodies_are_malformed(void)
{
    void (*cases[])(void) = {early_data_with_a_body, empty_host_name, empty_alpn_name, odd_versions};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = build(cases[i], 0);
        CHECK_EQ(TLSADMIT_MALFORMED, classify_exact(wire, n, &TLS13));
        CHECK(facts.malformed_reason != NULL);
    }
}

static void structural_errors_in_the_body_are_malformed(void)
{
    size_t n = build(ticket, 0);
    size_t sid = 5 + 4 + 2 + 32; /* offset of the session id length */
    wire[sid] = 33;
    CHECK_EQ(TLSADMIT_MALFORMED, classify_exact(wire, n, &TLS13));
    n = build(ticket, 0);
    wire[sid + 2] = 3; /* odd cipher suites length */
    CHECK_EQ(TLSADMIT_MALFORMED, classify_exact(wire, n, &TLS13));
    n = build(ticket, 0);
    wire[sid + 1 + 2 + 4] = 0; /* no compression methods */
    CHECK_EQ(TLSADMIT_MALFORMED, classify_exact(wire, sid + 8, &TLS13));
    n = build(ticket, 0);
    wire[sid + 1 + 2 + 4 + 2 + 1]++; /* extensions block one byte longer than the hello */
    CHECK_EQ(TLSADMIT_MALFORMED, classify_exact(wire, sid + 12, &TLS13));
}

static void grease_versions_do_not_count_as_the_client_maximum(void)
{
    size_t n = modern_hello(16384);
    CHECK_EQ(TLSADMIT_NEW, classify_exact(wire, n, &TLS13));
    CHECK_EQ(0x0304, facts.client_max_version);
}

static void ten_alpn_names(void)
{
    static const char *const names[] = {"a", "bb", "c", "d", "e", "f", "g", "h", "ninth", "tenth"};
    hello_ext_alpn(&h, names, 10);
}

static void only_the_first_eight_alpn_names_are_kept(void)
{
    size_t n = build(ten_alpn_names, 0);
    CHECK_EQ(TLSADMIT_NEW, classify_exact(wire, n, &TLS13));
    CHECK_EQ(8, facts.alpn_count);
    CHECK(facts.alpn_len[1] == 2 && memcmp(facts.alpn[1], "bb", 2) == 0);
    CHECK(facts.alpn_len[7] == 1 && facts.alpn[7][0] == 'h');
}

static void facts_are_kept_as_far_as_the_parse_got(void)
{
    size_t n = modern_hello(16384);
    /* cut inside the ALPN extension: SNI already read, ALPN not yet */
    size_t cut = 0;
    for (size_t i = 0; i + 2 < n; i++)
        if (memcmp(wire + i, "h2", 2) == 0) cut = i + 1;
    CHECK(cut > 0);
    CHECK_EQ(TLSADMIT_INCOMPLETE, classify_exact(wire, cut, &TLS13));
    CHECK(facts.has_sni && strcmp(facts.sni, "shop.example") == 0);
    CHECK_EQ(0, facts.alpn_count);
    CHECK_EQ(3, facts.extensions);
    CHECK_EQ(0x0303, facts.client_max_version);
    CHECK_EQ(n - cut, facts.bytes_needed);
}

const test_case classify_tests[] = {
    {"only_the_first_eight_alpn_names_are_kept", only_the_first_eight_alpn_names_are_kept},
    {"facts_are_kept_as_far_as_the_parse_got", facts_are_kept_as_far_as_the_parse_got},
    {"a_tls13_hello_is_new_and_reports_its_facts", a_tls13_hello_is_new_and_reports_its_facts},
    {"a_tls13_hello_to_a_tls12_server_is_session_id_resumption", a_tls13_hello_to_a_tls12_server_is_session_id_resumption},
    {"every_strict_prefix_of_a_hello_is_incomplete_and_needs_no_more_than_the_rest",
     every_strict_prefix_of_a_hello_is_incomplete_and_needs_no_more_than_the_rest},
    {"a_hello_split_into_one_byte_records_counts_every_record", a_hello_split_into_one_byte_records_counts_every_record},
    {"bytes_after_the_hello_are_ignored", bytes_after_the_hello_are_ignored},
    {"nothing_yet_needs_a_record_header", nothing_yet_needs_a_record_header},
    {"plain_http_is_not_tls", plain_http_is_not_tls},
    {"a_handshake_record_with_another_major_version_is_not_tls_once_its_header_is_whole",
     a_handshake_record_with_another_major_version_is_not_tls_once_its_header_is_whole},
    {"sslv2_framing_is_recognised_from_three_bytes", sslv2_framing_is_recognised_from_three_bytes},
    {"record_lengths_of_zero_or_over_16384_are_malformed", record_lengths_of_zero_or_over_16384_are_malformed},
    {"a_non_handshake_record_inside_the_hello_is_malformed", a_non_handshake_record_inside_the_hello_is_malformed},
    {"a_later_record_with_another_major_version_is_malformed", a_later_record_with_another_major_version_is_malformed},
    {"another_handshake_message_is_malformed_from_its_first_byte", another_handshake_message_is_malformed_from_its_first_byte},
    {"a_hello_longer_than_the_policy_allows_is_malformed", a_hello_longer_than_the_policy_allows_is_malformed},
    {"a_hello_without_extensions_is_allowed", a_hello_without_extensions_is_allowed},
    {"a_non_empty_session_ticket_is_ticket_resumption", a_non_empty_session_ticket_is_ticket_resumption},
    {"a_tls13_psk_is_psk_resumption_only_when_the_server_speaks_tls13",
     a_tls13_psk_is_psk_resumption_only_when_the_server_speaks_tls13},
    {"a_pre_shared_key_that_is_not_last_is_malformed", a_pre_shared_key_that_is_not_last_is_malformed},
    {"a_repeated_extension_is_malformed", a_repeated_extension_is_malformed},
    {"malformed_extension_bodies_are_malformed", malformed_extension_bodies_are_malformed},
    {"structural_errors_in_the_body_are_malformed", structural_errors_in_the_body_are_malformed},
    {"grease_versions_do_not_count_as_the_client_maximum", grease_versions_do_not_count_as_the_client_maximum},
    {NULL, NULL},
};

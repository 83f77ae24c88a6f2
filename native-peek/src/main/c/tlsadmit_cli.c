/*
 * tlsadmit-classify: the C twin of the ssl-classifier CLI.
 *
 *   tlsadmit-classify [--server-max-version 1.2|1.3] [--max-hello-length N] FILE...
 *
 * One JSON line per file, byte for byte the format of docs/verdicts.md, so the
 * two CLIs can be compared with diff. Exit 0 when every file was read, 2 on a
 * usage error or an unreadable file.
 */
#include "tlsadmit_classify.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_USAGE 2

#define USAGE_TEXT                                                                          \
    "usage: tlsadmit-classify [--server-max-version 1.2|1.3] [--max-hello-length BYTES] FILE...\n" \
    "  Classifies the first bytes a TLS client sent (one capture per FILE, - for stdin)\n"        \
    "  and prints one JSON line per file.\n"

static void usage(void) { fputs(USAGE_TEXT, stderr); }

static void json_string(FILE *out, const char *s, size_t len)
{
    fputc('"', out);
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch < 0x20 || ch > 0x7e)
            fprintf(out, "\\u%04x", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

static void json_version(FILE *out, uint16_t version)
{
    const char *name = tlsadmit_version_name(version);
    if (version == 0)
        fputs("null", out);
    else if (name != NULL)
        fprintf(out, "\"%s\"", name);
    else
        fprintf(out, "\"0x%04x\"", version);
}

static void print_line(FILE *out, const char *file, const tlsadmit_hello_facts *f)
{
    fputs("{\"file\":", out);
    json_string(out, file, strlen(file));
    fprintf(out, ",\"verdict\":\"%s\",\"bytes_needed\":%u,\"sni\":",
            tlsadmit_verdict_name(f->verdict), f->bytes_needed);
    if (f->has_sni)
        json_string(out, f->sni, f->sni_len);
    else
        fputs("null", out);
    fputs(",\"alpn\":[", out);
    for (unsigned i = 0; i < f->alpn_count; i++) {
        if (i > 0) fputc(',', out);
        json_string(out, f->alpn[i], f->alpn_len[i]);
    }
    fputs("],\"legacy_version\":", out);
    json_version(out, f->legacy_version);
    fputs(",\"client_max_version\":", out);
    json_version(out, f->client_max_version);
    fprintf(out,
            ",\"session_id_len\":%u,\"ticket_len\":%d,\"psk_identities\":%u,\"early_data\":%s,"
            "\"hello_length\":%u,\"records\":%u,\"extensions\":%u}\n",
            f->session_id_len, f->ticket_len, f->psk_identities, f->early_data ? "true" : "false",
            f->hello_length, f->records, f->extensions);
}

/* Reads a whole stream; NULL with errno set on failure. */
static uint8_t *read_stream(FILE *in, size_t *len)
{
    size_t cap = 4096, used = 0;
    uint8_t *buf = malloc(cap);
    while (buf != NULL) {
        used += fread(buf + used, 1, cap - used, in);
        if (used < cap) break;
        uint8_t *bigger = realloc(buf, cap * 2);
        if (bigger == NULL) free(buf);
        buf = bigger;
        cap *= 2;
    }
    int failed = buf == NULL || ferror(in);
    int saved = failed ? (buf == NULL ? ENOMEM : errno != 0 ? errno : EIO) : 0;
    if (failed) {
        free(buf);
        errno = saved;
        return NULL;
    }
    *len = used;
    return buf;
}

static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *in = fopen(path, "rb");
    if (in == NULL) return NULL;
    errno = 0;
    uint8_t *bytes = read_stream(in, len);
    int saved = errno;
    fclose(in);
    errno = saved;
    return bytes;
}

/* Integer.parseInt's grammar (optional sign, decimal digits, fits in an int),
 * so both CLIs accept and refuse the same values. */
static int parse_int(const char *text, long *value)
{
    const char *p = text;
    bool negative = *p == '-';
    if (*p == '-' || *p == '+') p++;
    if (*p == '\0') return -1;
    long n = 0;
    for (; *p != '\0'; p++) {
        if (*p < '0' || *p > '9') return -1;
        n = n * 10 + (*p - '0');
        if (n > 2147483648L) return -1;
    }
    if (!negative && n > 2147483647L) return -1;
    *value = negative ? -n : n;
    return 0;
}

/* "1.2" or "1.3", optionally with a TLSv prefix and surrounding blanks, as ServerPolicy.of. */
static int parse_version(const char *text, uint16_t *version)
{
    while (*text == ' ' || *text == '\t') text++;
    size_t len = strlen(text);
    while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '\t')) len--;
    if (len >= 4 && strncmp(text, "TLSv", 4) == 0) text += 4, len -= 4;
    if (len == 3 && strncmp(text, "1.2", 3) == 0) *version = TLSADMIT_TLS1_2;
    else if (len == 3 && strncmp(text, "1.3", 3) == 0) *version = TLSADMIT_TLS1_3;
    else return -1;
    return 0;
}

#define MIN_HELLO_LENGTH 64
#define MAX_HELLO_LENGTH 0xffffff

int main(int argc, char **argv)
{
    const char *max_version = "1.3";
    long max_hello_length = 16384;
    int files = 0;
    /* Options may come anywhere; files keep their order. */
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--server-max-version") == 0 || strcmp(arg, "--max-hello-length") == 0) {
            if (i + 1 == argc) {
                fprintf(stderr, "%s needs a value\n", arg);
                usage();
                return EXIT_USAGE;
            }
            const char *value = argv[++i];
            if (arg[2] == 's') {
                max_version = value;
            } else if (parse_int(value, &max_hello_length) != 0) {
                fprintf(stderr, "--max-hello-length must be a whole number of bytes, was '%s'\n", value);
                return EXIT_USAGE;
            }
        } else if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            fputs(USAGE_TEXT, stdout);
            return 0;
        } else if (strncmp(arg, "--", 2) == 0) {
            fprintf(stderr, "unknown option %s\n", arg);
            usage();
            return EXIT_USAGE;
        } else {
            argv[++files] = argv[i]; /* compact the file names in place, in order */
        }
    }
    if (files == 0) {
        usage();
        return EXIT_USAGE;
    }
    tlsadmit_policy policy;
    if (parse_version(max_version, &policy.max_version) != 0) {
        fprintf(stderr, "server max version must be 1.2 or 1.3, was '%s'\n", max_version);
        return EXIT_USAGE;
    }
    if (max_hello_length < MIN_HELLO_LENGTH || max_hello_length > MAX_HELLO_LENGTH) {
        fprintf(stderr, "maxHelloLength must be between %d and %d bytes, was %ld\n", MIN_HELLO_LENGTH,
                MAX_HELLO_LENGTH, max_hello_length);
        return EXIT_USAGE;
    }
    policy.max_hello_length = (uint32_t)max_hello_length;

    int status = 0;
    for (int i = 1; i <= files; i++) {
        const char *file = argv[i];
        size_t len = 0;
        uint8_t *bytes = strcmp(file, "-") == 0 ? read_stream(stdin, &len) : read_file(file, &len);
        if (bytes == NULL) {
            fprintf(stderr, "cannot read %s: %s\n", file, strerror(errno));
            status = EXIT_USAGE;
            continue;
        }
        tlsadmit_hello_facts facts;
        tlsadmit_classify(bytes, len, &policy, &facts);
        print_line(stdout, file, &facts);
        free(bytes);
    }
    if (fflush(stdout) != 0) return EXIT_USAGE;
    return status;
}

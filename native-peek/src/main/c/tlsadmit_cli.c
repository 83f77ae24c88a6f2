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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_USAGE 2

static void usage(const char *problem)
{
    fprintf(stderr, "tlsadmit-classify: %s\n"
                    "usage: tlsadmit-classify [--server-max-version 1.2|1.3] [--max-hello-length N] FILE...\n",
            problem);
}

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
    for (size_t at = 0, n = 0; at < f->alpn_used; n++) {
        size_t name_len = f->alpn[at];
        if (n > 0) fputc(',', out);
        json_string(out, (const char *)f->alpn + at + 1, name_len);
        at += 1 + name_len;
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

/* Reads the whole file; NULL with errno set on failure. */
static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *in = fopen(path, "rb");
    if (in == NULL) return NULL;
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
    int saved = failed ? (buf == NULL ? ENOMEM : EIO) : 0;
    fclose(in);
    if (failed) {
        free(buf);
        errno = saved;
        return NULL;
    }
    *len = used;
    return buf;
}

static int parse_length(const char *text, uint32_t *value)
{
    char *end;
    errno = 0;
    long n = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || n < 1 || n > 0xffffff) return -1;
    *value = (uint32_t)n;
    return 0;
}

int main(int argc, char **argv)
{
    tlsadmit_policy policy = {.max_version = TLSADMIT_TLS1_3, .max_hello_length = 16384};
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        const char *option = argv[i];
        if (strcmp(option, "--") == 0) {
            i++;
            break;
        }
        if (i + 1 >= argc) {
            usage("option needs a value");
            return EXIT_USAGE;
        }
        const char *value = argv[++i];
        if (strcmp(option, "--server-max-version") == 0) {
            if (strcmp(value, "1.2") == 0)
                policy.max_version = TLSADMIT_TLS1_2;
            else if (strcmp(value, "1.3") == 0)
                policy.max_version = TLSADMIT_TLS1_3;
            else {
                usage("--server-max-version must be 1.2 or 1.3");
                return EXIT_USAGE;
            }
        } else if (strcmp(option, "--max-hello-length") == 0) {
            if (parse_length(value, &policy.max_hello_length) != 0) {
                usage("--max-hello-length must be a number from 1 to 16777215");
                return EXIT_USAGE;
            }
        } else {
            usage("unknown option");
            return EXIT_USAGE;
        }
    }
    if (i >= argc) {
        usage("no files given");
        return EXIT_USAGE;
    }
    int status = 0;
    for (; i < argc; i++) {
        size_t len = 0;
        uint8_t *bytes = read_file(argv[i], &len);
        if (bytes == NULL) {
            fprintf(stderr, "tlsadmit-classify: cannot read %s: %s\n", argv[i], strerror(errno));
            status = EXIT_USAGE;
            continue;
        }
        tlsadmit_hello_facts facts;
        tlsadmit_classify(bytes, len, &policy, &facts);
        print_line(stdout, argv[i], &facts);
        free(bytes);
    }
    if (fflush(stdout) != 0) return EXIT_USAGE;
    return status;
}

/*
 * C microbenchmark: ns per tlsadmit_classify and per tlsadmit_peek (recv
 * MSG_PEEK + classify on a loopback socket whose queue holds the hello), for
 * each file given. `make bench` runs it over testdata/clienthello.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "tlsadmit_peek.h"

#define RUN_NS 300000000LL /* measure each case for about 0.3 s */

static const tlsadmit_policy POLICY = {.max_version = TLSADMIT_TLS1_3, .max_hello_length = 16384};
static uint8_t hello[65536];
static uint8_t peeked[65536];
static volatile unsigned sink;

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static double classify_ns(size_t len)
{
    tlsadmit_hello_facts facts;
    long long start = now_ns(), n = 0, elapsed;
    do {
        for (int i = 0; i < 1000; i++) sink += tlsadmit_classify(hello, len, &POLICY, &facts);
        n += 1000;
    } while ((elapsed = now_ns() - start) < RUN_NS);
    return (double)elapsed / (double)n;
}

/* A connected loopback pair with `len` bytes queued at the accepted end. */
static int queued_socket(size_t len, int *client, int *listener)
{
    struct sockaddr_in addr = {.sin_family = AF_INET};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof addr;
    *listener = socket(AF_INET, SOCK_STREAM, 0);
    if (bind(*listener, (struct sockaddr *)&addr, sizeof addr) != 0 || listen(*listener, 1) != 0 ||
        getsockname(*listener, (struct sockaddr *)&addr, &size) != 0)
        return -1;
    *client = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(*client, (struct sockaddr *)&addr, sizeof addr) != 0) return -1;
    int fd = accept(*listener, NULL, NULL);
    if (fd < 0 || write(*client, hello, len) != (ssize_t)len) return -1;
    return fd;
}

static double peek_ns(size_t len)
{
    int client, listener;
    int fd = queued_socket(len, &client, &listener);
    if (fd < 0) return -1;
    tlsadmit_hello_facts facts;
    tlsadmit_peek_result result;
    /* wait until the whole hello is queued */
    tlsadmit_peek(fd, peeked, sizeof peeked, 5000, &POLICY, &facts, &result);
    long long start = now_ns(), n = 0, elapsed;
    do {
        for (int i = 0; i < 1000; i++)
            sink += tlsadmit_peek(fd, peeked, sizeof peeked, 0, &POLICY, &facts, &result);
        n += 1000;
    } while ((elapsed = now_ns() - start) < RUN_NS);
    close(fd);
    close(client);
    close(listener);
    return (double)elapsed / (double)n;
}

int main(int argc, char **argv)
{
    printf("%-40s %8s %-18s %12s %12s\n", "vector", "bytes", "verdict", "classify ns", "peek ns");
    for (int i = 1; i < argc; i++) {
        const char *name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
        if (strstr(name, ".bin") == NULL) continue;
        FILE *in = fopen(argv[i], "rb");
        if (in == NULL) continue;
        size_t len = fread(hello, 1, sizeof hello, in);
        fclose(in);
        tlsadmit_hello_facts facts;
        tlsadmit_verdict v = tlsadmit_classify(hello, len, &POLICY, &facts);
        printf("%-40s %8zu %-18s %12.1f %12.1f\n", name, len, tlsadmit_verdict_name(v), classify_ns(len),
               peek_ns(len));
    }
    return 0;
}

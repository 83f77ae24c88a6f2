/* tlsadmit_peek over real loopback TCP: a forked child plays the client. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "hello_builder.h"
#include "tlsadmit_peek.h"

static const tlsadmit_policy TLS13 = {.max_version = TLSADMIT_TLS1_3, .max_hello_length = 16384};

static hello h;
static uint8_t sent[20000];
static uint8_t peeked[20000];
static uint8_t received[20000];

static size_t sample_hello(void)
{
    static const uint16_t versions[] = {0x0304, 0x0303};
    hello_start(&h, 0x0303, 32);
    hello_extensions(&h);
    hello_ext_sni(&h, "peek.example");
    hello_ext_versions(&h, versions, 2);
    hello_ext(&h, 0xfe0d, NULL, 0);
    hello_finish(&h);
    return hello_frame(&h, 16384, sent, sizeof sent);
}

static void pause_ms(int ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

/* The client: connects, writes `len` bytes in `pieces` writes `gap_ms` apart,
 * then waits `linger_ms` and closes. */
static pid_t client(uint16_t port, const uint8_t *bytes, size_t len, int pieces, int gap_ms, int linger_ms)
{
    pid_t pid = fork();
    if (pid != 0) return pid;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) _exit(3);
    size_t at = 0;
    for (int i = 0; i < pieces; i++) {
        size_t n = i == pieces - 1 ? len - at : len / (size_t)pieces;
        if (n > 0 && write(fd, bytes + at, n) != (ssize_t)n) _exit(4);
        at += n;
        if (i < pieces - 1) pause_ms(gap_ms);
    }
    pause_ms(linger_ms);
    close(fd);
    _exit(0);
}

static int listener(uint16_t *port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = 0};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof addr;
    if (bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0 || listen(fd, 8) != 0 ||
        getsockname(fd, (struct sockaddr *)&addr, &size) != 0)
        return -1;
    *port = ntohs(addr.sin_port);
    return fd;
}

/* Reads until the peer closes: what a TLS engine would get. */
static size_t drain(int fd)
{
    size_t total = 0;
    ssize_t n;
    while ((n = recv(fd, received + total, sizeof received - total, 0)) > 0) total += (size_t)n;
    return total;
}

typedef struct session {
    int listen_fd, fd;
    pid_t child;
} session;

static session connect_client(const uint8_t *bytes, size_t len, int pieces, int gap_ms, int linger_ms)
{
    session s = {.fd = -1};
    uint16_t port;
    s.listen_fd = listener(&port);
    CHECK(s.listen_fd >= 0);
    s.child = client(port, bytes, len, pieces, gap_ms, linger_ms);
    s.fd = accept(s.listen_fd, NULL, NULL);
    CHECK(s.fd >= 0);
    return s;
}

static void finish(session *s)
{
    int status = 0;
    close(s->fd);
    close(s->listen_fd);
    waitpid(s->child, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void a_hello_written_in_three_pieces_is_classified_and_left_unread(void)
{
    size_t n = sample_hello();
    session s = connect_client(sent, n, 3, 50, 200);
    tlsadmit_hello_facts facts;
    tlsadmit_peek_result result;
    CHECK_EQ(TLSADMIT_NEW, tlsadmit_peek(s.fd, peeked, sizeof peeked, 5000, &TLS13, &facts, &result));
    CHECK_EQ(n, result.length);
    CHECK(strcmp(facts.sni, "peek.example") == 0);
    int lowat = 0;
    socklen_t size = sizeof lowat;
    CHECK(getsockopt(s.fd, SOL_SOCKET, SO_RCVLOWAT, &lowat, &size) == 0);
    CHECK_EQ(1, lowat);
    CHECK_EQ(n, drain(s.fd));
    CHECK(memcmp(received, sent, n) == 0);
    finish(&s);
}

static void a_silent_client_is_incomplete_at_the_deadline(void)
{
    session s = connect_client(sent, 0, 1, 0, 400);
    tlsadmit_hello_facts facts;
    tlsadmit_peek_result result;
    CHECK_EQ(TLSADMIT_INCOMPLETE, tlsadmit_peek(s.fd, peeked, sizeof peeked, 100, &TLS13, &facts, &result));
    CHECK(result.timed_out);
    CHECK_EQ(0, result.length);
    CHECK_EQ(5, facts.bytes_needed);
    finish(&s);
}

static void a_client_that_closes_mid_hello_is_reported_as_eof(void)
{
    size_t n = sample_hello();
    session s = connect_client(sent, n / 2, 1, 0, 0);
    tlsadmit_hello_facts facts;
    tlsadmit_peek_result result;
    CHECK_EQ(TLSADMIT_INCOMPLETE, tlsadmit_peek(s.fd, peeked, sizeof peeked, 5000, &TLS13, &facts, &result));
    CHECK(result.eof);
    CHECK_EQ(n / 2, result.length);
    CHECK_EQ(n / 2, drain(s.fd));
    finish(&s);
}

static void plain_http_is_not_tls_without_waiting(void)
{
    static const char request[] = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
    session s = connect_client((const uint8_t *)request, sizeof request - 1, 1, 0, 200);
    tlsadmit_hello_facts facts;
    tlsadmit_peek_result result;
    CHECK_EQ(TLSADMIT_NOT_TLS, tlsadmit_peek(s.fd, peeked, sizeof peeked, 5000, &TLS13, &facts, &result));
    CHECK_EQ(sizeof request - 1, drain(s.fd));
    finish(&s);
}

static void a_buffer_too_small_for_the_hello_stops_the_wait(void)
{
    size_t n = sample_hello();
    session s = connect_client(sent, n, 1, 0, 200);
    tlsadmit_hello_facts facts;
    tlsadmit_peek_result result;
    pause_ms(50);
    CHECK_EQ(TLSADMIT_INCOMPLETE, tlsadmit_peek(s.fd, peeked, 20, 5000, &TLS13, &facts, &result));
    CHECK(result.buffer_full);
    CHECK_EQ(20, result.length);
    finish(&s);
}

/* A legal but unusual first record: it declares more payload than the hello. */
static void a_record_longer_than_its_hello_does_not_make_the_peek_wait_for_the_whole_record(void)
{
    size_t n = sample_hello();
    size_t declared = n - 5 + 500;
    sent[3] = (uint8_t)(declared >> 8);
    sent[4] = (uint8_t)declared;
    uint16_t port;
    int listen_fd = listener(&port);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(port)};
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) _exit(3);
        if (write(fd, sent, 5) != 5) _exit(4);
        pause_ms(50);
        if (write(fd, sent + 5, n - 5) != (ssize_t)(n - 5)) _exit(4);
        /* Then reset the connection: a peek still waiting for the record's
         * declared 500 extra bytes would see the reset instead of the hello. */
        pause_ms(1000);
        struct linger reset = {.l_onoff = 1, .l_linger = 0};
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
        close(fd);
        _exit(0);
    }
    int fd = accept(listen_fd, NULL, NULL);
    tlsadmit_hello_facts facts;
    tlsadmit_peek_result result;
    CHECK_EQ(TLSADMIT_NEW, tlsadmit_peek(fd, peeked, sizeof peeked, 5000, &TLS13, &facts, &result));
    CHECK_EQ(0, result.error);
    session s = {.listen_fd = listen_fd, .fd = fd, .child = pid};
    finish(&s);
}

static void defer_accept_is_accepted_by_a_listening_socket(void)
{
    uint16_t port;
    int fd = listener(&port);
    CHECK_EQ(0, tlsadmit_defer_accept(fd, 3));
    close(fd);
    CHECK(tlsadmit_allowed_cpus() >= 1);
}

static void the_allowed_cpu_list_is_ascending_and_as_long_as_the_count(void)
{
    int cpus[4096];
    int count = tlsadmit_allowed_cpu_list(cpus, 4096);
    CHECK_EQ(tlsadmit_allowed_cpus(), count);
    for (int i = 1; i < count; i++) CHECK(cpus[i - 1] < cpus[i]);
    int first;
    CHECK_EQ(count, tlsadmit_allowed_cpu_list(&first, 1)); /* the count even when only one fits */
    CHECK_EQ(cpus[0], first);
}

const test_case peek_tests[] = {
    {"the_allowed_cpu_list_is_ascending_and_as_long_as_the_count", the_allowed_cpu_list_is_ascending_and_as_long_as_the_count},
    {"a_hello_written_in_three_pieces_is_classified_and_left_unread",
     a_hello_written_in_three_pieces_is_classified_and_left_unread},
    {"a_silent_client_is_incomplete_at_the_deadline", a_silent_client_is_incomplete_at_the_deadline},
    {"a_client_that_closes_mid_hello_is_reported_as_eof", a_client_that_closes_mid_hello_is_reported_as_eof},
    {"plain_http_is_not_tls_without_waiting", plain_http_is_not_tls_without_waiting},
    {"a_buffer_too_small_for_the_hello_stops_the_wait", a_buffer_too_small_for_the_hello_stops_the_wait},
    {"a_record_longer_than_its_hello_does_not_make_the_peek_wait_for_the_whole_record",
     a_record_longer_than_its_hello_does_not_make_the_peek_wait_for_the_whole_record},
    {"defer_accept_is_accepted_by_a_listening_socket", defer_accept_is_accepted_by_a_listening_socket},
    {NULL, NULL},
};

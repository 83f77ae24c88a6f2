#define _GNU_SOURCE /* POLLRDHUP, sched_getaffinity, CPU_COUNT */
#include "tlsadmit_peek.h"

#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>
#include <time.h>

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* recv(MSG_PEEK) returns everything queued up to cap, from the first byte,
 * however many segments it arrived in. */
static ssize_t peek_queued(int fd, uint8_t *buf, size_t cap)
{
    for (;;) {
        ssize_t n = recv(fd, buf, cap, MSG_PEEK | MSG_DONTWAIT);
        if (n >= 0) return n;
        if (errno == EAGAIN || errno == EWOULDBLOCK) return -EAGAIN;
        if (errno != EINTR) return -errno;
    }
}

/*
 * Waits until at least `target` bytes are queued, the peer hangs up, or
 * `wait_ms` passes. Returns the poll revents (0 on timeout) or -errno.
 *
 * Why SO_RCVLOWAT: after a partial peek the bytes are still queued, so a plain
 * poll(POLLIN) reports readable at once and the loop would spin until the
 * deadline. With the low-water mark raised to what the classifier says it
 * needs (queued + bytes_needed), Linux's tcp_poll reports POLLIN only when that
 * much is queued, and its tcp_data_ready does not even wake us for smaller
 * segments; a FIN or an error still wakes poll (POLLRDHUP/POLLERR). The old
 * mark is restored before returning because the next owner of the socket (the
 * TLS engine, a selector) relies on the default "readable at 1 byte".
 * The alternative, sleeping in short backoff steps, adds up to a step of
 * latency to every multi-segment hello; it is kept only as the fallback for a
 * wake-up without progress (the kernel may report readable early, e.g. under
 * receive memory pressure).
 */
static int wait_for_bytes(int fd, size_t target, int wait_ms)
{
    int old_lowat = 1;
    socklen_t size = sizeof old_lowat;
    if (getsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &old_lowat, &size) != 0) return -errno;
    int lowat = target > INT_MAX ? INT_MAX : (int)target;
    if (setsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &lowat, sizeof lowat) != 0) return -errno;

    struct pollfd pfd = {.fd = fd, .events = POLLIN | POLLRDHUP};
    int rc = poll(&pfd, 1, wait_ms);
    int poll_errno = errno;

    if (setsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &old_lowat, sizeof old_lowat) != 0) return -errno;
    if (rc < 0) return poll_errno == EINTR ? 0 : -poll_errno;
    return rc == 0 ? 0 : pfd.revents;
}

static int socket_error(int fd)
{
    int err = 0;
    socklen_t size = sizeof err;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &size) != 0) return errno;
    return err != 0 ? err : EIO;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

tlsadmit_verdict tlsadmit_peek(int fd, uint8_t *buf, size_t cap, int timeout_ms,
                               const tlsadmit_policy *policy, tlsadmit_hello_facts *out,
                               tlsadmit_peek_result *result)
{
    *result = (tlsadmit_peek_result){0};
    int64_t deadline = now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
    bool waited = false, peer_closed = false;
    size_t previous = 0;
    int backoff_ms = 1;
    for (;;) {
        ssize_t n = peek_queued(fd, buf, cap);
        bool nothing_queued = n == -EAGAIN;
        if (n < 0 && !nothing_queued) {
            result->error = (int)-n;
            return tlsadmit_classify(buf, 0, policy, out);
        }
        result->length = n > 0 ? (size_t)n : 0;
        tlsadmit_verdict verdict = tlsadmit_classify(buf, result->length, policy, out);
        if (verdict != TLSADMIT_INCOMPLETE) return verdict;
        if (n == 0 || peer_closed) {
            /* recv() returns 0 only at end of stream; after a hang-up what is
             * queued is all there will ever be. */
            result->eof = true;
            return verdict;
        }
        if (result->length == cap) {
            result->buffer_full = true;
            return verdict;
        }
        int64_t left = deadline - now_ms();
        if (left <= 0) {
            result->timed_out = true;
            return verdict;
        }
        int wait_ms = left > INT_MAX ? INT_MAX : (int)left;
        if (waited && result->length == previous) {
            /* Woken without progress: back off instead of spinning. */
            int step = backoff_ms < wait_ms ? backoff_ms : wait_ms;
            sleep_ms(step);
            backoff_ms = backoff_ms < 32 ? backoff_ms * 2 : 32;
            waited = false;
            continue;
        }
        previous = result->length;
        waited = true;
        /* Until the handshake header is read, bytes_needed is the rest of the
         * record, which may extend past a hello that turns out to be shorter:
         * waiting for all of it would sleep to the deadline. Those first few
         * bytes are awaited one segment at a time instead. */
        size_t wanted = out->hello_length > 0 ? out->bytes_needed : 1;
        int revents = wait_for_bytes(fd, result->length + wanted, wait_ms);
        if (revents < 0 || (revents & (POLLERR | POLLNVAL))) {
            result->error = revents < 0 ? -revents : (revents & POLLNVAL) ? EBADF : socket_error(fd);
            return verdict;
        }
        if (revents & (POLLRDHUP | POLLHUP)) peer_closed = true;
    }
}

int tlsadmit_defer_accept(int listen_fd, int seconds)
{
    if (setsockopt(listen_fd, IPPROTO_TCP, TCP_DEFER_ACCEPT, &seconds, sizeof seconds) != 0) return errno;
    return 0;
}

int tlsadmit_discard(int fd, size_t max, size_t *dropped)
{
    *dropped = 0;
    ssize_t n;
    do {
        /* On TCP, MSG_TRUNC drops the bytes instead of copying them: no buffer is needed. */
        n = recv(fd, NULL, max, MSG_TRUNC | MSG_DONTWAIT);
    } while (n < 0 && errno == EINTR);
    if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : errno;
    *dropped = (size_t)n;
    return 0;
}

int tlsadmit_allowed_cpus(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
    int count = CPU_COUNT(&set);
    return count > 0 ? count : 1;
}

int tlsadmit_allowed_cpu_list(int *cpus, int capacity)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return -errno;
    int count = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (CPU_ISSET(cpu, &set)) {
            if (count < capacity) cpus[count] = cpu;
            count++;
        }
    }
    return count;
}

/* Linux's clock id for one thread's CPU time (include/linux/posix-timers.h: the task id inverted and shifted, the
 * per-thread bit, the scheduler's clock), as glibc's pthread_getcpuclockid builds it. That function takes a pthread_t,
 * which the JVM's compiler threads are not known by here: only their task ids, from /proc/self/task. The kernel
 * answers only for a thread of the caller's own process, and EINVAL for any other id. */
#define THREAD_CPU_CLOCK_SCHED 6u

int64_t tlsadmit_thread_cpu_nanos(int tid)
{
    if (tid <= 0) return -EINVAL;
    clockid_t clock = (clockid_t)((~(unsigned int)tid << 3) | THREAD_CPU_CLOCK_SCHED);
    struct timespec ts;
    if (clock_gettime(clock, &ts) != 0) return -errno;
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * Looking at a connection's first bytes without consuming them.
 *
 * tlsadmit_peek() classifies what the client has sent so far with MSG_PEEK and,
 * while the hello is incomplete, waits for more until a deadline. The socket's
 * receive queue is never read: whoever handles the connection next (a TLS
 * engine) sees the exact same stream.
 */
#ifndef TLSADMIT_PEEK_H
#define TLSADMIT_PEEK_H

#include "tlsadmit_classify.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tlsadmit_peek_result {
    size_t length;    /* bytes peeked into buf (what the verdict is about) */
    int error;        /* errno of a failed socket call; 0 if none */
    bool eof;         /* the peer closed before a final verdict */
    bool timed_out;   /* the deadline passed before a final verdict */
    bool buffer_full; /* cap bytes were queued and the hello was still incomplete */
} tlsadmit_peek_result;

/*
 * Peeks at fd (blocking or not; the call never blocks past timeout_ms) and
 * classifies. Returns the verdict, also stored in out->verdict. A verdict of
 * TLSADMIT_INCOMPLETE comes with exactly one of result->error, eof, timed_out
 * or buffer_full saying why the wait ended. timeout_ms <= 0 peeks once.
 */
tlsadmit_verdict tlsadmit_peek(int fd, uint8_t *buf, size_t cap, int timeout_ms,
                               const tlsadmit_policy *policy, tlsadmit_hello_facts *out,
                               tlsadmit_peek_result *result);

/* TCP_DEFER_ACCEPT: accept() returns only once the client has sent data (or
 * after about `seconds`). Returns 0 or an errno value. */
int tlsadmit_defer_accept(int listen_fd, int seconds);

/* Drops up to max bytes the socket has received, without copying them and without waiting
 * (recv with MSG_TRUNC | MSG_DONTWAIT); *dropped is how many. Returns 0 or an errno. */
int tlsadmit_discard(int fd, size_t max, size_t *dropped);

/* CPUs this process may run on (sched_getaffinity), at least 1. */
int tlsadmit_allowed_cpus(void);

/* The numbers of the CPUs this thread may run on (sched_getaffinity), ascending: writes at most
 * `capacity` of them into cpus and returns how many there are (more than capacity: the rest not
 * written), or a negative errno. */
int tlsadmit_allowed_cpu_list(int *cpus, int capacity);

/* The CPU time thread `tid` of this process has run, in nanoseconds: the scheduler's run time, the first field of
 * /proc/self/task/<tid>/schedstat, up to this moment. A negative errno when `tid` is no thread of this process
 * (one that has exited, or another process's). */
int64_t tlsadmit_thread_cpu_nanos(int tid);

#ifdef __cplusplus
}
#endif

#endif

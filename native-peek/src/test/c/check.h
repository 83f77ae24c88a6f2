/* A minimal test harness: CHECK records a failure and lets the test go on. */
#ifndef TLSADMIT_CHECK_H
#define TLSADMIT_CHECK_H

#include <stdio.h>

extern int check_failures;

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) {                                                           \
            check_failures++;                                                    \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                        \
    } while (0)

#define CHECK_EQ(expected, actual)                                                       \
    do {                                                                                 \
        long long e_ = (long long)(expected), a_ = (long long)(actual);                  \
        if (e_ != a_) {                                                                  \
            check_failures++;                                                            \
            fprintf(stderr, "%s:%d: %s: expected %lld, got %lld\n", __FILE__, __LINE__, \
                    #actual, e_, a_);                                                    \
        }                                                                                \
    } while (0)

typedef void (*test_fn)(void);
typedef struct test_case {
    const char *name;
    test_fn run;
} test_case;

extern const test_case classify_tests[];
extern const test_case peek_tests[];

#endif

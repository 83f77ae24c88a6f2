#include <stdio.h>

#include "check.h"

int check_failures;

static int run_all(const test_case *tests, int *count)
{
    int failed = 0;
    for (const test_case *t = tests; t->name != NULL; t++) {
        int before = check_failures;
        t->run();
        (*count)++;
        if (check_failures != before) {
            failed++;
            fprintf(stderr, "FAIL %s\n", t->name);
        }
    }
    return failed;
}

int main(void)
{
    int count = 0;
    int failed = run_all(classify_tests, &count) + run_all(peek_tests, &count);
    printf("native-peek C tests: %d run, %d failed\n", count, failed);
    return failed == 0 ? 0 : 1;
}

/* Unit tests of camping's host logic: the summary's statistics. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "camping/camping.h"

static void camping_stats(void **state)
{
    (void)state;
    const double v[] = {10, 9, 3, 10, 11, 5, 10};
    double med;
    int w[3];
    clb_camping_stats(v, 7, &med, w);
    assert_true(med == 10);
    assert_int_equal(w[0], 2);
    assert_int_equal(w[1], 5);
    assert_int_equal(w[2], 1);
    const double two[] = {4, 2};
    clb_camping_stats(two, 2, &med, w);
    assert_true(med == 3);
    assert_int_equal(w[0], 1);
    assert_int_equal(w[1], 0);
    assert_int_equal(w[2], -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(camping_stats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

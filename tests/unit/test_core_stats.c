/* Statistics of repeated timings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>

#include "clb_stats.h"

static void odd_count(void **state)
{
    (void)state;
    const double t[] = {5, 1, 3, 2, 4};
    struct clb_stats s;
    clb_stats_compute(t, 5, &s);
    assert_float_equal(s.min, 1, 0);
    assert_float_equal(s.max, 5, 0);
    assert_float_equal(s.median, 3, 0);
    assert_float_equal(s.mean, 3, 1e-15);
    assert_float_equal(s.stddev, sqrt(2.5), 1e-12); /* sample deviation, n-1 */
    assert_float_equal(t[0], 5, 0);                 /* input not reordered */
}

static void even_count_and_single(void **state)
{
    (void)state;
    const double t[] = {4, 1, 3, 2};
    struct clb_stats s;
    clb_stats_compute(t, 4, &s);
    assert_float_equal(s.median, 2.5, 0);
    clb_stats_compute(t, 1, &s);
    assert_float_equal(s.median, 4, 0);
    assert_float_equal(s.stddev, 0, 0);
    clb_stats_compute(t, 0, &s);
    assert_true(isnan(s.median));
}

static void rates(void **state)
{
    (void)state;
    assert_float_equal(clb_rate(2e9, 0.5), 4e9, 1);
    assert_true(isnan(clb_rate(1, 0)));
    assert_true(isnan(clb_rate(0, 1)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(odd_count),
                                       cmocka_unit_test(even_count_and_single),
                                       cmocka_unit_test(rates)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

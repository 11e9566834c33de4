/* Unit tests of blockeq's host logic: the recip kernel's float split. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "blockeq/blockeq.h"

/* The C1060 report's [C1060Report] 512x512 float case: k2 = 8 tiles per row, 512 tiles. */
static void recip_report_size(void **state)
{
    (void)state;
    float r = clb_blockeq_one_over(8);
    assert_true(r > 0.125f);
    assert_int_equal(clb_blockeq_recip_check(8, 512, r), -1);
}

/* 8192x8192: float 128 x 1024 tiles, double 256 x 512: both exact. */
static void recip_default_size(void **state)
{
    (void)state;
    assert_int_equal(clb_blockeq_recip_check(128, 128 * 1024, clb_blockeq_one_over(128)), -1);
    assert_int_equal(clb_blockeq_recip_check(256, 256 * 512, clb_blockeq_one_over(256)), -1);
}

/* 32768x32768 float: k2 = 512, 4096 tile rows. The 1e-6 margin pushes the
 * last tiles of a row into the next once gbid * 1e-6 / k2 outgrows 1 / k2. */
static void recip_fails_when_large(void **state)
{
    (void)state;
    long bad = clb_blockeq_recip_check(512, 512 * 4096, clb_blockeq_one_over(512));
    assert_true(bad > 0);
    assert_int_equal(bad % 512, 511); /* the last tile of its row */
    /* Without the margin the split falls one row short at exact multiples
     * of k2 = 41: float(1/41) rounds down and 41 * it to 0.99999994. The
     * report's (1 + 1e-6) fixes that. */
    assert_int_equal(clb_blockeq_recip_check(41, 410, 1.0f / 41.0f), 41);
    assert_int_equal(clb_blockeq_recip_check(41, 410, clb_blockeq_one_over(41)), -1);
}

static void recip_too_many_tiles(void **state)
{
    (void)state;
    assert_int_equal(clb_blockeq_recip_check(1, (1u << 24) + 1, 1.0f), 1L << 24);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(recip_report_size),  cmocka_unit_test(recip_default_size),
        cmocka_unit_test(recip_fails_when_large), cmocka_unit_test(recip_too_many_tiles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

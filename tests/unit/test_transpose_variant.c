/* The syntax of transpose's `best` variants: every accepted string reads
 * back as itself (the name a row's params carry), the fields of the new
 * suffixes (dK, pP, orders, nt), and the refusals. The CLI test checks what
 * the device then makes of them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "transpose/transpose.h"

static void test_round_trip(void **state)
{
    (void)state;
    static const char *const ok[] = {
        /* the forms before the order, down and persistent suffixes */
        "32x8v1", "64x16v4", "64x4v4l", "64x4v4k2", "32x4v2k4", "64x8v4k8", "r4g8x32",
        "r2g4x64", "rect128x32v4w256", "rect64x8v1w64",
        /* the new ones, alone and composed */
        "64x8v4oR", "64x8v4oC", "64x8v4oD", "64x8v4oS1", "64x8v4oS32", "64x8v4oS4096",
        "64x8v4d2", "32x8v2d16", "64x8v4p1", "64x8v4p64", "64x4v4loC", "64x4v4k2oD",
        "32x8v4d4oC", "64x8v4p4oS32", "64x8v4nt", "64x8v4oCnt", "64x8v4p4nt", "64x8v4d4oS8nt",
        "64x4v4lnt", NULL};
    for (int i = 0; ok[i]; i++) {
        struct clb_tr_variant v;
        char name[48];
        assert_int_equal(clb_tr_parse_variant(ok[i], &v), 0);
        clb_tr_variant_name(&v, name, sizeof name);
        assert_string_equal(name, ok[i]);
    }
}

static void test_fields(void **state)
{
    (void)state;
    struct clb_tr_variant v;
    assert_int_equal(clb_tr_parse_variant("32x8v2d4oS16nt", &v), 0);
    assert_int_equal(v.bt, 32);
    assert_int_equal(v.br, 8);
    assert_int_equal(v.bv, 2);
    assert_int_equal(v.bd, 4);
    assert_int_equal(v.bk, 0);
    assert_int_equal(v.bp, 0);
    assert_int_equal(v.ord, 1 + CLB_TR_BANDS);
    assert_int_equal(v.osk, 16);
    assert_int_equal(v.nt, 1);
    assert_true(clb_tr_linear_grid(&v));

    assert_int_equal(clb_tr_parse_variant("64x8v4p4oD", &v), 0);
    assert_int_equal(v.bp, 4);
    assert_int_equal(v.ord, 1 + CLB_TR_DIAG);
    assert_int_equal(v.nt, 0);
    assert_true(clb_tr_linear_grid(&v));

    assert_int_equal(clb_tr_parse_variant("64x4v4loC", &v), 0);
    assert_int_equal(v.bk, 1);
    assert_int_equal(v.ord, 1 + CLB_TR_COLS);

    /* the plain forms keep their 2-D grids, nt included */
    const char *plain[] = {"64x8v4", "64x8v4nt", "64x4v4k2", "64x4v4l", "r4g8x32",
                           "rect128x32v4w256", NULL};
    for (int i = 0; plain[i]; i++) {
        assert_int_equal(clb_tr_parse_variant(plain[i], &v), 0);
        assert_false(clb_tr_linear_grid(&v));
    }
    assert_false(clb_tr_linear_grid(NULL));
}

static void test_refused(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "", "fast", "64x8", "64x8v3", "64x7v4", "64x8v4x", "64x4v4lk2", "64x4v4k1", "64x4v4k9",
        "64x8v4o", "64x8v4oX", "64x8v4oc", "64x8v4oS", "64x8v4oS0", "64x8v4oS4097",
        "64x8v4oS-2", "64x8v4d", "64x8v4d1", "64x8v4d17", "64x8v4d+4", "64x8v4p0",
        "64x8v4p65", "64x8v4ntoC", "64x8v4d2k2", "64x8v4k2d2", "64x8v4d2p2", "64x8v4oCl",
        "64x8v4oCoD", "64x8v4nt2", "64x8v4ntnt", "64x8v4n", "r4g8x32oC", "r4g8x32nt",
        "rect128x32v4w256oC", "rect128x30v4w256", NULL};
    for (int i = 0; bad[i]; i++) {
        struct clb_tr_variant v;
        if (clb_tr_parse_variant(bad[i], &v) == 0)
            fail_msg("accepted '%s'", bad[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_fields),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

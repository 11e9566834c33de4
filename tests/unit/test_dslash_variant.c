/* dslash's kernel variants (host/workloads/dslash/dslash_variant.c): which
 * regcache k and reg passes a rhs gets, and what best= names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "dslash/dslash.h"

static void regcache_ks(void **state)
{
    (void)state;
    int out[DSL_MAX_RHS];
    assert_int_equal(lat_regcache_ks(NULL, 0, 1, out), 0);
    assert_int_equal(lat_regcache_ks(NULL, 0, 2, out), 0); /* k=1 is cache, k=2 is reg */
    assert_int_equal(lat_regcache_ks(NULL, 0, 7, out), 0);
    assert_int_equal(lat_regcache_ks(NULL, 0, 8, out), 2);
    assert_int_equal(out[0], 2);
    assert_int_equal(out[1], 4);
    assert_int_equal(lat_regcache_ks(NULL, 0, 6, out), 2);
    assert_int_equal(out[1], 3);
    const long ks[] = {4, 3, 8, 1, 4};
    assert_int_equal(lat_regcache_ks(ks, 5, 8, out), 1); /* 3 does not divide, 8 and 1 are not regcache */
    assert_int_equal(out[0], 4);
    assert_int_equal(lat_regcache_ks(ks, 5, 4, out), 0);
}

static void reg_passes(void **state)
{
    (void)state;
    assert_int_equal(dsl_divisor_upto(8, 4), 4);
    assert_int_equal(dsl_divisor_upto(6, 4), 3);
    assert_int_equal(dsl_divisor_upto(7, 6), 1);
    assert_int_equal(dsl_divisor_upto(3, 8), 3);
    assert_int_equal(dsl_divisor_upto(5, 1), 1);
    int out[DSL_MAX_RHS + 1];
    const long p[] = {0, 8, 4, 5, 2};
    /* at rhs 8: automatic, one pass, 4, 4 again (5 -> 4), 2 */
    assert_int_equal(dsl_reg_passes(p, 5, 8, out), 4);
    assert_int_equal(out[0], 0);
    assert_int_equal(out[1], 8);
    assert_int_equal(out[2], 4);
    assert_int_equal(out[3], 2);
    /* at rhs 1 every explicit value is one pass */
    assert_int_equal(dsl_reg_passes(p + 1, 4, 1, out), 1);
    assert_int_equal(out[0], 1);
}

static void best_spec(void **state)
{
    (void)state;
    int kind, k;
    assert_int_equal(dsl_best_for("", 4, &kind, &k), CLB_OK);
    assert_int_equal(kind, -1);
    assert_int_equal(dsl_best_for("cache", 4, &kind, &k), CLB_OK);
    assert_int_equal(kind, DSL_CACHE);
    const char *spec = "1:reg,8:regcache4,cache";
    assert_int_equal(dsl_best_for(spec, 8, &kind, &k), CLB_OK);
    assert_int_equal(kind, DSL_REGCACHE);
    assert_int_equal(k, 4);
    assert_int_equal(dsl_best_for(spec, 1, &kind, &k), CLB_OK);
    assert_int_equal(kind, DSL_REG);
    assert_int_equal(dsl_best_for(spec, 4, &kind, &k), CLB_OK); /* the entry without R */
    assert_int_equal(kind, DSL_CACHE);
    assert_int_equal(dsl_best_for("2:reg", 4, &kind, &k), CLB_OK); /* nothing for 4: probe */
    assert_int_equal(kind, -1);
    const char *bad[] = {"fast", "regcache", "regcache9", "regcache0", "9:reg", "0:reg", ":reg",
                         "12:reg", "reg,", "reg,,cache", "4:", "4:regcache44", "reg4"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(dsl_best_for(bad[i], 4, &kind, &k), CLB_EUSAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(regcache_ks),
        cmocka_unit_test(reg_passes),
        cmocka_unit_test(best_spec),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

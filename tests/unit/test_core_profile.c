/* Profiles: parsing with inih, refusals with file:line, matching, generic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clb_cl.h"
#include "clb_profile.h"
#include "clbench.h"

#define DATA CLB_TEST_DATA "/core/"

static void parses_good(void **state)
{
    (void)state;
    struct clb_profile p;
    assert_int_equal(clb_profile_parse_file(DATA "good.ini", &p), CLB_OK);
    assert_string_equal(p.id, "good");
    assert_string_equal(p.name, "Test GPU");
    assert_float_equal(p.peak_bandwidth_gbs, 100.5, 0);
    assert_float_equal(p.partitions, 8, 0);
    assert_true(isnan(p.peak_gflops_sp)); /* unknown stays unknown */
    assert_string_equal(clb_profile_tuning(&p, "stream", "vec"), "4");
    assert_string_equal(clb_profile_tuning(&p, "copy2d", "tile"), "32x8");
    assert_null(clb_profile_tuning(&p, "stream", "tile"));
    assert_null(clb_profile_tuning(&p, "str", "vec"));
    assert_string_equal(clb_profile_model(&p, "index_cycles"), "36");
    clb_profile_free(&p);
}

static void refuse(const char *file, const char *what)
{
    struct clb_profile p;
    assert_int_equal(clb_profile_parse_file(file, &p), CLB_EUSAGE);
    const char *msg = clb_lasterr();
    assert_non_null(strstr(msg, file));
    if (!strstr(msg, what))
        fail_msg("'%s' does not mention '%s'", msg, what);
}

static void refuses_bad(void **state)
{
    (void)state;
    refuse(DATA "bad_key.ini", ":4: unknown key 'warp_size'");
    refuse(DATA "bad_num.ini", ":4: peak_bandwidth_gbs = 'fast' is not a non-negative number");
    refuse(DATA "no_device.ini", "no [device]");
    refuse(DATA "bad_section.ini", ":4: unknown section [gpu]");
    refuse(DATA "bad_tuning.ini", ":4: tuning key 'vec'");
    refuse(DATA "missing.ini", "cannot read");
    struct clb_profiles ps;
    assert_int_equal(clb_profiles_load(DATA "dup", &ps), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "duplicate profile name 'Same'"));
    assert_int_equal(clb_profiles_load(DATA "nonexistent", &ps), CLB_EUSAGE);
}

static struct clb_devinfo dev(const char *name, const char *platform, unsigned cus)
{
    struct clb_devinfo d;
    memset(&d, 0, sizeof d);
    strcpy(d.name, name);
    strcpy(d.platform_name, platform);
    d.compute_units = cus;
    d.global_mem = 1ull << 32;
    d.cache_size = 1 << 20;
    return d;
}

static void matches_shipped(void **state)
{
    (void)state;
    struct clb_profiles ps;
    assert_int_equal(clb_profiles_load(getenv("CLBENCH_PLATFORMS"), &ps), CLB_OK);
    struct clb_devinfo d = dev("NVIDIA H100 80GB HBM3", "NVIDIA CUDA", 132);
    const struct clb_profile *p = clb_profiles_match(&ps, &d);
    assert_non_null(p);
    assert_string_equal(p->id, "h100_sxm");
    assert_float_equal(p->peak_bandwidth_gbs, 3352, 0);
    d = dev("pthread-haswell-AMD EPYC", "Portable Computing Language", 2);
    assert_string_equal(clb_profiles_match(&ps, &d)->id, "pocl_cpu");
    d = dev("cpu-skylake-avx512-Intel(R) Xeon(R)", "Portable Computing Language", 16);
    assert_string_equal(clb_profiles_match(&ps, &d)->id, "pocl_cpu");
    d = dev("cpu-x86", "Some Other CL", 16); /* PoCL's name, another platform */
    assert_null(clb_profiles_match(&ps, &d));
    d = dev("Radeon RX 7900", "AMD APP", 48);
    assert_null(clb_profiles_match(&ps, &d));
    assert_non_null(clb_profiles_find(&ps, "h200"));
    assert_null(clb_profiles_find(&ps, "nope"));

    struct clb_profile g;
    clb_profile_generic(&g, &d);
    assert_string_equal(g.id, "generic");
    assert_string_equal(g.name, "Radeon RX 7900");
    assert_float_equal(g.compute_units, 48, 0);
    assert_true(isnan(g.peak_bandwidth_gbs)); /* never invented */
    assert_true(isnan(clb_profile_peak_gflops(&g, "double")));
    clb_profile_free(&g);
    clb_profiles_free(&ps);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(parses_good), cmocka_unit_test(refuses_bad),
                                       cmocka_unit_test(matches_shipped)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Shipped profiles: every one loads with its figures, devices match the
 * right one by name, platform, compute units and clock; malformed profiles
 * are refused with file:line: reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "clb_cl.h"
#include "clb_profile.h"
#include "clbench.h"

static struct clb_profiles shipped;

static int load(void **state)
{
    (void)state;
    return clb_profiles_load(clb_profiles_dir(NULL), &shipped) == CLB_OK ? 0 : -1;
}

static int unload(void **state)
{
    (void)state;
    clb_profiles_free(&shipped);
    return 0;
}

static const char *match(const char *name, const char *platform, unsigned cus, unsigned mhz)
{
    struct clb_devinfo d;
    memset(&d, 0, sizeof d);
    clb_strlcpy(d.name, name, sizeof d.name);
    clb_strlcpy(d.platform_name, platform, sizeof d.platform_name);
    d.compute_units = cus;
    d.clock_mhz = mhz;
    const struct clb_profile *p = clb_profiles_match(&shipped, &d);
    return p ? p->id : "generic";
}

static void shipped_figures(void **state)
{
    (void)state;
    static const struct { const char *id; double bw, sp, dp; } want[] = {
        {"tesla_c1060", 102.4, 933, 78},     {"tesla_k20", 208, 3520, 1170},
        {"tesla_k20x", 250, 3950, 1310},     {"tesla_k40", 288, 4290, 1430},
        {"xeon_phi_5110p", 320, 2022, 1011}, {"xeon_phi_7120p", 352, 2416, 1208},
        {"h100_sxm", 3352, 66900, 33500},    {"h200", 4800, 66900, 33500},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const struct clb_profile *p = clb_profiles_find(&shipped, want[i].id);
        assert_non_null(p);
        assert_true(p->peak_bandwidth_gbs == want[i].bw);
        assert_true(p->peak_gflops_sp == want[i].sp);
        assert_true(p->peak_gflops_dp == want[i].dp);
        assert_false(isnan(p->compute_units) || isnan(p->core_clock_mhz) || isnan(p->tdp_w));
        /* The peak follows from the memory clock and bus width, within 1%. */
        double calc = p->memory_clock_mhz * 2 * p->bus_width_bits / 8 / 1000;
        if (!isnan(calc))
            assert_true(fabs(calc - p->peak_bandwidth_gbs) / p->peak_bandwidth_gbs < 0.01);
    }
    /* PoCL claims no peaks: they come from nowhere on a CPU. */
    const struct clb_profile *pocl = clb_profiles_find(&shipped, "pocl_cpu");
    assert_non_null(pocl);
    assert_true(isnan(pocl->peak_bandwidth_gbs));
    /* The model figures the models read. */
    const struct clb_profile *c = clb_profiles_find(&shipped, "tesla_c1060");
    assert_string_equal(clb_profile_model(c, "blockeq.index_cycles"), "36");
    assert_string_equal(clb_profile_model(c, "blockeq.transfer_cycles"), "1.625");
    assert_string_equal(clb_profile_tuning(c, "blockeq", "partitions", NULL), "1,2,4,8,16,30,32");
    assert_string_equal(clb_profile_model(clb_profiles_find(&shipped, "tesla_k20"),
                                          "stream_triad_gbs"), "151.7");
}

static void matching(void **state)
{
    (void)state;
    assert_string_equal(match("Tesla K20c", "NVIDIA CUDA", 13, 705), "tesla_k20");
    assert_string_equal(match("Tesla K20m", "NVIDIA CUDA", 13, 705), "tesla_k20");
    assert_string_equal(match("Tesla K20Xm", "NVIDIA CUDA", 14, 732), "tesla_k20x");
    assert_string_equal(match("Tesla K40m", "NVIDIA CUDA", 15, 745), "tesla_k40");
    assert_string_equal(match("Tesla K40c", "NVIDIA CUDA", 15, 875), "tesla_k40");
    assert_string_equal(match("Tesla C1060", "NVIDIA CUDA", 30, 1296), "tesla_c1060");
    assert_string_equal(match("NVIDIA H100 80GB HBM3", "NVIDIA CUDA", 132, 1980), "h100_sxm");
    assert_string_equal(match("NVIDIA H200", "NVIDIA CUDA", 132, 1980), "h200");
    assert_string_equal(match("pthread-haswell-AMD EPYC 7B13 64-Core Processor",
                              "Portable Computing Language", 2, 2450), "pocl_cpu");
    assert_string_equal(match("cpu-haswell-AMD EPYC 7B13 64-Core Processor",
                              "Portable Computing Language", 16, 3000), "pocl_cpu");
    /* A "cpu-" name on another platform is not PoCL. */
    assert_string_equal(match("cpu-haswell-x", "Intel(R) OpenCL", 16, 3000), "generic");
    assert_string_equal(match("Tesla V100-SXM2-16GB", "NVIDIA CUDA", 80, 1530), "generic");
}

/* Every Xeon Phi card reports the same name: compute units and clock decide. */
static void xeon_phi(void **state)
{
    (void)state;
    const char *name = "Intel(R) Many Integrated Core Acceleration Card";
    const char *plat = "Intel(R) OpenCL";
    assert_string_equal(match(name, plat, 236, 1052), "xeon_phi_5110p");
    assert_string_equal(match(name, plat, 240, 1238), "xeon_phi_7120p");
    assert_string_equal(match(name, plat, 240, 1100), "generic");   /* SE10P */
    assert_string_equal(match(name, plat, 236, 1238), "generic");
    assert_string_equal(match(name, plat, 224, 1100), "generic");   /* 3120 */
}

static void refused(const char *file, const char *reason)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/profiles_bad/%s", CLB_TEST_DATA, file);
    struct clb_profile p;
    assert_int_equal(clb_profile_parse_file(path, &p), CLB_EUSAGE);
    const char *e = clb_lasterr();
    if (!strstr(e, path) || !strstr(e, reason))
        fail_msg("%s: message '%s' lacks the path or '%s'", file, e, reason);
}

static void malformed(void **state)
{
    (void)state;
    refused("no_device.ini", "no [device] section");
    refused("nonnumeric.ini", ":3: peak_bandwidth_gbs = 'fast' is not a number in 0.001..1e+07");
    refused("unknown_key.ini", ":3: unknown key 'peak_bandwith_gbs' in [device]");
    refused("unknown_section.ini", ":4: unknown section [memmory]");
    refused("bad_tuning.ini", ":4: tuning key 'tile' must be <workload>.<parameter>");
    struct clb_profiles ps;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/profiles_dup", CLB_TEST_DATA);
    assert_int_equal(clb_profiles_load(dir, &ps), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "duplicate profile name 'same device'"));
    assert_non_null(strstr(clb_lasterr(), "b.ini"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shipped_figures),
        cmocka_unit_test(matching),
        cmocka_unit_test(xeon_phi),
        cmocka_unit_test(malformed),
    };
    return cmocka_run_group_tests(tests, load, unload);
}

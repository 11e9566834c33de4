/* The default size rule (host/core/sizes.c): sizes above the cache-resident
 * threshold (4 x the last-level cache) whenever the device's memory allows,
 * and one line saying why not where they stay below it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

/* A device: type, cache, memory and largest buffer (bytes); 64 compute
 * units (a cap of 1 GiB of cache: none of these caches is cut). */
static struct clb_devinfo device(const char *type, double cache, double mem, double alloc)
{
    struct clb_devinfo d;
    memset(&d, 0, sizeof d);
    d.type_name = type;
    d.compute_units = 64;
    d.cache_type = "read-write";
    d.cache_size = (cl_ulong)cache;
    d.global_mem = (cl_ulong)mem;
    d.max_alloc = (cl_ulong)alloc;
    return d;
}

/* The rule's sizes for a workload and type on a device (l2_kb: the
 * profile's, NAN for none); *why gets the note, if any. */
static char *sizes(const char *wl, const char *dtype, const struct clb_devinfo *d, double l2_kb,
                   int quick, struct clb_buf *why)
{
    struct clb_profile p;
    memset(&p, 0, sizeof p);
    p.l2_kb = l2_kb;
    p.partitions = p.partition_width_bytes = NAN;
    struct clb_env env = {NULL, d, &p, clb_workload_find(wl), NULL, quick, dtype, NULL};
    assert_non_null(env.wl);
    char *s = clb_default_sizes(&env, dtype, why);
    assert_non_null(s);
    return s;
}

/* A CPU with a 315 MB last-level cache, 3.7 GB of memory, buffers of
 * at most 1.07 GB. transpose's default used to be 4096^2 (128 MiB, cache
 * resident); now the largest the memory allows, with the reason it stays
 * below 4 x the cache. */
static void big_cache_cpu(void **state)
{
    (void)state;
    struct clb_devinfo d = device("cpu", 314572800, 3.7e9, 1.07e9);
    struct clb_buf why = {0};
    char *s = sizes("transpose", "float", &d, NAN, 0, &why);
    assert_string_equal(s, "8192x8192");
    assert_non_null(strstr(clb_buf_str(&why), "note: transpose float: default size 8192x8192"));
    assert_non_null(strstr(clb_buf_str(&why), "the next size, 16384x16384, needs a 1.07 GB buffer"));
    assert_non_null(strstr(clb_buf_str(&why), "CL_DEVICE_MAX_MEM_ALLOC_SIZE"));
    free(s);
    clb_buf_free(&why);
    /* larger buffers allowed: half the memory stops 16384^2 (2.1 GB) */
    d = device("cpu", 314572800, 3.7e9, 3e9);
    s = sizes("transpose", "float", &d, NAN, 0, &why);
    assert_string_equal(s, "8192x8192");
    assert_non_null(strstr(clb_buf_str(&why), "above half the device's memory (1.85 GB)"));
    free(s);
    clb_buf_free(&why);
}

/* A CPU whose 32 MiB cache the rule clears: no note; a cap that keeps a size
 * below the threshold (blockeq's, for run time on CPUs) is named. */
static void small_cache_cpu(void **state)
{
    (void)state;
    struct clb_devinfo d = device("cpu", 33554432, 8e9, 2e9);
    struct clb_buf why = {0};
    char *s = sizes("transpose", "float", &d, NAN, 0, &why);
    assert_string_equal(s, "4096x4096");
    assert_int_equal(why.len, 0);
    free(s);
    s = sizes("blockeq", "double", &d, NAN, 0, &why);
    assert_string_equal(s, "2048x2048");
    assert_non_null(strstr(clb_buf_str(&why), "the next size, 4096x4096"));
    assert_non_null(strstr(clb_buf_str(&why), "cap for this device type (run time)"));
    free(s);
    clb_buf_free(&why);
}

/* A GPU with the profile's 50 MB L2: the study's size first (cache-resident
 * by choice, no note), then the rule's above the threshold; --quick and a
 * device too small for the threshold. */
static void gpu_and_limits(void **state)
{
    (void)state;
    struct clb_devinfo d = device("gpu", 4325376, 85e9, 21e9);
    struct clb_buf why = {0};
    char *s = sizes("transpose", "float", &d, 51200, 0, &why);
    assert_string_equal(s, "2048x2048,8192x8192");
    assert_int_equal(why.len, 0);
    free(s);
    s = sizes("transpose", "float", &d, 51200, 1, &why);
    assert_string_equal(s, "256x256");
    free(s);
    struct clb_devinfo small = device("gpu", 4325376, 512e6, 128e6);
    s = sizes("stream", "float", &small, 51200, 0, &why);
    assert_non_null(strstr(clb_buf_str(&why), "note: stream float: default size "));
    assert_non_null(strstr(clb_buf_str(&why), "CL_DEVICE_MAX_MEM_ALLOC_SIZE"));
    free(s);
    clb_buf_free(&why);
}

/* The env of sizes() for clb_llc_from. */
static const char *llc_from(const struct clb_devinfo *d, double l2_kb)
{
    static struct clb_profile p;
    memset(&p, 0, sizeof p);
    p.l2_kb = l2_kb;
    struct clb_env env = {NULL, d, &p, clb_workload_find("stream"), NULL, 0, "", NULL};
    return clb_llc_from(&env);
}

/* A 2-vCPU guest whose OpenCL cache is its host's 260 MiB L3: the rule sizes
 * against 16 MiB per compute unit (32 MiB), as on a 32 MiB machine, and says
 * so (llc_from); with 32 units the reported 260 MiB stands. A GPU's L2 (the
 * H100 profile's 50 MB, 132 units) is never capped: its sizes stay. */
static void cache_per_unit(void **state)
{
    (void)state;
    struct clb_devinfo d = device("cpu", 272629760, 10.8e9, 4.29e9);
    d.compute_units = 2;
    struct clb_buf why = {0};
    char *s = sizes("transpose", "float", &d, NAN, 0, &why);
    assert_string_equal(s, "4096x4096");
    assert_int_equal(why.len, 0);
    assert_string_equal(llc_from(&d, NAN), "unit_cap");
    free(s);
    s = sizes("stream", "float", &d, NAN, 0, &why);
    assert_string_equal(s, "33554432"); /* 3 x 128 MiB >= 12 x 32 MiB */
    free(s);
    d.compute_units = 32;
    s = sizes("transpose", "float", &d, NAN, 0, &why);
    assert_string_equal(s, "16384x16384"); /* 2 GiB >= 4 x 260 MiB */
    assert_string_equal(llc_from(&d, NAN), "reported");
    free(s);
    clb_buf_free(&why);
}

/* The H100's and the H200's default sizes as the committed suites ran them
 * (results/runs/2026-11-23/h100-suite-*.csv, h200-suite-*.csv: their list -v,
 * 132 units, 4.3 MB reported, the profiles' 50 and 60 MB L2), the
 * profile's [tuning] sizes aside: the cap per unit changes none. */
static void gpu_sizes_unchanged(void **state)
{
    (void)state;
    static const struct {
        const char *wl, *dtype, *h100, *h200;
    } want[] = {
        {"stream", "float", "268435456", NULL}, {"stream", "double", "134217728", NULL},
        {"copy2d", "float", "16384x16384", "16384x16384"},
        {"copy2d", "double", "8192x8192", "8192x8192"},
        {"copy2d", "float4", "8192x8192", "8192x8192"},
        {"transpose", "float", "2048x2048,8192x8192", "2048x2048,8192x8192"},
        {"dot", "float", "268435456", NULL}, {"dot", "double", "268435456", NULL},
        {"latency", "", "536870912", "536870912"},
        {"roofline", "float", "134217728", "134217728"},
        {"roofline", "double", "67108864", "67108864"},
        {"camping", "float", "67108864", "67108864"},
        {"blockeq", "float", "8192x8192", NULL}, {"blockeq", "double", "8192x8192", "8192x8192"},
        {"dslash", "float", "64x64x64x16", "64x64x64x16"},
        {"cg", "float", "64x64x64x16", "64x64x64x16"}, {"cg", "double", "48x48x48x12", "48x48x48x12"},
        {"matmul", "float", "5120", "5120"}, {"stride", "float", "268435399", "268435399"},
    };
    struct clb_devinfo h100 = device("gpu", 4.3e6, 85.02e9, 21.25e9);
    struct clb_devinfo h200 = device("gpu", 4.3e6, 150.11e9, 37.53e9);
    h100.compute_units = h200.compute_units = 132;
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        char *s = sizes(want[i].wl, want[i].dtype, &h100, 51200, 0, NULL);
        assert_string_equal(s, want[i].h100);
        free(s);
        if (!want[i].h200)
            continue; /* the H200 profile's [tuning] sizes */
        s = sizes(want[i].wl, want[i].dtype, &h200, 61440, 0, NULL);
        assert_string_equal(s, want[i].h200);
        free(s);
    }
    assert_string_equal(llc_from(&h100, 51200), "profile");
}

/* --budget's two helpers: the next smaller size of a ladder (none below the
 * first, none for a sweep), and an estimate that grows with the size and the
 * cases and follows the timing options. */
static void budget_helpers(void **state)
{
    (void)state;
    struct clb_devinfo d = device("cpu", 33554432, 8e9, 2e9);
    d.compute_units = 2;
    struct clb_profile p;
    memset(&p, 0, sizeof p);
    p.l2_kb = p.peak_bandwidth_gbs = NAN;
    struct clb_env env = {NULL, &d, &p, clb_workload_find("transpose"), NULL, 0, "float", NULL};
    struct clb_size sz;
    char err[256], below[160];
    assert_int_equal(clb_parse_dims("4096x4096", 2, &sz, err, sizeof err), 0);
    assert_int_equal(clb_size_below(&env, "float", &sz, below, sizeof below), 1);
    assert_string_equal(below, "2048x2048");
    struct clb_run_opts o;
    memset(&o, 0, sizeof o);
    o.reps = 20, o.warmup = 3, o.min_reps = 3, o.max_time = 1;
    struct clb_counts c;
    assert_int_equal(clb_count_group(env.wl, "float", &sz, NULL, &c), CLB_OK);
    double big = clb_estimate_group(&env, &c, 11, &o);
    assert_int_equal(clb_parse_dims(below, 2, &sz, err, sizeof err), 0);
    assert_int_equal(clb_count_group(env.wl, "float", &sz, NULL, &c), CLB_OK);
    double small = clb_estimate_group(&env, &c, 11, &o);
    assert_true(big > small && small > 0);
    assert_true(clb_estimate_group(&env, &c, 22, &o) > small);
    o.max_time = 0.01; /* fewer timed runs: --max-time stops them (after --min-reps) */
    assert_true(clb_estimate_group(&env, &c, 11, &o) < small);
    assert_int_equal(clb_parse_dims("64x64", 2, &sz, err, sizeof err), 0);
    assert_int_equal(clb_size_below(&env, "float", &sz, below, sizeof below), 0);
    env.wl = clb_workload_find("bus"); /* a sweep: its ladder is its sizes */
    assert_int_equal(clb_parse_dims("268435456", 1, &sz, err, sizeof err), 0);
    assert_int_equal(clb_size_below(&env, "", &sz, below, sizeof below), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(big_cache_cpu),
        cmocka_unit_test(cache_per_unit),
        cmocka_unit_test(gpu_sizes_unchanged),
        cmocka_unit_test(budget_helpers),
        cmocka_unit_test(small_cache_cpu),
        cmocka_unit_test(gpu_and_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

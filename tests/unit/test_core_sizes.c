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

/* A device: type, cache, memory and largest buffer (bytes). */
static struct clb_devinfo device(const char *type, double cache, double mem, double alloc)
{
    struct clb_devinfo d;
    memset(&d, 0, sizeof d);
    d.type_name = type;
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
    struct clb_env env = {NULL, d, &p, clb_workload_find(wl), NULL, quick, dtype};
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(big_cache_cpu),
        cmocka_unit_test(small_cache_cpu),
        cmocka_unit_test(gpu_and_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Host logic of the latency workload: Sattolo's cycle, its order (the
 * position the check expects), and the plateaus the summary and --ceilings
 * name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clb_workload.h"
#include "latency/latency.h"

/* One cycle through every element, for small, odd and large n, and the
 * order walks it. */
static void sattolo_one_cycle(void **state)
{
    (void)state;
    const size_t sizes[] = {2, 3, 5, 64, 1000, 65537, 1u << 20};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        size_t n = sizes[s];
        uint32_t *next = malloc(n * sizeof *next), *ord = malloc(n * sizeof *ord);
        char *seen = calloc(n, 1);
        assert_true(next && ord && seen);
        clb_sattolo(next, n, 42 + s);
        for (size_t i = 0; i < n; i++)
            assert_true(next[i] != i && next[i] < n); /* no fixed point */
        assert_int_equal(clb_cycle_order(next, n, 1, ord), 0);
        assert_int_equal(ord[0], 0);
        for (size_t k = 0; k < n; k++) {
            assert_false(seen[ord[k]]);
            seen[ord[k]] = 1;
            if (k + 1 < n)
                assert_int_equal(next[ord[k]], ord[k + 1]);
        }
        assert_int_equal(next[ord[n - 1]], 0);
        free(next);
        free(ord);
        free(seen);
    }
}

/* Sattolo draws each of the (n-1)! cycles alike: for n = 3 both cycles come
 * up about half the time; different seeds give different cycles. */
static void sattolo_uniform(void **state)
{
    (void)state;
    int count = 0;
    for (unsigned long long seed = 1; seed <= 2000; seed++) {
        uint32_t next[3];
        clb_sattolo(next, 3, seed);
        count += next[0] == 1; /* 0 -> 1 -> 2 -> 0, else 0 -> 2 -> 1 -> 0 */
    }
    assert_true(count > 850 && count < 1150);
    uint32_t a[100], b[100];
    clb_sattolo(a, 100, 1);
    clb_sattolo(b, 100, 2);
    assert_true(memcmp(a, b, sizeof a) != 0);
}

/* Not one cycle: two cycles, an element out of range, a fixed point. And
 * the chain layout (element i at word i*w holds the next's word index). */
static void cycle_order_checks(void **state)
{
    (void)state;
    uint32_t two[4] = {1, 0, 3, 2}, out[4] = {2, 4, 0, 1}, fixed[3] = {0, 2, 1};
    uint32_t ord[4];
    assert_int_equal(clb_cycle_order(two, 4, 1, ord), -1);
    assert_int_equal(clb_cycle_order(out, 4, 1, ord), -1);
    assert_int_equal(clb_cycle_order(fixed, 3, 1, ord), -1);
    /* 0 -> 2 -> 1 -> 0 stored every 16 words (a 64-byte stride) */
    uint32_t words[48] = {0};
    words[0] = 2 * 16;
    words[2 * 16] = 1 * 16;
    words[1 * 16] = 0;
    assert_int_equal(clb_cycle_order(words, 3, 16, ord), 0);
    assert_int_equal(ord[0], 0);
    assert_int_equal(ord[1], 2);
    assert_int_equal(ord[2], 1);
    words[1 * 16] = 5; /* not a multiple of the stride */
    assert_int_equal(clb_cycle_order(words, 3, 16, ord), -1);
}

/* A sweep with two steps inside the caches, a lone transition, memory above
 * the LLC; noise within 15 % stays in its plateau. A step is a plateau, never
 * a cache level ("L1", "L2", ... are named only from what the device
 * reports: clb_level_step). */
static void plateaus_named(void **state)
{
    (void)state;
    const double ws[] = {1024, 2048, 4096, 8192, 65536, 131072, 262144, 1048576,
                         4194304, 16777216, 67108864, 134217728, 268435456};
    const double lat[] = {30, 31, 29, 33, 80, 85, 82, 160, 250, 255, 600, 640, 590};
    struct clb_plateau p[13];
    int n = clb_plateaus(ws, lat, 13, 0.15, 50e6, p);
    assert_int_equal(n, 5);
    assert_string_equal(p[0].name, "plateau");
    assert_int_equal(p[0].first, 0);
    assert_int_equal(p[0].last, 3);
    assert_true(fabs(p[0].mean - 30.75) < 1e-9);
    assert_string_equal(p[1].name, "plateau");
    assert_int_equal(p[1].last, 6);
    assert_string_equal(p[2].name, "transition");
    assert_int_equal(p[2].first, 7);
    assert_string_equal(p[3].name, "plateau");
    assert_int_equal(p[3].first, 8);
    assert_int_equal(p[3].last, 9);
    assert_string_equal(p[4].name, "memory");
    assert_int_equal(p[4].first, 10);
    assert_int_equal(p[4].last, 12);
    assert_true(fabs(p[4].mean - 610) < 1e-9);
    /* a sweep that ends inside the caches has no memory plateau */
    n = clb_plateaus(ws, lat, 10, 0.15, 50e6, p);
    assert_string_equal(p[n - 1].name, "plateau");
    /* one lone size above the LLC is memory; no cache at all: memory */
    n = clb_plateaus(ws, lat, 11, 0.15, 50e6, p);
    assert_string_equal(p[n - 1].name, "memory");
    assert_int_equal(p[n - 1].first, 10);
    n = clb_plateaus(ws + 10, lat + 10, 3, 0.15, 0, p);
    assert_int_equal(n, 1);
    assert_string_equal(p[0].name, "memory");
    /* past the LLC but not the end: a plateau, not a level */
    n = clb_plateaus(ws, lat, 13, 0.15, 1e6, p);
    assert_int_equal(n, 5);
    assert_string_equal(p[2].name, "transition");
    assert_string_equal(p[3].name, "plateau");
    assert_string_equal(p[4].name, "memory");
    /* a slow climb does not chain into one plateau: each step is measured
     * against the plateau's mean, not its neighbour */
    const double ramp[] = {10, 11, 12.1, 13.3, 14.6, 16.1, 17.7};
    n = clb_plateaus(ws, ramp, 7, 0.15, 1e12, p);
    assert_true(n >= 3);
    for (int i = 0; i < n; i++)
        assert_true(p[i].name[0] != 'L');
}

/* A reported level matches the rise that brackets its size, else the
 * nearest within a factor 2; a fall, or a rise far from it, matches none. */
static void level_steps(void **state)
{
    (void)state;
    const double ws[] = {1024, 2048, 4096, 8192, 65536, 131072, 262144, 1048576,
                         4194304, 16777216, 67108864, 134217728, 268435456};
    const double lat[] = {30, 31, 29, 33, 80, 85, 82, 160, 250, 255, 600, 640, 590};
    struct clb_plateau p[13];
    int n = clb_plateaus(ws, lat, 13, 0.15, 50e6, p);
    assert_int_equal(clb_level_step(ws, p, n, 32768), 0);      /* 8 KiB -> 64 KiB brackets it */
    assert_int_equal(clb_level_step(ws, p, n, 48e6), 3);       /* 16 MiB -> 64 MiB */
    assert_int_equal(clb_level_step(ws, p, n, 512 * 1024.0), 1); /* 256 KiB -> 1 MiB */
    assert_int_equal(clb_level_step(ws, p, n, 3e6), 2);        /* near 1 -> 4 MiB, not bracketed */
    assert_int_equal(clb_level_step(ws, p, n, 512), -1);       /* below the first size */
    assert_int_equal(clb_level_step(ws, p, n, 1e12), -1);      /* beyond the sweep */
    assert_int_equal(clb_level_step(ws, p, n, 0), -1);
    /* a fall in latency is no cache's edge */
    const double down[] = {30, 31, 29, 33, 10, 11, 10};
    n = clb_plateaus(ws, down, 7, 0.15, 1e12, p);
    assert_int_equal(clb_level_step(ws, p, n, 32768), -1);
}

/* The OS's cache hierarchy, from a sysfs-like directory full of bad
 * entries: only the well-formed data and unified caches come back. */
static void sysfs_levels(void **state)
{
    (void)state;
    struct clb_cache_level lv[16];
    int n = clb_sysfs_caches(CLB_TEST_DATA "/sysfs-cache", lv, 16);
    assert_int_equal(n, 3);
    double want[3] = {32768, 1048576, 33554432};
    const char *names[3] = {"L1d", "L2", "L3"};
    int seen = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            if (strcmp(lv[i].name, names[k]) == 0 && lv[i].bytes == want[k])
                seen |= 1 << k;
    assert_int_equal(seen, 7);
    assert_int_equal(clb_sysfs_caches(CLB_TEST_DATA "/no-such-dir", lv, 16), 0);
    assert_int_equal(clb_sysfs_caches(CLB_TEST_DATA "/sysfs-cache", lv, 1), 1);
    /* a CPU device: the OS's levels, sorted, the OpenCL one merged into the
     * level of its size; the profile's L2 too */
    struct clb_devinfo cpu = {.type_name = "cpu", .cache_size = 33554432,
                              .cache_type = "read-write"};
    n = clb_cache_levels_from(CLB_TEST_DATA "/sysfs-cache", &cpu, NULL, lv, 16);
    assert_int_equal(n, 3);
    assert_string_equal(lv[0].name, "L1d");
    assert_string_equal(lv[2].name, "L3");
    assert_non_null(strstr(lv[2].source, "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE"));
    /* a GPU: never the host's hierarchy; no cache ("none"): nothing */
    struct clb_devinfo gpu = {.type_name = "gpu", .cache_size = 4325376, .cache_type = "none"};
    assert_int_equal(clb_cache_levels_from(CLB_TEST_DATA "/sysfs-cache", &gpu, NULL, lv, 16), 0);
    assert_int_equal(clb_cache_levels_from(NULL, NULL, NULL, lv, 16), 0);
}

/* The committed GPU sweeps (results/runs/2026-11-23: the H100's suite-4, the
 * H200's suite-3, their latency rows as fixtures) summarised with what those
 * devices report: the driver's global memory cache (`clbench list` printed
 * 4.3 MB for the H100; the value only has to be one no step matches) and the
 * profile's L2. No level but a reported one is named: no "L1", no "L3". */
static char *summary_of(const char *file, const char *profile_id, double cache_bytes)
{
    struct clb_profiles ps = {0};
    assert_int_equal(clb_profiles_load(getenv("CLBENCH_PLATFORMS"), &ps), 0);
    const struct clb_profile *prof = clb_profiles_find(&ps, profile_id);
    assert_non_null(prof);
    struct clb_devinfo gpu = {.type_name = "gpu", .cache_size = (cl_ulong)cache_bytes,
                              .cache_type = "read-write"};
    struct clb_rowset rows = {0};
    assert_int_equal(clb_results_read(file, &rows), 0);
    assert_true(rows.n > 30);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    const struct clb_summary_ctx ctx = {&gpu, prof};
    clb_workload_find("latency")->summarize(&ctx, rows.v, rows.n, f);
    fclose(f);
    clb_rowset_free(&rows);
    clb_profiles_free(&ps);
    return text;
}

static void no_unreported_level(const char *text)
{
    for (int l = 0; l <= 9; l++) {
        char name[8];
        snprintf(name, sizeof name, "L%d", l);
        if (l != 2)
            assert_null(strstr(text, name));
    }
    assert_null(strstr(text, "beyond"));
}

static void committed_gpu_rows(void **state)
{
    (void)state;
    char *h100 = summary_of(CLB_TEST_DATA "/latency/h100-suite-4.csv", "h100_sxm", 4325376);
    no_unreported_level(h100);
    /* the 32..48 MiB plateau (the far half of the 50 MB L2) ends near the L2
     * size; the rise to memory follows it */
    assert_non_null(strstr(h100, "  plateau       32 MiB .. 48 MiB "));
    assert_non_null(strstr(h100, "ends near the L2 size"));
    assert_non_null(strstr(h100, "L2 50 MiB (profile l2_kb): the rise from 48 MiB to 64 MiB"));
    assert_non_null(strstr(h100, "global memory cache 4.12 MiB (CL_DEVICE_GLOBAL_MEM_CACHE_SIZE): "
                                 "no rise in latency within a factor 2 of its size"));
    assert_non_null(strstr(h100, "  memory        64 MiB .. 512 MiB"));
    free(h100);
    char *h200 = summary_of(CLB_TEST_DATA "/latency/h200-suite-3.csv", "h200", 4325376);
    no_unreported_level(h200);
    assert_non_null(strstr(h200, "L2 60 MiB (profile l2_kb): the rise from 48 MiB to 64 MiB"));
    free(h200);
}

/* The 2-core VM's committed PoCL sweep (its summary said L1 .. L4) against
 * that VM's OS hierarchy (the sysfs fixture: L1d 32 KiB, L2 1 MiB, L3 32 MiB):
 * the L3's size matches the rise to memory. */
static void committed_cpu_rows(void **state)
{
    (void)state;
    struct clb_rowset rows = {0};
    assert_int_equal(clb_results_read(CLB_TEST_DATA "/latency/pocl-2core-suite.csv", &rows), 0);
    int n = (int)rows.n;
    double ws[64], lat[64];
    assert_true(n > 30 && n <= 64);
    for (int i = 0; i < n; i++) { /* the file's rows are in sweep order */
        ws[i] = clb_row_param(&rows.v[i], "ws");
        lat[i] = clb_row_metric(&rows.v[i], "ns_per_load");
    }
    struct clb_plateau p[64];
    int np = clb_plateaus(ws, lat, n, 0.15, 33554432, p);
    for (int i = 0; i < np; i++)
        assert_true(p[i].name[0] != 'L');
    int s = clb_level_step(ws, p, np, 33554432);
    assert_true(s >= 0);
    assert_true(ws[p[s].last] == 33554432 && ws[p[s + 1].first] == 50331648);
    clb_rowset_free(&rows);
}

static void bytes_text(void **state)
{
    (void)state;
    char b[32];
    clb_bytes_text(1024, b, sizeof b);
    assert_string_equal(b, "1 KiB");
    clb_bytes_text(1536 * 1024, b, sizeof b);
    assert_string_equal(b, "1.5 MiB");
    clb_bytes_text(268435456, b, sizeof b);
    assert_string_equal(b, "256 MiB");
    clb_bytes_text(100, b, sizeof b);
    assert_string_equal(b, "100 B");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sattolo_one_cycle), cmocka_unit_test(sattolo_uniform),
        cmocka_unit_test(cycle_order_checks), cmocka_unit_test(plateaus_named),
        cmocka_unit_test(level_steps), cmocka_unit_test(sysfs_levels),
        cmocka_unit_test(committed_gpu_rows), cmocka_unit_test(committed_cpu_rows),
        cmocka_unit_test(bytes_text)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

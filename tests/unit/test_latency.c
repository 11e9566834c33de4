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

/* A sweep with two cache levels, a lone transition, memory above the LLC;
 * noise within 15 % stays in its plateau. */
static void plateaus_named(void **state)
{
    (void)state;
    const double ws[] = {1024, 2048, 4096, 8192, 65536, 131072, 262144, 1048576,
                         4194304, 16777216, 67108864, 134217728, 268435456};
    const double lat[] = {30, 31, 29, 33, 80, 85, 82, 160, 250, 255, 600, 640, 590};
    struct clb_plateau p[13];
    int n = clb_plateaus(ws, lat, 13, 0.15, 50e6, p);
    assert_int_equal(n, 5);
    assert_string_equal(p[0].name, "L1");
    assert_int_equal(p[0].first, 0);
    assert_int_equal(p[0].last, 3);
    assert_true(fabs(p[0].mean - 30.75) < 1e-9);
    assert_string_equal(p[1].name, "L2");
    assert_int_equal(p[1].last, 6);
    assert_string_equal(p[2].name, "transition");
    assert_int_equal(p[2].first, 7);
    assert_string_equal(p[3].name, "L3");
    assert_int_equal(p[3].first, 8);
    assert_int_equal(p[3].last, 9);
    assert_string_equal(p[4].name, "memory");
    assert_int_equal(p[4].first, 10);
    assert_int_equal(p[4].last, 12);
    assert_true(fabs(p[4].mean - 610) < 1e-9);
    /* a sweep that ends inside the caches has no memory plateau */
    n = clb_plateaus(ws, lat, 10, 0.15, 50e6, p);
    assert_string_equal(p[n - 1].name, "L3");
    /* one lone size above the LLC is memory; no cache at all: memory */
    n = clb_plateaus(ws, lat, 11, 0.15, 50e6, p);
    assert_string_equal(p[n - 1].name, "memory");
    assert_int_equal(p[n - 1].first, 10);
    n = clb_plateaus(ws + 10, lat + 10, 3, 0.15, 0, p);
    assert_int_equal(n, 1);
    assert_string_equal(p[0].name, "memory");
    /* past the LLC but not the end: not a cache level */
    n = clb_plateaus(ws, lat, 13, 0.15, 1e6, p);
    assert_int_equal(n, 5);
    assert_string_equal(p[2].name, "transition");
    assert_string_equal(p[3].name, "beyond LLC");
    assert_string_equal(p[4].name, "memory");
    /* a slow climb does not chain into one plateau: each step is measured
     * against the plateau's mean, not its neighbour */
    const double ramp[] = {10, 11, 12.1, 13.3, 14.6, 16.1, 17.7};
    n = clb_plateaus(ws, ramp, 7, 0.15, 1e12, p);
    assert_true(n >= 3);
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
        cmocka_unit_test(bytes_text)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Unit tests of the dot workload's host logic: reference, bound, CPU sums,
 * chunks and shares (host/workloads/dot/dot.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include "dot/dot.h"
#include "clbench.h"

static void test_pow2(void **state)
{
    (void)state;
    assert_int_equal(clb_dot_pow2(0), 0);
    assert_int_equal(clb_dot_pow2(1), 1);
    assert_int_equal(clb_dot_pow2(2), 2);
    assert_int_equal(clb_dot_pow2(3), 2);
    assert_int_equal(clb_dot_pow2(1000003), 1 << 19);
    assert_int_equal(clb_dot_pow2((size_t)1 << 28), (size_t)1 << 28);
    assert_int_equal(clb_dot_pow2(((size_t)1 << 40) + 1), (size_t)1 << 40);
}

/* Boundaries: increasing, multiples of 4 (except the end), cover [0, n). */
static void check_chunks(size_t n, long queues, long mc)
{
    size_t off[1025];
    int k = clb_dot_chunks(n, queues, mc, off);
    if (n == 0) {
        assert_int_equal(k, 0);
        return;
    }
    size_t want = n / (size_t)mc;
    want = want < 1 ? 1 : want > (size_t)queues ? (size_t)queues : want;
    assert_int_equal(k, (int)want);
    assert_int_equal(off[0], 0);
    assert_int_equal(off[k], n);
    for (int i = 0; i < k; i++) {
        assert_true(off[i] <= off[i + 1]);
        assert_int_equal(off[i] % 4, 0);
        /* the bound setup_host_path sizes the chunk buffers with */
        size_t per = (n + (size_t)queues - 1) / (size_t)queues;
        size_t cap = (per > 2 * (size_t)mc ? per : 2 * (size_t)mc) + 4;
        assert_true(off[i + 1] - off[i] <= cap);
    }
}

static void test_chunks(void **state)
{
    (void)state;
    check_chunks(0, 64, 4096);
    check_chunks(1, 64, 4096);
    check_chunks(3, 64, 4096);
    check_chunks(10, 64, 4096);
    check_chunks(100, 64, 1);      /* chunks of 0 or 4 elements */
    check_chunks(4097, 64, 1);
    check_chunks(1000003, 64, 4096);
    check_chunks(1000003, 7, 4096);
    check_chunks(3 * 4096 + 5, 64, 4096);
    check_chunks((size_t)1 << 28, 64, 4096);
    check_chunks(((size_t)1 << 28) - 3, 1024, 1);
    /* every device share of one n fits the buffers sized for n */
    for (size_t nd = 1; nd < 300000; nd = nd * 3 + 1)
        check_chunks(nd, 64, 4096);
    size_t off[65];
    assert_int_equal(clb_dot_chunks((size_t)1 << 28, 64, 4096, off), 64);
    assert_int_equal(off[1], (size_t)1 << 22);
}

static void test_reference_exact(void **state)
{
    (void)state;
    struct clb_dotref r;
    float xf[3] = {1, 2, 3}, yf[3] = {4, 5, 6};
    clb_dot_reference(xf, yf, 3, 0, &r);
    assert_true(r.sum == 32.0 && r.abs == 32.0);
    /* cancellation a plain double sum gets wrong: 1e16 + 1 - 1e16 */
    double xd[3] = {1e16, 1, -1e16}, yd[3] = {1, 1, 1};
    clb_dot_reference(xd, yd, 3, 1, &r);
    assert_true(r.sum == 1.0);
    /* products that are not exact in double: (1 + 2^-30)^2 - 1 - 2^-29 = 2^-60 */
    double e = ldexp(1.0, -30);
    double xs[3] = {1 + e, -1, -ldexp(1.0, -29)}, ys[3] = {1 + e, 1, 1};
    clb_dot_reference(xs, ys, 3, 1, &r);
    assert_true(r.sum == ldexp(1.0, -60));
    float xc[3] = {16777216.0f, 1, -16777216.0f}, yc[3] = {1, 1, 1};
    clb_dot_reference(xc, yc, 3, 0, &r);
    assert_true(r.sum == 1.0);
}

static void test_tolerance(void **state)
{
    (void)state;
    double tf = clb_dot_tolerance(1 << 20, 0, 1.0), td = clb_dot_tolerance(1 << 20, 1, 1.0);
    assert_true(tf > td * 1e8);                   /* 2^-24 vs 2^-53 */
    assert_true(fabs(clb_dot_tolerance(4 << 20, 0, 1.0) / tf - 2.0) < 1e-12); /* sqrt(n) */
    assert_true(clb_dot_tolerance(0, 1, 1.0) > 0);
}

/* cpu1 and cpu agree with the reference within the bound, for dot and sum
 * of squares, at sizes around the block; and the bound is tight enough in
 * double that a result missing its last element fails. */
static void check_cpu(size_t n, int dbl)
{
    size_t es = dbl ? sizeof(double) : sizeof(float);
    void *x = malloc(n * es + 8), *y = malloc(n * es + 8);
    assert_non_null(x);
    assert_non_null(y);
    if (dbl) {
        clb_fill_f64(x, n, 3);
        clb_fill_f64(y, n, 4);
    } else {
        clb_fill_f32(x, n, 3);
        clb_fill_f32(y, n, 4);
    }
    for (int sq = 0; sq < 2; sq++) {
        const void *yy = sq ? x : y;
        struct clb_dotref r;
        clb_dot_reference(x, yy, n, dbl, &r);
        double tol = clb_dot_tolerance(CLB_DOT_BLOCK + 8, dbl, r.abs);
        assert_true(fabs(clb_dot_cpu(x, yy, n, dbl, 1) - r.sum) <= tol);
        assert_true(fabs(clb_dot_cpu(x, yy, n, dbl, 0) - r.sum) <= tol);
        if (dbl && n > 1)
            assert_true(fabs(clb_dot_cpu(x, yy, n - 1, dbl, 0) - r.sum) > tol);
    }
    free(x);
    free(y);
}

static void test_cpu(void **state)
{
    (void)state;
    const size_t sizes[] = {1, 2, 3, CLB_DOT_BLOCK - 1, CLB_DOT_BLOCK + 1, 1000003};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        check_cpu(sizes[i], 0);
        check_cpu(sizes[i], 1);
    }
    assert_true(clb_dot_cpu(NULL, NULL, 0, 0, 0) == 0.0);
}

static void test_share(void **state)
{
    (void)state;
    assert_true(clb_dot_share(1, 1) == 0.5);
    assert_true(clb_dot_share(0, 5) == 0.0);
    assert_true(clb_dot_share(5, 0) == 1.0);
    assert_true(fabs(clb_dot_share(50, 150) - 0.25) < 1e-15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pow2),      cmocka_unit_test(test_chunks),
        cmocka_unit_test(test_reference_exact), cmocka_unit_test(test_tolerance),
        cmocka_unit_test(test_cpu),       cmocka_unit_test(test_share),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

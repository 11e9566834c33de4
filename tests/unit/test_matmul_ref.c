/* Host logic of matmul: the blocked reference and the tolerance of a float
 * result. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>

#include "matmul/matmul.h"
#include "clbench.h"

static void fill(float *a, float *b, size_t n)
{
    clb_fill_f32(a, n * n, 3);
    clb_fill_f32(b, n * n, 4);
}

/* The blocked OpenMP reference equals a plain triple loop in double. */
static void matmul_reference(void **state)
{
    (void)state;
    const size_t sizes[] = {1, 37, 130}; /* not multiples of the blocks */
    for (size_t s = 0; s < 3; s++) {
        size_t n = sizes[s];
        float *a = malloc(n * n * sizeof *a), *b = malloc(n * n * sizeof *b);
        double *c = malloc(n * n * sizeof *c);
        assert_non_null(a);
        assert_non_null(b);
        assert_non_null(c);
        fill(a, b, n);
        clb_matmul_ref(a, b, c, n);
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++) {
                double r = 0;
                for (size_t k = 0; k < n; k++)
                    r += (double)a[i * n + k] * b[k * n + j];
                assert_float_equal(c[i * n + j], r, 1e-12 * (double)n);
            }
        free(a);
        free(b);
        free(c);
    }
}

/* Float results in two summation orders pass; one missing term, one wrong
 * element or a NaN fail and are located. */
static void matmul_tolerance(void **state)
{
    (void)state;
    const size_t n = 300;
    float *a = malloc(n * n * sizeof *a), *b = malloc(n * n * sizeof *b);
    float *fwd = malloc(n * n * sizeof *fwd), *rev = malloc(n * n * sizeof *rev);
    double *ref = malloc(n * n * sizeof *ref);
    assert_true(a && b && fwd && rev && ref);
    fill(a, b, n);
    clb_matmul_ref(a, b, ref, n);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            float f = 0, r = 0;
            for (size_t k = 0; k < n; k++) {
                f += a[i * n + k] * b[k * n + j];
                r += a[i * n + n - 1 - k] * b[(n - 1 - k) * n + j];
            }
            fwd[i * n + j] = f;
            rev[i * n + j] = r;
        }
    long first;
    double worst;
    assert_int_equal(clb_matmul_check(a, b, ref, fwd, n, &first, &worst), 0);
    assert_int_equal(first, -1);
    assert_true(worst > 0 && worst < 0.5);
    assert_int_equal(clb_matmul_check(a, b, ref, rev, n, &first, &worst), 0);

    /* element (7, 11) without its last term */
    size_t e = 7 * n + 11;
    fwd[e] -= a[7 * n + n - 1] * b[(n - 1) * n + 11];
    assert_int_equal(clb_matmul_check(a, b, ref, fwd, n, &first, &worst), 1);
    assert_int_equal(first, (long)e);
    assert_true(worst > 1);
    fwd[3] = NAN;
    assert_int_equal(clb_matmul_check(a, b, ref, fwd, n, &first, &worst), 2);
    assert_int_equal(first, 3);
    free(a);
    free(b);
    free(fwd);
    free(rev);
    free(ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(matmul_reference),
                                       cmocka_unit_test(matmul_tolerance)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

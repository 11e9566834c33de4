/* Host references of the transpose workload: the mappings of the whitepaper's
 * diagnostic halves (fine_grained, coarse_grained) worked out by hand on a
 * 3 x 5 matrix with 2 x 2 tiles (partial edge tiles included), and the
 * checker's handling of wrong and unwritten elements. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "transpose/transpose.h"

#define X -1.0f /* not written by the kernel: stays poisoned */

static float input[3 * 5];

static void fill_input(void)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 5; j++)
            input[i * 5 + j] = (float)(i * 10 + j);
}

/* Turn a hand-written expectation into the bytes a kernel leaves behind. */
static void materialize(const float *want, float *out, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        if (want[k] == X)
            memset(&out[k], 0xFF, sizeof out[k]);
        else
            out[k] = want[k];
    }
}

static void test_fine_by_hand(void **state)
{
    (void)state;
    fill_input();
    /* Output 3 x 5: each 2x2 tile transposed where it stands. */
    static const float want[15] = {0,  10, 2,  12, 4,
                                   1,  11, 3,  13, X,
                                   20, X,  22, X,  24};
    float out[15];
    materialize(want, out, 15);
    long long first;
    assert_int_equal(clb_tr_check(CLB_TR_FINE, 3, 5, 2, 4, input, out, &first), 0);
    assert_int_equal(first, -1);
    assert_int_equal(clb_tr_out_width(CLB_TR_FINE, 3, 5), 5);
}

static void test_coarse_by_hand(void **state)
{
    (void)state;
    fill_input();
    /* Output 5 x 3: input tile (I, J) moved to (J, I), its contents kept. */
    static const float want[15] = {0,  1,  20,
                                   10, 11, X,
                                   2,  3,  22,
                                   12, 13, X,
                                   4,  X,  24};
    float out[15];
    materialize(want, out, 15);
    long long first;
    assert_int_equal(clb_tr_check(CLB_TR_COARSE, 3, 5, 2, 4, input, out, &first), 0);
    assert_int_equal(clb_tr_out_width(CLB_TR_COARSE, 3, 5), 3);
}

static void test_transpose_and_copy(void **state)
{
    (void)state;
    fill_input();
    float out[15];
    for (int p = 0; p < 5; p++)
        for (int q = 0; q < 3; q++)
            out[p * 3 + q] = input[q * 5 + p];
    long long first;
    assert_int_equal(clb_tr_check(CLB_TR_TRANSPOSE, 3, 5, 2, 4, input, out, &first), 0);
    assert_int_equal(clb_tr_check(CLB_TR_COPY, 3, 5, 2, 4, input, input, &first), 0);
    /* a transpose is not a copy of a non-square matrix */
    assert_true(clb_tr_check(CLB_TR_COPY, 3, 5, 2, 4, input, out, &first) > 0);
}

/* A wrong value, and a value where the kernel must write nothing. */
static void test_check_finds_errors(void **state)
{
    (void)state;
    fill_input();
    static const float want[15] = {0,  10, 2,  12, 4,
                                   1,  11, 3,  13, X,
                                   20, X,  22, X,  24};
    float out[15];
    materialize(want, out, 15);
    long long first;
    out[7] = 99; /* row 1, col 2 */
    assert_int_equal(clb_tr_check(CLB_TR_FINE, 3, 5, 2, 4, input, out, &first), 1);
    assert_int_equal(first, 7);
    materialize(want, out, 15);
    out[11] = 21; /* an unwritten position overwritten */
    assert_int_equal(clb_tr_check(CLB_TR_FINE, 3, 5, 2, 4, input, out, &first), 1);
    assert_int_equal(first, 11);
    /* a plain transpose is not what fine_grained produces */
    assert_true(clb_tr_check(CLB_TR_TRANSPOSE, 3, 5, 2, 4, input, out, &first) > 0);
}

/* The whitepaper's point: the two halves compose to the full transpose
 * (tiles moved, then contents transposed), on a square tiled matrix. */
static void test_halves_compose(void **state)
{
    (void)state;
    const size_t n = 8, t = 4;
    for (size_t p = 0; p < n; p++)
        for (size_t q = 0; q < n; q++) {
            size_t i, j, i2, j2;
            assert_true(clb_tr_source(CLB_TR_COARSE, n, n, t, p, q, &i, &j));
            assert_true(clb_tr_source(CLB_TR_FINE, n, n, t, i, j, &i2, &j2));
            assert_int_equal(i2, q);
            assert_int_equal(j2, p);
        }
}

static void test_doubles(void **state)
{
    (void)state;
    double in[6] = {1, 2, 3, 4, 5, 6}, out[6] = {1, 4, 2, 5, 3, 6};
    long long first;
    assert_int_equal(clb_tr_check(CLB_TR_TRANSPOSE, 2, 3, 32, 8, in, out, &first), 0);
    out[5] = 7;
    assert_int_equal(clb_tr_check(CLB_TR_TRANSPOSE, 2, 3, 32, 8, in, out, &first), 1);
    assert_int_equal(first, 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fine_by_hand),       cmocka_unit_test(test_coarse_by_hand),
        cmocka_unit_test(test_transpose_and_copy), cmocka_unit_test(test_check_finds_errors),
        cmocka_unit_test(test_halves_compose),     cmocka_unit_test(test_doubles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

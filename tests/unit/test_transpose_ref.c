/* Host references of the transpose workload: the mappings of the whitepaper's [Ruetsch09]
 * diagnostic halves (fine_grained, coarse_grained) worked out by hand on a
 * 3 x 5 matrix with 2 x 2 tiles (partial edge tiles included), and the
 * checker's handling of wrong and unwritten elements; the tile orders of the
 * `best` forms with an order suffix (by hand, and a bijection on every small
 * grid) and the persistent form's group count. */
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

/* The g-th group's tile, by hand, on a 3 x 3 grid (gx 3 tiles across, gy 3
 * down) and, for bands, a 3 x 5 grid with bands of 2 (the last band 1 tall). */
static void test_orders_by_hand(void **state)
{
    (void)state;
    static const size_t rows[9][2] = {{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1},
                                      {2, 1}, {0, 2}, {1, 2}, {2, 2}};
    static const size_t cols[9][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1},
                                      {1, 2}, {2, 0}, {2, 1}, {2, 2}};
    /* y = g mod 3, x = (g div 3 + y) mod 3: the diagonals */
    static const size_t diag[9][2] = {{0, 0}, {1, 1}, {2, 2}, {1, 0}, {2, 1},
                                      {0, 2}, {2, 0}, {0, 1}, {1, 2}};
    for (size_t g = 0; g < 9; g++) {
        size_t x, y;
        clb_tr_order(CLB_TR_ROWS, 0, 3, 3, g, &x, &y);
        assert_int_equal(x, rows[g][0]);
        assert_int_equal(y, rows[g][1]);
        clb_tr_order(CLB_TR_COLS, 0, 3, 3, g, &x, &y);
        assert_int_equal(x, cols[g][0]);
        assert_int_equal(y, cols[g][1]);
        clb_tr_order(CLB_TR_DIAG, 0, 3, 3, g, &x, &y);
        assert_int_equal(x, diag[g][0]);
        assert_int_equal(y, diag[g][1]);
    }
    /* 3 across, 5 down, bands of 2 rows: column by column inside a band */
    static const size_t bands[15][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0},
                                        {2, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3},
                                        {2, 2}, {2, 3}, {0, 4}, {1, 4}, {2, 4}};
    for (size_t g = 0; g < 15; g++) {
        size_t x, y;
        clb_tr_order(CLB_TR_BANDS, 2, 3, 5, g, &x, &y);
        assert_int_equal(x, bands[g][0]);
        assert_int_equal(y, bands[g][1]);
    }
    /* bands of 1 are rows, bands as tall as the grid (or taller) columns */
    for (size_t g = 0; g < 15; g++) {
        size_t x, y, x2, y2;
        clb_tr_order(CLB_TR_BANDS, 1, 3, 5, g, &x, &y);
        clb_tr_order(CLB_TR_ROWS, 0, 3, 5, g, &x2, &y2);
        assert_true(x == x2 && y == y2);
        clb_tr_order(CLB_TR_BANDS, 99, 3, 5, g, &x, &y);
        clb_tr_order(CLB_TR_COLS, 0, 3, 5, g, &x2, &y2);
        assert_true(x == x2 && y == y2);
    }
}

/* Every order on every grid up to 17 x 17: each tile taken exactly once. */
static void test_orders_are_bijections(void **state)
{
    (void)state;
    static const size_t ks[] = {1, 2, 3, 5, 16, 1000};
    unsigned char seen[17 * 17];
    for (size_t gx = 1; gx <= 17; gx++)
        for (size_t gy = 1; gy <= 17; gy++)
            for (int o = CLB_TR_ROWS; o <= CLB_TR_BANDS; o++)
                for (size_t ki = 0; ki < (o == CLB_TR_BANDS ? 6u : 1u); ki++) {
                    memset(seen, 0, sizeof seen);
                    for (size_t g = 0; g < gx * gy; g++) {
                        size_t x = 99, y = 99;
                        clb_tr_order((enum clb_tr_order)o, ks[ki], gx, gy, g, &x, &y);
                        assert_true(x < gx && y < gy);
                        assert_int_equal(seen[y * gx + x], 0);
                        seen[y * gx + x] = 1;
                    }
                }
}

/* The persistent grid: no more rounds than the slots need, each group
 * rounds or rounds - 1 tiles. */
static void test_persist_groups(void **state)
{
    (void)state;
    /* 8192^2 floats in 64^2 tiles on 132 compute units x 4 */
    assert_int_equal(clb_tr_persist_groups(16384, 528), 512); /* 32 rounds */
    assert_int_equal(clb_tr_persist_groups(10, 4), 4);        /* rounds 3: 3, 3, 2, 2 */
    assert_int_equal(clb_tr_persist_groups(9, 4), 3);         /* rounds 3: 3, 3, 3 */
    assert_int_equal(clb_tr_persist_groups(5, 100), 5);       /* fewer tiles than slots */
    assert_int_equal(clb_tr_persist_groups(1, 1), 1);
    assert_int_equal(clb_tr_persist_groups(0, 4), 1);
    assert_int_equal(clb_tr_persist_groups(7, 0), 1);
    for (size_t t = 1; t < 300; t++)
        for (size_t s = 1; s < 40; s++) {
            size_t g = clb_tr_persist_groups(t, s), rounds = (t + s - 1) / s;
            assert_true(g >= 1 && g <= s && g <= t);
            assert_int_equal((t + g - 1) / g, rounds);        /* no extra round */
            assert_true(g * (rounds - 1) < t || rounds == 1); /* no group idle */
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fine_by_hand),       cmocka_unit_test(test_coarse_by_hand),
        cmocka_unit_test(test_transpose_and_copy), cmocka_unit_test(test_check_finds_errors),
        cmocka_unit_test(test_halves_compose),     cmocka_unit_test(test_doubles),
        cmocka_unit_test(test_orders_by_hand),     cmocka_unit_test(test_orders_are_bijections),
        cmocka_unit_test(test_persist_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

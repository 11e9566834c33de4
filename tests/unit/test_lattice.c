/* The float64 Dslash reference (lattice/lattice.c) against hand-computed cases: lattices on which
 * exactly one link entry and one vector entry are non-zero, so that w has a
 * single non-zero entry whose value is worked out by hand below. Also the
 * geometry, the U(3) links and their compression, and the byte model of the
 * talk [Wagner15]. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "lattice/lattice.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A lattice with zero fields (double). */
struct lat {
    struct lat_geom g;
    double *fat, *lng, *v, *w;
    int rhs;
};

static void lat_init(struct lat *l, int lx, int ly, int lz, int lt, int rhs)
{
    int L[4] = {lx, ly, lz, lt};
    lat_geom_init(&l->g, L);
    size_t vh = l->g.vh;
    l->fat = calloc(8 * 9 * vh * 2, sizeof(double));
    l->lng = calloc(8 * 9 * vh * 2, sizeof(double));
    l->v = calloc((size_t)rhs * 3 * vh * 2, sizeof(double));
    l->w = calloc((size_t)rhs * 3 * vh * 2, sizeof(double));
    l->rhs = rhs;
    assert_non_null(l->fat);
    assert_non_null(l->lng);
    assert_non_null(l->v);
    assert_non_null(l->w);
}

static void lat_free(struct lat *l)
{
    free(l->fat);
    free(l->lng);
    free(l->v);
    free(l->w);
}

static void lat_apply(struct lat *l)
{
    struct lat_fields f = {1, l->fat, l->lng, l->v, l->rhs, NULL};
    lat_dslash_ref(&l->g, &f, l->w);
}

/* Exactly one complex entry of w is non-zero and equals (re, im). */
static void expect_only(const struct lat *l, int r, int c, const int x[4], double re, double im)
{
    size_t want = lat_vec_at(&l->g, r, c, lat_index(&l->g, x));
    size_t n = (size_t)l->rhs * 3 * l->g.vh;
    for (size_t k = 0; k < n; k++) {
        double er = k == want ? re : 0, ei = k == want ? im : 0;
        if (fabs(l->w[2 * k] - er) > 1e-14 || fabs(l->w[2 * k + 1] - ei) > 1e-14)
            fail_msg("w[%zu] = (%g, %g), expected (%g, %g) (the entry at %zu)", k, l->w[2 * k],
                     l->w[2 * k + 1], er, ei, want);
    }
}

static void set_link(struct lat *l, double *links, int p, int mu, size_t i, int row, int col,
                     double re, double im)
{
    size_t k = lat_link_at(&l->g, LAT_NE_FULL, p, mu, 3 * row + col, i);
    links[2 * k] = re;
    links[2 * k + 1] = im;
}

static void set_vec(struct lat *l, int r, int c, size_t i, double re, double im)
{
    size_t k = lat_vec_at(&l->g, r, c, i);
    l->v[2 * k] = re;
    l->v[2 * k + 1] = im;
}

static int parity(const int x[4]) { return (x[0] + x[1] + x[2] + x[3]) & 1; }

/* Every site maps to a unique index within its parity and back. */
static void test_geometry(void **state)
{
    (void)state;
    struct lat_geom g;
    int L[4] = {4, 6, 8, 4};
    lat_geom_init(&g, L);
    assert_int_equal(g.vh, 4 * 6 * 8 * 4 / 2);
    for (int p = 0; p < 2; p++)
        for (size_t i = 0; i < g.vh; i++) {
            int x[4];
            lat_coords(&g, p, i, x);
            assert_int_equal(parity(x), p);
            assert_int_equal(lat_index(&g, x), i);
            /* wrapped coordinates give the same site */
            int y[4] = {x[0] - 4, x[1] + 6, x[2] - 8, x[3] + 4};
            assert_int_equal(lat_index(&g, y), i);
        }
    size_t ok[4] = {8, 8, 4, 16}, odd[4] = {8, 7, 8, 8}, small[4] = {8, 8, 8, 2};
    assert_int_equal(lat_bad_extent(ok), 0);
    assert_int_equal(lat_bad_extent(odd), 2);
    assert_int_equal(lat_bad_extent(small), 4);
}

/* Forward fat link: U(x,mu)[i][j] = 2+3i on an even site, v(x+mu)[j] = 5-i:
 * w(x)[i] = (2+3i)(5-i) = 10 - 2i + 15i - 3i^2 = 13 + 13i. */
static void test_forward_fat(void **state)
{
    (void)state;
    for (int mu = 0; mu < 4; mu++) {
        struct lat l;
        lat_init(&l, 4, 6, 8, 4, 1);
        int x[4] = {3, 5, 7, 3}; /* even; the + hop wraps in every direction */
        assert_int_equal(parity(x), 0);
        int y[4];
        memcpy(y, x, sizeof y);
        y[mu]++;
        set_link(&l, l.fat, 0, mu, lat_index(&l.g, x), 1, 2, 2, 3);
        set_vec(&l, 0, 2, lat_index(&l.g, y), 5, -1);
        lat_apply(&l);
        expect_only(&l, 0, 1, x, 13, 13);
        lat_free(&l);
    }
}

/* Backward fat link: U(y,mu)[i][j] = 2+3i on an odd site y, v(y)[i] = 5-i:
 * w(y+mu)[j] = -conj(2+3i)(5-i) = -(2-3i)(5-i) = -(10 - 2i - 15i + 3i^2) = -7 + 17i. */
static void test_backward_fat(void **state)
{
    (void)state;
    for (int mu = 0; mu < 4; mu++) {
        struct lat l;
        lat_init(&l, 4, 6, 8, 4, 1);
        int y[4] = {3, 5, 7, 2}; /* odd; y+mu wraps in x, y, z */
        assert_int_equal(parity(y), 1);
        int x[4];
        memcpy(x, y, sizeof x);
        x[mu]++;
        set_link(&l, l.fat, 1, mu, lat_index(&l.g, y), 0, 2, 2, 3);
        set_vec(&l, 0, 0, lat_index(&l.g, y), 5, -1);
        lat_apply(&l);
        int xw[4] = {x[0] % 4, x[1] % 6, x[2] % 8, x[3] % 4};
        expect_only(&l, 0, 2, xw, -7, 17);
        lat_free(&l);
    }
}

/* Forward long link: N(x,mu)[0][0] = 0.5i on an even site, v(x+3mu)[0] = 4+2i:
 * w(x)[0] = 0.5i (4+2i) = 2i + i^2 = -1 + 2i. On a 4-site extent x+3mu is x-mu. */
static void test_forward_long(void **state)
{
    (void)state;
    for (int mu = 0; mu < 4; mu++) {
        struct lat l;
        lat_init(&l, 4, 6, 8, 4, 1);
        int x[4] = {0, 4, 6, 2};
        int y[4];
        memcpy(y, x, sizeof y);
        y[mu] += 3;
        set_link(&l, l.lng, 0, mu, lat_index(&l.g, x), 0, 0, 0, 0.5);
        set_vec(&l, 0, 0, lat_index(&l.g, y), 4, 2);
        lat_apply(&l);
        expect_only(&l, 0, 0, x, -1, 2);
        lat_free(&l);
    }
}

/* Backward long link with two right-hand sides, only the second non-zero:
 * N(y,mu)[2][1] = 1 - i on an odd site y, v_1(y)[2] = 3:
 * w_1(y+3mu)[1] = -conj(1-i) 3 = -(1+i) 3 = -3 - 3i. */
static void test_backward_long_rhs(void **state)
{
    (void)state;
    for (int mu = 0; mu < 4; mu++) {
        struct lat l;
        lat_init(&l, 4, 6, 8, 4, 2);
        int y[4] = {1, 0, 0, 0};
        int x[4];
        memcpy(x, y, sizeof x);
        x[mu] += 3;
        set_link(&l, l.lng, 1, mu, lat_index(&l.g, y), 2, 1, 1, -1);
        set_vec(&l, 1, 2, lat_index(&l.g, y), 3, 0);
        lat_apply(&l);
        expect_only(&l, 1, 1, x, -3, -3);
        lat_free(&l);
    }
}

/* The float path reads the same values (exactly representable here). */
static void test_float_input(void **state)
{
    (void)state;
    struct lat l;
    lat_init(&l, 4, 4, 4, 4, 1);
    size_t vh = l.g.vh;
    float *ff = calloc(8 * 9 * vh * 2, sizeof(float)), *fl = calloc(8 * 9 * vh * 2, sizeof(float));
    float *fv = calloc(3 * vh * 2, sizeof(float));
    assert_non_null(ff);
    assert_non_null(fl);
    assert_non_null(fv);
    int x[4] = {2, 1, 1, 0}, y[4] = {2, 2, 1, 0};
    size_t k = lat_link_at(&l.g, LAT_NE_FULL, 0, 1, 3 * 1 + 2, lat_index(&l.g, x));
    ff[2 * k] = 2;
    ff[2 * k + 1] = 3;
    k = lat_vec_at(&l.g, 0, 2, lat_index(&l.g, y));
    fv[2 * k] = 5;
    fv[2 * k + 1] = -1;
    struct lat_fields f = {0, ff, fl, fv, 1, NULL};
    lat_dslash_ref(&l.g, &f, l.w);
    expect_only(&l, 0, 1, x, 13, 13);
    free(ff);
    free(fl);
    free(fv);
    lat_free(&l);
}

/* Random U(3): U U^dag = 1, |det| = 1, row 2 rebuilt from rows 0, 1 and det. */
static void test_u3(void **state)
{
    (void)state;
    unsigned long long st = 42;
    for (int n = 0; n < 100; n++) {
        double m[18], det[2], row2[6];
        lat_random_u3(&st, m);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                double re = 0, im = 0; /* sum_k m[a][k] conj(m[b][k]) */
                for (int k = 0; k < 3; k++) {
                    const double *p = &m[2 * (3 * a + k)], *q = &m[2 * (3 * b + k)];
                    re += p[0] * q[0] + p[1] * q[1];
                    im += p[1] * q[0] - p[0] * q[1];
                }
                assert_true(fabs(re - (a == b)) < 1e-14);
                assert_true(fabs(im) < 1e-14);
            }
        lat_det3(m, det);
        assert_true(fabs(hypot(det[0], det[1]) - 1) < 1e-14);
        lat_rebuild_row2(m, det, row2);
        for (int k = 0; k < 6; k++)
            assert_true(fabs(row2[k] - m[12 + k]) < 1e-14);
    }
    /* i times the identity: det = i^3 = -i; row0 x row1 = (0, 0, i^2) = (0, 0, -1),
     * so the rebuilt row 2 = -i conj(0, 0, -1) = (0, 0, i) */
    double ph[2] = {0, 1};
    double m[18] = {0};
    m[0] = ph[0], m[1] = ph[1], m[8] = ph[0], m[9] = ph[1], m[16] = ph[0], m[17] = ph[1];
    double det[2], row2[6];
    lat_det3(m, det);
    assert_true(fabs(det[0]) < 1e-15 && fabs(det[1] + 1) < 1e-15);
    lat_rebuild_row2(m, det, row2);
    assert_true(fabs(row2[4]) < 1e-15 && fabs(row2[5] - 1) < 1e-15);
}

/* The rebuild check on a lattice finds a corrupted compressed link. */
static void test_rebuild_error(void **state)
{
    (void)state;
    int L[4] = {4, 4, 4, 4};
    struct lat_geom g;
    lat_geom_init(&g, L);
    double *full = calloc(8 * 9 * g.vh * 2, sizeof(double));
    double *comp = calloc(8 * 7 * g.vh * 2, sizeof(double));
    assert_non_null(full);
    assert_non_null(comp);
    unsigned long long st = 7;
    for (size_t i = 0; i < g.vh; i++)
        for (int p = 0; p < 2; p++)
            for (int mu = 0; mu < 4; mu++) {
                double m[18], det[2];
                lat_random_u3(&st, m);
                lat_det3(m, det);
                for (int e = 0; e < 9; e++) {
                    size_t k = lat_link_at(&g, 9, p, mu, e, i);
                    full[2 * k] = m[2 * e];
                    full[2 * k + 1] = m[2 * e + 1];
                }
                for (int e = 0; e < 7; e++) {
                    size_t k = lat_link_at(&g, 7, p, mu, e, i);
                    comp[2 * k] = e < 6 ? m[2 * e] : det[0];
                    comp[2 * k + 1] = e < 6 ? m[2 * e + 1] : det[1];
                }
            }
    assert_true(lat_rebuild_error(&g, 1, full, comp) < 1e-14);
    comp[2 * lat_link_at(&g, 7, 1, 3, 6, 5)] += 1e-6; /* a wrong determinant */
    assert_true(lat_rebuild_error(&g, 1, full, comp) > 1e-7);
    free(full);
    free(comp);
}

/* The talk's figures: rhs 1..5 and the vector hit rates. */
static void test_model(void **state)
{
    (void)state;
    const double ai[5] = {0.80, 1.25, 1.53, 1.73, 1.87};
    for (int r = 1; r <= 5; r++)
        assert_true(fabs(clb_dslash_intensity(r, 0, 1, 4) - ai[r - 1]) < 0.005);
    const double hit[6] = {0, 15, 3, 5, 7, 9}, ai_hit[6] = {0.80, 1.07, 0.84, 0.87, 0.91, 0.94};
    for (int h = 0; h < 6; h++)
        assert_true(fabs(clb_dslash_intensity(1, hit[h] / 16, 1, 4) - ai_hit[h]) < 0.005);
    assert_true(clb_dslash_bytes_site(1, 0, 1, 4) == 1432);
    assert_true(clb_dslash_bytes_site(4, 0, 0, 4) == 1152 + 4 * 408);
    assert_true(clb_dslash_bytes_site(2, 0, 1, 8) == 2 * (1024 + 2 * 408));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_geometry),       cmocka_unit_test(test_forward_fat),
        cmocka_unit_test(test_backward_fat),   cmocka_unit_test(test_forward_long),
        cmocka_unit_test(test_backward_long_rhs), cmocka_unit_test(test_float_input),
        cmocka_unit_test(test_u3),             cmocka_unit_test(test_rebuild_error),
        cmocka_unit_test(test_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The cg workload's host pieces: the odd-from-even operator is minus the
 * adjoint of the even-from-odd one (the links carry the phases), so
 * A = m^2 - D_eo D_oe is Hermitian positive definite; the float64 host CG
 * converges on a small lattice and its solution has a small true residual;
 * per-rhs iteration limits; the solver's counts beside the Dslash ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "cg/cg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A random lattice in float64: random fat links, random U(3) long links
 * (the workloads' generators), `rhs` random vectors u (even) and v (odd). */
struct lat {
    struct lat_geom g;
    double *fat, *full, *comp;
    double *u, *v, *w, *tmp;
    int rhs;
    struct cg_op op;
};

static void lat_init(struct lat *l, int lx, int ly, int lz, int lt, int rhs, double mass)
{
    int L[4] = {lx, ly, lz, lt};
    lat_geom_init(&l->g, L);
    size_t vh = l->g.vh, n = 2 * cg_vec_len(&l->g, rhs);
    l->fat = malloc(8 * 9 * vh * 2 * sizeof(double));
    l->full = malloc(8 * 9 * vh * 2 * sizeof(double));
    l->comp = malloc(8 * 7 * vh * 2 * sizeof(double));
    l->u = malloc(n * sizeof(double));
    l->v = malloc(n * sizeof(double));
    l->w = malloc(n * sizeof(double));
    l->tmp = malloc(n * sizeof(double));
    assert_true(l->fat && l->full && l->comp && l->u && l->v && l->w && l->tmp);
    clb_fill_f64(l->fat, 8 * 9 * vh * 2, 21);
    lat_fill_long(&l->g, 1, l->full, l->comp);
    clb_fill_f64(l->u, n, 22);
    clb_fill_f64(l->v, n, 23);
    l->rhs = rhs;
    struct cg_op op = {.g = &l->g, .dbl = 1, .fat = l->fat, .lng = l->full, .m2 = mass * mass};
    l->op = op;
}

static void lat_free(struct lat *l)
{
    free(l->fat);
    free(l->full);
    free(l->comp);
    free(l->u);
    free(l->v);
    free(l->w);
    free(l->tmp);
}

/* D on parity p of float64 vectors in into out. */
static void apply_d(struct lat *l, int p, const double *in, double *out)
{
    struct lat_fields f = {1, l->fat, l->full, NULL, l->rhs, in};
    lat_dslash_ref_parity(&l->g, &f, p, out);
}

/* <u, D_eo v> = -<D_oe u, v> for every rhs: D_oe = -D_eo^dagger. */
static void test_adjoint(void **state)
{
    (void)state;
    struct lat l;
    lat_init(&l, 4, 4, 6, 4, 2, 1);
    double a[4], b[4];
    apply_d(&l, 0, l.v, l.w);   /* D_eo v (even) */
    cg_dot(&l.g, 2, l.u, l.w, a);
    apply_d(&l, 1, l.u, l.tmp); /* D_oe u (odd) */
    cg_dot(&l.g, 2, l.tmp, l.v, b);
    for (int k = 0; k < 4; k++)
        if (fabs(a[k] + b[k]) > 1e-10 * (fabs(a[k]) + 1))
            fail_msg("<u, D_eo v> = %.15g, -<D_oe u, v> = %.15g (entry %d)", a[k], -b[k], k);
    assert_true(fabs(a[0]) > 1); /* not trivially zero */
    lat_free(&l);
}

/* A is Hermitian, <u, A v> = conj(<v, A u>), and positive, <u, A u> > 0 real,
 * above m^2 <u, u>. */
static void test_hpd(void **state)
{
    (void)state;
    struct lat l;
    lat_init(&l, 4, 4, 4, 6, 3, 0.5);
    double *av = malloc(2 * cg_vec_len(&l.g, 3) * sizeof(double));
    assert_non_null(av);
    double uav[6], vau[6], uau[6], uu[6];
    cg_apply(&l.op, 3, l.v, l.tmp, av); /* A v */
    cg_dot(&l.g, 3, l.u, av, uav);
    cg_apply(&l.op, 3, l.u, l.tmp, l.w); /* A u */
    cg_dot(&l.g, 3, l.v, l.w, vau);
    cg_dot(&l.g, 3, l.u, l.w, uau);
    cg_dot(&l.g, 3, l.u, l.u, uu);
    for (int r = 0; r < 3; r++) {
        double scale = fabs(uav[2 * r]) + fabs(uav[2 * r + 1]);
        if (fabs(uav[2 * r] - vau[2 * r]) > 1e-12 * scale ||
            fabs(uav[2 * r + 1] + vau[2 * r + 1]) > 1e-12 * scale)
            fail_msg("rhs %d: <u, Av> = (%.15g, %.15g), conj(<v, Au>) = (%.15g, %.15g)", r,
                     uav[2 * r], uav[2 * r + 1], vau[2 * r], -vau[2 * r + 1]);
        assert_true(fabs(uav[2 * r + 1]) > 1e-6 * scale); /* complex: the test is not void */
        assert_true(fabs(uau[2 * r + 1]) < 1e-10 * uau[2 * r]);
        assert_true(uau[2 * r] > 0.25 * uu[2 * r]); /* >= m^2 |u|^2 */
    }
    /* the same with float links (the fp32 workload's host operator) */
    float *f32 = malloc(8 * 9 * l.g.vh * 2 * sizeof(float));
    float *l32 = malloc(8 * 9 * l.g.vh * 2 * sizeof(float));
    float *c32 = malloc(8 * 7 * l.g.vh * 2 * sizeof(float));
    assert_true(f32 && l32 && c32);
    clb_fill_f32(f32, 8 * 9 * l.g.vh * 2, 21);
    lat_fill_long(&l.g, 0, l32, c32);
    struct cg_op op32 = {.g = &l.g, .dbl = 0, .fat = f32, .lng = l32, .m2 = 0.25};
    cg_apply(&op32, 3, l.v, l.tmp, av);
    cg_dot(&l.g, 3, l.u, av, uav);
    cg_apply(&op32, 3, l.u, l.tmp, l.w);
    cg_dot(&l.g, 3, l.v, l.w, vau);
    for (int r = 0; r < 3; r++) {
        double scale = fabs(uav[2 * r]) + fabs(uav[2 * r + 1]);
        assert_true(fabs(uav[2 * r] - vau[2 * r]) <= 1e-12 * scale);
        assert_true(fabs(uav[2 * r + 1] + vau[2 * r + 1]) <= 1e-12 * scale);
    }
    free(f32);
    free(l32);
    free(c32);
    free(av);
    lat_free(&l);
}

/* The host CG reaches its tolerance; the true residual of its solution
 * agrees; the per-rhs limit stops one rhs early; x = A^-1 b is found. */
static void test_host_cg(void **state)
{
    (void)state;
    struct lat l;
    lat_init(&l, 4, 4, 4, 4, 2, 2);
    size_t n = 2 * cg_vec_len(&l.g, 2);
    double *x = malloc(n * sizeof(double));
    assert_non_null(x);
    int iters[2];
    double res[2], rel[2];
    assert_int_equal(cg_host_solve(&l.op, 2, l.u, x, 1e-10, 1000, NULL, iters, res), CLB_OK);
    for (int r = 0; r < 2; r++) {
        assert_true(res[r] <= 1e-10);
        assert_true(iters[r] > 5 && iters[r] < 1000);
    }
    assert_int_equal(cg_true_residual(&l.op, 2, 1, l.u, x, rel), CLB_OK);
    for (int r = 0; r < 2; r++)
        if (!(rel[r] < 1e-9))
            fail_msg("rhs %d: true residual %g after %d iterations", r, rel[r], iters[r]);
    /* b = A v: the solution is v */
    cg_apply(&l.op, 2, l.v, l.tmp, l.w);
    assert_int_equal(cg_host_solve(&l.op, 2, l.w, x, 1e-12, 1000, NULL, iters, res), CLB_OK);
    double err = 0, nv = 0;
    for (size_t k = 0; k < n; k++) {
        err += (x[k] - l.v[k]) * (x[k] - l.v[k]);
        nv += l.v[k] * l.v[k];
    }
    assert_true(sqrt(err / nv) < 1e-9);
    /* per-rhs limits (and tol = 0): rhs 1 stops after 3 iterations */
    int limit[2] = {12, 3};
    assert_int_equal(cg_host_solve(&l.op, 2, l.u, x, 0, 100, limit, iters, res), CLB_OK);
    assert_int_equal(iters[0], 12);
    assert_int_equal(iters[1], 3);
    assert_true(res[1] > res[0] && res[0] > 0);
    assert_int_equal(cg_true_residual(&l.op, 2, 1, l.u, x, rel), CLB_OK);
    for (int r = 0; r < 2; r++)
        assert_true(fabs(rel[r] - res[r]) < 1e-8 * res[r]);
    /* float vectors: x = 0 has residual 1 */
    float *b32 = malloc(n * sizeof(float)), *x32 = calloc(n, sizeof(float));
    assert_true(b32 && x32);
    for (size_t k = 0; k < n; k++)
        b32[k] = (float)l.u[k];
    assert_int_equal(cg_true_residual(&l.op, 2, 0, b32, x32, rel), CLB_OK);
    assert_true(fabs(rel[0] - 1) < 1e-15 && fabs(rel[1] - 1) < 1e-15);
    free(b32);
    free(x32);
    free(x);
    lat_free(&l);
}

/* The counts: 2 x 1146 + 72 flop and 2 x 1024 + 43 x 24 B per even site and
 * iteration (fp32, compressed, one rhs), the start's 12 flop and 96 B. */
static void test_counts(void **state)
{
    (void)state;
    assert_true(clb_cg_flops_site(1, 1) == 2364 + 12);
    assert_true(clb_cg_flops_site(37 * 4, 4) == 2364.0 * 148 + 48);
    assert_true(clb_cg_bytes_site(1, 1, 1, 1, 4) == 2048 + 1032 + 96);
    assert_true(clb_cg_bytes_site(10, 25, 3, 0, 8) == 2 * (2 * 1152 * 10 + 24 * (43 * 25 + 12)));
    assert_true(fabs(clb_cg_intensity(1, 1, 4) - 2364.0 / 3080) < 1e-12);
    assert_true(fabs(clb_cg_intensity(4, 1, 4) - 1.531) < 0.001);
    assert_true(fabs(clb_cg_intensity(8, 1, 4) - 1.835) < 0.001);
    assert_true(fabs(clb_cg_intensity(4, 1, 8) - 1.531 / 2) < 0.001);
    /* below the Dslash's own intensity at every rhs (the vector updates) */
    for (int r = 1; r <= 8; r++)
        assert_true(clb_cg_intensity(r, 1, 4) < clb_dslash_intensity(r, 0, 1, 4));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_adjoint),
        cmocka_unit_test(test_hpd),
        cmocka_unit_test(test_host_cg),
        cmocka_unit_test(test_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

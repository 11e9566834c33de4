/* cg: the conjugate gradient inverter of the HISQ talk [Wagner15] (slides
 * 19-20 and 37-45) on the dslash workload's operator. It solves the
 * staggered normal equations on the even sites,
 *     A x = b,   A = m^2 - D_eo D_oe,
 * where D_eo (even from odd) is the dslash workload's operator and D_oe (odd
 * from even) the same stencil on the odd sites. The links carry the
 * staggered phases, so D_oe = -D_eo^dagger and A = m^2 + D_eo D_eo^dagger is
 * Hermitian positive definite (tests/unit/test_cg_ref.c checks it).
 *
 * This header: the float64 host pieces (cg_ref.c): the operator A, inner
 * products, a host CG (the unit test's and the fixed-iteration mode's
 * reference) and the true residual |b - A x| / |b| that validates the device
 * solve. Geometry, field layout, the Dslash reference and the solver's
 * flop and byte counts (clb_cg_*, beside the Dslash's): lattice.h; the rank
 * split: lattice_split.h. */
#ifndef CG_CG_H
#define CG_CG_H

#include <stddef.h>
#include "lattice.h"
#include "lattice_split.h"

/* The operator: links of the dslash layout with full long links (ne = 9),
 * element type float (dbl = 0) or double, and the mass squared.
 * scaling=: g is one rank's part of a split lattice (dist); the links are on
 * ext, the part with its halos (lat_decomp_geoms, off its place there),
 * the vectors' halos come from the neighbours (lat_host_exchange) and the
 * inner products are summed over the ranks: every rank must call cg_apply,
 * cg_dot_op, cg_host_solve and cg_true_residual together. dist NULL: one
 * whole lattice, the links on g. */
struct cg_op {
    const struct lat_geom *g;
    int dbl;
    const void *fat, *lng;
    double m2;
    const struct lat_decomp *dist;
    const struct lat_geom *ext;
    const int *off;
};

/* Complex numbers in rhs vectors of one parity (vector layout of lattice.h). */
static inline size_t cg_vec_len(const struct lat_geom *g, int rhs)
{
    return (size_t)rhs * 3 * g->vh;
}

/* out = A x = m2 x - D_eo (D_oe x) for rhs float64 vectors on the even
 * sites; tmp holds rhs float64 vectors on the odd sites (D_oe x; unused
 * under dist). CLB_OK, or CLB_ESYS (out of memory, MPI) under dist. */
int cg_apply(const struct cg_op *op, int rhs, const double *x, double *tmp, double *out);

/* <a_r, b_r> = sum conj(a) b over the sites and colours of right-hand side r,
 * for r < rhs: out[2r] (real), out[2r + 1] (imaginary). */
void cg_dot(const struct lat_geom *g, int rhs, const double *a, const double *b, double *out);

/* cg_dot on op's lattice, summed over the ranks under op->dist (the same
 * bits on every rank). CLB_OK or CLB_ESYS. */
int cg_dot_op(const struct cg_op *op, int rhs, const double *a, const double *b, double *out);

/* n reals of type float (dbl = 0) or double into float64. */
void cg_to_f64(int dbl, const void *src, double *dst, size_t n);

/* CG in float64 for rhs right-hand sides from x = 0: each rhs stops when its
 * recursive residual |r|/|b| <= tol, after limit[r] iterations (limit may be
 * NULL) or after maxiter (tol = 0: exactly min(maxiter, limit[r])). iters[r]
 * and res[r] (|r|/|b|) per rhs. CLB_OK, or CLB_ESYS when out of host memory. */
int cg_host_solve(const struct cg_op *op, int rhs, const double *b, double *x, double tol,
                  int maxiter, const int *limit, int *iters, double *res);

/* The true relative residual |b_r - A x_r| / |b_r| per rhs in float64, b
 * and x of type float (vdbl = 0) or double. CLB_OK or CLB_ESYS. */
int cg_true_residual(const struct cg_op *op, int rhs, int vdbl, const void *b, const void *x,
                     double *rel);

#endif

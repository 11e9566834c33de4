/* cg: the float64 host operator, host CG and true residual (see cg.h). */
#include "cg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A on a rank's part: x with its halos on the extended lattice, D_oe x on
 * the part's odd sites there, its halos, then D_eo on the part's even sites. */
static int apply_dist(const struct cg_op *op, int rhs, const double *x, double *out)
{
    const struct lat_geom *e = op->ext, *g = op->g;
    size_t n = 2 * (size_t)rhs * 3 * e->vh;
    double *xe = calloc(n, sizeof *xe), *te = calloc(n, sizeof *te);
    /* no rank may leave before the exchanges its peers wait in */
    double bad = !xe || !te;
    int rc = clb_comm_allreduce(&bad, 1, CLB_MAX);
    if (rc == CLB_OK && bad)
        rc = clb_err(CLB_ESYS, "cg: " CLB_OOM " for the operator (on this or another rank)");
    if (rc == CLB_OK) {
        size_t cplx = 2 * sizeof(double);
        int b[6] = {op->off[1], g->L[1], op->off[2], g->L[2], op->off[3], g->L[3]};
        lat_box_copy(e, b, 3 * (size_t)rhs, cplx, xe, (void *)x, 1);
        rc = lat_host_exchange(op->dist, e, 3 * (size_t)rhs, xe);
    }
    struct lat_fields f = {op->dbl, op->fat, op->lng, NULL, rhs, xe};
    if (rc == CLB_OK) {
        lat_dslash_ref_box(e, &f, 1, g, op->off, 1, te); /* D_oe x, the part's odd sites */
        rc = lat_host_exchange(op->dist, e, 3 * (size_t)rhs, te);
    }
    if (rc == CLB_OK) {
        f.v64 = te;
        lat_dslash_ref_box(e, &f, 0, g, op->off, 0, out); /* D_eo, the part's even sites */
        size_t m = 2 * cg_vec_len(g, rhs);
        double m2 = op->m2;
#pragma omp parallel for schedule(static)
        for (long k = 0; k < (long)m; k++)
            out[k] = m2 * x[k] - out[k];
    }
    free(xe);
    free(te);
    return rc;
}

int cg_apply(const struct cg_op *op, int rhs, const double *x, double *tmp, double *out)
{
    if (op->dist)
        return apply_dist(op, rhs, x, out);
    struct lat_fields f = {op->dbl, op->fat, op->lng, NULL, rhs, x};
    lat_dslash_ref_parity(op->g, &f, 1, tmp); /* D_oe x on the odd sites */
    f.v64 = tmp;
    lat_dslash_ref_parity(op->g, &f, 0, out); /* D_eo D_oe x on the even sites */
    size_t n = 2 * cg_vec_len(op->g, rhs);
    double m2 = op->m2;
#pragma omp parallel for schedule(static)
    for (long k = 0; k < (long)n; k++)
        out[k] = m2 * x[k] - out[k];
    return CLB_OK;
}

void cg_dot(const struct lat_geom *g, int rhs, const double *a, const double *b, double *out)
{
    size_t n = 3 * g->vh; /* complex numbers of one rhs */
    for (int r = 0; r < rhs; r++) {
        const double *pa = a + 2 * (size_t)r * n, *pb = b + 2 * (size_t)r * n;
        double re = 0, im = 0;
#pragma omp parallel for reduction(+ : re, im) schedule(static)
        for (long k = 0; k < (long)n; k++) {
            re += pa[2 * k] * pb[2 * k] + pa[2 * k + 1] * pb[2 * k + 1];
            im += pa[2 * k] * pb[2 * k + 1] - pa[2 * k + 1] * pb[2 * k];
        }
        out[2 * r] = re;
        out[2 * r + 1] = im;
    }
}

int cg_dot_op(const struct cg_op *op, int rhs, const double *a, const double *b, double *out)
{
    cg_dot(op->g, rhs, a, b, out);
    if (!op->dist)
        return CLB_OK;
    double mine[2 * 64];
    int nerr;
    if (rhs > 64)
        return CLB_ESYS;
    memcpy(mine, out, 2 * (size_t)rhs * sizeof *mine);
    return lat_sum_ranks(mine, 2 * rhs, 0, out, &nerr);
}

void cg_to_f64(int dbl, const void *src, double *dst, size_t n)
{
#pragma omp parallel for schedule(static)
    for (long k = 0; k < (long)n; k++)
        dst[k] = dbl ? ((const double *)src)[k] : (double)((const float *)src)[k];
}

/* y_r += a_r x_r (x_r, y_r: the complex numbers of rhs r), for active r. */
static void axpy(size_t n, int rhs, const double *a, const int *active, const double *x, double *y)
{
    for (int r = 0; r < rhs; r++) {
        if (!active[r])
            continue;
        const double *px = x + 2 * (size_t)r * n;
        double *py = y + 2 * (size_t)r * n, s = a[r];
#pragma omp parallel for schedule(static)
        for (long k = 0; k < (long)(2 * n); k++)
            py[k] += s * px[k];
    }
}

/* Under dist, did every rank get its memory? (No rank may leave before the
 * collectives its peers wait in.) */
static int all_allocated(const struct cg_op *op, int ok, const char *what)
{
    double bad = !ok;
    if (op->dist && clb_comm_allreduce(&bad, 1, CLB_MAX))
        return CLB_ESYS;
    if (bad)
        return clb_err(CLB_ESYS, "cg: " CLB_OOM " for %s%s", what,
                                 op->dist ? " (this or another rank)" : "");
    return CLB_OK;
}

int cg_host_solve(const struct cg_op *op, int rhs, const double *b, double *x, double tol,
                  int maxiter, const int *limit, int *iters, double *res)
{
    size_t n = 3 * op->g->vh, len = 2 * cg_vec_len(op->g, rhs), nr = (size_t)rhs;
    double *r = malloc((4 * len + 5 * nr) * sizeof *r);
    int *active = malloc(nr * sizeof *active);
    int rc = all_allocated(op, r && active, "the host solve");
    if (rc)
        goto out;
    /* after r: p, ap and tmp (len each), dots (2 rhs), bb, rr and alpha (rhs each) */
    double *p = r + len, *ap = p + len, *tmp = ap + len, *dots = tmp + len, *bb = dots + 2 * nr;
    double *rr = bb + nr, *alpha = rr + nr;
    memcpy(r, b, len * sizeof *r);
    memcpy(p, b, len * sizeof *p);
    memset(x, 0, len * sizeof *x);
    if ((rc = cg_dot_op(op, rhs, b, b, dots)))
        goto out;
    int left = 0;
    for (int j = 0; j < rhs; j++) {
        bb[j] = rr[j] = dots[2 * j];
        iters[j] = 0;
        active[j] = bb[j] > 0 && !(rr[j] <= tol * tol * bb[j]) && !(limit && limit[j] <= 0);
        left += active[j];
    }
    for (int k = 0; k < maxiter && left; k++) {
        if ((rc = cg_apply(op, rhs, p, tmp, ap)) || (rc = cg_dot_op(op, rhs, p, ap, dots)))
            goto out;
        for (int j = 0; j < rhs; j++)
            alpha[j] = dots[2 * j] > 0 ? rr[j] / dots[2 * j] : 0;
        axpy(n, rhs, alpha, active, p, x);
        for (int j = 0; j < rhs; j++)
            alpha[j] = -alpha[j];
        axpy(n, rhs, alpha, active, ap, r);
        if ((rc = cg_dot_op(op, rhs, r, r, dots)))
            goto out;
        for (int j = 0; j < rhs; j++) {
            if (!active[j])
                continue;
            double rn = dots[2 * j], beta = rr[j] > 0 ? rn / rr[j] : 0;
            double *pr = r + 2 * (size_t)j * n, *pp = p + 2 * (size_t)j * n;
#pragma omp parallel for schedule(static)
            for (long q = 0; q < (long)(2 * n); q++)
                pp[q] = pr[q] + beta * pp[q];
            rr[j] = rn;
            iters[j] = k + 1;
            if (rn <= tol * tol * bb[j] || !isfinite(rn) || (limit && k + 1 >= limit[j])) {
                active[j] = 0;
                left--;
            }
        }
    }
    for (int j = 0; j < rhs; j++)
        res[j] = bb[j] > 0 ? sqrt(rr[j] / bb[j]) : 0;
out:
    free(r);
    free(active);
    return rc;
}

int cg_true_residual(const struct cg_op *op, int rhs, int vdbl, const void *b, const void *x,
                     double *rel)
{
    size_t len = 2 * cg_vec_len(op->g, rhs), n2 = 2 * (size_t)rhs;
    double *b64 = malloc((4 * len + 2 * n2) * sizeof *b64);
    int rc = all_allocated(op, b64 != NULL, "the residual check");
    if (rc)
        goto out;
    /* after b64: x64, tmp and ax (len each), nb and nr (2 rhs each) */
    double *x64 = b64 + len, *tmp = x64 + len, *ax = tmp + len, *nb = ax + len, *nr = nb + n2;
    cg_to_f64(vdbl, b, b64, len);
    cg_to_f64(vdbl, x, x64, len);
    if ((rc = cg_apply(op, rhs, x64, tmp, ax)))
        goto out;
#pragma omp parallel for schedule(static)
    for (long k = 0; k < (long)len; k++)
        ax[k] = b64[k] - ax[k];
    /* under dist: each rank its part, summed over the ranks */
    if ((rc = cg_dot_op(op, rhs, b64, b64, nb)) || (rc = cg_dot_op(op, rhs, ax, ax, nr)))
        goto out;
    for (int r = 0; r < rhs; r++)
        rel[r] = nb[2 * r] > 0 ? sqrt(nr[2 * r] / nb[2 * r]) : (nr[2 * r] > 0 ? INFINITY : 0);
out:
    free(b64);
    return rc;
}

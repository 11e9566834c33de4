/* cg: fields, kernels, shapes and the solve loop on the device (cg_dev.h).
 * The kernels are cl/dslash.cl's: the stencil of the dslash workload on
 * either parity (dslash_par), the second half of the operator fused with
 * m^2 p and <p, Ap> (cg_apply), the vector updates and the reductions. */
#include "clb_workload.h"
#include "clb_fit.h"
#include "cg_dev.h"

#include <stdlib.h>
#include <string.h>

/* The kernel names of one build, in KD_* order (the three reductions are
 * three kernel objects of cg_reduce, each with its own fixed arguments). */
static const char *const kd_names[KD_N] = {"dslash_par", "cg_apply", "cg_init", "cg_update_r",
                                           "cg_update_xp", "cg_reduce", "cg_reduce",
                                           "cg_reduce"};
/* The index of the mask argument of each kernel. */
static const cl_uint kd_mask_arg[KD_N] = {10, 13, 7, 6, 5, 4, 4, 4};
/* scaling=: the operator's kernels on one rank's part (cl/dslash.cl) */
static const char *const kd_dist_names[2] = {"dslash_par_dist", "cg_apply_dist"};
static const cl_uint kd_dist_mask_arg[2] = {18, 23};
/* ... and the first of their box arguments (b0..b5, ends), cg_apply_dist's goff */
static const cl_uint kd_dist_box_arg[2] = {10, 14};
#define APPLY_DIST_GOFF 21
/* cl/dslash.cl's CG_MODE_* of the three reductions (scaling=: all SUM). */
enum { MODE_ALPHA = 0, MODE_BETA = 1, MODE_INIT = 2, MODE_SUM = 3 };

/* s->bb: |b_r|^2 in float64 over the part (under scaling= cg_dev_sum_bb,
 * every rank together, adds the ranks'). */
static int norms_of_b(struct cg_state *s)
{
    size_t n = cg_vec_len(&s->geom, s->maxrhs) * 2;
    double *b64 = clb_xmalloc(n * sizeof *b64), dots[2 * CG_MAX_RHS];
    if (!b64)
        return CLB_ESYS;
    cg_to_f64(s->dbl, s->b, b64, n);
    cg_dot(&s->geom, s->maxrhs, b64, b64, dots);
    for (int r = 0; r < s->maxrhs; r++)
        s->bb[r] = dots[2 * r];
    free(b64);
    return CLB_OK;
}

int cg_dev_sum_bb(struct cg_state *s)
{
    double mine[CG_MAX_RHS];
    int nerr;
    memcpy(mine, s->bb, (size_t)s->maxrhs * sizeof *mine);
    return lat_sum_ranks(mine, s->maxrhs, 0, s->bb, &nerr);
}

int cg_dev_alloc(struct clb_env *env, struct cg_state *s)
{
    struct lat_part *pt = &s->part;
    struct clb_device *d = env->dev;
    /* the group's count (the largest rhs) checked that these fit */
    size_t n = cg_vec_len(&s->geom, s->maxrhs) * 2, vecb = n * s->es;
    int rc = lat_links_open(env, pt, s->dbl, s->maxrhs, &s->lk);
    if (rc)
        return rc;
    s->b = clb_xmalloc(vecb);
    s->x = clb_xmalloc(vecb);
    if (!s->b || !s->x)
        return CLB_ESYS;
    /* the dslash workload's data: the same seeds, the same links */
    if (pt->scaling)
        lat_fill_global(&s->geom, pt->dc.G, pt->dc.O, s->dbl, NULL, NULL, NULL, 0, s->maxrhs,
                        LAT_SEED_B, s->b);
    else
        clb_fill(s->b, n, s->dbl, LAT_SEED_B);
    cl_mem *rw[] = {&s->dx, &s->dr, &s->dp, &s->dap, &s->dt};
    if ((rc = norms_of_b(s)) || (rc = clb_buffer(d, CL_MEM_READ_ONLY, vecb, &s->db)) ||
        (rc = clb_write(d, s->db, s->b, vecb)) ||
        (rc = clb_buffer(d, CL_MEM_READ_WRITE, 4 * (size_t)s->maxrhs * s->es, &s->dscal)))
        return rc;
    for (size_t i = 0; i < sizeof rw / sizeof *rw; i++)
        if ((rc = clb_buffer(d, CL_MEM_READ_WRITE, vecb, rw[i])))
            return rc;
    return CLB_OK;
}

/* ---- kernels and shapes ------------------------------------------------- */

static cl_kernel *slot(struct cg_state *s, const struct cg_case *cc)
{
    return s->k[cc->comp][cc->per];
}

static int build(struct clb_env *env, struct cg_state *s, const char *dtype,
                 const struct cg_case *cc)
{
    cl_kernel *k = slot(s, cc);
    if (k[0])
        return CLB_OK;
    char opts[160];
    lat_program_options(dtype, cc->per, cc->comp, opts, sizeof opts);
    for (int i = 0; i < KD_N; i++) {
        const char *name = s->part.scaling && i <= KD_APPLY ? kd_dist_names[i] : kd_names[i];
        int rc = clb_kernel(env->dev, "dslash", opts, name, &k[i]);
        if (rc) {
            clb_release_kernels(k, KD_N); /* all of a build or none */
            return rc;
        }
    }
    return CLB_OK;
}

/* The work-items a compiled kernel allows (the core's limit: the device's
 * and CLBENCH_MAX_WORK_GROUP's too). */
static size_t wg_limit(struct clb_env *env, cl_kernel k)
{
    struct clb_wg_limit l;
    if (clb_wg_limit(env, k, &l) != CLB_OK || l.items == 0)
        return env->info->max_wg;
    return l.items < l.dim[0] ? l.items : l.dim[0];
}

static size_t round_up(size_t n, size_t m)
{
    return (n + m - 1) / m * m;
}

/* lx halved until it is at most max (or 1). */
static size_t halve_to(size_t lx, size_t max)
{
    while (lx > 1 && lx > max)
        lx /= 2;
    return lx;
}

int cg_dev_shape(struct clb_env *env, struct cg_state *s, const char *dtype, struct cg_case *cc)
{
    int rc = build(env, s, dtype, cc);
    if (rc)
        return rc;
    cl_kernel *k = slot(s, cc);
    size_t vh = s->geom.vh, rhs = (size_t)cc->rhs;
    /* the operator: lx sites x the rhs blocks (all rhs of lx sites in one
     * work-group for cache and regcache, the [128,4] blocks of [Wagner15]) */
    size_t per = (size_t)cc->per, ly = rhs / per;
    size_t kop = wg_limit(env, k[KD_PAR]), kap = wg_limit(env, k[KD_APPLY]);
    size_t lx = s->local;
    while (lx > 1 &&
           (lx * ly > kop || lx * ly > kap || lx * ly * per * s->es > env->info->local_mem))
        lx /= 2;
    if (lx * ly > kop || lx * ly > kap)
        return clb_err(CLB_SKIP, "cg: the operator kernels allow work-groups of %zu work-items, "
                                 "fewer than the %zu right-hand sides of a work-group",
                                 kop < kap ? kop : kap, ly);
    cc->lop[0] = lx;
    cc->lop[1] = ly;
    cc->gop[0] = round_up(vh, lx);
    cc->gop[1] = ly;
    if (s->part.scaling) { /* interior and boundary launches, their partial sums in turn */
        cc->gin = round_up(s->part.halo.in.sites, lx);
        cc->gbd = round_up(s->part.halo.bd.sites, lx);
        cc->gop[0] = cc->gin + cc->gbd;
    }
    /* the vector kernels: lx sites of one rhs */
    size_t kv = wg_limit(env, k[KD_INIT]), ku = wg_limit(env, k[KD_UPD_R]);
    size_t kx = wg_limit(env, k[KD_UPD_XP]);
    size_t kmin = kv < ku ? kv : ku;
    lx = halve_to(s->local, kmin < kx ? kmin : kx);
    cc->lvec[0] = lx;
    cc->lvec[1] = 1;
    cc->gvec[0] = round_up(vh, lx);
    cc->gvec[1] = rhs;
    /* the reductions: one work-group per rhs */
    lx = halve_to(256, wg_limit(env, k[KD_RED_ALPHA]));
    cc->lred[0] = lx;
    cc->lred[1] = 1;
    cc->gred[0] = lx;
    cc->gred[1] = rhs;
    /* the partial sums of the largest grid */
    size_t ng = cc->gop[0] / cc->lop[0], nv = cc->gvec[0] / cc->lvec[0];
    size_t need = (ng > nv ? ng : nv) * (size_t)s->maxrhs;
    if (need > s->partial_elems) {
        clb_release_mems(&s->dpartial, 1);
        s->partial_elems = 0;
        if ((rc = clb_buffer(env->dev, CL_MEM_READ_WRITE, need * s->es, &s->dpartial)))
            return rc;
        s->partial_elems = need;
    }
    return CLB_OK;
}

/* ---- one solve ---------------------------------------------------------- */

/* The arguments of the operator's kernels on the whole lattice but the masks. */
static int set_args_op(struct cg_state *s, const struct cg_case *cc)
{
    cl_kernel *k = slot(s, cc);
    cl_mem lng = cc->comp ? s->lk.dcomp : s->lk.dfull;
    cl_int hx = s->geom.L[0] / 2, ly = s->geom.L[1], lz = s->geom.L[2], lt = s->geom.L[3];
    cl_int par = 1;
    cl_uint vh = (cl_uint)s->geom.vh, mask = 0;
    cl_float m2f = (cl_float)(s->mass * s->mass);
    cl_double m2d = s->mass * s->mass;
    const void *m2 = s->dbl ? (const void *)&m2d : (const void *)&m2f; /* s->es bytes */
    size_t sh_op = cc->lop[0] * cc->lop[1] * (size_t)cc->per * s->es, M = sizeof(cl_mem);
    int rc = clb_args(k[KD_PAR], M, &s->lk.dfat, M, &lng, M, &s->dp, M, &s->dt, sizeof hx, &hx,
                      sizeof ly, &ly, sizeof lz, &lz, sizeof lt, &lt, sizeof vh, &vh, sizeof par,
                      &par, sizeof mask, &mask, (size_t)0);
    if (rc)
        return rc;
    return clb_args(k[KD_APPLY], M, &s->lk.dfat, M, &lng, M, &s->dt, M, &s->dp, M, &s->dap, M,
                    &s->dpartial, sh_op, NULL, s->es, m2, sizeof hx, &hx, sizeof ly, &ly,
                    sizeof lz, &lz, sizeof lt, &lt, sizeof vh, &vh, sizeof mask, &mask,
                    (size_t)0);
}

/* The arguments of every kernel of the case but the masks (scaling=: the
 * operator's are set_args_dist's). */
static int set_args(struct cg_state *s, const struct cg_case *cc)
{
    cl_kernel *k = slot(s, cc);
    cl_int modes[3] = {MODE_ALPHA, MODE_BETA, MODE_INIT};
    cl_uint vh = (cl_uint)s->geom.vh, mask = 0;
    cl_uint ng_op = (cl_uint)(cc->gop[0] / cc->lop[0]);
    cl_uint ng_vec = (cl_uint)(cc->gvec[0] / cc->lvec[0]);
    cl_uint ngs[3] = {ng_op, ng_vec, ng_vec};
    size_t sh_vec = cc->lvec[0] * s->es, sh_red = cc->lred[0] * s->es, M = sizeof(cl_mem);
    int rc = s->part.scaling ? CLB_OK : set_args_op(s, cc);
    if (rc ||
        (rc = clb_args(k[KD_INIT], M, &s->db, M, &s->dx, M, &s->dr, M, &s->dp, M, &s->dpartial,
                       sh_vec, NULL, sizeof vh, &vh, sizeof mask, &mask, (size_t)0)) ||
        (rc = clb_args(k[KD_UPD_R], M, &s->dr, M, &s->dap, M, &s->dscal, M, &s->dpartial, sh_vec,
                       NULL, sizeof vh, &vh, sizeof mask, &mask, (size_t)0)) ||
        (rc = clb_args(k[KD_UPD_XP], M, &s->dx, M, &s->dp, M, &s->dr, M, &s->dscal, sizeof vh,
                       &vh, sizeof mask, &mask, (size_t)0)))
        return rc;
    for (int i = 0; i < 3; i++)
        if ((rc = clb_args(k[KD_RED_ALPHA + i], M, &s->dpartial, sizeof ngs[i], &ngs[i], M,
                           &s->dscal, sizeof modes[i], &modes[i], sizeof mask, &mask, sh_red,
                           NULL, (size_t)0)))
            return rc;
    return CLB_OK;
}

/* scaling=: the arguments of the operator's kernels on the part (but the
 * boxes, goff and masks); the reductions only sum. */
static int set_args_dist(struct cg_state *s, const struct cg_case *cc)
{
    cl_kernel *k = slot(s, cc);
    cl_mem lng = cc->comp ? s->lk.dcomp : s->lk.dfull, hlng = s->part.halo.dhlng[cc->comp];
    cl_int4 geo, dist;
    cl_uint4 hs;
    lat_halo_kargs(&s->part.halo, cc->rhs, &geo, &dist, &hs);
    cl_int par = 1, sum = MODE_SUM;
    cl_uint ngt = (cl_uint)(cc->gop[0] / cc->lop[0]), mask = 0;
    cl_float m2f = (cl_float)(s->mass * s->mass);
    cl_double m2d = s->mass * s->mass;
    const void *m2 = s->dbl ? (const void *)&m2d : (const void *)&m2f; /* s->es bytes */
    size_t sh_op = cc->lop[0] * cc->lop[1] * (size_t)cc->per * s->es, M = sizeof(cl_mem);
    int rc;
    if ((rc = clb_args(k[KD_PAR], M, &s->lk.dfat, M, &lng, M, &s->dp, M, &s->dt, M,
                       &s->part.halo.dhfat, M, &hlng, M, &s->part.halo.dhv, sizeof geo, &geo,
                       sizeof dist, &dist, sizeof hs, &hs, (size_t)0)) ||
        (rc = clb_args(k[KD_APPLY], M, &s->lk.dfat, M, &lng, M, &s->dt, M, &s->dp, M, &s->dap, M,
                       &s->dpartial, sh_op, NULL, s->es, m2, M, &s->part.halo.dhfat, M, &hlng, M,
                       &s->part.halo.dhv, sizeof geo, &geo, sizeof dist, &dist, sizeof hs, &hs,
                       (size_t)0)))
        return rc;
    CLB_CHECK(clSetKernelArg(k[KD_PAR], 17, sizeof par, &par), "clSetKernelArg(par)");
    CLB_CHECK(clSetKernelArg(k[KD_APPLY], 22, sizeof ngt, &ngt), "clSetKernelArg(ngt)");
    CLB_CHECK(clSetKernelArg(k[KD_PAR], 18, sizeof mask, &mask), "clSetKernelArg(mask)");
    CLB_CHECK(clSetKernelArg(k[KD_APPLY], 23, sizeof mask, &mask), "clSetKernelArg(mask)");
    for (int i = KD_RED_ALPHA; i <= KD_RED_INIT; i++)
        CLB_CHECK(clSetKernelArg(k[i], 3, sizeof sum, &sum), "clSetKernelArg(mode)");
    return CLB_OK;
}

static int set_mask(const struct cg_state *s, cl_kernel *k, cl_uint mask)
{
    for (int i = 0; i < KD_N; i++) {
        cl_uint a = s->part.scaling && i <= KD_APPLY ? kd_dist_mask_arg[i] : kd_mask_arg[i];
        CLB_CHECK(clSetKernelArg(k[i], a, sizeof mask, &mask), "clSetKernelArg(mask)");
    }
    return CLB_OK;
}

/* The launches of one solve and, when profiled, their events (rec NULL: not
 * profiled). */
struct launch_rec {
    cl_event ev;
    int kind;           /* CGP_* */
    double flops;       /* Dslash flop of a D_oe launch */
};
struct launches {
    struct launch_rec *rec;   /* NULL: no profile wanted */
    int n;
    size_t cap;
};

static void launches_free(struct launches *L)
{
    for (int i = 0; i < L->n; i++)
        clReleaseEvent(L->rec[i].ev);
    free(L->rec);
}

static int launch(struct clb_env *env, cl_kernel k, const size_t *g, const size_t *l,
                  struct launches *L, int kind, double flops, cl_event *keep)
{
    cl_event ev = NULL;
    int want = L->rec != NULL || keep != NULL;
    int rc = clb_launch(env->dev, k, 2, g, l, want ? &ev : NULL);
    if (rc)
        return rc;
    if (keep) {
        if (*keep)
            clReleaseEvent(*keep);
        clRetainEvent(ev);
        *keep = ev;
    }
    if (!L->rec) {
        if (ev)
            clReleaseEvent(ev);
        return CLB_OK;
    }
    if (CLB_GROW(L->rec, L->n, L->cap)) {
        clReleaseEvent(ev);
        return CLB_ESYS;
    }
    L->rec[L->n++] = (struct launch_rec){ev, kind, flops};
    return CLB_OK;
}

/* Real i of the scalars read back (scal). */
static double scal_at(const struct cg_state *s, const void *scal, int i)
{
    return s->dbl ? ((const double *)scal)[i] : (double)((const float *)scal)[i];
}

static cl_uint schedule_mask(const struct cg_case *cc, int k)
{
    cl_uint m = 0;
    for (int r = 0; r < cc->rhs; r++)
        if (cc->iters[r] > k)
            m |= 1u << r;
    return m;
}

static int popcount(cl_uint m)
{
    int n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

/* After a converging solve: the rhs still iterating (mask) did not
 * converge; the operator applications are the largest count. */
static void converged_counts(struct cg_case *cc, cl_uint mask)
{
    cc->niter = 0;
    cc->unconverged = mask != 0 ? popcount(mask) : 0;
    for (int r = 0; r < cc->rhs; r++)
        if (cc->iters[r] > cc->niter)
            cc->niter = cc->iters[r];
}

/* The start of a solve: the rhs iterating first (*mask), a converging
 * solve's counts reset; the iteration limit. */
static long solve_start(const struct cg_state *s, struct cg_case *cc, int converge,
                        cl_uint *mask)
{
    *mask = converge ? (cl_uint)((1u << cc->rhs) - 1u) : schedule_mask(cc, 0);
    for (int r = 0; r < cc->rhs && converge; r++) {
        cc->iters[r] = 0;
        cc->rec_res[r] = 1;
    }
    return converge ? s->maxiter : cc->niter;
}

/* A converging solve after iteration it: rhs r, at |r|^2 = rr, leaves the
 * mask next once converged (or NaN: stop). */
static cl_uint track(const struct cg_state *s, struct cg_case *cc, int r, long it, double rr,
                     cl_uint next)
{
    cc->iters[r] = (int)it + 1;
    cc->rec_res[r] = s->bb[r] > 0 ? sqrt(rr / s->bb[r]) : 0;
    return rr > s->tol * s->tol * s->bb[r] ? next : next & ~(1u << r);
}

/* The profile from the events of a finished solve. */
static int profile(struct launches *L, struct cg_profile *prof)
{
    memset(prof, 0, sizeof *prof);
    cl_ulong t0 = 0, t1 = 0;
    for (int i = 0; i < L->n; i++) {
        cl_ulong a, b;
        const struct launch_rec *r = &L->rec[i];
        CLB_CHECK(clGetEventProfilingInfo(r->ev, CL_PROFILING_COMMAND_START, sizeof a, &a, NULL),
                  "clGetEventProfilingInfo");
        CLB_CHECK(clGetEventProfilingInfo(r->ev, CL_PROFILING_COMMAND_END, sizeof b, &b, NULL),
                  "clGetEventProfilingInfo");
        prof->t[r->kind] += (double)(b - a) * 1e-9;
        prof->doe_flops += r->flops;
        if (i == 0 || a < t0)
            t0 = a;
        if (i == 0 || b > t1)
            t1 = b;
    }
    prof->wall = (double)(t1 - t0) * 1e-9;
    return CLB_OK;
}


/* ---- scaling=: one solve on the rank's part --------------------------------- */

/* The applications of a solve (their events): after it, the time each
 * boundary launch waited for its halos. */
struct pairs {
    struct lat_overlap *o;
    int n;
    size_t cap;
};

/* Keeps o's events (releases them when out of memory). */
static int pairs_add(struct pairs *p, struct lat_overlap *o)
{
    if (CLB_GROW(p->o, p->n, p->cap)) {
        lat_overlap_release(o);
        return CLB_ESYS;
    }
    p->o[p->n++] = *o;
    return CLB_OK;
}

/* Adds the applications' times to *sum (NULL: not wanted). */
static void pairs_free(struct pairs *p, struct lat_xtimes *sum)
{
    for (int i = 0; i < p->n; i++) {
        if (sum && p->o[i].bd) {
            struct lat_xtimes t;
            lat_overlap_times(&p->o[i], &t);
            double *to[] = {&sum->pack, &sum->in, &sum->bd, &sum->halo, &sum->gap};
            double v[] = {t.pack, t.in, t.bd, t.halo, t.gap};
            for (size_t k = 0; k < sizeof v / sizeof *v; k++) /* a NAN stays: no timer told */
                *to[k] += v[k];
        }
        lat_overlap_release(&p->o[i]);
    }
    free(p->o);
    memset(p, 0, sizeof *p);
}

/* One launch of the operator kernel kd (KD_PAR, KD_APPLY) over boxes b. */
static int launch_op(struct clb_env *env, struct cg_state *s, const struct cg_case *cc, int kd,
                     const struct lat_boxes *b, size_t gsize, cl_uint goff,
                     struct launches *L, double flops, cl_event *keep)
{
    cl_kernel k = slot(s, cc)[kd];
    int rc = lat_box_args(k, kd_dist_box_arg[kd == KD_APPLY], b);
    if (rc)
        return rc;
    if (kd == KD_APPLY)
        CLB_CHECK(clSetKernelArg(k, APPLY_DIST_GOFF, sizeof goff, &goff), "clSetKernelArg(goff)");
    size_t g[2] = {gsize, cc->gop[1]};
    return launch(env, k, g, cc->lop, L, kd == KD_PAR ? CGP_DOE : CGP_APPLY, flops, keep);
}

/* The interior or boundary launch of one operator application
 * (lat_halo_overlap), the Dslash flop split between them by their sites. */
struct part_launch {
    struct cg_state *s;
    const struct cg_case *cc;
    int kd;
    struct launches *L;
    double flops, fin;
};

static int launch_part(struct clb_env *env, void *ctx, const struct lat_boxes *b, int boundary,
                       cl_event *ev)
{
    const struct part_launch *p = ctx;
    const struct cg_case *cc = p->cc;
    if (!boundary)
        return launch_op(env, p->s, cc, p->kd, b, cc->gin, 0, p->L, p->fin, ev);
    return launch_op(env, p->s, cc, p->kd, b, cc->gbd, (cl_uint)(cc->gin / cc->lop[0]), p->L,
                     p->flops - p->fin, ev);
}

/* One operator kernel on the whole part: the halos of `field` exchanged while
 * the interior runs, then the boundary (lat_halo_overlap). After an error
 * (rc) only the messages, which the peers wait for. */
static int apply_op(struct clb_env *env, struct cg_state *s, const struct cg_case *cc, int kd,
                    cl_mem field, struct launches *L, double flops, struct pairs *pr, int rc)
{
    const struct lat_halo *h = &s->part.halo;
    double fin = h->in.sites ? flops * (double)h->in.sites / (double)s->geom.vh : 0;
    struct part_launch pl = {s, cc, kd, L, flops, fin};
    struct lat_overlap o;
    rc = lat_halo_overlap(env, &s->part.halo, field, cc->rhs, launch_part, &pl, rc, &o);
    s->solve_exchanges++;
    int e = pairs_add(pr, &o);
    return rc ? rc : e;
}

/* The reduction kd into each rhs's sum of this part (pAp slot of scal), read
 * back and summed over the ranks (the same bits everywhere) into sums; any
 * rank's error (rc) ends every rank's solve here: CLB_SKIP for the ranks that
 * had none (the job's agreement then names the rank that failed). */
static int reduce_sum(struct clb_env *env, struct cg_state *s, const struct cg_case *cc, int kd,
                      cl_uint mask, struct launches *L, void *scal, double *sums, int rc)
{
    double t0 = clb_now();
    int rhs = cc->rhs;
    double mine[CG_MAX_RHS] = {0};
    if (rc == CLB_OK)
        rc = launch(env, slot(s, cc)[kd], cc->gred, cc->lred, L, CGP_REDUCE, 0, NULL);
    if (rc == CLB_OK)
        rc = clb_read(env->dev, s->dscal, scal, 4 * (size_t)rhs * s->es);
    for (int r = 0; r < rhs && rc == CLB_OK; r++)
        if ((mask >> r) & 1u)
            mine[r] = scal_at(s, scal, 4 * r + 3);
    int nerr = 0, e = lat_sum_ranks(mine, rhs, rc != CLB_OK, sums, &nerr);
    s->solve_reduce += clb_now() - t0;
    if (rc)
        return rc;
    if (e)
        return e;
    if (nerr)
        return clb_err(CLB_SKIP, "cg: the distributed solve stopped: another rank failed");
    return CLB_OK;
}

/* The scalars of every rhs (rr, alpha, beta, pAp) to the device. */
static int put_scalars(struct clb_env *env, struct cg_state *s, int rhs, const double *v,
                       void *scal)
{
    for (int k = 0; k < 4 * rhs; k++) {
        if (s->dbl)
            ((double *)scal)[k] = v[k];
        else
            ((float *)scal)[k] = (float)v[k];
    }
    return clb_write(env->dev, s->dscal, scal, 4 * (size_t)rhs * s->es);
}

static int solve_dist(struct clb_env *env, struct cg_state *s, struct cg_case *cc, int converge,
                      struct launches *L)
{
    cl_kernel *k = slot(s, cc);
    int rhs = cc->rhs;
    cl_uint mask;
    long n = solve_start(s, cc, converge, &mask);
    double site_flops = CLB_DSLASH_FLOPS_SITE * (double)s->geom.vh;
    double rr[CG_MAX_RHS] = {0}, sums[CG_MAX_RHS], sc[4 * CG_MAX_RHS] = {0};
    struct pairs pr = {0};
    memset(&s->solve_x, 0, sizeof s->solve_x);
    s->solve_reduce = 0;
    s->solve_exchanges = 0;
    void *scal = clb_xmalloc(4 * (size_t)rhs * s->es);
    /* e: this rank's error so far; it still takes part in every exchange and
     * reduction (its peers wait for them) until the next reduction, which
     * ends every rank's solve (rc) */
    int e = scal ? set_args(s, cc) : CLB_ESYS, rc;
    if (e == CLB_OK)
        e = set_args_dist(s, cc);
    if (e == CLB_OK)
        e = set_mask(s, k, mask);
    if (e == CLB_OK)
        e = launch(env, k[KD_INIT], cc->gvec, cc->lvec, L, CGP_INIT, 0, NULL);
    rc = reduce_sum(env, s, cc, KD_RED_INIT, mask, L, scal, sums, e);
    e = CLB_OK;
    for (int r = 0; r < rhs; r++)
        rr[r] = sums[r];
    for (long it = 0; rc == CLB_OK && it < n && mask; it++) {
        double f = site_flops * popcount(mask);
        e = apply_op(env, s, cc, KD_PAR, s->dp, L, f, &pr, e);
        e = apply_op(env, s, cc, KD_APPLY, s->dt, L, 0, &pr, e);
        /* alpha = rr / <p, Ap> */
        if ((rc = reduce_sum(env, s, cc, KD_RED_ALPHA, mask, L, scal, sums, e)))
            break;
        for (int r = 0; r < rhs; r++) {
            sc[4 * r + 0] = rr[r];
            sc[4 * r + 3] = sums[r];
            sc[4 * r + 1] = sums[r] > 0 ? rr[r] / sums[r] : 0;
        }
        e = put_scalars(env, s, rhs, sc, scal);
        if (e == CLB_OK)
            e = launch(env, k[KD_UPD_R], cc->gvec, cc->lvec, L, CGP_UPD_R, 0, NULL);
        /* beta = |r|^2 / rr, rr = |r|^2 */
        if ((rc = reduce_sum(env, s, cc, KD_RED_BETA, mask, L, scal, sums, e)))
            break;
        cl_uint next = mask;
        for (int r = 0; r < rhs; r++) {
            if (!((mask >> r) & 1u))
                continue;
            sc[4 * r + 2] = rr[r] > 0 ? sums[r] / rr[r] : 0;
            rr[r] = sums[r];
            sc[4 * r + 0] = rr[r];
            if (converge)
                next = track(s, cc, r, it, rr[r], next);
        }
        if (!converge)
            next = schedule_mask(cc, (int)it + 1);
        e = put_scalars(env, s, rhs, sc, scal);
        if (e == CLB_OK)
            e = launch(env, k[KD_UPD_XP], cc->gvec, cc->lvec, L, CGP_UPD_XP, 0, NULL);
        if (e == CLB_OK && next != mask && next)
            e = set_mask(s, k, next);
        mask = next;
    }
    if (rc == CLB_OK) /* an error after the last reduction: this rank's only */
        rc = e;
    if (converge && rc == CLB_OK)
        converged_counts(cc, mask);
    /* the queue was flushed: clb_finish, not clFinish (Rusticl) */
    if (rc == CLB_OK)
        rc = clb_finish(env->dev->queue);
    else
        clb_finish(env->dev->queue);
    pairs_free(&pr, rc == CLB_OK ? &s->solve_x : NULL);
    free(scal);
    return rc;
}

/* One solve on the whole lattice (cg_dev_solve without scaling=). */
static int solve_local(struct clb_env *env, struct cg_state *s, struct cg_case *cc,
                       int converge, struct launches *L, cl_event *first, cl_event *last)
{
    cl_kernel *k = slot(s, cc);
    int rhs = cc->rhs;
    cl_uint mask;
    long n = solve_start(s, cc, converge, &mask);
    double site_flops = CLB_DSLASH_FLOPS_SITE * (double)s->geom.vh;
    void *scal = clb_xmalloc(4 * (size_t)rhs * s->es);
    int rc = scal ? set_args(s, cc) : CLB_ESYS;
    if (rc == CLB_OK)
        rc = set_mask(s, k, mask);
    if (rc == CLB_OK)
        rc = launch(env, k[KD_INIT], cc->gvec, cc->lvec, L, CGP_INIT, 0, first);
    if (rc == CLB_OK)
        rc = launch(env, k[KD_RED_INIT], cc->gred, cc->lred, L, CGP_REDUCE, 0, NULL);
    for (long it = 0; rc == CLB_OK && it < n && mask; it++) {
        int final = !converge && it == n - 1;
        double f = site_flops * popcount(mask);
        if ((rc = launch(env, k[KD_PAR], cc->gop, cc->lop, L, CGP_DOE, f, NULL)) ||
            (rc = launch(env, k[KD_APPLY], cc->gop, cc->lop, L, CGP_APPLY, 0, NULL)) ||
            (rc = launch(env, k[KD_RED_ALPHA], cc->gred, cc->lred, L, CGP_REDUCE, 0, NULL)) ||
            (rc = launch(env, k[KD_UPD_R], cc->gvec, cc->lvec, L, CGP_UPD_R, 0, NULL)) ||
            (rc = launch(env, k[KD_RED_BETA], cc->gred, cc->lred, L, CGP_REDUCE, 0, NULL)) ||
            (rc = launch(env, k[KD_UPD_XP], cc->gvec, cc->lvec, L, CGP_UPD_XP, 0,
                         final ? last : NULL)))
            break;
        cl_uint next = converge ? mask : schedule_mask(cc, (int)it + 1);
        /* converging: the recursive residuals |r|^2 of every rhs (4 x rhs reals) */
        if (converge && (rc = clb_read(env->dev, s->dscal, scal, 4 * (size_t)rhs * s->es)))
            break;
        for (int r = 0; r < rhs && converge; r++)
            if ((mask >> r) & 1u)
                next = track(s, cc, r, it, scal_at(s, scal, 4 * r), next);
        if (rc == CLB_OK && next != mask && next)
            rc = set_mask(s, k, next);
        mask = next;
    }
    if (converge && rc == CLB_OK)
        converged_counts(cc, mask);
    if (rc == CLB_OK && (L->rec || converge))
        rc = clb_finish(env->dev->queue);
    free(scal);
    return rc;
}

int cg_dev_solve(struct clb_env *env, struct cg_state *s, struct cg_case *cc, int converge,
                 struct cg_profile *prof, cl_event *first, cl_event *last)
{
    struct launches L = {0};
    if (prof && CLB_GROW(L.rec, 0, L.cap))
        return CLB_ESYS;
    int rc = s->part.scaling ? solve_dist(env, s, cc, converge, &L)
                             : solve_local(env, s, cc, converge, &L, first, last);
    if (rc == CLB_OK && prof)
        rc = profile(&L, prof);
    if (rc == CLB_OK && prof && s->part.scaling) {
        prof->halo = s->solve_x.halo;
        prof->gap = s->solve_x.gap;
    }
    launches_free(&L);
    return rc;
}

void cg_dev_free(struct clb_env *env, struct cg_state *s)
{
    lat_links_close(env, &s->part, &s->lk);
    for (int c = 0; c < 2; c++)
        for (int r = 0; r <= CG_MAX_RHS; r++)
            clb_release_kernels(s->k[c][r], KD_N);
    cl_mem *bufs[] = {&s->db, &s->dx, &s->dr, &s->dp, &s->dap, &s->dt, &s->dscal, &s->dpartial};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        clb_release_mems(bufs[i], 1);
    free(s->b);
    free(s->x);
}

/* cg: fields, kernels, shapes and the solve loop on the device (cg_dev.h).
 * The kernels are cl/dslash.cl's: the stencil of the dslash workload on
 * either parity (dslash_par), the second half of the operator fused with
 * m^2 p and <p, Ap> (cg_apply), the vector updates and the reductions. */
#include "clb_workload.h"
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
/* cl/dslash.cl's CG_MODE_* of the three reductions. */
enum { MODE_ALPHA = 0, MODE_BETA = 1, MODE_INIT = 2 };

static void fill_random(const struct cg_state *s, void *p, size_t reals, unsigned long long seed)
{
    if (s->dbl)
        clb_fill_f64(p, reals, seed);
    else
        clb_fill_f32(p, reals, seed);
}

int cg_dev_alloc(struct clb_env *env, struct cg_state *s)
{
    /* the group's count (the largest rhs) checked that these sizes fit */
    size_t vh = s->geom.vh, cplx = 2 * s->es;
    size_t linkb = 8 * 9 * vh * cplx, compb = 8 * 7 * vh * cplx;
    size_t vecb = cg_vec_len(&s->geom, s->maxrhs) * cplx;
    s->fat = clb_xmalloc(linkb);
    s->full = clb_xmalloc(linkb);
    s->comp = clb_xmalloc(compb);
    s->b = clb_xmalloc(vecb);
    s->x = clb_xmalloc(vecb);
    double *b64 = clb_xmalloc(vecb / s->es * sizeof(double)), dots[2 * CG_MAX_RHS];
    if (!s->fat || !s->full || !s->comp || !s->b || !s->x || !b64) {
        free(b64);
        return CLB_ESYS;
    }
    /* the dslash workload's data: the same seeds, the same links */
    fill_random(s, s->fat, 8 * 9 * vh * 2, 11);
    dslash_fill_long(&s->geom, s->dbl, s->full, s->comp);
    fill_random(s, s->b, cg_vec_len(&s->geom, s->maxrhs) * 2, 13);
    cg_to_f64(s->dbl, s->b, b64, cg_vec_len(&s->geom, s->maxrhs) * 2);
    cg_dot(&s->geom, s->maxrhs, b64, b64, dots);
    for (int r = 0; r < s->maxrhs; r++)
        s->bb[r] = dots[2 * r];
    free(b64);
    s->rebuild_err = dslash_rebuild_error(&s->geom, s->dbl, s->full, s->comp);
    struct clb_device *d = env->dev;
    cl_mem *rw[] = {&s->dx, &s->dr, &s->dp, &s->dap, &s->dt};
    int rc;
    if ((rc = clb_buffer(d, CL_MEM_READ_ONLY, linkb, &s->dfat)) ||
        (rc = clb_buffer(d, CL_MEM_READ_ONLY, linkb, &s->dfull)) ||
        (rc = clb_buffer(d, CL_MEM_READ_ONLY, compb, &s->dcomp)) ||
        (rc = clb_buffer(d, CL_MEM_READ_ONLY, vecb, &s->db)) ||
        (rc = clb_buffer(d, CL_MEM_READ_WRITE, 4 * (size_t)s->maxrhs * s->es, &s->dscal)))
        return rc;
    for (size_t i = 0; i < sizeof rw / sizeof *rw; i++)
        if ((rc = clb_buffer(d, CL_MEM_READ_WRITE, vecb, rw[i])))
            return rc;
    if ((rc = clb_write(d, s->dfat, s->fat, linkb)) ||
        (rc = clb_write(d, s->dfull, s->full, linkb)) ||
        (rc = clb_write(d, s->dcomp, s->comp, compb)) || (rc = clb_write(d, s->db, s->b, vecb)))
        return rc;
    return CLB_OK;
}

/* ---- kernels and shapes ------------------------------------------------- */

static cl_kernel *slot(struct cg_state *s, const struct cg_case *cc)
{
    return s->k[cc->comp][cc->kind == CG_CACHE ? 1 : cc->rhs];
}

static int build(struct clb_env *env, struct cg_state *s, const char *dtype,
                 const struct cg_case *cc)
{
    cl_kernel *k = slot(s, cc);
    if (k[0])
        return CLB_OK;
    char opts[160];
    clb_dtype_defines(dtype, opts, sizeof opts);
    clb_appendf(opts, sizeof opts, " -DRHS=%d%s", cc->kind == CG_CACHE ? 1 : cc->rhs,
                cc->comp ? " -DCOMPRESSED=1" : "");
    for (int i = 0; i < KD_N; i++) {
        int rc = clb_kernel(env->dev, "dslash", opts, kd_names[i], &k[i]);
        if (rc) {
            clb_release_kernels(k, KD_N); /* all of a build or none */
            return rc;
        }
    }
    return CLB_OK;
}

static size_t wg_limit(struct clb_env *env, cl_kernel k)
{
    size_t kmax = env->info->max_wg;
    if (clGetKernelWorkGroupInfo(k, env->info->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax,
                                 &kmax, NULL) != CL_SUCCESS || kmax == 0)
        kmax = env->info->max_wg;
    return kmax;
}

static size_t round_up(size_t n, size_t m)
{
    return (n + m - 1) / m * m;
}

int cg_dev_shape(struct clb_env *env, struct cg_state *s, const char *dtype, struct cg_case *cc)
{
    int rc = build(env, s, dtype, cc);
    if (rc)
        return rc;
    cl_kernel *k = slot(s, cc);
    size_t vh = s->geom.vh, rhs = (size_t)cc->rhs;
    /* the operator: lx sites x the rhs blocks (all rhs of lx sites in one
     * work-group for cache, the talk's [128,4] blocks) */
    size_t ly = cc->kind == CG_CACHE ? rhs : 1, per = cc->kind == CG_CACHE ? 1 : rhs;
    size_t kop = wg_limit(env, k[KD_PAR]), kap = wg_limit(env, k[KD_APPLY]);
    size_t lx = s->local;
    while (lx > 1 &&
           (lx * ly > kop || lx * ly > kap || lx * ly * per * s->es > env->info->local_mem))
        lx /= 2;
    if (lx * ly > kop || lx * ly > kap) {
        clb_seterr("cg: the operator kernels allow work-groups of %zu work-items, fewer than "
                   "the %zu right-hand sides of a work-group", kop < kap ? kop : kap, ly);
        return CLB_SKIP;
    }
    cc->lop[0] = lx;
    cc->lop[1] = ly;
    cc->gop[0] = round_up(vh, lx);
    cc->gop[1] = ly;
    /* the vector kernels: lx sites of one rhs */
    size_t kv = wg_limit(env, k[KD_INIT]), ku = wg_limit(env, k[KD_UPD_R]);
    size_t kx = wg_limit(env, k[KD_UPD_XP]);
    lx = s->local;
    while (lx > 1 && (lx > kv || lx > ku || lx > kx))
        lx /= 2;
    cc->lvec[0] = lx;
    cc->lvec[1] = 1;
    cc->gvec[0] = round_up(vh, lx);
    cc->gvec[1] = rhs;
    /* the reductions: one work-group per rhs */
    size_t kr = wg_limit(env, k[KD_RED_ALPHA]);
    lx = 256;
    while (lx > 1 && lx > kr)
        lx /= 2;
    cc->lred[0] = lx;
    cc->lred[1] = 1;
    cc->gred[0] = lx;
    cc->gred[1] = rhs;
    /* the partial sums of the largest grid */
    size_t ng = cc->gop[0] / cc->lop[0];
    if (cc->gvec[0] / cc->lvec[0] > ng)
        ng = cc->gvec[0] / cc->lvec[0];
    size_t need = ng * (size_t)s->maxrhs;
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

/* The arguments of every kernel of the case but the masks. */
static int set_args(struct cg_state *s, const struct cg_case *cc)
{
    cl_kernel *k = slot(s, cc);
    cl_mem lng = cc->comp ? s->dcomp : s->dfull;
    cl_int hx = s->geom.L[0] / 2, ly = s->geom.L[1], lz = s->geom.L[2], lt = s->geom.L[3];
    cl_int par = 1, modes[3] = {MODE_ALPHA, MODE_BETA, MODE_INIT};
    cl_uint vh = (cl_uint)s->geom.vh, mask = 0;
    cl_uint ng_op = (cl_uint)(cc->gop[0] / cc->lop[0]);
    cl_uint ng_vec = (cl_uint)(cc->gvec[0] / cc->lvec[0]);
    cl_uint ngs[3] = {ng_op, ng_vec, ng_vec};
    cl_float m2f = (cl_float)(s->mass * s->mass);
    cl_double m2d = s->mass * s->mass;
    size_t m2size = s->dbl ? sizeof m2d : sizeof m2f;
    const void *m2 = s->dbl ? (const void *)&m2d : (const void *)&m2f;
    size_t per = cc->kind == CG_CACHE ? 1 : (size_t)cc->rhs;
    size_t sh_op = cc->lop[0] * cc->lop[1] * per * s->es, sh_vec = cc->lvec[0] * s->es;
    size_t sh_red = cc->lred[0] * s->es, M = sizeof(cl_mem);
    int rc;
    if ((rc = clb_args(k[KD_PAR], M, &s->dfat, M, &lng, M, &s->dp, M, &s->dt, sizeof hx, &hx,
                       sizeof ly, &ly, sizeof lz, &lz, sizeof lt, &lt, sizeof vh, &vh,
                       sizeof par, &par, sizeof mask, &mask, (size_t)0)) ||
        (rc = clb_args(k[KD_APPLY], M, &s->dfat, M, &lng, M, &s->dt, M, &s->dp, M, &s->dap, M,
                       &s->dpartial, sh_op, NULL, m2size, m2, sizeof hx, &hx, sizeof ly, &ly,
                       sizeof lz, &lz, sizeof lt, &lt, sizeof vh, &vh, sizeof mask, &mask,
                       (size_t)0)) ||
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

static int set_mask(cl_kernel *k, cl_uint mask)
{
    for (int i = 0; i < KD_N; i++)
        CLB_CHECK(clSetKernelArg(k[i], kd_mask_arg[i], sizeof mask, &mask), "clSetKernelArg(mask)");
    return CLB_OK;
}

/* The launches of one solve and, when profiled, their events. */
struct launches {
    cl_event *ev;
    int *kind;          /* CGP_* of each event */
    double *flops;      /* Dslash flop of each D_oe launch */
    int n, cap;
};

static int launch(struct clb_env *env, cl_kernel k, const size_t *g, const size_t *l,
                  struct launches *L, int kind, double flops, cl_event *keep)
{
    cl_event ev = NULL;
    int want = L->ev != NULL || keep != NULL;
    int rc = clb_launch(env->dev, k, 2, g, l, want ? &ev : NULL);
    if (rc)
        return rc;
    if (keep) {
        if (*keep)
            clReleaseEvent(*keep);
        clRetainEvent(ev);
        *keep = ev;
    }
    if (!L->ev) {
        if (ev)
            clReleaseEvent(ev);
        return CLB_OK;
    }
    if (L->n == L->cap) {
        int cap = L->cap ? 2 * L->cap : 256;
        cl_event *ne = realloc(L->ev, (size_t)cap * sizeof *ne);
        if (ne)
            L->ev = ne;
        int *nk = ne ? realloc(L->kind, (size_t)cap * sizeof *nk) : NULL;
        if (nk)
            L->kind = nk;
        double *nf = nk ? realloc(L->flops, (size_t)cap * sizeof *nf) : NULL;
        if (!nf) {
            clReleaseEvent(ev);
            clb_seterr("cg: out of host memory for the profile's events");
            return CLB_ESYS;
        }
        L->flops = nf;
        L->cap = cap;
    }
    L->ev[L->n] = ev;
    L->kind[L->n] = kind;
    L->flops[L->n] = flops;
    L->n++;
    return CLB_OK;
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

/* The profile from the events of a finished solve. */
static int profile(struct launches *L, struct cg_profile *prof)
{
    memset(prof, 0, sizeof *prof);
    cl_ulong t0 = 0, t1 = 0;
    for (int i = 0; i < L->n; i++) {
        cl_ulong a, b;
        CLB_CHECK(clGetEventProfilingInfo(L->ev[i], CL_PROFILING_COMMAND_START, sizeof a, &a,
                                          NULL), "clGetEventProfilingInfo");
        CLB_CHECK(clGetEventProfilingInfo(L->ev[i], CL_PROFILING_COMMAND_END, sizeof b, &b, NULL),
                  "clGetEventProfilingInfo");
        prof->t[L->kind[i]] += (double)(b - a) * 1e-9;
        prof->doe_flops += L->flops[i];
        if (i == 0 || a < t0)
            t0 = a;
        if (i == 0 || b > t1)
            t1 = b;
    }
    prof->wall = (double)(t1 - t0) * 1e-9;
    return CLB_OK;
}

int cg_dev_solve(struct clb_env *env, struct cg_state *s, struct cg_case *cc, int converge,
                 struct cg_profile *prof, cl_event *first, cl_event *last)
{
    cl_kernel *k = slot(s, cc);
    struct launches L = {0};
    if (prof && !(L.ev = malloc(256 * sizeof *L.ev)))
        return CLB_ESYS;
    if (prof) {
        L.kind = malloc(256 * sizeof *L.kind);
        L.flops = malloc(256 * sizeof *L.flops);
        L.cap = 256;
        if (!L.kind || !L.flops) {
            free(L.ev);
            free(L.kind);
            free(L.flops);
            return CLB_ESYS;
        }
    }
    int rhs = cc->rhs;
    cl_uint all = (cl_uint)((1u << rhs) - 1u);
    cl_uint mask = converge ? all : schedule_mask(cc, 0);
    long n = converge ? s->maxiter : cc->niter;
    double site_flops = CLB_DSLASH_FLOPS_SITE * (double)s->geom.vh;
    void *scal = clb_xmalloc(4 * (size_t)rhs * s->es);
    int rc = scal ? set_args(s, cc) : CLB_ESYS;
    if (rc == CLB_OK)
        rc = set_mask(k, mask);
    if (rc == CLB_OK)
        rc = launch(env, k[KD_INIT], cc->gvec, cc->lvec, &L, CGP_INIT, 0, first);
    if (rc == CLB_OK)
        rc = launch(env, k[KD_RED_INIT], cc->gred, cc->lred, &L, CGP_REDUCE, 0, NULL);
    if (converge)
        for (int r = 0; r < rhs; r++) {
            cc->iters[r] = 0;
            cc->rec_res[r] = 1;
        }
    for (long it = 0; rc == CLB_OK && it < n && mask; it++) {
        int final = !converge && it == n - 1;
        double f = site_flops * popcount(mask);
        if ((rc = launch(env, k[KD_PAR], cc->gop, cc->lop, &L, CGP_DOE, f, NULL)) ||
            (rc = launch(env, k[KD_APPLY], cc->gop, cc->lop, &L, CGP_APPLY, 0, NULL)) ||
            (rc = launch(env, k[KD_RED_ALPHA], cc->gred, cc->lred, &L, CGP_REDUCE, 0, NULL)) ||
            (rc = launch(env, k[KD_UPD_R], cc->gvec, cc->lvec, &L, CGP_UPD_R, 0, NULL)) ||
            (rc = launch(env, k[KD_RED_BETA], cc->gred, cc->lred, &L, CGP_REDUCE, 0, NULL)) ||
            (rc = launch(env, k[KD_UPD_XP], cc->gvec, cc->lvec, &L, CGP_UPD_XP, 0,
                         final ? last : NULL)))
            break;
        cl_uint next = mask;
        if (converge) {
            /* the recursive residuals |r|^2 of every rhs: 4 x rhs reals */
            if ((rc = clb_read(env->dev, s->dscal, scal, 4 * (size_t)rhs * s->es)))
                break;
            for (int r = 0; r < rhs; r++) {
                if (!((mask >> r) & 1u))
                    continue;
                double rr = s->dbl ? ((double *)scal)[4 * r] : (double)((float *)scal)[4 * r];
                cc->iters[r] = (int)it + 1;
                cc->rec_res[r] = s->bb[r] > 0 ? sqrt(rr / s->bb[r]) : 0;
                if (!(rr > s->tol * s->tol * s->bb[r])) /* converged, or NaN: stop */
                    next &= ~(1u << r);
            }
        } else {
            next = schedule_mask(cc, (int)it + 1);
        }
        if (rc == CLB_OK && next != mask && next)
            rc = set_mask(k, next);
        mask = next;
    }
    if (converge && rc == CLB_OK) {
        cc->niter = 0;
        cc->unconverged = mask != 0 ? popcount(mask) : 0;
        for (int r = 0; r < rhs; r++)
            if (cc->iters[r] > cc->niter)
                cc->niter = cc->iters[r];
    }
    if (rc == CLB_OK && (prof || converge)) {
        cl_int err = clFinish(env->dev->queue);
        if (err != CL_SUCCESS) {
            clb_seterr("clFinish: %s", clb_cl_errstr(err));
            rc = CLB_ECL;
        }
    }
    if (rc == CLB_OK && prof)
        rc = profile(&L, prof);
    for (int i = 0; i < L.n; i++)
        clReleaseEvent(L.ev[i]);
    free(L.ev);
    free(L.kind);
    free(L.flops);
    free(scal);
    return rc;
}

void cg_dev_free(struct cg_state *s)
{
    for (int c = 0; c < 2; c++)
        for (int r = 0; r <= CG_MAX_RHS; r++)
            clb_release_kernels(s->k[c][r], KD_N);
    cl_mem *bufs[] = {&s->dfat, &s->dfull, &s->dcomp, &s->db,   &s->dx,      &s->dr,
                      &s->dp,   &s->dap,   &s->dt,    &s->dscal, &s->dpartial};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        clb_release_mems(bufs[i], 1);
    free(s->fat);
    free(s->full);
    free(s->comp);
    free(s->b);
    free(s->x);
}

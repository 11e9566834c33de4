/* dslash: the HISQ staggered Dslash of the GTC 2015 talk, with r right-hand
 * sides per launch (links loaded once, applied to all r vectors). Rows count
 * the talk's model: 1146 flop and (1024 + 408 r) bytes per even site in fp32
 * (compressed long links; 1152 + 408 r with full ones), twice in fp64.
 * Geometry, layout and the float64 reference: include/dslash_ref.h. */
#include "clb_workload.h"
#include "dslash_ref.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { K_REG, K_CACHE };
#define MAX_RHS 8

struct dslash {
    int dbl;
    size_t es;               /* bytes of one real */
    struct dslash_geom geom;
    int maxrhs;
    void *fat, *full, *comp; /* host copies of the links (full and compressed long links) */
    void *v, *w;             /* inputs (maxrhs vectors), read-back output */
    double *ref;             /* float64 reference for maxrhs vectors */
    double rebuild_err;      /* max |stored row 2 - rebuilt row 2| of the long links */
    cl_mem dfat, dfull, dcomp, dv, dw;
    cl_kernel k[2][MAX_RHS + 1]; /* [compressed][RHS] */
    size_t local;
};

static const struct clb_param_def params[] = {
    {"rhs", "", "right-hand sides per launch, 1..8, a list or range (default 1,2,4,8; --quick 1,3)"},
    {"links", "full,compressed",
     "long-link storage: full (72 B in fp32) or compressed (56 B: two rows + det), or both"},
    {"kernel", "reg,cache",
     "reg (rhs accumulators in registers), cache (one work-item per site and rhs, links shared "
     "through the cache), best (the profile's dslash.best, else the faster in a short probe)"},
    {"local", "", "work-group size along the sites (default 128 on GPUs, the driver's on CPUs)"},
    {0, 0, 0}};

static int check_size(const struct clb_size *s, char *err, size_t errlen)
{
    int bad = dslash_bad_extent(s->d);
    if (bad)
        snprintf(err, errlen,
                 "bad lattice extent %zu in direction %c (every extent must be even, for the "
                 "even/odd split, and >= 4, for the three-hop links; e.g. 16x16x16x8)",
                 s->d[bad - 1], "xyzt"[bad - 1]);
    return bad ? CLB_EUSAGE : CLB_OK;
}

/* Bytes of one group's device buffers at the largest rhs. */
static size_t group_bytes(const size_t L[4], size_t es, int rhs)
{
    size_t vh = L[0] * L[1] * L[2] * L[3] / 2;
    return vh * 2 * es * (8 * 9 * 2 + 8 * 7 + 2 * 3 * (size_t)rhs);
}

static void default_sizes(const struct clb_env *env, const char *dtype, char *out, size_t n)
{
    if (env->quick) {
        snprintf(out, n, "8x8x8x8");
        return;
    }
    /* The talk's largest lattice where it fits; CPUs get 32^3x8 (still well
     * beyond their last-level caches: 210 MB of links in fp32). */
    static const size_t cand[][4] = {{64, 64, 64, 16}, {48, 48, 48, 12}, {32, 32, 32, 8},
                                     {16, 16, 16, 4}};
    int first = (env->info->type & CL_DEVICE_TYPE_GPU) ? 0 : 2;
    size_t es = clb_dtype_size(dtype);
    for (int c = first; c < 4; c++) {
        size_t largest = cand[c][0] * cand[c][1] * cand[c][2] * cand[c][3] / 2 * 8 * 9 * 2 * es;
        if (c == 3 || (group_bytes(cand[c], es, MAX_RHS) < env->info->global_mem * 3 / 4 &&
                       largest <= env->info->max_alloc)) {
            snprintf(out, n, "%zux%zux%zux%zu", cand[c][0], cand[c][1], cand[c][2], cand[c][3]);
            return;
        }
    }
}

/* ---- fields --------------------------------------------------------------- */

static void put(struct dslash *d, void *p, size_t k, double re, double im)
{
    if (d->dbl) {
        ((double *)p)[2 * k] = re;
        ((double *)p)[2 * k + 1] = im;
    } else {
        ((float *)p)[2 * k] = (float)re;
        ((float *)p)[2 * k + 1] = (float)im;
    }
}

/* Random U(3) long links, full and compressed; the seed of each link is its
 * position, so the data do not depend on the thread count. */
static void fill_long(struct dslash *d)
{
    const struct dslash_geom *g = &d->geom;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < (long)g->vh; i++)
        for (int p = 0; p < 2; p++)
            for (int mu = 0; mu < 4; mu++) {
                unsigned long long st = 0x5DEECE66DULL * (unsigned long long)(i * 8 + p * 4 + mu + 1);
                double m[18], det[2];
                dslash_random_u3(&st, m);
                dslash_det3(m, det);
                for (int e = 0; e < 9; e++)
                    put(d, d->full, dslash_link_at(g, DSLASH_NE_FULL, p, mu, e, (size_t)i),
                        m[2 * e], m[2 * e + 1]);
                for (int e = 0; e < 6; e++)
                    put(d, d->comp, dslash_link_at(g, DSLASH_NE_COMPRESSED, p, mu, e, (size_t)i),
                        m[2 * e], m[2 * e + 1]);
                put(d, d->comp, dslash_link_at(g, DSLASH_NE_COMPRESSED, p, mu, 6, (size_t)i),
                    det[0], det[1]);
            }
}

static void fill_random(struct dslash *d, void *p, size_t reals, unsigned long long seed)
{
    if (d->dbl)
        clb_fill_f64(p, reals, seed);
    else
        clb_fill_f32(p, reals, seed);
}

/* ---- setup ------------------------------------------------------------------ */

static int parse_lists(struct clb_env *env, long *rhs, int *nrhs, int *links, int *nlinks,
                       int *kernels, int *nkernels)
{
    int rc;
    if (clb_param(env, "rhs")[0]) {
        if ((rc = clb_param_ints(env, "rhs", 1, MAX_RHS, rhs, 16, nrhs)))
            return rc;
    } else {
        const long def[] = {1, 2, 4, 8}, quick[] = {1, 3};
        *nrhs = env->quick ? 2 : 4;
        memcpy(rhs, env->quick ? quick : def, (size_t)*nrhs * sizeof *rhs);
    }
    int n;
    char **v = clb_split(clb_param(env, "links"), &n);
    if (!v)
        return CLB_ESYS;
    *nlinks = 0;
    for (int i = 0; i < n && *nlinks < 2; i++) {
        if (strcmp(v[i], "full") && strcmp(v[i], "compressed")) {
            clb_seterr("dslash: bad links '%s' (accepted: full, compressed)", v[i]);
            free(v);
            return CLB_EUSAGE;
        }
        links[(*nlinks)++] = strcmp(v[i], "compressed") == 0;
    }
    free(v);
    if (!(v = clb_split(clb_param(env, "kernel"), &n)))
        return CLB_ESYS;
    *nkernels = 0;
    for (int i = 0; i < n && *nkernels < 3; i++) {
        int k = strcmp(v[i], "reg") == 0 ? 0 : strcmp(v[i], "cache") == 0 ? 1
              : strcmp(v[i], "best") == 0 ? 2 : -1;
        if (k < 0) {
            clb_seterr("dslash: bad kernel '%s' (accepted: reg, cache, best)", v[i]);
            free(v);
            return CLB_EUSAGE;
        }
        kernels[(*nkernels)++] = k;
    }
    free(v);
    if (*nlinks == 0 || *nkernels == 0) {
        clb_seterr("dslash: empty links or kernel list (accepted: full,compressed; reg,cache,best)");
        return CLB_EUSAGE;
    }
    return CLB_OK;
}

static int alloc_fields(struct clb_env *env, struct dslash *d)
{
    size_t vh = d->geom.vh, cplx = 2 * d->es;
    size_t linkb = 8 * 9 * vh * cplx, compb = 8 * 7 * vh * cplx;
    size_t vecb = (size_t)d->maxrhs * 3 * vh * cplx;
    int rc;
    if ((rc = clb_fits(env->dev, linkb, 2 * linkb + compb + 2 * vecb)))
        return rc;
    d->fat = clb_xmalloc(linkb);
    d->full = clb_xmalloc(linkb);
    d->comp = clb_xmalloc(compb);
    d->v = clb_xmalloc(vecb);
    d->w = clb_xmalloc(vecb);
    d->ref = clb_xmalloc((size_t)d->maxrhs * 3 * vh * 2 * sizeof(double));
    if (!d->fat || !d->full || !d->comp || !d->v || !d->w || !d->ref)
        return CLB_ESYS;
    fill_random(d, d->fat, 8 * 9 * vh * 2, 11);
    fill_random(d, d->v, (size_t)d->maxrhs * 3 * vh * 2, 12);
    fill_long(d);
    if ((rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, linkb, &d->dfat)) ||
        (rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, linkb, &d->dfull)) ||
        (rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, compb, &d->dcomp)) ||
        (rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, vecb, &d->dv)) ||
        (rc = clb_buffer(env->dev, CL_MEM_READ_WRITE, vecb, &d->dw)) ||
        (rc = clb_write(env->dev, d->dfat, d->fat, linkb)) ||
        (rc = clb_write(env->dev, d->dfull, d->full, linkb)) ||
        (rc = clb_write(env->dev, d->dcomp, d->comp, compb)) ||
        (rc = clb_write(env->dev, d->dv, d->v, vecb)))
        return rc;
    /* The reference uses the stored full long links; the compressed ones must
     * rebuild to the same matrices (checked here on the data, reported by verify). */
    d->rebuild_err = dslash_rebuild_error(&d->geom, d->dbl, d->full, d->comp);
    struct dslash_fields f = {d->dbl, d->fat, d->full, d->v, d->maxrhs};
    dslash_reference(&d->geom, &f, d->ref);
    return CLB_OK;
}

static int build(struct clb_env *env, struct dslash *d, const char *dtype, int comp, int rhs)
{
    if (d->k[comp][rhs])
        return CLB_OK;
    char opts[128];
    clb_dtype_defines(dtype, opts, sizeof opts);
    clb_appendf(opts, sizeof opts, " -DRHS=%d%s", rhs, comp ? " -DCOMPRESSED=1" : "");
    return clb_kernel(env->dev, "dslash", opts, "dslash", &d->k[comp][rhs]);
}

static void add_case(struct clb_env *env, struct dslash *d, struct clb_case *c, int kind,
                     int rhs, int comp)
{
    size_t vh = d->geom.vh;
    c->iarg[0] = rhs;
    c->iarg[1] = comp;
    c->iarg[2] = kind;
    c->main_gflops = 1;
    c->flops = DSLASH_FLOPS_PER_SITE * (double)vh * rhs;
    c->bytes = dslash_bytes_per_site(rhs, comp, d->dbl, 0) * (double)vh;
    size_t cplx = 2 * d->es;
    c->footprint = (double)(vh * cplx * (8 * 9 + 8 * (comp ? 7 : 9) + 6 * (size_t)rhs));
    double ai = c->flops / c->bytes, bw = env->profile->peak_bandwidth_gbs;
    if (!isnan(bw) && bw > 0)
        c->model = bw * ai;
    clb_case_note(c, "ai=%.3f ai_vcache=%.3f", ai, dslash_intensity(rhs, comp, d->dbl, 15.0 / 16));
    c->dims = 2;
    /* The cache kernel's work-groups hold all rhs of lx sites (the talk's
     * [128,4] blocks), within what the built kernel allows (registers). */
    size_t lx = d->local, kmax = env->info->max_wg;
    cl_kernel k = d->k[comp][kind == K_CACHE ? 1 : rhs];
    if (clGetKernelWorkGroupInfo(k, env->info->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax,
                                 &kmax, NULL) != CL_SUCCESS)
        kmax = env->info->max_wg;
    while (lx > 1 && lx * (size_t)(kind == K_CACHE ? rhs : 1) > kmax)
        lx /= 2;
    c->local[0] = lx;
    c->local[1] = lx ? (kind == K_CACHE ? (size_t)rhs : 1) : 0;
    c->global[0] = lx ? (vh + lx - 1) / lx * lx : vh;
    c->global[1] = kind == K_CACHE ? (size_t)rhs : 1;
}

static int run(struct clb_env *env, struct clb_group *g, struct clb_case *c, struct clb_sample *s);

/* The faster of reg and cache for one (links, rhs): the profile's
 * dslash.best where it names one, else a probe of 4 launches each (the
 * first warms up), fastest time kept. */
static int pick_best(struct clb_env *env, struct clb_group *g, int comp, int rhs, int *kind,
                     char *note, size_t nn)
{
    struct dslash *d = g->state;
    const char *b = clb_profile_tuning(env->profile, "dslash", "best");
    if (b) {
        *kind = strcmp(b, "cache") == 0 ? K_CACHE : K_REG;
        snprintf(note, nn, "best=%s (profile)", *kind == K_CACHE ? "cache" : "reg");
        return CLB_OK;
    }
    double best_t[2] = {1e30, 1e30};
    int rc;
    for (int k = K_REG; k <= K_CACHE; k++) {
        if ((rc = build(env, d, g->dtype, comp, k == K_CACHE ? 1 : rhs)))
            return rc;
        struct clb_case tmp;
        memset(&tmp, 0, sizeof tmp);
        add_case(env, d, &tmp, k, rhs, comp);
        for (int i = 0; i < 4; i++) {
            struct clb_sample smp = {NULL, NULL, NAN};
            double t;
            if ((rc = run(env, g, &tmp, &smp)))
                return rc;
            rc = clb_event_seconds(smp.first, smp.first, &t);
            clReleaseEvent(smp.first);
            if (rc)
                return rc;
            if (i > 0 && t < best_t[k])
                best_t[k] = t;
        }
    }
    *kind = best_t[K_CACHE] < best_t[K_REG] ? K_CACHE : K_REG;
    snprintf(note, nn, "best=%s (probe: reg %.3g ms, cache %.3g ms)",
             *kind == K_CACHE ? "cache" : "reg", 1e3 * best_t[K_REG], 1e3 * best_t[K_CACHE]);
    return CLB_OK;
}

static int setup(struct clb_env *env, struct clb_group *g)
{
    struct dslash *d = calloc(1, sizeof *d);
    if (!d)
        return CLB_ESYS;
    g->state = d;
    long rhs[16];
    int nrhs, links[2], nlinks, kernels[3], nkernels, rc;
    if ((rc = parse_lists(env, rhs, &nrhs, links, &nlinks, kernels, &nkernels)))
        return rc;
    char err[256];
    if (check_size(&g->size, err, sizeof err)) {
        clb_seterr("dslash: %s", err);
        return CLB_EUSAGE;
    }
    int L[4];
    for (int k = 0; k < 4; k++)
        L[k] = (int)g->size.d[k];
    dslash_geom_init(&d->geom, L);
    for (int i = 0; i < nrhs; i++)
        if (rhs[i] > d->maxrhs)
            d->maxrhs = (int)rhs[i];
    /* The kernel indexes with 32-bit integers. */
    if (d->geom.vh * 8 * 9 >= UINT32_MAX || d->geom.vh * 3 * (size_t)d->maxrhs >= UINT32_MAX) {
        clb_seterr("dslash: lattice %s too large (at most 2^32 complex numbers per field)",
                   g->size_text);
        return CLB_EUSAGE;
    }
    d->dbl = strcmp(g->dtype, "double") == 0;
    d->es = d->dbl ? 8 : 4;
    long local = (env->info->type & CL_DEVICE_TYPE_GPU) ? 128 : 0;
    if (clb_param(env, "local")[0]) {
        int nl;
        if ((rc = clb_param_ints(env, "local", 0, (long)env->info->max_wg, &local, 1, &nl)))
            return rc;
    }
    d->local = (size_t)local;
    if ((rc = alloc_fields(env, d)))
        return rc;

    static const char *const names[] = {"reg", "cache", "best"};
    for (int l = 0; l < nlinks; l++)
        for (int r = 0; r < nrhs; r++)
            for (int k = 0; k < nkernels; k++) {
                int kind = kernels[k], comp = links[l], nr = (int)rhs[r];
                char note[96] = "";
                if (kind == 2 && (rc = pick_best(env, g, comp, nr, &kind, note, sizeof note)))
                    return rc;
                if ((rc = build(env, d, g->dtype, comp, kind == K_CACHE ? 1 : nr)))
                    return rc;
                struct clb_case *c = clb_case_add(g, names[kernels[k]], "rhs=%d,links=%s", nr,
                                                  comp ? "compressed" : "full");
                if (!c)
                    return CLB_ESYS;
                add_case(env, d, c, kind, nr, comp);
                if (note[0])
                    clb_case_note(c, "%s", note);
            }
    return CLB_OK;
}

static int prepare(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct dslash *d = g->state;
    return clb_poison(env->dev, d->dw, (size_t)c->iarg[0] * 3 * d->geom.vh * 2 * d->es);
}

static int run(struct clb_env *env, struct clb_group *g, struct clb_case *c, struct clb_sample *s)
{
    struct dslash *d = g->state;
    int comp = (int)c->iarg[1];
    cl_kernel k = d->k[comp][c->iarg[2] == K_CACHE ? 1 : c->iarg[0]];
    cl_mem lng = comp ? d->dcomp : d->dfull;
    cl_int hx = d->geom.L[0] / 2, ly = d->geom.L[1], lz = d->geom.L[2], lt = d->geom.L[3];
    cl_uint vh = (cl_uint)d->geom.vh;
    int rc = clb_args(k, sizeof(cl_mem), &d->dfat, sizeof(cl_mem), &lng, sizeof(cl_mem), &d->dv,
                      sizeof(cl_mem), &d->dw, sizeof hx, &hx, sizeof ly, &ly, sizeof lz, &lz,
                      sizeof lt, &lt, sizeof vh, &vh, (size_t)0);
    if (rc)
        return rc;
    return clb_launch(env->dev, k, 2, c->global, c->local[0] ? c->local : NULL, &s->first);
}

/* Relative L2 error over every site and rhs, plus a per-site check so that a
 * single wrong site cannot hide in the sum. */
static int verify(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct dslash *d = g->state;
    size_t vh = d->geom.vh;
    int rhs = (int)c->iarg[0];
    size_t n = (size_t)rhs * 3 * vh; /* complex numbers */
    int rc = clb_read(env->dev, d->dw, d->w, n * 2 * d->es);
    if (rc)
        return rc;
    double num = 0, den = 0;
#pragma omp parallel for reduction(+ : num, den) schedule(static)
    for (long k = 0; k < (long)(2 * n); k++) {
        double got = d->dbl ? ((double *)d->w)[k] : (double)((float *)d->w)[k];
        double e = got - d->ref[k];
        num += e * e;
        den += d->ref[k] * d->ref[k];
    }
    double rms = sqrt(den / (double)(2 * n));
    double tol = d->dbl ? 1e-12 : 1e-5, site_tol = d->dbl ? 1e-10 : 1e-4;
    long bad = 0, first = -1;
#pragma omp parallel for reduction(+ : bad) schedule(static)
    for (long i = 0; i < (long)vh; i++) {
        double e2 = 0;
        for (int r = 0; r < 3 * rhs; r++) {
            size_t k = (size_t)r * vh + (size_t)i;
            for (int q = 0; q < 2; q++) {
                double got = d->dbl ? ((double *)d->w)[2 * k + q] : (double)((float *)d->w)[2 * k + q];
                double e = got - d->ref[2 * k + q];
                e2 += e * e;
            }
        }
        if (!(sqrt(e2 / (6.0 * rhs)) <= site_tol * rms)) {
            bad++;
#pragma omp critical
            if (first < 0 || i < first)
                first = i;
        }
    }
    double rel = sqrt(num / den);
    clb_case_note(c, "rel_l2=%.2e", rel);
    int fail = 0;
    if (!(rel < tol)) {
        clb_case_note(c, "relative L2 error %.2e above %.0e", rel, tol);
        fail = 1;
    }
    if (bad) {
        int x[4];
        dslash_coords(&d->geom, 0, (size_t)first, x);
        clb_case_note(c, "%ld of %zu even sites wrong (first at x=%d,%d,%d,%d)", bad, vh, x[0],
                      x[1], x[2], x[3]);
        fail = 1;
    }
    if (c->iarg[1]) {
        double rtol = d->dbl ? 1e-12 : 1e-5;
        clb_case_note(c, "rebuild_err=%.1e", d->rebuild_err);
        if (!(d->rebuild_err < rtol)) {
            clb_case_note(c, "compressed long links do not rebuild the stored ones");
            fail = 1;
        }
    }
    return fail ? CLB_FAIL : CLB_OK;
}

static void teardown(struct clb_env *env, struct clb_group *g)
{
    (void)env;
    struct dslash *d = g->state;
    if (!d)
        return;
    for (int c = 0; c < 2; c++)
        for (int r = 0; r <= MAX_RHS; r++)
            if (d->k[c][r])
                clReleaseKernel(d->k[c][r]);
    cl_mem bufs[] = {d->dfat, d->dfull, d->dcomp, d->dv, d->dw};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (bufs[i])
            clReleaseMemObject(bufs[i]);
    free(d->fat);
    free(d->full);
    free(d->comp);
    free(d->v);
    free(d->w);
    free(d->ref);
    free(d);
    g->state = NULL;
}

/* rhs of a row's params ("rhs=4,links=full" -> 4, "links=full" part in *links). */
static int row_rhs(const struct clb_row *r, const char **links)
{
    const char *p = strstr(r->params, "rhs="), *l = strstr(r->params, "links=");
    *links = l ? l + 6 : "";
    return p ? atoi(p + 4) : 0;
}

/* The multiple-rhs speed-up (the talk's figure, the rhs-4 target): for each
 * (size, type, links, kernel) with ok rows at rhs 1 and 4, the GFlop/s of both
 * and their ratio. */
static void summarize(const struct clb_row *rows, size_t n, FILE *out)
{
    int header = 0;
    for (size_t i = 0; i < n; i++) {
        const char *li, *lj;
        if (strcmp(rows[i].status, "ok") || row_rhs(&rows[i], &li) != 1)
            continue;
        for (size_t j = 0; j < n; j++) {
            if (strcmp(rows[j].status, "ok") || row_rhs(&rows[j], &lj) != 4 ||
                strcmp(li, lj) || strcmp(rows[i].kernel, rows[j].kernel) ||
                strcmp(rows[i].dtype, rows[j].dtype) || strcmp(rows[i].size, rows[j].size))
                continue;
            if (!header++)
                fprintf(out, "\ndslash rhs 4 over rhs 1 (the talk: 2.16 expected from the model, 2.5 "
                             "measured on Kepler):\n");
            fprintf(out, "  %-7s %-6s %-12s links=%-10s %8.1f -> %8.1f GFlop/s  %.2fx\n",
                    rows[i].kernel, rows[i].dtype, rows[i].size, li, rows[i].gflops,
                    rows[j].gflops, rows[j].gflops / rows[i].gflops);
        }
    }
}

const struct clb_workload clb_wl_dslash = {
    .name = "dslash",
    .summary = "HISQ staggered Dslash (lattice QCD) with multiple right-hand sides, in GFlop/s",
    .dtypes = "float,double",
    .default_dtypes = "float,double",
    .params = params,
    .size_help = "lattice LxxLyxLzxLt, every extent even and >= 4, e.g. 32x32x32x8 (default "
                 "64x64x64x16 on GPUs where it fits, 32x32x32x8 on CPUs; --quick 8x8x8x8)",
    .size_dims = 4,
    .default_sizes = default_sizes,
    .check_size = check_size,
    .setup = setup,
    .prepare = prepare,
    .run = run,
    .verify = verify,
    .teardown = teardown,
    .summarize = summarize,
};

/* dslash: the HISQ staggered Dslash of the GTC 2015 talk, with r right-hand
 * sides per launch (links loaded once, applied to all r vectors). Rows count
 * the talk's model: 1146 flop and (1024 + 408 r) bytes per even site in fp32
 * (compressed long links; 1152 + 408 r with full ones), twice in fp64
 * (dslash_model.c, the same functions as `clbench model dslash`).
 * Geometry, layout and the float64 reference: dslash.h, dslash_ref.c. */
#include "clb_workload.h"
#include "dslash.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { K_REG, K_CACHE, K_BEST };
static const char *const kernel_names[] = {"reg", "cache", "best"};
#define MAX_RHS 8

/* One launch: the kernel built for (links, rhs) and its grid. */
struct dslash_case {
    int rhs, comp, kind;      /* kind: K_REG or K_CACHE (best: the one it picked) */
    size_t global[2], local[2];
};

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
     "through the cache), best (what best= names, usually the profile's dslash.best; else the "
     "faster in a short probe)"},
    {"local", "", "work-group size along the sites (default 128 on GPUs, the driver's on CPUs)"},
    {"best", "", "what kernel=best runs: reg or cache (empty: the faster in a short probe; "
                 "usually set in a profile's [tuning] dslash.best)"},
    {0, 0, 0}};

static int check_size(const struct clb_size *s)
{
    int bad = dslash_bad_extent(s->d);
    if (bad)
        clb_seterr("bad lattice extent %zu in direction %c (every extent must be even, for the "
                   "even/odd split, and >= 4, for the three-hop links; e.g. 16x16x16x8)",
                   s->d[bad - 1], "xyzt"[bad - 1]);
    return bad ? CLB_EUSAGE : CLB_OK;
}

/* ---- counts ---------------------------------------------------------------- */

/* Complex numbers per even site of each field: fat links, full and
 * compressed long links, and one rhs of a vector. */
enum { FAT_C = 8 * 9, FULL_C = 8 * DSLASH_NE_FULL, COMP_C = 8 * DSLASH_NE_COMPRESSED, VEC_C = 3 };

static int query_rhs(const struct clb_query *q, long *rhs)
{
    const char *v = clb_query_param(q, "rhs", "1");
    char err[512];
    if (clb_parse_int_list(v, 1, 64, rhs, 1, err, sizeof err) != 1) {
        clb_seterr("rhs=%s is not one count of right-hand sides in 1..64", v);
        return CLB_EUSAGE;
    }
    return CLB_OK;
}

/* The group: fat, full and compressed long links, input and output vectors
 * for the largest rhs of --param rhs (MAX_RHS when not given: set-up takes
 * at most that many, 3 at --quick). A case: the talk's bytes and flops per
 * even site (the same functions as the model); its footprint is what the
 * launch touches: fat links, its long links, rhs input and output vectors. */
static int count(const struct clb_query *q, struct clb_counts *out)
{
    size_t es = clb_query_esize(q);
    if (es != 4 && es != 8) {
        clb_seterr("dslash types are float and double, not '%s'", q->dtype);
        return CLB_EUSAGE;
    }
    int ovf = 0;
    size_t vh = q->size->total / 2, cplx = 2 * es;
    size_t site = clb_mulz(vh, cplx, &ovf); /* bytes of one complex number per site */
    size_t fat = clb_mulz(site, FAT_C, &ovf);
    if (!q->kernel) {
        long rhs[64];
        char err[512];
        int n = clb_parse_int_list(clb_query_param(q, "rhs", ""), 1, MAX_RHS, rhs, 64, err,
                                   sizeof err);
        long maxrhs = n > 0 ? 1 : MAX_RHS;
        for (int i = 0; i < n; i++)
            maxrhs = rhs[i] > maxrhs ? rhs[i] : maxrhs;
        size_t vec = clb_mulz(site, VEC_C * (size_t)maxrhs, &ovf);
        size_t all = clb_mulz(site, FAT_C + FULL_C + COMP_C + 2 * VEC_C * (size_t)maxrhs, &ovf);
        return clb_count_done(q, ovf, out, all, 0, all, fat > vec ? fat : vec, CLB_UNIT_GFLOPS);
    }
    int k = 0;
    while (k < 3 && strcmp(kernel_names[k], q->kernel))
        k++;
    if (k == 3) {
        clb_seterr("unknown dslash kernel '%s' (known: reg, cache, best)", q->kernel);
        return CLB_EUSAGE;
    }
    long rhs;
    int rc = query_rhs(q, &rhs);
    if (rc)
        return rc;
    const char *links = clb_query_param(q, "links", "compressed");
    if (strcmp(links, "full") && strcmp(links, "compressed")) {
        clb_seterr("links=%s (known: full, compressed)", links);
        return CLB_EUSAGE;
    }
    int comp = strcmp(links, "compressed") == 0;
    /* whole numbers: 1146 rhs flop, (1024 or 1152 + 408 rhs) x es/4 bytes */
    size_t bytes = clb_mulz(vh, (size_t)clb_dslash_bytes_site((int)rhs, 0, comp, es), &ovf);
    size_t flops = clb_mulz(vh, (size_t)clb_dslash_flops_site((int)rhs), &ovf);
    size_t touched = clb_mulz(site, FAT_C + (comp ? COMP_C : FULL_C) + 2 * VEC_C * (size_t)rhs,
                              &ovf);
    return clb_count_done(q, ovf, out, bytes, flops, touched, fat, CLB_UNIT_GFLOPS);
}

/* Default sizes: the talk's lattices, smallest first. */
static int ladder(int i, char *out, size_t n)
{
    static const char *const lattices[] = {"16x16x16x4", "32x32x32x8", "48x48x48x12",
                                           "64x64x64x16"};
    if (i < 0 || i >= 4)
        return 0;
    snprintf(out, n, "%s", lattices[i]);
    return 1;
}

/* ---- fields --------------------------------------------------------------- */

static void fill_random(struct dslash *d, void *p, size_t reals, unsigned long long seed)
{
    if (d->dbl)
        clb_fill_f64(p, reals, seed);
    else
        clb_fill_f32(p, reals, seed);
}

/* ---- setup ------------------------------------------------------------------ */

/* rhs (a list), links and kernel (bit masks over full,compressed and
 * reg,cache,best), local, best. Everything is checked before allocating. */
struct choice {
    long rhs[16];
    int nrhs;
    unsigned links, kernels;
    long local;
    int best;                 /* -1: probe; else K_REG or K_CACHE */
};

static int read_params(struct clb_env *env, struct choice *ch)
{
    int rc;
    if (clb_param(env, "rhs")[0]) {
        if ((rc = clb_param_ints(env, "rhs", 1, MAX_RHS, ch->rhs, 16, &ch->nrhs)))
            return rc;
    } else {
        const long def[] = {1, 2, 4, 8}, quick[] = {1, 3};
        ch->nrhs = env->quick ? 2 : 4;
        memcpy(ch->rhs, env->quick ? quick : def, (size_t)ch->nrhs * sizeof *ch->rhs);
    }
    if ((rc = clb_param_names(env, "links", "full,compressed", 0, &ch->links)) ||
        (rc = clb_param_names(env, "kernel", "reg,cache,best", 0, &ch->kernels)))
        return rc;
    ch->local = strcmp(env->info->type_name, "gpu") == 0 ? 128 : 0;
    if (clb_param(env, "local")[0] &&
        (rc = clb_param_int(env, "local", 0, (long)env->info->max_wg, &ch->local)))
        return rc;
    ch->best = -1;
    const char *b = clb_param(env, "best");
    if (b[0]) {
        if (strcmp(b, "reg") && strcmp(b, "cache")) {
            clb_seterr("dslash: parameter best: '%s' is not reg or cache", b);
            return CLB_EUSAGE;
        }
        ch->best = strcmp(b, "cache") == 0 ? K_CACHE : K_REG;
    }
    return CLB_OK;
}

static int alloc_fields(struct clb_env *env, struct dslash *d)
{
    /* the group's count (the largest rhs) checked that these fit */
    size_t vh = d->geom.vh, cplx = 2 * d->es;
    size_t linkb = 8 * 9 * vh * cplx, compb = 8 * 7 * vh * cplx;
    size_t vecb = (size_t)d->maxrhs * 3 * vh * cplx;
    int rc;
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
    dslash_fill_long(&d->geom, d->dbl, d->full, d->comp);
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
    struct dslash_fields f = {d->dbl, d->fat, d->full, d->v, d->maxrhs, NULL};
    dslash_reference(&d->geom, &f, d->ref);
    return CLB_OK;
}

/* The reg kernel is built per rhs; the cache kernel once (RHS=1: one rhs
 * per work-item). */
static cl_kernel *kernel_of(struct dslash *d, const struct dslash_case *dc)
{
    return &d->k[dc->comp][dc->kind == K_CACHE ? 1 : dc->rhs];
}

static int build(struct clb_env *env, struct dslash *d, const char *dtype,
                 const struct dslash_case *dc)
{
    cl_kernel *k = kernel_of(d, dc);
    if (*k)
        return CLB_OK;
    int rhs = dc->kind == K_CACHE ? 1 : dc->rhs;
    char opts[128];
    clb_dtype_defines(dtype, opts, sizeof opts);
    clb_appendf(opts, sizeof opts, " -DRHS=%d%s", rhs, dc->comp ? " -DCOMPRESSED=1" : "");
    return clb_kernel(env->dev, "dslash", opts, "dslash", k);
}

/* Build the kernel of a launch and give it its grid. The cache kernel's
 * work-groups hold all rhs of lx sites (the talk's [128,4] blocks), within
 * what the built kernel allows (registers). */
static int shape(struct clb_env *env, struct dslash *d, const char *dtype, struct dslash_case *dc)
{
    int rc = build(env, d, dtype, dc);
    if (rc)
        return rc;
    size_t vh = d->geom.vh, lx = d->local, kmax = env->info->max_wg;
    size_t per = dc->kind == K_CACHE ? (size_t)dc->rhs : 1;
    if (clGetKernelWorkGroupInfo(*kernel_of(d, dc), env->info->device, CL_KERNEL_WORK_GROUP_SIZE,
                                 sizeof kmax, &kmax, NULL) != CL_SUCCESS)
        kmax = env->info->max_wg;
    while (lx > 1 && lx * per > kmax)
        lx /= 2;
    dc->local[0] = lx;
    dc->local[1] = lx ? per : 0;
    dc->global[0] = lx ? (vh + lx - 1) / lx * lx : vh;
    dc->global[1] = per;
    return CLB_OK;
}

static int launch(struct clb_env *env, struct dslash *d, const struct dslash_case *dc,
                  cl_event *ev)
{
    cl_kernel k = *kernel_of(d, dc);
    cl_mem lng = dc->comp ? d->dcomp : d->dfull;
    cl_int hx = d->geom.L[0] / 2, ly = d->geom.L[1], lz = d->geom.L[2], lt = d->geom.L[3];
    cl_uint vh = (cl_uint)d->geom.vh;
    int rc = clb_args(k, sizeof(cl_mem), &d->dfat, sizeof(cl_mem), &lng, sizeof(cl_mem), &d->dv,
                      sizeof(cl_mem), &d->dw, sizeof hx, &hx, sizeof ly, &ly, sizeof lz, &lz,
                      sizeof lt, &lt, sizeof vh, &vh, (size_t)0);
    if (rc)
        return rc;
    return clb_launch(env->dev, k, 2, dc->global, dc->local[0] ? dc->local : NULL, ev);
}

struct probe { struct dslash *d; const struct dslash_case *dc; };
static int probe_launch(struct clb_env *env, void *ctx, cl_event *ev)
{
    struct probe *p = ctx;
    return launch(env, p->d, p->dc, ev);
}

/* The faster of reg and cache for one (links, rhs): best= (usually the
 * profile's dslash.best) where given, else a probe of 4 launches each (the
 * first warms up), fastest time kept. */
static int pick_best(struct clb_env *env, struct clb_group *g, const struct choice *ch,
                     struct dslash_case *dc, struct clb_buf *note)
{
    struct dslash *d = g->state;
    if (ch->best >= 0) {
        dc->kind = ch->best;
        clb_buf_printf(note, "best=%s (%s)", kernel_names[dc->kind],
                       clb_param_origin(env, "best"));
        return shape(env, d, g->dtype, dc);
    }
    double best_t[2];
    struct dslash_case tries[2] = {*dc, *dc};
    for (int k = K_REG; k <= K_CACHE; k++) {
        tries[k].kind = k;
        struct probe p = {d, &tries[k]};
        int rc = shape(env, d, g->dtype, &tries[k]);
        if (rc || (rc = clb_probe_min(env, probe_launch, &p, 4, &best_t[k])))
            return rc;
    }
    int kind = best_t[K_CACHE] < best_t[K_REG] ? K_CACHE : K_REG;
    *dc = tries[kind];
    clb_buf_printf(note, "best=%s (probe: reg %.3g ms, cache %.3g ms)", kernel_names[kind],
                   1e3 * best_t[K_REG], 1e3 * best_t[K_CACHE]);
    return CLB_OK;
}

static int add_case(struct clb_env *env, struct clb_group *g, const struct choice *ch, int kernel,
                    int rhs, int comp)
{
    struct dslash *d = g->state;
    struct dslash_case dc = {rhs, comp, kernel, {0, 0}, {0, 0}};
    struct clb_buf note = {0};
    int rc = kernel == K_BEST ? pick_best(env, g, ch, &dc, &note)
                              : shape(env, d, g->dtype, &dc);
    struct clb_case *c;
    if (rc == CLB_OK)
        rc = clb_case_add(g, &c, kernel_names[kernel], "rhs=%d,links=%s", rhs,
                          comp ? "compressed" : "full");
    if (rc) {
        clb_buf_free(&note);
        return rc;
    }
    *(struct dslash_case *)c->data = dc;
    double ai = c->counts.flops / c->counts.bytes, bw = env->profile->peak_bandwidth_gbs;
    if (!isnan(bw) && bw > 0) /* the talk's model: bandwidth x intensity, no flop cap */
        c->model = bw * ai;
    clb_case_note(c, "ai=%.3f ai_vcache=%.3f", ai,
                  clb_dslash_intensity(rhs, 15.0 / 16, comp, d->es));
    c->dims = 2;
    memcpy(c->local, dc.local, sizeof dc.local);
    memcpy(c->global, dc.global, sizeof dc.global);
    if (note.len)
        clb_case_note(c, "%s", clb_buf_str(&note));
    clb_buf_free(&note);
    return CLB_OK;
}

static int setup(struct clb_env *env, struct clb_group *g)
{
    struct dslash *d = calloc(1, sizeof *d);
    if (!d)
        return CLB_ESYS;
    g->state = d;
    struct choice ch;
    int rc = read_params(env, &ch);
    if (rc)
        return rc;
    int L[4];
    for (int k = 0; k < 4; k++)
        L[k] = (int)g->size.d[k];
    dslash_geom_init(&d->geom, L);
    for (int i = 0; i < ch.nrhs; i++)
        if (ch.rhs[i] > d->maxrhs)
            d->maxrhs = (int)ch.rhs[i];
    /* The kernel indexes with 32-bit integers. */
    if (d->geom.vh * 8 * 9 >= UINT32_MAX || d->geom.vh * 3 * (size_t)d->maxrhs >= UINT32_MAX) {
        clb_seterr("dslash: lattice %s too large (at most 2^32 complex numbers per field)",
                   g->size_text);
        return CLB_EUSAGE;
    }
    d->dbl = clb_dtype_is_double(g->dtype);
    d->es = d->dbl ? 8 : 4;
    d->local = (size_t)ch.local;
    if ((rc = alloc_fields(env, d)))
        return rc;
    for (int comp = 0; comp < 2; comp++)
        for (int r = 0; r < ch.nrhs && (ch.links & (1u << comp)); r++)
            for (int k = K_REG; k <= K_BEST && rc == CLB_OK; k++)
                if (ch.kernels & (1u << k))
                    rc = add_case(env, g, &ch, k, (int)ch.rhs[r], comp);
    return rc;
}

static int prepare(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct dslash *d = g->state;
    const struct dslash_case *dc = c->data;
    return clb_poison(env->dev, d->dw, (size_t)dc->rhs * 3 * d->geom.vh * 2 * d->es);
}

static int run(struct clb_env *env, struct clb_group *g, struct clb_case *c, struct clb_sample *s)
{
    return launch(env, g->state, c->data, &s->first);
}

/* Relative L2 error over every site and rhs, plus a per-site check so that a
 * single wrong site cannot hide in the sum. */
static int verify(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct dslash *d = g->state;
    const struct dslash_case *dc = c->data;
    size_t vh = d->geom.vh;
    int rhs = dc->rhs;
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
    if (dc->comp) {
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
    CLB_RELEASE_KERNELS(d->k);
    cl_mem *bufs[] = {&d->dfat, &d->dfull, &d->dcomp, &d->dv, &d->dw};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        clb_release_mems(bufs[i], 1);
    free(d->fat);
    free(d->full);
    free(d->comp);
    free(d->v);
    free(d->w);
    free(d->ref);
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

/* The cases setup will add: each kernel, rhs count and link layout. */
static int plan(struct clb_env *env, const char *dtype, const struct clb_size *size)
{
    (void)dtype;
    (void)size;
    struct choice ch;
    memset(&ch, 0, sizeof ch);
    if (read_params(env, &ch))
        return -1;
    int nk = 0, nl = 0;
    for (int k = K_REG; k <= K_BEST; k++)
        nk += (ch.kernels >> k) & 1u;
    for (int l = 0; l < 2; l++)
        nl += (ch.links >> l) & 1u;
    return nk * nl * ch.nrhs;
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
    /* The talk's largest lattice where it fits on GPUs (its group reaches the
     * 3 GiB floor; 48^3x12 does not); CPUs get 32^3x8 (still well beyond
     * their last-level caches: 210 MB of links in fp32), the cap stopping
     * them before 48^3x12 (1.3 GB). */
    .sizes = {.quick = "8x8x8x8", .llc_times = 4, .floor_mib = {64, 3072},
              .cap_mib = {1024, 0}, .ladder = ladder},
    .baselines = "stream/copy",
    .case_size = sizeof(struct dslash_case),
    CLB_STEPS,
    .plan = plan,
    .check_size = check_size,
    .prepare = prepare,
    .summarize = summarize,
    .models = dslash_models,
};

/* dslash: the HISQ staggered Dslash of the GTC 2015 talk, with r right-hand
 * sides per launch (links loaded once, applied to all r vectors). Rows count
 * the talk's model: 1146 flop and (1024 + 408 r) bytes per even site in fp32
 * (compressed long links; 1152 + 408 r with full ones), twice in fp64
 * (dslash_model.c, the same functions as `clbench model dslash`).
 * Geometry, layout and the float64 reference: lattice/lattice.h.
 * scaling=strong|weak: the lattice split over the ranks of an MPI job, halos
 * exchanged (lattice_split.h, lattice_halo.h; docs/SCALING.md). */
#include "clb_workload.h"
#include "dslash.h"
#include "lattice_wl.h"

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
    size_t gin, gbd;          /* scaling=: work-items of the interior and boundary launches */
    double halo_model;        /* scaling=: seconds per exchange by the model */
    struct clb_fit fit;       /* local as fitted to the kernel */
};

struct dslash {
    int dbl;
    size_t es;               /* bytes of one real */
    struct lat_geom geom;
    int maxrhs;
    void *fat, *full, *comp; /* host copies of the links (full and compressed long links) */
    void *v, *w;             /* inputs (maxrhs vectors), read-back output */
    double *ref;             /* float64 reference for maxrhs vectors */
    double rebuild_err;      /* max |stored row 2 - rebuilt row 2| of the long links */
    cl_mem dfat, dfull, dcomp, dv, dw;
    cl_kernel k[2][MAX_RHS + 1]; /* [compressed][RHS] */
    size_t local;
    /* scaling=strong|weak: this rank's part (d->geom), the extended geometry
     * the host fields (fat, full, comp, v) live on, the halos */
    struct lat_part part;
    struct lat_log hlog;   /* the current case's halo and waiting seconds per application,
                               * the waiting's share of the application's time */
};

static const struct clb_param_def params[] = {
    {"rhs", "", "right-hand sides per launch, 1..8, a list or range (default 1,2,4,8; 1,4 on CPUs; --quick 1,3)",
     CLB_ROLE_CASE},
    {"links", "full,compressed",
     "long-link storage: full (72 B in fp32) or compressed (56 B: two rows + det), or both",
     CLB_ROLE_CASE},
    {"kernel", "reg,cache",
     "reg (rhs accumulators in registers), cache (one work-item per site and rhs, links shared "
     "through the cache), best (what best= names, usually the profile's dslash.best; else the "
     "faster in a short probe)", CLB_ROLE_CASE},
    {"local", "", "work-group size along the sites (default 128 on GPUs, the driver's on CPUs)",
     CLB_ROLE_TUNING},
    {"best", "", "what kernel=best runs: reg or cache (empty: the faster in a short probe; "
                 "usually set in a profile's [tuning] dslash.best)", CLB_ROLE_TUNING},
    {"scaling", "", "strong (-s is the whole lattice, split over the job's ranks) or weak (-s is "
                    "each rank's part); halos exchanged through pinned host buffers and MPI. "
                    "Absent: every rank its own whole lattice (docs/SCALING.md)", CLB_ROLE_CASE},
    {"grid", "", "scaling=: the split 1x1xAxB over z and t, A x B = ranks (default: chosen from "
                 "the ranks, t first: 2 -> 1x1x1x2, 4 -> 1x1x2x2)", CLB_ROLE_CASE},
    {"bus_gbps", "", "scaling=: the pinned host<->device GB/s of the halo model (default: one "
                     "pinned transfer of the halo size each way, measured in set-up)",
     CLB_ROLE_TUNING},
    {0, 0, 0, 0}};

/* ---- counts ---------------------------------------------------------------- */

/* The group: fat, full and compressed long links, input and output vectors
 * for the largest rhs of --param rhs (MAX_RHS when not given: set-up takes
 * at most that many, 3 at --quick). A case: the talk's bytes and flops per
 * even site (the same functions as the model); its footprint is what the
 * launch touches: fat links, its long links, rhs input and output vectors. */
static int count(const struct clb_query *q, struct clb_counts *out)
{
    struct lat_qsize z;
    int rc = lat_count_start(q, "dslash", &z);
    if (rc)
        return rc;
    if (!q->kernel)
        return lat_count_group(q, &z, MAX_RHS, 2, out); /* input and output vectors */
    int k = 0;
    while (k < 3 && strcmp(kernel_names[k], q->kernel))
        k++;
    if (k == 3) {
        clb_seterr("unknown dslash kernel '%s' (known: reg, cache, best)", q->kernel);
        return CLB_EUSAGE;
    }
    long rhs;
    int comp;
    if ((rc = lat_query_rhs(q, 64, &rhs)) || (rc = lat_query_links(q, &comp)))
        return rc;
    /* whole numbers: 1146 rhs flop, (1024 or 1152 + 408 rhs) x es/4 bytes */
    return lat_count_case(q, &z, comp, 2, rhs, clb_dslash_bytes_site((int)rhs, 0, comp, z.es),
                          clb_dslash_flops_site((int)rhs), out);
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
    /* CPUs: 1 and 4 only (the talk's comparison) when rhs= is absent; every
     * rhs count is a kernel build and a set of rows, and the default suite on
     * a 2-core CPU has six minutes */
    const long def[] = {1, 2, 4, 8}, cpu[] = {1, 4}, quick[] = {1, 3};
    int on_cpu = strcmp(env->info->type_name, "cpu") == 0;
    const long *pick = env->quick ? quick : on_cpu ? cpu : def;
    int rc = lat_param_rhs(env, MAX_RHS, pick, env->quick || on_cpu ? 2 : 4, ch->rhs, &ch->nrhs);
    if (rc)
        return rc;
    if ((rc = clb_param_names(env, "links", "full,compressed", 0, &ch->links)) ||
        (rc = clb_param_names(env, "kernel", "reg,cache,best", 0, &ch->kernels)))
        return rc;
    ch->local = strcmp(env->info->type_name, "gpu") == 0 ? 128 : 0;
    if (clb_param(env, "local")[0] &&
        (rc = clb_param_int(env, "local", 0, 1L << 20, &ch->local)))
        return rc;
    if ((rc = lat_param_scaling(env, "dslash")))
        return rc;
    const char *bg = clb_param(env, "bus_gbps");
    if (bg[0]) {
        char *end;
        double v = strtod(bg, &end);
        if (end == bg || *end || !(v > 0) || !isfinite(v)) {
            clb_seterr("dslash: parameter bus_gbps: '%s' is not a positive number", bg);
            return CLB_EUSAGE;
        }
    }
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
    lat_fill_long(&d->geom, d->dbl, d->full, d->comp);
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
    d->rebuild_err = lat_rebuild_error(&d->geom, d->dbl, d->full, d->comp);
    struct lat_fields f = {d->dbl, d->fat, d->full, d->v, d->maxrhs, NULL};
    lat_dslash_ref(&d->geom, &f, d->ref);
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
    return clb_kernel(env->dev, "dslash", opts, d->part.scaling ? "dslash_dist" : "dslash", k);
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
    struct clb_wg_limit l = {.items = kmax, .dim = {kmax, kmax, kmax}, .by = "the device"};
    if ((rc = clb_wg_limit(env, *kernel_of(d, dc), &l)))
        return rc;
    kmax = l.items;
    while (lx > 1 && (lx * per > kmax || lx > l.dim[0]))
        lx /= 2;
    dc->fit = (struct clb_fit){.what = "local"};
    snprintf(dc->fit.asked, sizeof dc->fit.asked, "%zu", d->local);
    snprintf(dc->fit.got, sizeof dc->fit.got, "%zu", lx);
    char why[96];
    snprintf(why, sizeof why, "%s allows %zu work-items (%zu right-hand sides a group)", l.by,
             kmax, per);
    clb_fit_record(env, &dc->fit, why);
    dc->local[0] = lx;
    dc->local[1] = lx ? per : 0;
    dc->global[0] = lx ? (vh + lx - 1) / lx * lx : vh;
    dc->global[1] = per;
    if (d->part.scaling) { /* the interior and boundary launches; the row shows their sum */
        dc->gin = lx ? (d->part.halo.in.sites + lx - 1) / lx * lx : d->part.halo.in.sites;
        dc->gbd = lx ? (d->part.halo.bd.sites + lx - 1) / lx * lx : d->part.halo.bd.sites;
        dc->global[0] = dc->gin + dc->gbd;
    }
    return CLB_OK;
}

static int launch_boxes(struct clb_env *env, struct dslash *d, const struct dslash_case *dc,
                        const struct lat_boxes *b, size_t gsize, cl_event *ev);

static int launch(struct clb_env *env, struct dslash *d, const struct dslash_case *dc,
                  cl_event *ev)
{
    if (d->part.scaling) { /* the probe of kernel=best: every local site, no exchange */
        struct lat_boxes all = {0};
        all.n = 1;
        all.b[0][1] = d->geom.L[2];
        all.b[0][3] = d->geom.L[3];
        all.sites = d->geom.vh;
        for (int k = 0; k < 4; k++)
            all.ends[k] = (unsigned long)d->geom.vh;
        return launch_boxes(env, d, dc, &all, dc->global[0], ev);
    }
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
    double best_t[2] = {0, 0};
    struct dslash_case tries[2] = {*dc, *dc};
    int rc = CLB_OK;
    for (int k = K_REG; k <= K_CACHE && rc == CLB_OK; k++) {
        tries[k].kind = k;
        struct probe p = {d, &tries[k]};
        rc = shape(env, d, g->dtype, &tries[k]);
        if (rc == CLB_OK)
            rc = clb_probe_min(env, probe_launch, &p, 4, &best_t[k]);
    }
    if (d->part.scaling) {
        /* one pick for every rank: the probes' times summed over the ranks
         * (every rank gets here: set-up agreed before the cases) */
        double v[3] = {best_t[0], best_t[1], rc != CLB_OK};
        int e = clb_comm_allreduce(v, 3, CLB_SUM);
        if (e)
            return e;
        if (v[2] > 0 && rc == CLB_OK) {
            clb_seterr("dslash: the probe of kernel=best failed on another rank");
            return CLB_SKIP; /* the job's agreement names the rank that failed */
        }
        best_t[0] = v[0];
        best_t[1] = v[1];
    }
    if (rc)
        return rc;
    int kind = best_t[K_CACHE] < best_t[K_REG] ? K_CACHE : K_REG;
    *dc = tries[kind];
    clb_buf_printf(note, "best=%s (probe: reg %.3g ms, cache %.3g ms%s)", kernel_names[kind],
                   1e3 * best_t[K_REG], 1e3 * best_t[K_CACHE],
                   d->part.scaling ? ", summed over the ranks" : "");
    return CLB_OK;
}

static int note_scaling(struct clb_env *env, struct dslash *d, struct clb_case *c,
                        struct dslash_case *dc);

static int add_case(struct clb_env *env, struct clb_group *g, const struct choice *ch, int kernel,
                    int rhs, int comp)
{
    struct dslash *d = g->state;
    struct dslash_case dc = {.rhs = rhs, .comp = comp, .kind = kernel};
    struct clb_buf note = {0};
    int rc = kernel == K_BEST ? pick_best(env, g, ch, &dc, &note)
                              : shape(env, d, g->dtype, &dc);
    struct clb_case *c;
    char sc[128];
    lat_part_params(&d->part, sc, sizeof sc);
    if (rc == CLB_OK && dc.fit.reduced)
        rc = clb_case_add(g, &c, kernel_names[kernel], "rhs=%d,links=%s%s,local=%zu", rhs,
                          comp ? "compressed" : "full", sc, dc.local[0]);
    else if (rc == CLB_OK)
        rc = clb_case_add(g, &c, kernel_names[kernel], "rhs=%d,links=%s%s", rhs,
                          comp ? "compressed" : "full", sc);
    if (rc) {
        clb_buf_free(&note);
        return rc;
    }
    double ai = lat_case_model(env, c);
    clb_case_note(c, "ai=%.3f ai_vcache=%.3f", ai,
                  clb_dslash_intensity(rhs, 15.0 / 16, comp, d->es));
    if (d->part.scaling && (rc = note_scaling(env, d, c, &dc))) {
        clb_buf_free(&note);
        return rc;
    }
    *(struct dslash_case *)c->data = dc;
    c->dims = 2;
    memcpy(c->local, dc.local, sizeof dc.local);
    memcpy(c->global, dc.global, sizeof dc.global);
    clb_fit_note(c, &dc.fit);
    if (note.len)
        clb_case_note(c, "%s", clb_buf_str(&note));
    clb_buf_free(&note);
    return CLB_OK;
}


/* ---- scaling=strong|weak: the lattice split over the ranks -------------------- */

/* The arguments of dslash_dist but the boxes. */
static int dist_args(struct dslash *d, const struct dslash_case *dc)
{
    cl_kernel k = *kernel_of(d, dc);
    cl_mem lng = dc->comp ? d->dcomp : d->dfull, hlng = d->part.halo.dhlng[dc->comp];
    cl_int4 geo, dist;
    cl_uint4 hs;
    cl_int par = 0;
    lat_halo_kargs(&d->part.halo, dc->rhs, &geo, &dist, &hs);
    size_t M = sizeof(cl_mem);
    int rc = clb_args(k, M, &d->dfat, M, &lng, M, &d->dv, M, &d->dw, M, &d->part.halo.dhfat, M,
                      &hlng, M, &d->part.halo.dhv, sizeof geo, &geo, sizeof dist, &dist, sizeof hs,
                      &hs, (size_t)0);
    if (rc == CLB_OK)
        CLB_CHECK(clSetKernelArg(k, 15, sizeof par, &par), "clSetKernelArg(par)");
    return rc;
}

/* One launch of dslash_dist over boxes b with gsize work-items along the sites. */
static int launch_boxes(struct clb_env *env, struct dslash *d, const struct dslash_case *dc,
                        const struct lat_boxes *b, size_t gsize, cl_event *ev)
{
    cl_kernel k = *kernel_of(d, dc);
    int rc = dist_args(d, dc);
    if (rc == CLB_OK)
        rc = lat_box_args(k, 10, b);
    if (rc)
        return rc;
    size_t global[2] = {gsize, dc->global[1]};
    return clb_launch(env->dev, k, 2, global, dc->local[0] ? dc->local : NULL, ev);
}

/* The fields of the rank's part with their halos, generated from the global
 * site index (every rank builds its own part and halos of the same global
 * fields), uploaded without the halos; the link halos; the float64 reference
 * of the part from the fields with their halos. */
static int alloc_scaling(struct clb_env *env, struct dslash *d)
{
    struct lat_part *pt = &d->part;
    size_t vh = pt->ge.vh, cplx = 2 * d->es;
    size_t linkb = 8 * 9 * vh * cplx, compb = 8 * 7 * vh * cplx;
    size_t vecb = (size_t)d->maxrhs * 3 * vh * cplx;
    size_t outb = (size_t)d->maxrhs * 3 * d->geom.vh * cplx;
    d->fat = clb_xmalloc(linkb);
    d->full = clb_xmalloc(linkb);
    d->comp = clb_xmalloc(compb);
    d->v = clb_xmalloc(vecb);
    d->w = clb_xmalloc(outb);
    d->ref = clb_xmalloc((size_t)d->maxrhs * 3 * d->geom.vh * 2 * sizeof(double));
    if (!d->fat || !d->full || !d->comp || !d->v || !d->w || !d->ref)
        return CLB_ESYS;
    int oe[4];
    for (int k = 0; k < 4; k++)
        oe[k] = pt->dc.O[k] - pt->off[k];
    lat_fill_global(&pt->ge, pt->dc.G, oe, d->dbl, d->fat, d->full, d->comp, 1, d->maxrhs,
                    LAT_SEED_V, d->v);
    int rc;
    if ((rc = lat_halo_open(env, &pt->halo, &pt->dc, d->es, d->maxrhs)))
        return rc;
    pt->halo_open = 1;
    const struct lat_halo *h = &pt->halo;
    cl_mem_flags ro = CL_MEM_READ_ONLY;
    if ((rc = lat_upload_part(env, h, &pt->ge, pt->off, d->fat, 8 * 9, cplx, ro, &d->dfat)) ||
        (rc = lat_upload_part(env, h, &pt->ge, pt->off, d->full, 8 * 9, cplx, ro, &d->dfull)) ||
        (rc = lat_upload_part(env, h, &pt->ge, pt->off, d->comp, 8 * 7, cplx, ro, &d->dcomp)) ||
        (rc = lat_upload_part(env, h, &pt->ge, pt->off, d->v, 3 * (size_t)d->maxrhs, cplx, ro,
                              &d->dv)) ||
        (rc = clb_buffer(env->dev, CL_MEM_READ_WRITE, outb, &d->dw)))
        return rc;
    if ((rc = lat_halo_links(env, &pt->halo, &pt->ge, pt->off, d->fat, d->full, d->comp)))
        return rc;
    d->rebuild_err = lat_rebuild_error(&pt->ge, d->dbl, d->full, d->comp);
    struct lat_fields f = {d->dbl, d->fat, d->full, d->v, d->maxrhs, NULL};
    lat_dslash_ref_box(&pt->ge, &f, 0, &d->geom, pt->off, 0, d->ref);
    return CLB_OK;
}

/* The halo notes of a case: the split, the halo bytes and the model. */
static int note_scaling(struct clb_env *env, struct dslash *d, struct clb_case *c,
                        struct dslash_case *dc)
{
    struct lat_hmodel m;
    int rc = lat_halo_model(env, &d->part, c, dc->rhs, &m);
    if (rc)
        return rc;
    dc->halo_model = m.seconds;
    clb_case_note(c, "halo_bytes=%zu bus_d2h_gbps=%.3g bus_h2d_gbps=%.3g (%s) halo_model_ms=%.4g",
                  m.bytes, m.gbps[0], m.gbps[1], m.measured ? "measured" : "bus_gbps",
                  1e3 * dc->halo_model);
    clb_case_metric(c, "halo_bytes", (double)m.bytes);
    clb_case_metric(c, "halo_model_ms", 1e3 * dc->halo_model);
    return CLB_OK;
}

/* The interior or boundary launch of one application (lat_halo_overlap). */
struct part_launch {
    struct dslash *d;
    const struct dslash_case *dc;
};

static int launch_part(struct clb_env *env, void *ctx, const struct lat_boxes *b, int boundary,
                       cl_event *ev)
{
    const struct part_launch *p = ctx;
    return launch_boxes(env, p->d, p->dc, b, boundary ? p->dc->gbd : p->dc->gin, ev);
}

/* One application: the interior while the halos travel, then the boundary
 * (lat_halo_overlap); timed by the host clock around the whole (events
 * cannot span MPI). */
static int run_scaling(struct clb_env *env, struct dslash *d, const struct dslash_case *dc,
                       struct clb_sample *s)
{
    struct part_launch pl = {d, dc};
    struct lat_overlap o;
    double t0 = clb_now();
    int rc = lat_halo_overlap(env, &d->part.halo, d->dv, dc->rhs, launch_part, &pl, CLB_OK, &o);
    if (rc == CLB_OK) /* the queue was flushed: clb_finish, not clFinish (Rusticl) */
        rc = clb_finish(env->dev->queue);
    s->seconds = clb_now() - t0;
    if (rc == CLB_OK) {
        /* the boundary kernel's wait after the interior one: the halo time
         * not hidden (no interior: all of it) */
        /* (between two kernels' events: none where they are not trusted) */
        double gap = o.in && clb_timer_untrusted(env) ? NAN : lat_overlap_gap(&o);
        double fig[] = {o.halo, gap, s->seconds > 0 ? gap / s->seconds : NAN};
        rc = lat_log_add(&d->hlog, fig, 3, "dslash");
    }
    lat_overlap_release(&o);
    return rc;
}

/* After the check of the part: the halo figures of this rank and the job's
 * slowest (an allreduce every rank reaches, whatever its check found). */
static int verify_scaling(struct dslash *d, struct clb_case *c, int rc)
{
    double hal = lat_log_median(&d->hlog, LAT_LOG_HAL);
    double gap = lat_log_median(&d->hlog, LAT_LOG_GAP);
    double frac = lat_log_median(&d->hlog, LAT_LOG_FRAC);
    double mx[3] = {isnan(hal) ? 0 : hal, isnan(gap) ? 0 : gap, isnan(frac) ? 0 : frac};
    int e = clb_comm_allreduce(mx, 3, CLB_MAX);
    if (!isnan(hal)) {
        clb_case_note(c, "halo_ms=%.4g halo_exposed_ms=%.4g halo_exposed_frac=%.3f "
                      "halo_ms_max=%.4g halo_exposed_ms_max=%.4g halo_exposed_frac_max=%.3f",
                      1e3 * hal, 1e3 * gap, frac, 1e3 * mx[0], 1e3 * mx[1], mx[2]);
        lat_metric_halo(c, hal, gap, frac, mx);
    }
    return rc ? rc : e;
}

/* Everything of set-up before the cases. */
static int setup_group(struct clb_env *env, struct clb_group *g, struct dslash *d,
                       struct choice *ch)
{
    int rc = read_params(env, ch);
    if (rc)
        return rc;
    if ((rc = lat_setup_lattice(env, g, "dslash", ch->rhs, ch->nrhs, &d->geom, &d->maxrhs,
                                &d->part)))
        return rc;
    const char *bg = clb_param(env, "bus_gbps"); /* read_params checked it */
    d->part.bus[0] = d->part.bus[1] = bg[0] ? strtod(bg, NULL) : NAN;
    d->dbl = clb_dtype_is_double(g->dtype);
    d->es = d->dbl ? 8 : 4;
    d->local = (size_t)ch->local;
    return d->part.scaling ? alloc_scaling(env, d) : alloc_fields(env, d);
}

static int setup(struct clb_env *env, struct clb_group *g)
{
    struct dslash *d = calloc(1, sizeof *d);
    if (!d)
        return CLB_ESYS;
    g->state = d;
    struct choice ch;
    int rc = setup_group(env, g, d, &ch);
    if (!lat_agree_setup(env, &rc)) /* kernel=best probes together */
        return rc;
    for (int comp = 0; comp < 2; comp++)
        for (int r = 0; r < ch.nrhs && (ch.links & (1u << comp)); r++)
            for (int k = K_REG; k <= K_BEST && rc == CLB_OK; k++)
                if (ch.kernels & (1u << k))
                    rc = lat_agree_case("dslash", d->part.scaling,
                                        add_case(env, g, &ch, k, (int)ch.rhs[r], comp));
    return rc;
}

static int prepare(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct dslash *d = g->state;
    const struct dslash_case *dc = c->data;
    d->hlog.n = 0;
    return clb_poison(env->dev, d->dw, (size_t)dc->rhs * 3 * d->geom.vh * 2 * d->es);
}

static int run(struct clb_env *env, struct clb_group *g, struct clb_case *c, struct clb_sample *s)
{
    struct dslash *d = g->state;
    if (d->part.scaling)
        return run_scaling(env, d, c->data, s);
    return launch(env, d, c->data, &s->first);
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
        return d->part.scaling ? verify_scaling(d, c, rc) : rc;
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
    clb_case_metric(c, "rel_l2", rel);
    int fail = 0;
    if (!(rel < tol)) {
        clb_case_note(c, "relative L2 error %.2e above %.0e", rel, tol);
        fail = 1;
    }
    if (bad) {
        int x[4];
        lat_coords(&d->geom, 0, (size_t)first, x); /* global coordinates under scaling= */
        clb_case_note(c, "%ld of %zu even sites wrong (first at x=%d,%d,%d,%d)", bad, vh,
                      x[0] + d->part.dc.O[0], x[1] + d->part.dc.O[1], x[2] + d->part.dc.O[2],
                      x[3] + d->part.dc.O[3]);
        fail = 1;
    }
    if (dc->comp && lat_check_rebuild(c, d->dbl, d->rebuild_err))
        fail = 1;
    if (d->part.scaling)
        return verify_scaling(d, c, fail ? CLB_FAIL : CLB_OK);
    return fail ? CLB_FAIL : CLB_OK;
}

static void teardown(struct clb_env *env, struct clb_group *g)
{
    struct dslash *d = g->state;
    if (d->part.halo_open)
        lat_halo_close(env, &d->part.halo);
    lat_log_free(&d->hlog);
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
static void summarize(const struct clb_summary_ctx *ctx, const struct clb_row *rows, size_t n,
                      FILE *out)
{
    (void)ctx;
    lat_summarize_halo("dslash", rows, n, out);
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
    .row_keys = lat_row_keys,
    .size_help = "lattice LxxLyxLzxLt, every extent even and >= 4, e.g. 32x32x32x8 (default "
                 "64x64x64x16 on GPUs where it fits, 32x32x32x8 on CPUs; --quick 8x8x8x8)",
    .size_dims = 4,
    /* The talk's largest lattice where it fits on GPUs (its group reaches the
     * 3 GiB floor; 48^3x12 does not); CPUs get 32^3x8 (still well beyond
     * their last-level caches: 210 MB of links in fp32), the cap stopping
     * them before 48^3x12 (1.3 GB). */
    .sizes = {.quick = "8x8x8x8", .llc_times = 4, .floor_mib = {64, 3072},
              .cap_mib = {1024, 0}, .ladder = lat_ladder},
    .baselines = "stream/copy",
    .case_size = sizeof(struct dslash_case),
    CLB_STEPS,
    .plan = plan,
    .check_size = lat_check_size,
    .prepare = prepare,
    .summarize = summarize,
    .models = dslash_models,
};

/* dslash: the HISQ staggered Dslash of the GTC 2015 talk [Wagner15], with r right-hand
 * sides per launch (links loaded once, applied to all r vectors). Rows count
 * the talk's model: 1146 flop and (1024 + 408 r) bytes per even site in fp32
 * (compressed long links; 1152 + 408 r with full ones), twice in fp64
 * (dslash_model.c, the same functions as `clbench model dslash`).
 * Geometry, layout and the float64 reference: lattice/lattice.h. The
 * kernel variants (reg, cache, regcache, best): dslash.h.
 * scaling=strong|weak: the lattice split over the ranks of an MPI job, halos
 * exchanged (lattice_split.h, lattice_halo.h; docs/SCALING.md). */
#include "clb_workload.h"
#include "clb_fit.h"
#include "dslash.h"
#include "lattice_wl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RHS DSL_MAX_RHS

/* One launch: the kernel built for (links, rhs per pass, passes) and its grid. */
struct dslash_case {
    int rhs, comp, kind;      /* kind: DSL_REG, DSL_CACHE or DSL_REGCACHE (best: its pick) */
    int per, passes;          /* the build: RHS = per accumulators, PASSES = passes; the
                               * launch: rhs / (per x passes) work-items per site */
    int zs;                   /* site order: strips of zs z-planes (0: the layout's) */
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
    struct lat_links lk;
    void *v, *w;             /* inputs (maxrhs vectors), read-back output */
    double *ref;             /* float64 reference for maxrhs vectors */
    cl_mem dv, dw;
    cl_kernel k[2][MAX_RHS + 1][MAX_RHS + 1]; /* [compressed][RHS][PASSES] */
    size_t local;
    /* scaling=strong|weak: this rank's part (d->geom), the extended geometry
     * the host fields (links, v) live on, the halos */
    struct lat_part part;
    struct lat_log hlog;   /* the current case's halo and waiting seconds per application,
                               * the waiting's share of the application's time */
};

static const struct clb_param_def params[] = {
    {"rhs", "", "right-hand sides per launch, 1..8, a list or range (default 1,2,4,8; 1,4 on CPUs; --quick 1,4)",
     CLB_ROLE_CASE},
    {"links", "full,compressed",
     "long-link storage: full (72 B in fp32) or compressed (56 B: two rows + det), or both",
     CLB_ROLE_CASE},
    {"kernels", "reg,cache",
     "reg (every rhs of a site in one work-item, accumulators in registers), cache (one "
     "work-item per site and rhs, links shared through the cache), regcache (k rhs per "
     "work-item, rhs/k work-items per site), best (what best= names, else the fastest of reg, "
     "cache and regcache in a short probe)", CLB_ROLE_CASE},
    {"k", "", "regcache: rhs per work-item, a list; a case for each k that divides rhs, 1 < k < "
              "rhs (default: every such k)", CLB_ROLE_TUNING},
    {"pass", "0", "reg: rhs per pass, a list: 0 = every rhs in one pass unless that build "
                  "spills (then passes of the largest divisor of rhs that does not), N = passes "
                  "of the largest divisor of rhs <= N (the links read again on each pass)",
     CLB_ROLE_TUNING},
    {"zstrip", "0", "site order, a list: 0 = the layout's; N = planes (z,t) in strips of N "
                    "z-planes with t inside, so the t neighbours' vectors are reused (N divides "
                    "Lz)", CLB_ROLE_TUNING},
    {"local", "", "work-group size along the sites (default 128 on GPUs, the driver's on CPUs)",
     CLB_ROLE_TUNING},
    {"best", "", "what kernels=best runs: reg, cache or regcacheK for every rhs, or per rhs "
                 "R:VARIANT,... (e.g. 1:reg,8:regcache4); a rhs it does not name is probed "
                 "(usually set in a profile's [tuning] dslash.best)", CLB_ROLE_TUNING},
    LAT_PART_PARAMS,
    {0, 0, 0, 0}};

/* ---- counts ---------------------------------------------------------------- */

/* The group: fat, full and compressed long links, input and output vectors
 * for the largest rhs of --param rhs (MAX_RHS when not given: set-up takes
 * at most that many, 4 at --quick). A case: the talk's bytes and flops per
 * even site (the same functions as the model), whatever the variant; its
 * footprint is what the launch touches: fat links, its long links, rhs
 * input and output vectors. */
static int count(const struct clb_query *q, struct clb_counts *out)
{
    struct lat_qsize z;
    int rc = lat_count_start(q, "dslash", &z);
    if (rc)
        return rc;
    if (!q->kernel)
        return lat_count_group(q, &z, MAX_RHS, 2, out); /* input and output vectors */
    int k = 0;
    while (k < DSL_NK && strcmp(dsl_kernel_names[k], q->kernel))
        k++;
    if (k == DSL_NK)
        return clb_eusage("unknown dslash kernel '%s' (known: reg, cache, regcache, best)",
                          q->kernel);
    long rhs;
    int comp;
    if ((rc = lat_query_rhs(q, 64, &rhs)) || (rc = lat_query_links(q, &comp)))
        return rc;
    /* whole numbers: 1146 rhs flop, (1024 or 1152 + 408 rhs) x es/4 bytes */
    return lat_count_case(q, &z, comp, 2, rhs, clb_dslash_bytes_site((int)rhs, 0, comp, z.es),
                          clb_dslash_flops_site((int)rhs), out);
}

/* ---- setup ------------------------------------------------------------------ */

/* rhs, k, pass and zstrip (lists), links and kernel (bit masks over
 * full,compressed and reg,cache,regcache,best), local. Everything is
 * checked before allocating. */
struct choice {
    long rhs[16], ks[16], passes[16], zs[16];
    int nrhs, nks, npasses, nzs;
    unsigned links, kernels;
    long local;
};

/* k, pass, zstrip and best (whose every entry is checked here). */
static int read_variant_params(struct clb_env *env, struct choice *ch)
{
    int rc, kind, k;
    ch->nks = 0;
    if ((clb_param(env, "k")[0] && (rc = clb_param_ints(env, "k", 1, MAX_RHS, ch->ks, 16,
                                                          &ch->nks))) ||
        (rc = clb_param_ints(env, "pass", 0, MAX_RHS, ch->passes, 16, &ch->npasses)) ||
        (rc = clb_param_ints(env, "zstrip", 0, 1 << 20, ch->zs, 16, &ch->nzs)))
        return rc;
    for (int r = 1; r <= MAX_RHS; r++)
        if ((rc = dsl_best_for(clb_param(env, "best"), r, &kind, &k)))
            return rc;
    int scaling = lat_scaling_of(clb_param(env, "scaling")) > 0;
    for (int i = 0; i < ch->nzs && scaling; i++)
        if (ch->zs[i])
            return clb_eusage("dslash: parameter zstrip: %ld with scaling= (the rank's part keeps "
                              "the layout's order: zstrip=0)", ch->zs[i]);
    return CLB_OK;
}

static int read_params(struct clb_env *env, struct choice *ch)
{
    /* CPUs: 1 and 4 only (the talk's comparison) when rhs= is absent; every
     * rhs count is a kernel build and a set of rows, and the default suite on
     * a 2-core CPU has six minutes. --quick: 1 and 4 (4: a case for regcache) */
    const long def[] = {1, 2, 4, 8}, cpu[] = {1, 4};
    int on_cpu = strcmp(env->info->type_name, "cpu") == 0;
    const long *pick = env->quick || on_cpu ? cpu : def;
    int rc = lat_param_rhs(env, MAX_RHS, pick, env->quick || on_cpu ? 2 : 4, ch->rhs, &ch->nrhs);
    if (rc || (rc = clb_param_names(env, "links", "full,compressed", 0, &ch->links)) ||
        (rc = clb_param_names(env, "kernels", "reg,cache,regcache,best", 0, &ch->kernels)))
        return rc;
    ch->local = strcmp(env->info->type_name, "gpu") == 0 ? 128 : 0;
    if (clb_param(env, "local")[0] &&
        (rc = clb_param_int(env, "local", 0, 1L << 20, &ch->local)))
        return rc;
    return read_variant_params(env, ch);
}

/* The links (lat_links_open), rhs input vectors (scaling=: from the global
 * site index, on the part with its halos, uploaded without them), the
 * output and the float64 reference (of the part, from the fields with their
 * halos). The group's count (the largest rhs) checked that these fit. */
static int alloc_fields(struct clb_env *env, struct dslash *d)
{
    struct lat_part *pt = &d->part;
    size_t cplx = 2 * d->es, nv = (size_t)d->maxrhs * 3;
    size_t vecb = nv * pt->ge.vh * cplx, outb = nv * d->geom.vh * cplx;
    int rc = lat_links_open(env, pt, d->dbl, d->maxrhs, &d->lk);
    if (rc)
        return rc;
    d->v = clb_xmalloc(vecb);
    d->w = clb_xmalloc(outb);
    d->ref = clb_xmalloc(nv * d->geom.vh * 2 * sizeof(double));
    if (!d->v || !d->w || !d->ref)
        return CLB_ESYS;
    if (pt->scaling) {
        int oe[4];
        for (int k = 0; k < 4; k++)
            oe[k] = pt->dc.O[k] - pt->off[k];
        lat_fill_global(&pt->ge, pt->dc.G, oe, d->dbl, NULL, NULL, NULL, 1, d->maxrhs,
                        LAT_SEED_V, d->v);
        rc = lat_upload_part(env, &pt->halo, &pt->ge, pt->off, d->v, nv, cplx,
                             CL_MEM_READ_ONLY, &d->dv);
    } else {
        clb_fill(d->v, nv * d->geom.vh * 2, d->dbl, LAT_SEED_V);
        if ((rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, vecb, &d->dv)) == CLB_OK)
            rc = clb_write(env->dev, d->dv, d->v, vecb);
    }
    if (rc || (rc = clb_buffer(env->dev, CL_MEM_READ_WRITE, outb, &d->dw)))
        return rc;
    /* The reference uses the stored full long links; the compressed ones must
     * rebuild to the same matrices (checked on the data, reported by verify). */
    struct lat_fields f = {d->dbl, d->lk.fat, d->lk.full, d->v, d->maxrhs, NULL};
    if (pt->scaling)
        lat_dslash_ref_box(&pt->ge, &f, 0, &d->geom, pt->off, 0, d->ref);
    else
        lat_dslash_ref(&d->geom, &f, d->ref);
    return CLB_OK;
}

/* ---- kernels and launch shapes ------------------------------------------- */

/* One build per (links, rhs per pass, passes): reg and regcache share the
 * builds of their RHS, cache is RHS=1. */
static cl_kernel *kernel_of(struct dslash *d, const struct dslash_case *dc)
{
    return &d->k[dc->comp][dc->per][dc->passes];
}

/* The build of a launch: per accumulators, passes, the links, and the
 * option that asks the driver for its register report where it gives one
 * (clb_verbose_build_option). */
static int build(struct clb_env *env, struct dslash *d, const char *dtype,
                 const struct dslash_case *dc)
{
    cl_kernel *k = kernel_of(d, dc);
    if (*k)
        return CLB_OK;
    char opts[160];
    lat_program_options(dtype, dc->per, dc->comp, opts, sizeof opts);
    if (dc->passes > 1)
        clb_appendf(opts, sizeof opts, " -DPASSES=%d", dc->passes);
    clb_appendf(opts, sizeof opts, "%s", clb_verbose_build_option(env->info));
    return clb_kernel(env->dev, "dslash", opts, d->part.scaling ? "dslash_dist" : "dslash", k);
}

/* What the device says of the case's kernel. */
static void resources(struct clb_env *env, struct dslash *d, const struct dslash_case *dc,
                      struct clb_kres *r)
{
    clb_kernel_resources(env->dev, *kernel_of(d, dc), d->part.scaling ? "dslash_dist" : "dslash",
                         r);
}

/* The variant's build and launch figures: kind with k (regcache) or rhs per
 * pass (reg; 0: all in one). */
static void set_variant(struct dslash_case *dc, int kind, int k)
{
    dc->kind = kind;
    dc->per = kind == DSL_CACHE ? 1 : kind == DSL_REGCACHE ? k : k ? k : dc->rhs;
    dc->passes = kind == DSL_REG ? dc->rhs / dc->per : 1;
}

/* Build the kernel of a launch and give it its grid. The work-groups hold
 * every work-item of lx sites (cache: the talk's [128,4] blocks), within
 * what the built kernel allows (registers). */
static int shape(struct clb_env *env, struct dslash *d, const char *dtype, struct dslash_case *dc)
{
    int rc = build(env, d, dtype, dc);
    if (rc)
        return rc;
    size_t vh = d->geom.vh, lx = d->local, kmax = env->info->max_wg;
    size_t per = (size_t)(dc->rhs / (dc->per * dc->passes)); /* work-items per site */
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

/* reg with pass=0: every rhs in one pass unless that build spills, then
 * passes of the next smaller divisor of rhs, down to one that does not
 * (scaling=: one pass always, the distributed kernel has no passes). The
 * builds that spilled are noted. */
static int shape_reg_auto(struct clb_env *env, struct dslash *d, const char *dtype,
                          struct dslash_case *dc, struct clb_buf *note)
{
    for (int per = dc->rhs;; per = dsl_divisor_upto(dc->rhs, per - 1)) {
        set_variant(dc, DSL_REG, per);
        int rc = shape(env, d, dtype, dc);
        struct clb_kres r;
        if (rc || per == 1 || d->part.scaling)
            return rc;
        resources(env, d, dc, &r);
        if (!clb_kres_spills(env->dev, &r))
            return CLB_OK;
        clb_buf_printf(note, "%sRHS=%d spills (", note->len ? "; " : "", per);
        if (r.spill_stores >= 0)
            clb_buf_printf(note, "spill stores %ld B in the build log)", r.spill_stores);
        else
            clb_buf_printf(note, "CL_KERNEL_PRIVATE_MEM_SIZE %lld B)", r.private_mem);
    }
}

/* The shape of one variant (best's candidates and the named kernels). */
static int shape_variant(struct clb_env *env, struct dslash *d, const char *dtype,
                         struct dslash_case *dc, int kind, int k, struct clb_buf *note)
{
    if (kind == DSL_REG && k == 0)
        return shape_reg_auto(env, d, dtype, dc, note);
    set_variant(dc, kind, k);
    if (dc->passes > 1 && d->part.scaling)
        return clb_err(CLB_SKIP, "dslash: reg in passes of %d rhs is not for scaling= (the "
                                 "distributed kernel has no passes)", dc->per);
    return shape(env, d, dtype, dc);
}

/* The arguments of dslash_dist but the boxes. */
static int dist_args(struct dslash *d, const struct dslash_case *dc)
{
    cl_kernel k = *kernel_of(d, dc);
    cl_mem lng = dc->comp ? d->lk.dcomp : d->lk.dfull, hlng = d->part.halo.dhlng[dc->comp];
    cl_int4 geo, dist;
    cl_uint4 hs;
    cl_int par = 0;
    lat_halo_kargs(&d->part.halo, dc->rhs, &geo, &dist, &hs);
    size_t M = sizeof(cl_mem);
    int rc = clb_args(k, M, &d->lk.dfat, M, &lng, M, &d->dv, M, &d->dw, M, &d->part.halo.dhfat, M,
                      &hlng, M, &d->part.halo.dhv, sizeof geo, &geo, sizeof dist, &dist, sizeof hs,
                      &hs, (size_t)0);
    if (rc == CLB_OK)
        CLB_CHECK(clSetKernelArg(k, 17, sizeof par, &par), "clSetKernelArg(par)");
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

static int launch(struct clb_env *env, struct dslash *d, const struct dslash_case *dc,
                  cl_event *ev)
{
    if (d->part.scaling) { /* the probe of kernels=best: every local site, no exchange */
        struct lat_boxes all;
        lat_boxes_all(&d->part.dc, &all);
        return launch_boxes(env, d, dc, &all, dc->global[0], ev);
    }
    cl_kernel k = *kernel_of(d, dc);
    cl_mem lng = dc->comp ? d->lk.dcomp : d->lk.dfull;
    cl_int hx = d->geom.L[0] / 2, ly = d->geom.L[1], lz = d->geom.L[2], lt = d->geom.L[3];
    cl_int zs = dc->zs, zero = 0;
    cl_uint vh = (cl_uint)d->geom.vh;
    int rc = clb_args(k, sizeof(cl_mem), &d->lk.dfat, sizeof(cl_mem), &lng, sizeof(cl_mem), &d->dv,
                      sizeof(cl_mem), &d->dw, sizeof hx, &hx, sizeof ly, &ly, sizeof lz, &lz,
                      sizeof lt, &lt, sizeof vh, &vh, sizeof zs, &zs, sizeof zero, &zero,
                      (size_t)0);
    if (rc)
        return rc;
    return clb_launch(env->dev, k, 2, dc->global, dc->local[0] ? dc->local : NULL, ev);
}

/* A launch's context for the core's probe and for lat_halo_overlap. */
struct dslash_launch {
    struct dslash *d;
    const struct dslash_case *dc;
};

static int probe_launch(struct clb_env *env, void *ctx, cl_event *ev)
{
    const struct dslash_launch *p = ctx;
    return launch(env, p->d, p->dc, ev);
}

/* ---- kernels=best -------------------------------------------------------------- */

/* best's candidates at the case's rhs: reg (pass=0), cache, and regcache
 * for each k of k=; their names as the note gives them. */
struct candidates {
    int n, kind[2 + MAX_RHS], k[2 + MAX_RHS];
    double t[2 + MAX_RHS];
    struct dslash_case dc[2 + MAX_RHS];
};

static void candidate_name(const struct candidates *cs, int i, char *out, size_t n)
{
    if (cs->kind[i] == DSL_REGCACHE)
        snprintf(out, n, "regcache k=%d", cs->k[i]);
    else
        snprintf(out, n, "%s", dsl_kernel_names[cs->kind[i]]);
}

/* scaling=: one pick for every rank: the probes' times summed over the
 * ranks (every rank gets here: set-up agreed before the cases). */
static int probe_agree(struct candidates *cs, int rc)
{
    double v[2 + MAX_RHS + 1];
    for (int i = 0; i < cs->n; i++)
        v[i] = cs->t[i];
    v[cs->n] = rc != CLB_OK;
    int e = clb_comm_allreduce(v, cs->n + 1, CLB_SUM);
    if (e)
        return e;
    if (v[cs->n] > 0 && rc == CLB_OK) {
        clb_seterr("dslash: the probe of kernels=best failed on another rank");
        return CLB_SKIP; /* the job's agreement names the rank that failed */
    }
    for (int i = 0; i < cs->n; i++)
        cs->t[i] = v[i];
    return rc;
}

/* Probe every candidate: 4 launches each (the first warms up), fastest kept. */
static int probe_all(struct clb_env *env, struct clb_group *g, const struct choice *ch,
                     struct dslash_case *dc, struct candidates *cs, struct clb_buf *note)
{
    struct dslash *d = g->state;
    int ks[MAX_RHS], nk = lat_regcache_ks(ch->ks, ch->nks, dc->rhs, ks), rc = CLB_OK;
    cs->n = 2 + nk;
    for (int i = 0; i < cs->n; i++) {
        cs->kind[i] = i < 2 ? (i ? DSL_CACHE : DSL_REG) : DSL_REGCACHE;
        cs->k[i] = i < 2 ? 0 : ks[i - 2];
        cs->t[i] = 0;
        cs->dc[i] = *dc;
    }
    for (int i = 0; i < cs->n && rc == CLB_OK; i++) {
        struct dslash_launch p = {d, &cs->dc[i]};
        rc = shape_variant(env, d, g->dtype, &cs->dc[i], cs->kind[i], cs->k[i], note);
        if (rc == CLB_OK)
            rc = clb_probe_min(env, probe_launch, &p, 4, &cs->t[i]);
    }
    return d->part.scaling ? probe_agree(cs, rc) : rc;
}

/* The variant best= names for this rhs (its origin noted), else the fastest
 * of the probe. */
static int pick_best(struct clb_env *env, struct clb_group *g, const struct choice *ch,
                     struct dslash_case *dc, struct clb_buf *note)
{
    struct dslash *d = g->state;
    int kind, k, rc = dsl_best_for(clb_param(env, "best"), dc->rhs, &kind, &k);
    if (rc == CLB_OK && kind >= 0) {
        if (kind == DSL_REGCACHE && (dc->rhs % k || k >= dc->rhs))
            return clb_err(CLB_SKIP, "dslash: best=regcache%d at rhs=%d: k must divide rhs and be "
                                     "below it", k, dc->rhs);
        clb_buf_printf(note, "best=%s", dsl_kernel_names[kind]);
        if (kind == DSL_REGCACHE)
            clb_buf_printf(note, " k=%d", k);
        clb_buf_printf(note, " (%s)", clb_param_origin(env, "best"));
        return shape_variant(env, d, g->dtype, dc, kind, kind == DSL_REGCACHE ? k : 0, note);
    }
    struct candidates cs;
    if (rc || (rc = probe_all(env, g, ch, dc, &cs, note)))
        return rc;
    int b = 0;
    for (int i = 1; i < cs.n; i++)
        b = cs.t[i] < cs.t[b] ? i : b;
    *dc = cs.dc[b];
    char name[32];
    candidate_name(&cs, b, name, sizeof name);
    clb_buf_printf(note, "%sbest=%s (probe:", note->len ? "; " : "", name);
    for (int i = 0; i < cs.n; i++) {
        candidate_name(&cs, i, name, sizeof name);
        clb_buf_printf(note, "%s %s %.3g ms", i ? "," : "", name, 1e3 * cs.t[i]);
    }
    clb_buf_printf(note, "%s)", d->part.scaling ? ", summed over the ranks" : "");
    return CLB_OK;
}

/* ---- cases ------------------------------------------------------------------- */

/* The metrics of the launch: rhs per work-item and per pass, what the device
 * says of the kernel (registers, spills, private memory) and, for best,
 * what it runs. */
static void note_launch(struct clb_env *env, struct dslash *d, struct clb_case *c,
                        const struct dslash_case *dc, int kernel)
{
    struct clb_kres r;
    resources(env, d, dc, &r);
    clb_case_metric(c, "rhs_per_item", dc->per * dc->passes);
    clb_case_metric(c, "rhs_per_pass", dc->per);
    if (kernel == DSL_BEST)
        clb_case_metric_token(c, "best_kernel", dsl_kernel_names[dc->kind]);
    if (r.private_mem >= 0)
        clb_case_metric(c, "private_mem_bytes", (double)r.private_mem);
    if (r.registers >= 0)
        clb_case_metric(c, "registers", r.registers);
    if (r.spill_stores >= 0)
        clb_case_metric(c, "spill_store_bytes", r.spill_stores);
    if (clb_kres_spills(env->dev, &r)) {
        clb_case_metric(c, "spill", 1);
        clb_case_note(c, "the kernel spills (%s)",
                      r.spill_stores >= 0 ? "spill stores in the build log"
                                          : "CL_KERNEL_PRIVATE_MEM_SIZE > 0");
    }
}

/* The row's params: rhs, links, the variant's own (k, pass), zstrip, scaling. */
static int add_row(struct clb_group *g, struct clb_case **c, int kernel,
                   const struct dslash_case *dc)
{
    struct dslash *d = g->state;
    char sc[128], var[48] = "";
    lat_part_params(&d->part, sc, sizeof sc);
    if (kernel == DSL_REGCACHE)
        snprintf(var, sizeof var, ",k=%d", dc->per);
    else if (kernel == DSL_REG && dc->passes > 1)
        snprintf(var, sizeof var, ",pass=%d", dc->per);
    if (dc->zs)
        clb_appendf(var, sizeof var, ",zstrip=%d", dc->zs);
    if (dc->fit.reduced) /* what ran: the fitted work-group */
        clb_appendf(var, sizeof var, ",local=%zu", dc->local[0]);
    return clb_case_add(g, c, dsl_kernel_names[kernel], "rhs=%d,links=%s%s%s", dc->rhs,
                        dc->comp ? "compressed" : "full", var, sc);
}

/* A case whose variant cannot run here: a skipped row with the reason. */
static int add_skipped(struct clb_group *g, int kernel, struct dslash_case *dc)
{
    struct clb_case *c;
    char *why = clb_strdup(clb_lasterr());
    int rc = add_row(g, &c, kernel, dc);
    if (rc == CLB_OK)
        clb_case_skip(c, "%s", why ? why : "cannot run");
    free(why);
    return rc;
}

/* One case: kernel with its k (regcache) or pass value (reg: 0 automatic),
 * at rhs, links comp and site order zs. */
static int add_case(struct clb_env *env, struct clb_group *g, const struct choice *ch, int kernel,
                    int kp, int rhs, int comp, int zs)
{
    struct dslash *d = g->state;
    struct dslash_case dc = {.rhs = rhs, .comp = comp, .kind = kernel, .per = rhs, .passes = 1, .zs = zs};
    struct clb_buf note = {0};
    int rc = CLB_OK;
    if (zs && d->geom.L[2] % zs) {
        rc = clb_err(CLB_SKIP, "dslash: zstrip=%d does not divide Lz=%d", zs, d->geom.L[2]);
    } else if (kernel == DSL_BEST) {
        rc = pick_best(env, g, ch, &dc, &note);
    } else {
        rc = shape_variant(env, d, g->dtype, &dc, kernel, kp, &note);
    }
    if (d->part.scaling) /* every rank: the message step on its own */
        rc = lat_probe_case(&d->part, rhs, rc);
    if (kernel == DSL_REGCACHE || (kernel == DSL_REG && kp))
        set_variant(&dc, kernel, kp); /* the row's params, whatever happened */
    struct clb_case *c;
    if (rc == CLB_SKIP) {
        clb_buf_free(&note);
        return add_skipped(g, kernel, &dc);
    }
    if (rc == CLB_OK)
        rc = add_row(g, &c, kernel, &dc);
    if (rc) {
        clb_buf_free(&note);
        return rc;
    }
    double ai = lat_case_model(env, c);
    clb_case_metric(c, "op_applications", 1); /* one per repetition (model scaling) */
    clb_case_note(c, "ai=%.3f ai_vcache=%.3f", ai,
                  clb_dslash_intensity(rhs, 15.0 / 16, comp, d->es));
    note_launch(env, d, c, &dc, kernel);
    if (d->part.scaling && (rc = lat_halo_model(&d->part, c, dc.rhs, &dc.halo_model))) {
        clb_buf_free(&note);
        return rc;
    }
    *(struct dslash_case *)c->data = dc;
    c->dims = 2;
    memcpy(c->local, dc.local, sizeof dc.local);
    memcpy(c->global, dc.global, sizeof dc.global);
    if (note.len)
        clb_case_note(c, "%s", clb_buf_str(&note));
    clb_fit_note(c, &dc.fit);
    clb_buf_free(&note);
    return CLB_OK;
}

/* ---- scaling=strong|weak: the lattice split over the ranks -------------------- */

/* The interior or boundary launch of one application (lat_halo_overlap). */
static int launch_part(struct clb_env *env, void *ctx, const struct lat_boxes *b, int boundary,
                       cl_event *ev)
{
    const struct dslash_launch *p = ctx;
    return launch_boxes(env, p->d, p->dc, b, boundary ? p->dc->gbd : p->dc->gin, ev);
}

/* One application: the interior while the halos travel, then the boundary
 * (lat_halo_overlap); timed by the host clock around the whole (events
 * cannot span MPI). */
static int run_scaling(struct clb_env *env, struct dslash *d, const struct dslash_case *dc,
                       struct clb_sample *s)
{
    struct dslash_launch pl = {d, dc};
    struct lat_overlap o;
    double t0 = clb_now();
    int rc = lat_halo_overlap(env, &d->part.halo, d->dv, dc->rhs, launch_part, &pl, CLB_OK, &o);
    if (rc == CLB_OK) /* the queue was flushed: clb_finish, not clFinish (Rusticl) */
        rc = clb_finish(env->dev->queue);
    s->seconds = clb_now() - t0;
    if (rc == CLB_OK) {
        struct lat_xtimes x;
        lat_overlap_times(&o, &x);
        rc = lat_log_add(&d->hlog, &x, NAN, s->seconds, 1, "dslash");
    }
    lat_overlap_release(&o);
    return rc;
}

static int setup_group(struct clb_env *env, struct clb_group *g, struct dslash *d,
                       struct choice *ch)
{
    int rc = read_params(env, ch);
    if (rc || (rc = lat_param_part(env, "dslash", &d->part)))
        return rc;
    if ((rc = lat_setup_lattice(env, g, "dslash", ch->rhs, ch->nrhs, &d->geom, &d->maxrhs,
                                &d->part)))
        return rc;
    d->dbl = clb_dtype_is_double(g->dtype);
    d->es = d->dbl ? 8 : 4;
    d->local = (size_t)ch->local;
    return alloc_fields(env, d);
}

/* The cases of one (links, rhs, site order): each kernel of kernels= in
 * order, reg once per pass= value (what it resolves to), regcache once per
 * k of k= that fits rhs; into kinds and kps (k, or reg's rhs per pass with 0
 * automatic), their number. set-up adds them, plan counts them. */
#define MAX_VARIANTS (3 + 2 * MAX_RHS)
static int variant_cases(const struct choice *ch, int rhs, int kinds[MAX_VARIANTS],
                         int kps[MAX_VARIANTS])
{
    int n = 0, v[MAX_RHS + 1];
    for (int kind = DSL_REG; kind < DSL_NK; kind++) {
        if (!(ch->kernels & (1u << kind)))
            continue;
        int m = kind == DSL_REG        ? dsl_reg_passes(ch->passes, ch->npasses, rhs, v)
                : kind == DSL_REGCACHE ? lat_regcache_ks(ch->ks, ch->nks, rhs, v)
                                       : (v[0] = 0, 1);
        for (int i = 0; i < m && n < MAX_VARIANTS; i++, n++) {
            kinds[n] = kind;
            kps[n] = v[i];
        }
    }
    return n;
}

static int setup(struct clb_env *env, struct clb_group *g)
{
    struct dslash *d = g->state;
    struct choice ch;
    int rc = setup_group(env, g, d, &ch);
    if (!lat_agree_setup(&d->part, &rc)) /* kernels=best probes together */
        return rc;
    int kinds[MAX_VARIANTS], kps[MAX_VARIANTS];
    for (int comp = 0; comp < 2; comp++)
        for (int r = 0; r < ch.nrhs && (ch.links & (1u << comp)); r++)
            for (int z = 0; z < ch.nzs; z++) {
                int n = variant_cases(&ch, (int)ch.rhs[r], kinds, kps);
                for (int i = 0; i < n && rc == CLB_OK; i++)
                    rc = lat_agree_case("dslash", d->part.scaling,
                                        add_case(env, g, &ch, kinds[i], kps[i], (int)ch.rhs[r],
                                                 comp, (int)ch.zs[z]));
            }
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

/* scaling=: a hash of the whole lattice's output, the same whatever the
 * split when every site's bits are (w_hash; the tests compare one rank with
 * several): per even site FNV-1a (64, folded to 32 bits) of its global index
 * and its values, summed mod 2^32 over the sites of every rank (an exact sum
 * of doubles). */
static int output_hash(const struct dslash *d, int rhs, struct clb_case *c, int have)
{
    const struct lat_decomp *p = &d->part.dc;
    size_t vh = have ? d->geom.vh : 0, es = d->es;
    uint32_t acc = 0;
#pragma omp parallel for reduction(+ : acc) schedule(static)
    for (long i = 0; i < (long)vh; i++) {
        int x[4];
        lat_coords(&d->geom, 0, (size_t)i, x);
        uint64_t g = 0;
        for (int mu = 3; mu >= 0; mu--)
            g = g * (uint64_t)p->G[mu] + (uint64_t)(x[mu] + p->O[mu]);
        uint64_t h = clb_fnv1a(CLB_FNV_START, &g, sizeof g);
        for (int r = 0; r < 3 * rhs; r++)
            h = clb_fnv1a(h, (const unsigned char *)d->w + 2 * es * ((size_t)r * vh + (size_t)i),
                          2 * es);
        acc += (uint32_t)(h ^ h >> 32);
    }
    double sum[2] = {acc, !have}; /* every rank, with its output read back or not */
    int rc = clb_comm_allreduce(sum, 2, CLB_SUM);
    if (rc == CLB_OK && sum[1] == 0)
        clb_case_metric(c, "w_hash", fmod(sum[0], 4294967296.0));
    return rc;
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
    if (rc && d->part.scaling)
        output_hash(d, rhs, c, 0); /* its collective, as every rank's */
    if (rc)
        return d->part.scaling ? lat_verify_halo(c, &d->hlog, dc->halo_model, rc) : rc;
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
    int fail = !(rel < tol) || bad;
    if (!(rel < tol))
        clb_case_note(c, "relative L2 error %.2e above %.0e", rel, tol);
    if (bad) {
        int x[4];
        lat_coords(&d->geom, 0, (size_t)first, x); /* global coordinates under scaling= */
        clb_case_note(c, "%ld of %zu even sites wrong (first at x=%d,%d,%d,%d)", bad, vh,
                      x[0] + d->part.dc.O[0], x[1] + d->part.dc.O[1], x[2] + d->part.dc.O[2],
                      x[3] + d->part.dc.O[3]);
    }
    if (dc->comp && lat_check_rebuild(c, d->dbl, d->lk.rebuild_err))
        fail = 1;
    if (d->part.scaling) {
        int pk = lat_halo_check_pack(env, &d->part.halo, d->dv, rhs, c);
        int own = pk ? pk : fail ? CLB_FAIL : CLB_OK;
        int e = output_hash(d, rhs, c, 1); /* every rank: an allreduce */
        own = own ? own : e;
        return lat_verify_halo(c, &d->hlog, dc->halo_model, own);
    }
    return fail ? CLB_FAIL : CLB_OK;
}

static void teardown(struct clb_env *env, struct clb_group *g)
{
    struct dslash *d = g->state;
    lat_links_close(env, &d->part, &d->lk);
    lat_log_free(&d->hlog);
    CLB_RELEASE_KERNELS(d->k);
    clb_release_mems(&d->dv, 1);
    clb_release_mems(&d->dw, 1);
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

/* The speed-up of rhs hi over rhs lo: for each (size, type, params but rhs,
 * kernel) with ok rows at both, the GFlop/s of both and their ratio. */
static void summarize_pair(const struct clb_row *rows, size_t n, FILE *out, int lo, int hi,
                           const char *title)
{
    int header = 0;
    for (size_t i = 0; i < n; i++) {
        const char *li, *lj;
        if (strcmp(rows[i].status, "ok") || row_rhs(&rows[i], &li) != lo)
            continue;
        for (size_t j = 0; j < n; j++) {
            if (strcmp(rows[j].status, "ok") || row_rhs(&rows[j], &lj) != hi ||
                strcmp(li, lj) || strcmp(rows[i].kernel, rows[j].kernel) ||
                strcmp(rows[i].dtype, rows[j].dtype) || strcmp(rows[i].size, rows[j].size))
                continue;
            if (!header++)
                fprintf(out, "\n%s:\n", title);
            fprintf(out, "  %-8s %-6s %-12s links=%-10s %8.1f -> %8.1f GFlop/s  %.2fx\n",
                    rows[i].kernel, rows[i].dtype, rows[i].size, li, rows[i].gflops,
                    rows[j].gflops, rows[j].gflops / rows[i].gflops);
        }
    }
}

/* The multiple-rhs speed-ups: rhs 4 over rhs 1 (the talk's figure, the
 * rhs-4 target) and rhs 8 over rhs 4 (target: best >= 1.2, docs/PERFORMANCE.md). */
static void summarize(const struct clb_summary_ctx *ctx, const struct clb_row *rows, size_t n,
                      FILE *out)
{
    (void)ctx;
    lat_summarize_halo("dslash", rows, n, out);
    summarize_pair(rows, n, out, 1, 4,
                   "dslash rhs 4 over rhs 1 (the talk: 2.16 expected from the model, 2.5 "
                   "measured on Kepler)");
    summarize_pair(rows, n, out, 4, 8, "dslash rhs 8 over rhs 4 (the model: 1.24 in fp32 with "
                                       "compressed links, 1.26 with full ones)");
}

/* The cases setup will add: variant_cases for each rhs, links kind and
 * site order. */
static int plan(struct clb_env *env, const char *dtype, const struct clb_size *size)
{
    (void)dtype;
    (void)size;
    struct choice ch = {0};
    if (read_params(env, &ch))
        return -1;
    int n = 0, kinds[MAX_VARIANTS], kps[MAX_VARIANTS];
    for (int r = 0; r < ch.nrhs; r++)
        n += variant_cases(&ch, (int)ch.rhs[r], kinds, kps);
    return n * __builtin_popcount(ch.links) * ch.nzs; /* links: full, compressed */
}

/* The figure's model lines (struct clb_figure's `models`). */
static int figure_models(const struct clb_row *r, struct clb_figure_model *out, int max)
{
    return lat_figure_models(r, 0, out, max);
}

/* Its kernels' changes (git history): what a baseline from before them ran. */
static const struct clb_kernel_rev revisions[] = {
    {"reg,cache,best", "2026-11-25T22:23:38Z", "df93bd0",
     "the Dslash kernel takes a site order and passes (site_of, PASSES)"},
    {0}};

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
    .baselines = "stream/triad,stream/copy",
    .state_size = sizeof(struct dslash),
    .case_size = sizeof(struct dslash_case),
    CLB_STEPS,
    .plan = plan,
    .check_size = lat_check_size,
    .prepare = prepare,
    .summarize = summarize,
    .models = dslash_models,
    .figure = {.x_param = "rhs", .x_label = "right-hand sides", .order = "reg,cache,best",
               .models = figure_models},
    .revisions = revisions,
};

/* peak: the device's arithmetic throughput. Each work-item runs acc
 * independent chains of vec-wide vectors, x <- fma(x, x, a) (int: x*m + a in
 * 32 bits), seeded from a buffer the compiler cannot see; the size is the
 * lane-FMAs per work-item, split evenly over the acc x vec chains. Flops: 2
 * per lane-FMA plus the adds that sum a work-item's chains into its one
 * stored result; bytes: the seeds read and the results written. Every
 * result is checked bit for bit against the same chain on the host (peak.h).
 * int rows count 32-bit integer multiply-adds: GIOP/s in the gflops column. */
#include "clb_workload.h"
#include "clb_fit.h"
#include "peak.h"

#include <stdlib.h>
#include <string.h>

/* Seed classes: work-item g starts from the seeds of class g % CLASSES, so
 * the host recomputes CLASSES chains and checks every work-item. */
#define CLASSES 64
/* The most work-items a group count assumes when --param does not say (the
 * default launch follows the compute units, which a count cannot see; it is
 * clamped to this). */
#define ITEMS_BOUND (1u << 22)

static const long vec_ok[] = {1, 2, 4, 8, 16};

struct peak_case {
    long vec, acc;
};

struct peak {
    enum clb_peak_type type;
    size_t esize, fmas;
    void *seeds, *out, *ref;      /* host: CLASSES x 16 x 16 seeds, the results, CLASSES refs */
    unsigned char coef[16];       /* the chain's a and m, in the type (peak.h) */
    cl_mem dseeds, dout;
    cl_kernel k[5][3];            /* vec index x acc index */
    size_t items;                 /* the most work-items of any case */
    struct clb_fit fit;           /* how local was fitted */
};

static const struct clb_param_def params[] = {
    {"vec", "", "vector width of the chains: 1, 2, 4, 8, 16 or a list (default all five, one "
                "row each; --quick 1,4)", CLB_ROLE_TUNING},
    {"acc", "8", "independent accumulators (chains) per work-item: 4, 8, 16 or a list",
     CLB_ROLE_TUNING},
    {"groups", "", "work-groups (default 32 per compute unit on GPUs and accelerators, 4 per "
                   "compute unit on CPUs)", CLB_ROLE_TUNING},
    {"local", "", "work-items per work-group (default 256 on GPUs and accelerators, 16 on CPUs; "
                  "reduced to what the device and the kernels allow, the default groups then "
                  "raised to keep the work-items)", CLB_ROLE_TUNING},
    {0, 0, 0, 0}};

/* ---- counts ------------------------------------------------------------ */

/* By enum clb_peak_type. */
static const char *const type_names[] = {"float", "double", "half", "int"};

static int type_of(const char *dtype, enum clb_peak_type *t)
{
    for (*t = CLB_PEAK_FLOAT; *t <= CLB_PEAK_INT; (*t)++)
        if (strcmp(dtype, type_names[*t]) == 0)
            return CLB_OK;
    return clb_eusage("peak types are float, double, half and int, not '%s'", dtype);
}

static const char *kernel_for(enum clb_peak_type t) { return t == CLB_PEAK_INT ? "mad" : "fma"; }

/* Case: flops = items x (2 x size + acc x vec + vec) (the FMAs, then the adds
 * of the sum), bytes = the seeds once + one result per work-item. Group: the
 * seed buffer (16 x 16 per class) and the results of the largest launch
 * (ITEMS_BOUND where --param does not give groups and local). */
static int count(const struct clb_query *q, struct clb_counts *out)
{
    enum clb_peak_type t;
    int rc = type_of(q->dtype, &t);
    if (rc)
        return rc;
    int ovf = 0;
    size_t es = clb_peak_esize(t);
    out->compute_bound = 1;
    if (!q->kernel) {
        size_t g = (size_t)clb_query_long(q, "groups", 1, 1L << 30, 0);
        size_t l = (size_t)clb_query_long(q, "local", 1, 1 << 16, 0);
        size_t items = g && l ? clb_mulz(g, l, &ovf) : ITEMS_BOUND;
        size_t seeds = clb_mulz((size_t)CLASSES * 256, es, &ovf);
        size_t res = clb_mulz(items, es, &ovf);
        return clb_count_done(q, ovf, out, 0, 0, clb_addz(seeds, res, &ovf),
                              res > seeds ? res : seeds, CLB_UNIT_GFLOPS);
    }
    if (strcmp(q->kernel, kernel_for(t)))
        return clb_eusage("unknown peak kernel '%s' for %s (known: %s)", q->kernel, q->dtype,
                          kernel_for(t));
    size_t vec = (size_t)clb_query_long(q, "vec", 1, 16, 1);
    size_t acc = (size_t)clb_query_long(q, "acc", 1, 16, 8);
    size_t g = (size_t)clb_query_long(q, "groups", 1, 1L << 30, 1);
    size_t l = (size_t)clb_query_long(q, "local", 1, 1 << 16, 1);
    size_t items = clb_mulz(g, l, &ovf);
    size_t per_item = clb_addz(clb_mulz(q->size->total, 2, &ovf), acc * vec + vec, &ovf);
    size_t seeds = clb_mulz((size_t)CLASSES * acc * vec, es, &ovf);
    size_t res = clb_mulz(items, es, &ovf), fp = clb_addz(seeds, res, &ovf);
    return clb_count_done(q, ovf, out, fp, clb_mulz(items, per_item, &ovf), fp,
                          res > seeds ? res : seeds, CLB_UNIT_GFLOPS);
}

/* One default size: 2^17 lane-FMAs per work-item (about 4 ms of an H100's
 * fp32 pipes with the default launch, a few ms on a CPU). */
static int ladder(int i, char *out, size_t n)
{
    if (i > 0)
        return 0;
    snprintf(out, n, "131072");
    return 1;
}

/* ---- kernels ----------------------------------------------------------- */

static int vec_index(long v) { return v == 1 ? 0 : v == 2 ? 1 : v == 4 ? 2 : v == 8 ? 3 : 4; }
static int acc_index(long a) { return a == 4 ? 0 : a == 8 ? 1 : 2; }

/* The options of a (type, vec, acc) program. */
static void options(enum clb_peak_type t, long vec, long acc, char *opts, size_t n)
{
    static const char *const defs[] = {"-DT=float", "-DT=double -DUSE_FP64=1",
                                       "-DT=half -DUSE_FP16=1", "-DT=uint -DUSE_INT=1"};
    snprintf(opts, n, "%s -DVEC=%ld -DACC=%ld", defs[t], vec, acc);
}

static int build(struct clb_env *env, struct peak *p, long vec, long acc, cl_kernel *out)
{
    cl_kernel *k = &p->k[vec_index(vec)][acc_index(acc)];
    if (!*k) {
        char opts[128];
        options(p->type, vec, acc, opts, sizeof opts);
        int rc = clb_kernel(env->dev, "peak", opts, "peak", k);
        if (rc)
            return rc;
    }
    *out = *k;
    return CLB_OK;
}

/* ---- set-up ------------------------------------------------------------- */

static int read_params(struct clb_env *env, long *vecs, int *nvec, long *accs, int *nacc,
                       long *groups, long *local)
{
    int rc;
    static const long quick[] = {1, 4};
    *nvec = env->quick ? 2 : 5;
    memcpy(vecs, env->quick ? quick : vec_ok, (size_t)*nvec * sizeof *vecs);
    if ((clb_param(env, "vec")[0] && (rc = clb_param_ints(env, "vec", 1, 16, vecs, 8, nvec))) ||
        (rc = clb_param_ints(env, "acc", 1, 16, accs, 8, nacc)))
        return rc;
    /* in 1..16 as parsed: the accepted values are the powers of two (acc >= 4) */
    for (int i = 0; i < *nvec; i++)
        if (vecs[i] & (vecs[i] - 1))
            return clb_eusage("peak: bad vec %ld (accepted: 1, 2, 4, 8, 16)", vecs[i]);
    for (int i = 0; i < *nacc; i++)
        if (accs[i] < 4 || accs[i] & (accs[i] - 1))
            return clb_eusage("peak: bad acc %ld (accepted: 4, 8, 16)", accs[i]);
    int cpu = strcmp(env->info->type_name, "cpu") == 0;
    *local = cpu ? 16 : 256;
    if (clb_param(env, "local")[0] &&
        (rc = clb_param_int(env, "local", 1, 1L << 20, local)))
        return rc;
    long cus = env->info->compute_units ? (long)env->info->compute_units : 1;
    *groups = (cpu ? 4 : 32) * cus;
    if (*groups * *local > (long)ITEMS_BOUND)
        *groups = (long)ITEMS_BOUND / *local;
    if (clb_param(env, "groups")[0] && (rc = clb_param_int(env, "groups", 1, 1L << 30, groups)))
        return rc;
    return CLB_OK;
}

static int fill_seeds(struct peak *p)
{
    size_t n = (size_t)CLASSES * 256;
    unsigned long long st = 0x5eed9ea4ULL;
    switch (p->type) {
    case CLB_PEAK_FLOAT: clb_fill_f32(p->seeds, n, 11); break;
    case CLB_PEAK_DOUBLE: clb_fill_f64(p->seeds, n, 11); break;
    case CLB_PEAK_HALF: {
        float *f = clb_xmalloc(n * sizeof *f);
        if (!f)
            return CLB_ESYS;
        clb_fill_f32(f, n, 11);
        for (size_t i = 0; i < n; i++)
            ((uint16_t *)p->seeds)[i] = clb_half_from_double(f[i]);
        free(f);
        break;
    }
    case CLB_PEAK_INT:
        for (size_t i = 0; i < n; i++)
            ((uint32_t *)p->seeds)[i] = (uint32_t)(clb_rand_next(&st) >> 32);
        break;
    }
    /* a = -1.9 for the floats (m unused: 1); for int a random odd a and a
     * random m = 1 mod 4 */
    float af[2] = {(float)CLB_PEAK_ADDEND, 1};
    double ad[2] = {CLB_PEAK_ADDEND, 1};
    uint16_t ah[2] = {clb_half_from_double(CLB_PEAK_ADDEND), 0x3c00};
    uint32_t ai[2] = {(uint32_t)(clb_rand_next(&st) >> 32) | 1u,
                      ((uint32_t)(clb_rand_next(&st) >> 32) & ~3u) | 1u};
    const void *src = p->type == CLB_PEAK_FLOAT ? (const void *)af
                      : p->type == CLB_PEAK_DOUBLE ? (const void *)ad
                      : p->type == CLB_PEAK_HALF ? (const void *)ah : (const void *)ai;
    memcpy(p->coef, src, 2 * p->esize);
    return CLB_OK;
}

/* The cases, enumerated once: one per (vec, acc) in this order (the launch
 * shape is the fit's). Set-up builds their kernels and adds them; the plan
 * counts them. */
#define MAX_CASES (8 * 8)

static int cases(const long *vecs, int nvec, const long *accs, int nacc,
                 struct peak_case out[MAX_CASES])
{
    int n = 0;
    for (int v = 0; v < nvec; v++)
        for (int a = 0; a < nacc; a++)
            out[n++] = (struct peak_case){vecs[v], accs[a]};
    return n;
}

/* Every kernel built, the work-group reduced to what all of them allow;
 * the default grid then gets as many more groups as keep its work-items
 * (a given --param groups stays). */
static int fit_local(struct clb_env *env, struct peak *p, const struct peak_case *cs, int n,
                     long *groups, long *local)
{
    cl_kernel k[15], one, *built = &p->k[0][0];
    int nk = 0, rc;
    for (int i = 0; i < n; i++)
        if ((rc = build(env, p, cs[i].vec, cs[i].acc, &one)))
            return rc;
    for (int j = 0; j < 15; j++) /* each (vec, acc) once: its slot of p->k */
        if (built[j])
            k[nk++] = built[j];
    size_t got;
    p->fit = (struct clb_fit){.what = "local"};
    if ((rc = clb_fit_items(env, k, nk, (size_t)*local, 0, 0, &got, &p->fit)))
        return rc;
    if (p->fit.reduced && !clb_param(env, "groups")[0]) {
        size_t items = (size_t)*groups * (size_t)*local, bound = ITEMS_BOUND;
        items = items < bound ? items : bound;
        *groups = (long)((items + got - 1) / got);
    }
    *local = (long)got;
    return CLB_OK;
}

/* One case of cases(), at the fitted launch shape. */
static int add_case(struct clb_group *g, struct peak_case pc, size_t groups, size_t local)
{
    struct peak *p = g->state;
    struct clb_case *c;
    int rc = clb_case_add(g, &c, kernel_for(p->type), "vec=%ld,acc=%ld,groups=%zu,local=%zu",
                          pc.vec, pc.acc, groups, local);
    if (rc)
        return rc;
    *(struct peak_case *)c->data = pc;
    c->dims = 1;
    c->global[0] = p->items;
    c->local[0] = local;
    clb_fit_note(c, &p->fit);
    return CLB_OK;
}

static int setup(struct clb_env *env, struct clb_group *g)
{
    struct peak *p = g->state;
    int rc = type_of(g->dtype, &p->type);
    if (rc)
        return rc;
    if (p->type == CLB_PEAK_HALF && !env->info->fp16)
        return clb_err(CLB_SKIP, "device has no half precision (cl_khr_fp16 is not among its "
                                 "extensions)");
    p->esize = clb_peak_esize(p->type);
    p->fmas = g->size.total;
    long vecs[8], accs[8], groups, local;
    int nvec, nacc;
    if ((rc = read_params(env, vecs, &nvec, accs, &nacc, &groups, &local)))
        return rc;
    struct peak_case cs[MAX_CASES];
    int n = cases(vecs, nvec, accs, nacc, cs);
    long most = 1; /* powers of two: the largest product is a multiple of the others */
    for (int i = 0; i < n; i++)
        most = cs[i].vec * cs[i].acc > most ? cs[i].vec * cs[i].acc : most;
    if (p->fmas % (size_t)most)
        return clb_eusage("peak: size %zu is not a multiple of acc x vec = %ld (the lane-FMAs of a "
                          "work-item are split evenly over its chains)", p->fmas, most);
    if ((rc = fit_local(env, p, cs, n, &groups, &local)))
        return rc;
    p->items = (size_t)groups * (size_t)local; /* after the fit: the buffers' size */
    size_t seed_bytes = (size_t)CLASSES * 256 * p->esize;
    p->seeds = clb_xmalloc(seed_bytes);
    p->out = clb_xmalloc(p->items * p->esize);
    p->ref = clb_xmalloc((size_t)CLASSES * p->esize);
    if (!p->seeds || !p->out || !p->ref)
        return CLB_ESYS;
    if ((rc = fill_seeds(p)) ||
        (rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, seed_bytes, &p->dseeds)) ||
        (rc = clb_buffer(env->dev, CL_MEM_WRITE_ONLY, p->items * p->esize, &p->dout)))
        return rc;
    for (int i = 0; i < n; i++)
        if ((rc = add_case(g, cs[i], (size_t)groups, (size_t)local)))
            return rc;
    return CLB_OK;
}

/* The cases setup will add (cases()). */
static int plan(struct clb_env *env, const char *dtype, const struct clb_size *size)
{
    (void)dtype;
    (void)size;
    long vecs[8], accs[8], groups, local;
    int nvec, nacc;
    if (read_params(env, vecs, &nvec, accs, &nacc, &groups, &local))
        return -1;
    struct peak_case cs[MAX_CASES];
    return cases(vecs, nvec, accs, nacc, cs);
}

/* ---- measuring ---------------------------------------------------------- */

/* The seeds of a case: class c's acc x vec chains, contiguous. */
static int prepare(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct peak *p = g->state;
    const struct peak_case *pc = c->data;
    int rc = clb_write(env->dev, p->dseeds, p->seeds, (size_t)CLASSES * pc->acc * pc->vec * p->esize);
    return rc ? rc : clb_poison(env->dev, p->dout, p->items * p->esize);
}

static int run(struct clb_env *env, struct clb_group *g, struct clb_case *c, struct clb_sample *s)
{
    struct peak *p = g->state;
    const struct peak_case *pc = c->data;
    cl_kernel k;
    int rc = build(env, p, pc->vec, pc->acc, &k);
    if (rc)
        return rc;
    cl_uint classes = CLASSES, steps = (cl_uint)(p->fmas / (size_t)(pc->vec * pc->acc));
    if ((rc = clb_args(k, sizeof(cl_mem), &p->dseeds, sizeof(cl_mem), &p->dout, p->esize, p->coef,
                       p->esize, p->coef + p->esize, sizeof classes, &classes, sizeof steps, &steps,
                       (size_t)0)))
        return rc;
    return clb_launch(env->dev, k, 1, c->global, c->local, &s->first);
}

static int verify(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct peak *p = g->state;
    const struct peak_case *pc = c->data;
    int rc = clb_read(env->dev, p->dout, p->out, p->items * p->esize);
    if (rc)
        return rc;
    size_t steps = p->fmas / (size_t)(pc->vec * pc->acc), per = (size_t)(pc->acc * pc->vec);
#pragma omp parallel for schedule(dynamic)
    for (int cl = 0; cl < CLASSES; cl++)
        clb_peak_ref(p->type, (const unsigned char *)p->seeds + (size_t)cl * per * p->esize,
                     (int)pc->acc, (int)pc->vec, steps, p->coef,
                     (unsigned char *)p->ref + (size_t)cl * p->esize);
    long first, bad = clb_mismatches(p->out, p->ref, p->items, p->esize, p->esize, CLASSES, &first);
    if (bad) {
        clb_case_note(c, "%ld of %zu work-item results differ from the host's chain (first at "
                         "%ld)%s", bad, p->items, first,
                      p->type == CLB_PEAK_HALF ? ": is half arithmetic rounded per operation?" : "");
        return CLB_FAIL;
    }
    return CLB_OK;
}

/* Flops per compute unit per clock: the figure to hold against the
 * architecture (an H100 SM: 256 fp32, 128 fp64 flops per cycle). */
static int measured(struct clb_env *env, struct clb_group *g, struct clb_case *c,
                    const struct clb_measure *m)
{
    (void)g;
    double mhz = env->info->clock_mhz;
    if (!isnan(env->profile->core_clock_mhz) && env->profile->core_clock_mhz > 0)
        mhz = env->profile->core_clock_mhz;
    if (mhz > 0 && env->info->compute_units && !isnan(m->gflops)) {
        double per = m->gflops * 1e3 / (mhz * env->info->compute_units);
        clb_case_note(c, "per_cu_cycle=%.1f clock_mhz=%.0f", per, mhz);
        clb_case_metric(c, "flop_per_cu_cycle", per);
        clb_case_metric(c, "clock_mhz", mhz);
    }
    return CLB_OK;
}

static void teardown(struct clb_env *env, struct clb_group *g)
{
    (void)env;
    struct peak *p = g->state;
    CLB_RELEASE_KERNELS(p->k);
    clb_release_mems(&p->dseeds, 1);
    clb_release_mems(&p->dout, 1);
    free(p->seeds);
    free(p->out);
    free(p->ref);
}

/* ---- summary and ceilings ------------------------------------------------ */

/* The best row of a type (NULL if none). */
static const struct clb_row *best_of(const struct clb_row *rows, size_t n, const char *dtype)
{
    const struct clb_row *b = NULL;
    for (size_t i = 0; i < n; i++)
        if (strcmp(rows[i].status, "ok") == 0 && strcmp(rows[i].dtype, dtype) == 0 &&
            !isnan(rows[i].gflops) && (!b || rows[i].gflops > b->gflops))
            b = &rows[i];
    return b;
}

static void summarize(const struct clb_summary_ctx *ctx, const struct clb_row *rows, size_t n,
                      FILE *out)
{
    (void)ctx;
    int header = 0;
    for (int t = 0; t < 4; t++) {
        const struct clb_row *b = best_of(rows, n, type_names[t]);
        if (!b)
            continue;
        if (!header++)
            fprintf(out, "\npeak arithmetic (best of the vec/acc rows):\n");
        fprintf(out, "  %-6s %10.1f %s  (%s)\n", type_names[t], b->gflops,
                t == 3 ? "GIOP/s " : "GFlop/s", b->params);
    }
}

static int ceilings(const struct clb_row *rows, size_t n, struct clb_ceiling *out, int max)
{
    int k = 0;
    for (int t = 0; t < 2 && k < max; t++) {
        const struct clb_row *b = best_of(rows, n, t ? "double" : "float");
        if (!b)
            continue;
        out[k] = (struct clb_ceiling){t ? CLB_CEIL_DP : CLB_CEIL_SP, b->gflops, NAN, NAN, b, "", ""};
        snprintf(out[k].what, sizeof out[k].what, "peak %s", b->kernel);
        snprintf(out[k].note, sizeof out[k].note, "%s %s", b->dtype, b->params);
        k++;
    }
    return k;
}

/* Its figures of the headline: the fp32 and fp64 compute ceilings. */
static const struct clb_headline headline[] = {
    {"fp32 peak", "fma", "float", CLB_CEIL_SP, 1}, {"fp64 peak", "fma", "double", CLB_CEIL_DP, 1},
    {0}};

const struct clb_workload clb_wl_peak = {
    .name = "peak",
    .summary = "arithmetic throughput: FMA chains (int: 32-bit multiply-add) per type and width",
    .dtypes = "float,double,half,int",
    .default_dtypes = "float,double,half,int",
    .params = params,
    .size_help = "lane-FMAs per work-item, a multiple of acc x vec, e.g. 2^17 (default 131072; "
                 "--quick 4096)",
    .size_dims = 1,
    .size_unit = "lane-FMAs per work-item",
    .sizes = {.quick = "4096", .ladder = ladder},
    .state_size = sizeof(struct peak),
    .case_size = sizeof(struct peak_case),
    CLB_STEPS,
    .plan = plan,
    .prepare = prepare,
    .measured = measured,
    .summarize = summarize,
    .ceilings = ceilings,
    .figure = {.order = "fma,mad"},
    .ceiling_kinds = 1u << CLB_CEIL_SP | 1u << CLB_CEIL_DP,
    .ceiling_rows = "float and double rows",
    .headline = headline,
};

/* blockeq: the Tesla C1060 report's blockEqPartition [C1060Report]. A tile is one memory
 * partition wide (partition_width_bytes / sizeof elements: 64 x 8 floats,
 * 32 x 16 doubles for 256 B and 512 work-items), one element per work-item,
 * and a persistent grid of P work-groups walks the tiles (gbid += P). The
 * sweep over P shows how bandwidth grows with the number of concurrent
 * work-groups, for float and for double. Bytes: 2 n1 n2 sizeof. */
#include "clb_workload.h"
#include "clb_fit.h"
#include "blockeq.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_P 64
enum { RECIP, DIVMOD, NKERNELS };
static const char *const kernel_names[NKERNELS] = {"recip", "divmod"};

/* A case: the kernel and P (the launch shape's work-groups). */
struct blockeq_case {
    int k;
    long p;
};

struct blockeq {
    size_t n1, n2, esize, bytes;
    size_t tw, th;            /* tile: width (one partition) x height, in elements */
    const char *tw_from;      /* where the tile width came from (said in each row) */
    cl_uint k2, total;        /* tiles per row, tiles in all */
    float one_over_k2;
    struct clb_inout io;      /* the matrix and its copy, host and device */
    cl_kernel k[NKERNELS];
};

static const struct clb_param_def params[] = {
    {"partitions", "", "P, the number of work-groups of the persistent grid, a list or range "
                       "(>= 1; profile blockeq.partitions, else 1,2,4,8,16,32,CU,CU+2,2CU; "
                       "on CPUs 1,CU,2CU)", CLB_ROLE_CASE},
    {"kernels", "recip,divmod", "recip (the report's float-reciprocal tile index), divmod "
                                "(integer division), or both", CLB_ROLE_CASE},
    {"partition_width", "", "tile width in bytes (default: the profile's [memory] "
                            "partition_width_bytes, else 256, the C1060 report's partition "
                            "width; each row says which)", CLB_ROLE_CASE},
    {"items", "", "work-items per work-group = elements per tile (default 512, the report's; "
                  "reduced to what the device and the compiled kernel allow: fewer rows, then "
                  "a narrower tile)", CLB_ROLE_TUNING},
    {0, 0, 0, 0}};

static const struct clb_param_def row_keys[] = {
    {"tile", NULL, "WIDTHxROWS of a tile reduced to fit the device (absent when the tile ran as "
                   "asked): a narrower tile is another study, so it is the case",
     CLB_ROLE_CASE},
    {0, 0, 0, 0}};

/* ---- counts ------------------------------------------------------------ */

/* Both kernels read the matrix and write its copy: 2 n1 n2 sizeof bytes;
 * the group holds the input and the output. */
static int count(const struct clb_query *q, struct clb_counts *out)
{
    int rc = clb_query_kernel(q, "blockeq", "recip, divmod");
    return rc ? rc : clb_count_copy(q, out);
}

/* Does the report's float reciprocal split every tile number 0..total-1 into
 * the same row as integer division? The device converts gbid to float toward
 * zero (exact below 2^24), multiplies (correctly rounded in OpenCL C, as on
 * the host) and truncates. Returns the first tile where it does not, or -1. */
long clb_blockeq_recip_check(cl_uint k2, cl_uint total, float one_over_k2)
{
    if (total > (1u << 24))
        return 1L << 24;
    for (cl_uint g = 0; g < total; g++) {
        volatile float prod = (float)g * one_over_k2;
        if ((cl_uint)prod != g / k2)
            return (long)g;
    }
    return -1;
}

float clb_blockeq_one_over(cl_uint k2) { return (float)((1.0 + 1.0e-6) / (double)k2); }

/* The P values: the parameter (or profile), else the default sweep, sorted
 * and without duplicates. */
static int partition_list(const struct clb_env *env, long *p, int *np)
{
    int rc;
    long cu = (long)env->info->compute_units;
    const long d[] = {1, 2, 4, 8, 16, 32, cu, cu + 2, 2 * cu};
    /* CPUs have no memory partitions to camp on, and a work-group is a
     * task: one, one per core, two per core say all there is */
    const long cpu[] = {1, cu, 2 * cu};
    int on_cpu = strcmp(env->info->type_name, "cpu") == 0;
    *np = on_cpu ? 3 : 9;
    memcpy(p, on_cpu ? cpu : d, (size_t)*np * sizeof *p);
    if (clb_param(env, "partitions")[0] &&
        (rc = clb_param_ints(env, "partitions", 1, 1L << 20, p, MAX_P, np)))
        return rc;
    for (int i = 1; i < *np; i++) /* insertion sort: a handful of values */
        for (int j = i; j > 0 && p[j - 1] > p[j]; j--) {
            long t = p[j];
            p[j] = p[j - 1];
            p[j - 1] = t;
        }
    int k = 0;
    for (int i = 0; i < *np; i++)
        if (k == 0 || p[i] != p[k - 1])
            p[k++] = p[i];
    *np = k;
    return CLB_OK;
}

/* Tile geometry from the partition width and the work-group size. */
static int tile_shape(const struct clb_env *env, const char *dtype, struct blockeq *st)
{
    long pw = 256, items = 512;
    int rc;
    /* A device whose profile names no partition width (hashed addresses: the
     * H100, CPUs) has no partition to fit: the tile is the report's. */
    st->tw_from = "the C1060 report's partition width; the profile names none";
    if (clb_param(env, "partition_width")[0]) {
        if ((rc = clb_param_int(env, "partition_width", 1, 1L << 20, &pw)))
            return rc;
        st->tw_from = "--param partition_width";
    } else if (!isnan(env->profile->partition_width_bytes)) {
        pw = (long)env->profile->partition_width_bytes;
        st->tw_from = "the profile's partition_width_bytes";
    }
    if (clb_param(env, "items")[0] && (rc = clb_param_int(env, "items", 1, 1L << 20, &items)))
        return rc;
    if (pw % (long)st->esize || pw / (long)st->esize > items || items % (pw / (long)st->esize))
        return clb_eusage("blockeq: a partition of %ld B is not a whole number of %s elements "
                          "dividing a tile of %ld work-items (partition_width: a multiple of %zu "
                          "up to %ld)", pw, dtype, items, st->esize, items * (long)st->esize);
    /* a tile the device cannot launch is reduced when the kernels are built */
    st->tw = (size_t)(pw / (long)st->esize);
    st->th = (size_t)items / st->tw;
    return CLB_OK;
}

/* Extents the kernels index; and whether the recip kernel's float
 * reciprocal places every tile (the report's trick fails on large grids):
 * when it does not, *recip_why says so and the recip rows are skipped, so a
 * default size on a large-cache device still runs the divmod rows. */
static int check_geometry(struct clb_group *g, struct blockeq *st, int recip,
                          struct clb_buf *recip_why)
{
    if (st->n1 > INT32_MAX || st->n2 > INT32_MAX)
        return clb_eusage("blockeq: size '%s' has an extent above 2^31-1", g->size_text);
    size_t k1 = (st->n1 + st->th - 1) / st->th, k2 = (st->n2 + st->tw - 1) / st->tw;
    if (k1 * k2 > UINT32_MAX)
        return clb_eusage("blockeq: size '%s' has more than 2^32 tiles", g->size_text);
    st->k2 = (cl_uint)k2;
    st->total = (cl_uint)(k1 * k2);
    st->one_over_k2 = clb_blockeq_one_over(st->k2);
    long bad = recip ? clb_blockeq_recip_check(st->k2, st->total, st->one_over_k2) : -1;
    if (bad >= 0 && st->total > (1u << 24))
        clb_buf_printf(recip_why, "%u tiles; the recip kernel is checked only up to 2^24 tiles "
                       "(a smaller size runs it)", st->total);
    else if (bad >= 0)
        clb_buf_printf(recip_why, "the float reciprocal misplaces tile %ld of %u (row %ld, not "
                       "%ld) at tiles of %zux%zu (a smaller size runs it)", bad, st->total,
                       (long)(cl_uint)((float)bad * st->one_over_k2), bad / (long)st->k2, st->tw,
                       st->th);
    return CLB_OK;
}

/* The cases, enumerated once: each kernel to run (bit k of use) at each P,
 * in this order. Set-up adds them; the plan counts them. */
#define MAX_CASES (NKERNELS * MAX_P)

static int cases(const long *p, int np, unsigned use, struct blockeq_case out[MAX_CASES])
{
    int n = 0;
    for (int k = 0; k < NKERNELS; k++)
        for (int i = 0; (use >> k & 1) && i < np; i++)
            out[n++] = (struct blockeq_case){k, p[i]};
    return n;
}

/* Fitting the tile (clb_fit_tile): the kernels are built with its sides. */
struct fit {
    struct blockeq *st;
    const char *dtype;
    unsigned use;
};

static int fit_build(struct clb_env *env, void *ctx, const struct clb_tile *t, cl_kernel *k,
                     int *nk)
{
    struct fit *f = ctx;
    char opts[160]; /* for a tile of tw x th (the fit's) */
    int ovf = 0;
    size_t elems = clb_mulz(f->st->n1, f->st->n2, &ovf);
    clb_dtype_defines(f->dtype, opts, sizeof opts);
    clb_appendf(opts, sizeof opts, " -DTW=%ld -DTH=%ld -DIDX=%s", t->v[0], t->v[1],
                !ovf && elems < UINT32_MAX ? "uint" : "ulong");
    *nk = 0;
    CLB_RELEASE_KERNELS(f->st->k);
    for (int i = 0; i < NKERNELS; i++) {
        if (!(f->use >> i & 1))
            continue;
        int rc = clb_kernel(env->dev, "blockeq", opts, kernel_names[i], &f->st->k[i]);
        if (rc)
            return rc;
        k[(*nk)++] = f->st->k[i];
    }
    return CLB_OK;
}

/* Fewer rows first (the tile stays one partition wide), then, at one row,
 * half the width (a tile narrower than a partition: said in the row). */
static int fit_shrink(void *ctx, struct clb_tile *t, const struct clb_wg_limit *l)
{
    (void)ctx;
    long tw = t->v[0], th = t->v[1];
    if (th > 1) {
        long most = (long)(l->items / (size_t)tw);
        th = most < th - 1 ? most : th - 1;
        th = th < 1 ? 1 : th;
    } else if (tw > 1) {
        tw /= 2;
    } else {
        return 0;
    }
    *t = (struct clb_tile){2, {(size_t)tw, (size_t)th, 1}, 0, {tw, th}, 0};
    return 1;
}

static const struct clb_fit_ops fit_ops = {fit_build, fit_shrink, clb_tile_rows_text};

/* The largest tile of the shape that the device and the kernels allow
 * (CLB_SKIP: none, not even 1x1). */
static int fit_tile(struct clb_env *env, struct clb_group *g, struct blockeq *st,
                    unsigned use, struct clb_fit *res)
{
    struct fit f = {st, g->dtype, use};
    struct clb_tile tile = {2, {st->tw, st->th, 1}, 0, {(long)st->tw, (long)st->th}, 0};
    int rc = clb_fit_tile(env, &fit_ops, &f, &tile, res);
    st->tw = (size_t)tile.v[0];
    st->th = (size_t)tile.v[1];
    return rc;
}

/* The cases of cases(); a reduced tile is in params. */
static int add_rows(struct clb_group *g, struct blockeq *st, const struct blockeq_case *cs, int n,
                    const char *recip_why, const struct clb_fit *res)
{
    for (int i = 0; i < n; i++) {
        int k = cs[i].k;
        long p = cs[i].p;
        struct clb_case *c;
        int rc = res->reduced ? clb_case_add(g, &c, kernel_names[k], "partitions=%ld,tile=%s", p,
                                             res->got)
                              : clb_case_add(g, &c, kernel_names[k], "partitions=%ld", p);
        if (rc)
            return rc;
        *(struct blockeq_case *)c->data = cs[i];
        c->dims = 2;
        c->local[0] = st->tw;
        c->local[1] = st->th;
        c->global[0] = (size_t)p * st->tw;
        c->global[1] = st->th;
        clb_case_note(c, "tile %zux%zu (%zu B wide: %s), %u tiles, %.1f per work-group", st->tw,
                      st->th, st->tw * st->esize, st->tw_from, st->total,
                      (double)st->total / (double)p);
        clb_fit_note(c, res);
        if (k == RECIP && recip_why[0])
            clb_case_skip(c, "%s", recip_why);
    }
    return CLB_OK;
}

static int setup(struct clb_env *env, struct clb_group *g)
{
    struct blockeq *st = g->state;
    st->n1 = g->size.d[0];
    st->n2 = g->size.d[1];
    st->esize = clb_dtype_size(g->dtype);
    long p[MAX_P];
    int np, rc;
    unsigned use; /* bit k: kernel_names[k] */
    struct clb_buf recip_why = {0};
    struct clb_fit res = {.what = "tile"};
    /* the tile is fitted (its kernels built) before the geometry that
     * depends on it is checked */
    if ((rc = partition_list(env, p, &np)) ||
        (rc = clb_param_names(env, "kernels", "recip,divmod", 0, &use)) ||
        (rc = tile_shape(env, g->dtype, st)) || (rc = fit_tile(env, g, st, use, &res)) ||
        (rc = check_geometry(g, st, use >> RECIP & 1, &recip_why)))
        return rc;
    if (recip_why.len && !(use >> DIVMOD & 1)) { /* nothing left to run: no buffers */
        clb_seterr("blockeq recip: %s", clb_buf_str(&recip_why));
        clb_buf_free(&recip_why);
        return CLB_SKIP;
    }
    st->bytes = st->n1 * st->n2 * st->esize; /* counted (overflow-checked) by the core */
    rc = clb_inout_setup(env, st->bytes, st->bytes, st->esize == 8, 21, CL_MEM_WRITE_ONLY,
                         &st->io);
    struct blockeq_case cs[MAX_CASES];
    if (rc == CLB_OK)
        rc = add_rows(g, st, cs, cases(p, np, use, cs), clb_buf_str(&recip_why), &res);
    clb_buf_free(&recip_why);
    return rc;
}

static int prepare(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct blockeq *st = g->state;
    cl_uint width = (cl_uint)st->n2, height = (cl_uint)st->n1;
    int k = ((const struct blockeq_case *)c->data)->k;
    int rc = clb_args(st->k[k], sizeof(cl_mem), &st->io.din, sizeof(cl_mem), &st->io.dout,
                      sizeof width, &width, sizeof height, &height, sizeof(float),
                      &st->one_over_k2, sizeof(cl_uint), &st->k2, sizeof(cl_uint), &st->total,
                      (size_t)0);
    return rc ? rc : clb_poison(env->dev, st->io.dout, st->bytes);
}

static int run(struct clb_env *env, struct clb_group *g, struct clb_case *c, struct clb_sample *s)
{
    struct blockeq *st = g->state;
    int k = ((const struct blockeq_case *)c->data)->k;
    return clb_launch(env->dev, st->k[k], 2, c->global, c->local, &s->first);
}

/* Exact copy of every element. */
static int verify(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct blockeq *st = g->state;
    int rc = clb_read(env->dev, st->io.dout, st->io.out, st->bytes);
    return rc ? rc
              : clb_check_exact_2d(c, st->io.out, st->io.in, st->n1 * st->n2, st->esize,
                                   st->esize, st->n2);
}

static void teardown(struct clb_env *env, struct clb_group *g)
{
    (void)env;
    struct blockeq *st = g->state;
    CLB_RELEASE_KERNELS(st->k);
    clb_inout_free(&st->io);
}

/* The double/float bandwidth ratio for each kernel, size and P where both
 * types have an ok row (the report's Table 4: about 2 at small P on a C1060). */
static void summarize(const struct clb_summary_ctx *ctx, const struct clb_row *rows, size_t n,
                      FILE *out)
{
    (void)ctx;
    int header = 0;
    for (size_t i = 0; i < n; i++) {
        const struct clb_row *d = &rows[i];
        if (strcmp(d->dtype, "double") || strcmp(d->status, "ok"))
            continue;
        for (size_t j = 0; j < n; j++) {
            const struct clb_row *f = &rows[j];
            if (strcmp(f->dtype, "float") || strcmp(f->status, "ok") ||
                strcmp(f->kernel, d->kernel) || strcmp(f->size, d->size) ||
                strcmp(f->params, d->params) || !(f->gbps > 0))
                continue;
            if (!header) {
                fprintf(out, "\nblockeq double/float bandwidth ratio:\n");
                header = 1;
            }
            fprintf(out, "  %-7s %-12s %-16s double %9.2f GB/s  float %9.2f GB/s  ratio %.3f\n",
                    d->kernel, d->size, d->params, d->gbps, f->gbps, d->gbps / f->gbps);
            break;
        }
    }
}

/* The cases setup will add (cases()). */
static int plan(struct clb_env *env, const char *dtype, const struct clb_size *size)
{
    (void)dtype;
    (void)size;
    long p[MAX_P];
    int np;
    unsigned use;
    if (partition_list(env, p, &np) || clb_param_names(env, "kernels", "recip,divmod", 0, &use))
        return -1;
    struct blockeq_case cs[MAX_CASES];
    return cases(p, np, use, cs);
}

const struct clb_workload clb_wl_blockeq = {
    .name = "blockeq",
    .summary = "the C1060 report's blockEqPartition: partition-wide tiles, persistent grid of P "
               "work-groups",
    .dtypes = "float,double",
    .default_dtypes = "float,double",
    .params = params,
    .row_keys = row_keys,
    .size_help = "n1xn2: rows x columns (columns contiguous), e.g. 8192x8192; 512x512 is the "
                 "report's (cache resident on current devices); default: a square power of two "
                 "whose float copy is >= 8x the last-level cache",
    .size_dims = 2,
    /* The same square for both types, so that the summary's double/float
     * ratio compares one matrix: the size rule sees each type's own footprint,
     * and 10 x LLC and 80 MiB keep both on the square the old rule (float copy
     * >= 8x LLC and 64 MiB) took on the PoCL CPU here and the H100 (8192x8192)
     * and below the floor (4096x4096); where the LLC lies just below a power
     * of four (float) or just above one (double), that type moves one square
     * up. CPUs: at most 128 MiB in + out (PoCL runs these tiles at 0.1-1.6
     * GB/s: a 512 MiB matrix took 168 s of the default suite on 2 cores). */
    .sizes = {.quick = "512x512", .llc_times = 10, .floor_mib = {80, 80}, .cap_mib = {128, 0}},
    .baselines = "stream/copy",
    .state_size = sizeof(struct blockeq),
    .case_size = sizeof(struct blockeq_case),
    CLB_STEPS,
    .plan = plan,
    .prepare = prepare,
    .summarize = summarize,
    .models = clb_blockeq_models,
    .figure = {.x_param = "partitions", .x_label = "work-groups (partitions)"},
};

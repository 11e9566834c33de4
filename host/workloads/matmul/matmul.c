/* matmul: the DRAM lecture's corner-turning example [CSEE217]. C = A*B on n x n float
 * matrices, kernel naive (global memory only) and tiled (local-memory tiles).
 * Rows in GFlop/s with flops = 2 n^3; bytes = 3 n^2 sizeof, the compulsory
 * traffic (each input read once, the output written once). Validated against
 * a double host reference (see matmul.h for the tolerance). */
#include "clb_workload.h"
#include "clb_fit.h"
#include "matmul.h"

#include <stdlib.h>
#include <string.h>

#define MAX_TILES 16
#define MAX_SIDE 65536

/* One case: -1 naive, else the index into tiled[]. */
struct matmul_case {
    int kind;
};

struct matmul {
    size_t n;
    float *a, *b, *c;       /* inputs and the read-back output */
    double *ref;            /* computed at the first verify, shared by the cases */
    cl_mem d[3];            /* a, b, c */
    cl_kernel naive;
    cl_kernel tiled[MAX_TILES];
    int ntiles;
};

static const struct clb_param_def params[] = {
    {"kernels", "naive,tiled", "which kernels to run: naive, tiled or both", CLB_ROLE_CASE},
    {"tile", "16", "tiled: tile side t (a t x t work-group, 2 t^2 floats of local memory); a list; "
                   "halved while the device or the compiled kernel does not allow it",
     CLB_ROLE_TUNING},
    {0, 0, 0, 0}};

static const struct clb_param_def row_keys[] = {
    {"local", NULL, "naive: TxT, its work-group reduced to fit the device (absent when it ran "
                    "as asked): what ran, so the case",
     CLB_ROLE_CASE},
    {0, 0, 0, 0}};

/* ---- sizes and counts --------------------------------------------------- */

/* The default-size ladder: 512 (CPUs: 0.27 GFlop a run, naive runs at ~1
 * GFlop/s on PoCL), then multiples of 1024 up to the largest side. */
static int ladder(int i, char *out, size_t n)
{
    long side = i == 0 ? 512 : 1024L * i;
    if (i < 0 || side > MAX_SIDE)
        return 0;
    snprintf(out, n, "%ld", side);
    return 1;
}

static int check_size(const struct clb_size *s)
{
    if (s->total > MAX_SIDE)
        return clb_eusage("bad size %zu (accepted: a matrix side 1..65536)", s->total);
    return CLB_OK;
}

/* Every kernel (and the group): three n x n float matrices; flops 2 n^3,
 * bytes 3 n^2 sizeof (the compulsory traffic). An empty kernel name counts
 * as any kernel (naive and tiled count the same). */
static int count(const struct clb_query *q, struct clb_counts *out)
{
    if (q->kernel && q->kernel[0] && strcmp(q->kernel, "naive") && strcmp(q->kernel, "tiled"))
        return clb_eusage("unknown matmul kernel '%s' (known: naive, tiled)", q->kernel);
    int ovf = 0;
    size_t n = q->size->total;
    size_t matrix = clb_mulz(clb_mulz(n, n, &ovf), sizeof(float), &ovf);
    size_t bytes = clb_mulz(matrix, 3, &ovf);
    size_t flops = clb_mulz(clb_mulz(clb_mulz(n, n, &ovf), n, &ovf), 2, &ovf);
    return clb_count_done(q, ovf, out, bytes, q->kernel ? flops : 0, bytes, matrix,
                          CLB_UNIT_GFLOPS);
}

/* ---- set-up ------------------------------------------------------------- */

static int read_params(struct clb_env *env, unsigned *kernels, long *tiles, int *nt)
{
    int rc;
    *nt = 0;
    if ((rc = clb_param_names(env, "kernels", "naive,tiled", 0, kernels)))
        return rc;
    if (!(*kernels & 2u))
        return CLB_OK;
    return clb_param_ints(env, "tile", 1, 1024, tiles, MAX_TILES, nt);
}

static void fill_case(struct clb_case *c, size_t n, size_t side, int kind)
{
    ((struct matmul_case *)c->data)->kind = kind;
    c->dims = 2;
    c->local[0] = c->local[1] = side;
    c->global[0] = c->global[1] = (n + side - 1) / side * side;
}

/* Fitting a t x t work-group (clb_fit_tile): v[0] = t; the naive kernel's
 * side is not compiled in, the tiled kernel's is (and its two t x t tiles of
 * local memory). */
struct fit {
    int naive;
    cl_kernel *slot;
};

/* A program's options (the naive kernel's side is not compiled in; the
 * fit's). */
static void options(int naive, long side, char *opts, size_t n)
{
    clb_dtype_defines("float", opts, n);
    if (!naive)
        clb_appendf(opts, n, " -DTILE=%ld", side);
}

static int fit_build(struct clb_env *env, void *ctx, const struct clb_tile *t, cl_kernel *k,
                     int *nk)
{
    struct fit *f = ctx;
    char opts[128];
    options(f->naive, t->v[0], opts, sizeof opts);
    clb_release_kernels(f->slot, 1);
    int rc = clb_kernel(env->dev, "matmul", opts, f->naive ? "naive" : "tiled", f->slot);
    *nk = rc ? 0 : 1;
    k[0] = *f->slot;
    return rc;
}

/* A side x side work-group as the fit takes it (a tiled kernel's two side x
 * side tiles of local memory with it). */
static struct clb_tile asked_tile(int naive, long side)
{
    struct clb_tile t = {2, {(size_t)side, (size_t)side, 1}, 0, {side}, 0};
    t.own_local = naive ? 0 : 2 * (size_t)side * (size_t)side * sizeof(float);
    return t;
}

/* Half the side, down to what the limit allows. */
static int fit_shrink(void *ctx, struct clb_tile *t, const struct clb_wg_limit *l)
{
    size_t side = (size_t)t->v[0];
    if (side <= 1)
        return 0;
    do
        side /= 2;
    while (side > 1 && side * side > l->items);
    *t = asked_tile(((struct fit *)ctx)->naive, (long)side);
    return 1;
}

static void fit_text(void *ctx, const struct clb_tile *t, char *out, size_t n)
{
    (void)ctx;
    snprintf(out, n, "%ld", t->v[0]);
}

static const struct clb_fit_ops fit_ops = {fit_build, fit_shrink, fit_text};

/* A case of the naive kernel (kind -1) or of a tiled one, at the largest
 * side from `side` down that fits; a reduced tile is in params. */
static int add_kernel(struct clb_env *env, struct clb_group *g, struct matmul *st, long side,
                      int kind)
{
    cl_kernel *slot = kind < 0 ? &st->naive : &st->tiled[st->ntiles];
    struct fit f = {kind < 0, slot};
    struct clb_tile t = asked_tile(kind < 0, side);
    struct clb_fit res = {.what = kind < 0 ? "work-group side" : "tile"};
    int rc = clb_fit_tile(env, &fit_ops, &f, &t, &res);
    if (rc && rc != CLB_SKIP)
        return rc;
    char *why = rc ? clb_strdup(clb_lasterr()) : NULL;
    struct clb_case *c;
    if (kind < 0 && res.reduced)
        rc = clb_case_add(g, &c, "naive", "local=%ldx%ld", t.v[0], t.v[0]);
    else if (kind < 0)
        rc = clb_case_add(g, &c, "naive", NULL);
    else
        rc = clb_case_add(g, &c, "tiled", "tile=%ld", rc ? side : t.v[0]);
    if (rc == CLB_OK) {
        fill_case(c, st->n, (size_t)t.v[0], kind < 0 ? -1 : st->ntiles);
        clb_fit_note(c, &res);
        if (why)
            clb_case_skip(c, "%s", why);
        if (kind >= 0)
            st->ntiles++;
    }
    free(why);
    return rc;
}

static int setup(struct clb_env *env, struct clb_group *g)
{
    struct matmul *st = g->state;
    st->n = g->size.total;
    unsigned kernels;
    int nt, rc;
    long tiles[MAX_TILES];
    if ((rc = read_params(env, &kernels, tiles, &nt)))
        return rc;
    size_t n = st->n, bytes = n * n * sizeof(float); /* counted by the core */
    st->a = clb_xmalloc(bytes);
    st->b = clb_xmalloc(bytes);
    st->c = clb_xmalloc(bytes);
    if (!st->a || !st->b || !st->c)
        return CLB_ESYS;
    clb_fill_f32(st->a, n * n, 21);
    clb_fill_f32(st->b, n * n, 22);
    if ((rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, bytes, &st->d[0])) ||
        (rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, bytes, &st->d[1])) ||
        (rc = clb_buffer(env->dev, CL_MEM_READ_WRITE, bytes, &st->d[2])) ||
        (rc = clb_write(env->dev, st->d[0], st->a, bytes)) ||
        (rc = clb_write(env->dev, st->d[1], st->b, bytes)))
        return rc;
    /* the cases: naive (its 16x16 work-group, halved where the device or the
     * kernel allows less), then tiled once per tile (none unless selected) */
    if ((kernels & 1u) && (rc = add_kernel(env, g, st, 16, -1)))
        return rc;
    for (int i = 0; i < nt; i++)
        if ((rc = add_kernel(env, g, st, tiles[i], 0)))
            return rc;
    return CLB_OK;
}

/* ---- measuring ---------------------------------------------------------- */

static int prepare(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    (void)c;
    struct matmul *st = g->state;
    return clb_poison(env->dev, st->d[2], st->n * st->n * sizeof(float));
}

static int run(struct clb_env *env, struct clb_group *g, struct clb_case *c, struct clb_sample *s)
{
    struct matmul *st = g->state;
    int kind = ((const struct matmul_case *)c->data)->kind;
    cl_kernel k = kind < 0 ? st->naive : st->tiled[kind];
    cl_uint n = (cl_uint)st->n;
    int rc = clb_args(k, sizeof(cl_mem), &st->d[0], sizeof(cl_mem), &st->d[1], sizeof(cl_mem),
                      &st->d[2], sizeof n, &n, (size_t)0);
    return rc ? rc : clb_launch(env->dev, k, 2, c->global, c->local, &s->first);
}

static int verify(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct matmul *st = g->state;
    size_t n = st->n;
    int rc = clb_read(env->dev, st->d[2], st->c, n * n * sizeof(float));
    if (rc)
        return rc;
    if (!st->ref) {
        st->ref = clb_xmalloc(n * n * sizeof(double));
        if (!st->ref)
            return CLB_ESYS;
        clb_matmul_ref(st->a, st->b, st->ref, n);
    }
    long first;
    double worst;
    long bad = clb_matmul_check(st->a, st->b, st->ref, st->c, n, &first, &worst);
    if (bad < 0)
        return clb_oom();
    clb_case_note(c, "max_err/tol=%.3g (tol 2*sqrt(n)*2^-24*sum|a||b|)", worst);
    clb_case_metric(c, "max_err_over_tol", worst);
    if (bad) {
        clb_case_note(c, "%ld of %zu elements outside the tolerance (first at row %ld col %ld)",
                      bad, n * n, first / (long)n, first % (long)n);
        return CLB_FAIL;
    }
    return CLB_OK;
}

static void teardown(struct clb_env *env, struct clb_group *g)
{
    (void)env;
    struct matmul *st = g->state;
    clb_release_kernels(&st->naive, 1);
    CLB_RELEASE_KERNELS(st->tiled);
    CLB_RELEASE_MEMS(st->d);
    free(st->a);
    free(st->b);
    free(st->c);
    free(st->ref);
}

/* Per size: the best tiled row over the naive row. */
static void summarize(const struct clb_summary_ctx *ctx, const struct clb_row *rows, size_t n,
                      FILE *out)
{
    (void)ctx;
    for (size_t i = 0; i < n; i++) {
        const struct clb_row *r = &rows[i];
        if (strcmp(r->kernel, "naive") || strcmp(r->status, "ok"))
            continue;
        double best = 0;
        const char *bp = NULL;
        for (size_t j = 0; j < n; j++)
            if (strcmp(rows[j].kernel, "tiled") == 0 && strcmp(rows[j].status, "ok") == 0 &&
                strcmp(rows[j].size, r->size) == 0 && rows[j].gflops > best) {
                best = rows[j].gflops;
                bp = rows[j].params;
            }
        if (bp)
            fprintf(out, "matmul %s: naive %.1f GFlop/s, tiled (%s) %.1f GFlop/s = %.2f x naive\n",
                    r->size, r->gflops, bp, best, best / r->gflops);
    }
}

/* The cases setup will add: naive where selected, one tiled per tile. */
static int plan(struct clb_env *env, const char *dtype, const struct clb_size *size)
{
    (void)dtype;
    (void)size;
    unsigned kernels;
    long tiles[MAX_TILES];
    int nt;
    return read_params(env, &kernels, tiles, &nt) ? -1 : (int)(kernels & 1u) + nt;
}

const struct clb_workload clb_wl_matmul = {
    .name = "matmul",
    .summary = "corner turning: naive and local-memory tiled float matrix multiply, GFlop/s",
    .dtypes = "float",
    .default_dtypes = "float",
    .params = params,
    .row_keys = row_keys,
    .size_help = "matrix side n (n x n floats), any n; e.g. 4096 (default: 4096 or more on GPUs so "
                 "the matrices are >= 4x the last-level cache, 512 on CPUs)",
    .size_dims = 1,
    .size_unit = "per side (n x n floats)",
    /* GPUs: the first of 4096, 5120, ... whose three matrices are >= 4 x LLC
     * (the floor, 192 MiB, is 4096's); CPUs: 512, pinned by floor = cap = its
     * 3 MiB. */
    .sizes = {.quick = "128,100", .llc_times = 4, .floor_mib = {3, 192}, .cap_mib = {3, 0},
              .ladder = ladder},
    .baselines = "stream/copy",
    .state_size = sizeof(struct matmul),
    .case_size = sizeof(struct matmul_case),
    CLB_STEPS,
    .plan = plan,
    .check_size = check_size,
    .prepare = prepare,
    .summarize = summarize,
    .figure = {.order = "naive,tiled"},
};

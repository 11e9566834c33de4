/* copy2d: the Tesla C1060 report's copy2D_Coalesced [C1060Report]: an n1 x n2
 * matrix (n2 contiguous columns) copied by TILE_DIM x TILE_DIM tiles with
 * work-groups of TILE_DIM x BLOCK_ROWS work-items; the element type is what
 * changes (float, double, packed and aligned float3, float4). Kernels
 * (cl/copy2d.cl): coalesced (the report's order), rows (packed float3 only),
 * loads_first (clbench's, run only when named); docs/workloads/copy2d.md. */
#include "clb_workload.h"
#include "clb_fit.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TILES 16

struct tile { long dim, rows; };

enum { K_COALESCED, K_ROWS, K_LOADS_FIRST, NKINDS };
static const char *const knames[NKINDS] = {"coalesced", "rows", "loads_first"};
#define KNOWN_KERNELS "coalesced,rows,loads_first"

/* A case: which tile, which kernel. */
struct copy2d_case {
    int tile;                 /* index into copy2d.k */
    int kind;                 /* K_* */
};

struct copy2d {
    size_t n1, n2, esize, bytes;
    int packed3, aligned3;
    struct clb_inout io;      /* host: the input and the read-back output; device: both */
    cl_kernel k[MAX_TILES][NKINDS]; /* per tile, per kernel (rows: packed float3 only) */
};

static const struct clb_param_def params[] = {
    {"tile", "32x8", "TILE_DIMxBLOCK_ROWS, or a list (e.g. 32x8,64x8): tiles of TILE_DIM^2 "
                     "elements, work-groups of TILE_DIM x BLOCK_ROWS; BLOCK_ROWS divides TILE_DIM "
                     "(profile copy2d.tile, else 32x8)", CLB_ROLE_TUNING},
    {"kernels", "coalesced,rows", "comma list of coalesced (the report's kernel and order: each "
                                  "element stored right after it is loaded), rows (packed "
                                  "float3 only: the tile's rows as floats, same order) and "
                                  "loads_first (clbench's variant: all loads of a work-item "
                                  "before its stores; never compared with the report)",
     CLB_ROLE_CASE},
    {0, 0, 0, 0}};

/* ---- counts ------------------------------------------------------------ */

/* Every kernel reads the matrix and writes its copy: 2 n1 n2 sizeof bytes
 * (float3 12 B, float3_aligned 16 B); the group holds the input and the
 * output. The rows kernel exists for the packed float3 only. */
static int count(const struct clb_query *q, struct clb_counts *out)
{
    if (q->kernel && strcmp(q->kernel, "coalesced") && strcmp(q->kernel, "loads_first") &&
        (strcmp(q->kernel, "rows") || strcmp(q->dtype, "float3"))) {
        return clb_eusage("unknown copy2d kernel '%s' for %s (known: coalesced, loads_first; rows "
                          "for float3)", q->kernel, q->dtype);
    }
    return clb_count_copy(q, out);
}

/* Parse the tile list (a tile the device cannot launch is reduced to one
 * that it can when its kernels are built: add_cases). */
static int parse_tiles(const struct clb_env *env, struct tile *t, int *nt)
{
    const char *v = clb_param(env, "tile");
    const char *from = strcmp(clb_param_origin(env, "tile"), "profile") == 0 ? " (from the profile)" : "";
    int n;
    char **items = clb_split(v, &n);
    if (!items)
        return CLB_ESYS;
    int rc = CLB_OK;
    if (n == 0 || n > MAX_TILES)
        rc = clb_eusage("copy2d: bad tile list '%s'%s (1 to %d tiles TILE_DIMxBLOCK_ROWS, "
                        "e.g. 32x8)", v, from, MAX_TILES);
    for (int i = 0; rc == CLB_OK && i < n; i++) {
        struct clb_size s;
        if (clb_parse_dims(items[i], 2, &s, NULL, 0) != CLB_OK || s.d[0] % s.d[1] ||
            s.d[0] > 4096) {
            rc = clb_eusage("copy2d: bad tile '%s'%s (expected TILE_DIMxBLOCK_ROWS with BLOCK_ROWS "
                            "dividing TILE_DIM <= 4096, e.g. 32x8)", items[i], from);
            break;
        }
        t[i].dim = (long)s.d[0];
        t[i].rows = (long)s.d[1];
    }
    *nt = n;
    free(items);
    return rc;
}

/* The build options of a tile's program for an n1 x n2 matrix of dtype. */
static void options(const char *dtype, size_t n1, size_t n2, const struct tile *t, char *opts,
                    size_t n)
{
    int packed3 = strcmp(dtype, "float3") == 0;
    clb_dtype_defines(dtype, opts, n);
    if (packed3)
        clb_appendf(opts, n, " -DPACKED3=1");
    else
        clb_appendf(opts, n, " -DELEM=%s", strcmp(dtype, "float3_aligned") == 0 ? "float3" : dtype);
    /* uint indices where every float (packed3) or element index fits */
    int ovf = 0;
    size_t maxidx = clb_mulz(clb_mulz(n1, n2, &ovf), packed3 ? 3 : 1, &ovf);
    clb_appendf(opts, n, " -DTILE_DIM=%ld -DBLOCK_ROWS=%ld -DIDX=%s", t->dim, t->rows,
                !ovf && maxidx < UINT32_MAX ? "uint" : "ulong");
}

/* Fitting a tile (clb_fit_tile): its kernels are built with its sides. */
struct fit {
    struct copy2d *st;
    const char *dtype;
    int ti;
    unsigned mask;            /* the kernels to run: bit K_* */
};

static int fit_build(struct clb_env *env, void *ctx, const struct clb_tile *t, cl_kernel *k,
                     int *nk)
{
    struct fit *f = ctx;
    struct tile tl = {t->v[0], t->v[1]};
    char opts[200];
    options(f->dtype, f->st->n1, f->st->n2, &tl, opts, sizeof opts);
    *nk = 0;
    for (int kind = 0; kind < NKINDS; kind++) {
        if (!(f->mask & 1u << kind))
            continue;
        cl_kernel *slot = &f->st->k[f->ti][kind];
        clb_release_kernels(slot, 1);
        int rc = clb_kernel(env->dev, "copy2d", opts, knames[kind], slot);
        if (rc)
            return rc;
        k[(*nk)++] = *slot;
    }
    return CLB_OK;
}

static const struct clb_fit_ops fit_ops = {fit_build, clb_shrink_rows, clb_tile_rows_text};

/* A tile of the list, as the fit takes it. */
static struct clb_tile asked_tile(const struct tile *t)
{
    return (struct clb_tile){2, {(size_t)t->dim, (size_t)t->rows, 1}, 0, {t->dim, t->rows}, 0};
}

/* The kernels to run for a type: bit K_* of *mask (rows only for packed float3). */
static int kernel_mask(const struct clb_env *env, const char *dtype, unsigned *mask)
{
    int rc = clb_param_names(env, "kernels", KNOWN_KERNELS, 0, mask);
    if (rc == CLB_OK && strcmp(dtype, "float3"))
        *mask &= ~(1u << K_ROWS);
    return rc;
}

/* A tile of the list as fitted: the tile that runs, the fit, and why its
 * cases are skipped (NULL: they run). */
struct fitted {
    struct clb_tile tile;
    struct clb_fit res;
    char *why;
};

/* Fit tile ti of the list, reduced to what the kernels allow. */
static int fit_tile_at(struct clb_env *env, struct clb_group *g, const struct tile *t, int ti,
                       unsigned mask, struct fitted *out)
{
    struct fit f = {g->state, g->dtype, ti, mask};
    free(out->why);
    *out = (struct fitted){asked_tile(t), {.what = "tile"}, NULL};
    int rc = clb_fit_tile(env, &fit_ops, &f, &out->tile, &out->res);
    if (rc != CLB_OK && rc != CLB_SKIP)
        return rc;
    out->why = rc == CLB_SKIP ? clb_strdup(clb_lasterr()) : NULL;
    return CLB_OK;
}

/* One case of a fitted tile; the row names the tile that ran. */
static int add_case(struct clb_group *g, const struct copy2d_case *cc, const struct fitted *ft)
{
    struct copy2d *st = g->state;
    struct clb_case *c;
    int rc = clb_case_add(g, &c, knames[cc->kind], "tile=%ldx%ld", ft->tile.v[0], ft->tile.v[1]);
    if (rc)
        return rc;
    *(struct copy2d_case *)c->data = *cc;
    c->dims = 2;
    c->local[0] = (size_t)ft->tile.v[0];
    c->local[1] = (size_t)ft->tile.v[1];
    c->global[0] = (st->n2 + c->local[0] - 1) / c->local[0] * c->local[0];
    c->global[1] = (st->n1 + c->local[0] - 1) / c->local[0] * c->local[1];
    clb_fit_note(c, &ft->res);
    if (ft->why)
        clb_case_skip(c, "%s", ft->why);
    return CLB_OK;
}

/* The cases: one per tile of the list and kernel to run, in this order,
 * each tile fitted before its cases (none without a kernel to run). */
static int add_cases(struct clb_env *env, struct clb_group *g, const struct tile *tiles,
                     int ntiles, unsigned mask)
{
    struct fitted ft = {.why = NULL};
    int rc = CLB_OK;
    for (int ti = 0; ti < ntiles && mask && !rc; ti++) {
        rc = fit_tile_at(env, g, &tiles[ti], ti, mask, &ft);
        for (int kind = 0; kind < NKINDS && !rc; kind++)
            if (mask & 1u << kind)
                rc = add_case(g, &(struct copy2d_case){ti, kind}, &ft);
    }
    free(ft.why);
    return rc;
}

static int setup(struct clb_env *env, struct clb_group *g)
{
    struct copy2d *st = g->state;
    st->n1 = g->size.d[0];
    st->n2 = g->size.d[1];
    st->packed3 = strcmp(g->dtype, "float3") == 0;
    st->aligned3 = strcmp(g->dtype, "float3_aligned") == 0;
    st->esize = clb_dtype_size(g->dtype);
    if (st->n1 > INT32_MAX || st->n2 > (st->packed3 ? INT32_MAX / 3 : INT32_MAX))
        return clb_eusage("copy2d: size '%s' has an extent above 2^31-1 (%s columns: %d)",
                          g->size_text, g->dtype, st->packed3 ? INT32_MAX / 3 : INT32_MAX);
    struct tile tiles[MAX_TILES];
    int ntiles, rc;
    unsigned mask;
    if ((rc = parse_tiles(env, tiles, &ntiles)) || (rc = kernel_mask(env, g->dtype, &mask)))
        return rc;
    st->bytes = st->n1 * st->n2 * st->esize; /* counted (overflow-checked) by the core */
    /* Random floats or doubles over every byte (float3_aligned's padding too). */
    if ((rc = clb_inout_setup(env, st->bytes, st->bytes, strcmp(g->dtype, "double") == 0, 11,
                              CL_MEM_WRITE_ONLY, &st->io)))
        return rc;
    return add_cases(env, g, tiles, ntiles, mask);
}

static int prepare(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct copy2d *st = g->state;
    const struct copy2d_case *cc = c->data;
    cl_kernel k = st->k[cc->tile][cc->kind];
    cl_uint width = (cl_uint)st->n2, height = (cl_uint)st->n1;
    int rc = clb_args(k, sizeof(cl_mem), &st->io.din, sizeof(cl_mem), &st->io.dout, sizeof width,
                      &width, sizeof height, &height, (size_t)0);
    return rc ? rc : clb_poison(env->dev, st->io.dout, st->bytes);
}

static int run(struct clb_env *env, struct clb_group *g, struct clb_case *c, struct clb_sample *s)
{
    struct copy2d *st = g->state;
    const struct copy2d_case *cc = c->data;
    return clb_launch(env->dev, st->k[cc->tile][cc->kind], 2, c->global, c->local, &s->first);
}

/* Exact: every element's bytes equal the input's (for float3_aligned the 12
 * bytes of x, y, z; the padding word need not be copied). */
static int verify(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct copy2d *st = g->state;
    int rc = clb_read(env->dev, st->io.dout, st->io.out, st->bytes);
    if (rc)
        return rc;
    size_t es = st->esize;
    return clb_check_exact_2d(c, st->io.out, st->io.in, st->n1 * st->n2, es,
                              st->aligned3 ? 12 : es, st->n2);
}

static void teardown(struct clb_env *env, struct clb_group *g)
{
    (void)env;
    struct copy2d *st = g->state;
    CLB_RELEASE_KERNELS(st->k);
    clb_inout_free(&st->io);
}

/* The cases setup will add: one per tile and kernel to run. */
static int plan(struct clb_env *env, const char *dtype, const struct clb_size *size)
{
    (void)size;
    struct tile tiles[MAX_TILES];
    int ntiles;
    unsigned mask;
    return parse_tiles(env, tiles, &ntiles) || kernel_mask(env, dtype, &mask)
               ? -1 : ntiles * __builtin_popcount(mask);
}

/* Its kernels' changes (git history): what a baseline from before them ran. */
static const struct clb_kernel_rev revisions[] = {
    {"coalesced,rows", "2026-11-25T20:44:34Z", "066ef11",
     "the report's order: each element stored after its load, no restrict"},
    {0}};

const struct clb_workload clb_wl_copy2d = {
    .name = "copy2d",
    .summary = "the C1060 report's copy2D_Coalesced: tiled 2-D copy, float/double/float3/float4",
    .dtypes = "float,double,float3,float3_aligned,float4",
    .default_dtypes = "float,double,float3,float3_aligned,float4",
    .params = params,
    .size_help = "n1xn2: rows x columns (columns contiguous), e.g. 8192x8192; any extents (edges "
                 "bounds-checked); 256x256 is the report's (cache resident); default: a square "
                 "power of two >= 8x the last-level cache, 256 MiB on GPUs",
    .size_dims = 2,
    /* A square power of two whose matrix is >= 8x the last-level cache and
     * 256 MiB on GPUs, 64 MiB elsewhere: a footprint (input + output) twice that. */
    .sizes = {.quick = "256x256", .llc_times = 16, .floor_mib = {128, 512}},
    .baselines = "stream/copy",
    .state_size = sizeof(struct copy2d),
    .case_size = sizeof(struct copy2d_case),
    CLB_STEPS,
    .plan = plan,
    .prepare = prepare,
    .figure = {.order = "coalesced,rows"},
    .revisions = revisions,
};

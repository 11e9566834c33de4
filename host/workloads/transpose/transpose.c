/* transpose: out = in^T for an n x m matrix, from a single work-item to a
 * transpose as fast as a copy. The sequence follows the transpose lecture
 * [Udacity12] (serial, per_row, naive) and NVIDIA's matrix-transpose whitepaper
 * [Ruetsch09] (copy, copy_local, coalesced, nobankconflict, fine_grained,
 * coarse_grained, diagonal), then `best`. Bytes per run: 2*n*m*sizeof for every kernel. Each
 * row's detail carries its fraction of this group's `copy` (of_copy=, written
 * by the core: transpose/copy is a baseline, measured first). */
#include "clb_workload.h"
#include "clb_fit.h"
#include "transpose.h"

#include <stdlib.h>
#include <string.h>

enum {
    K_COPY, K_COPY_LOCAL, K_SERIAL, K_PER_ROW, K_NAIVE, K_COALESCED, K_NOBANK,
    K_FINE, K_COARSE, K_DIAGONAL, K_BEST, NKERNELS
};
/* In the order measured: copy first, so the others can be read against it. */
static const char *const knames[NKERNELS] = {
    "copy", "copy_local", "serial", "per_row", "naive", "coalesced", "nobankconflict",
    "fine_grained", "coarse_grained", "diagonal", "best"};
#define KNOWN_KERNELS                                                                     \
    "copy,copy_local,serial,per_row,naive,coalesced,nobankconflict,fine_grained,"         \
    "coarse_grained,diagonal,best"
static const enum clb_tr_map kmap[NKERNELS] = {
    CLB_TR_COPY, CLB_TR_COPY, CLB_TR_TRANSPOSE, CLB_TR_TRANSPOSE, CLB_TR_TRANSPOSE,
    CLB_TR_TRANSPOSE, CLB_TR_TRANSPOSE, CLB_TR_FINE, CLB_TR_COARSE, CLB_TR_TRANSPOSE,
    CLB_TR_TRANSPOSE};

#define PER_ROW_LOCAL 64

/* One case: the kernel and, for best, the variant's index. */
struct transpose_case {
    int k, vi;
};

struct transpose {
    size_t n, m, esize;
    size_t cus;             /* compute units (the persistent form's grid) */
    int nvidia;             /* an NVIDIA platform: the nt suffix can build */
    int wide;               /* 64-bit indices */
    long tile, brows;       /* the whitepaper kernels' tile */
    size_t per_row_local;   /* per_row's work-group */
    struct clb_inout io;    /* input and read-back output, host and device */
    cl_kernel k[NKERNELS - 1];
    cl_kernel kbest[CLB_TR_MAX_VARIANTS];
    struct clb_tr_variant best[CLB_TR_MAX_VARIANTS];
    int nbest;
};

static const struct clb_param_def params[] = {
    {"tile", "32x8", "TILExROWS of the whitepaper kernels: TILE x TILE tiles, work-groups of "
                     "TILE x ROWS (TILE a multiple of ROWS)", CLB_ROLE_TUNING},
    {"kernels", "", "kernels to run, comma list (default all: copy, copy_local, serial, per_row, "
                    "naive, coalesced, nobankconflict, fine_grained, coarse_grained, diagonal, best)",
     CLB_ROLE_CASE},
    {"best", "", "best variants, comma list: TxRvV (T x T local tile, R rows of work-items, "
                 "V-element vectors 1, 2, 4; e.g. 64x16v4; suffix l: all loads before the local "
                 "stores, kK: K tiles per work-group along the row, the next tile's loads before "
                 "this one's stores, dK: K tiles down the column, pP: P persistent work-groups "
                 "per compute unit; e.g. 64x4v4l, 64x4v4k2, 64x8v4d4, 64x8v4p4; then an order "
                 "oR, oC, oD or oS<k> (rows, columns, diagonal, bands of k tile rows; e.g. "
                 "64x16v4oC, 64x8v4oS32) and nt (NVIDIA only: streaming stores, e.g. 64x8v4nt)) "
                 "or rVgXxY (V x V blocks transposed in "
                 "registers, V 2 or 4, X x Y work-groups; e.g. r4g8x32) or rectRxCvVwW (R x C "
                 "tiles of input rows x columns, output row segments R elements long, flat "
                 "work-groups of W; e.g. rect128x32v4w256); empty = probe a built-in list and "
                 "keep the fastest (see docs/workloads/transpose.md)", CLB_ROLE_TUNING},
    {"serial_max", "1048576", "largest n*m that serial runs (one work-item; skipped above)",
     CLB_ROLE_CASE},
    {"per_row_max", "67108864", "largest n*m that per_row runs (skipped above)", CLB_ROLE_CASE},
    {0, 0, 0, 0}};

static const struct clb_param_def row_keys[] = {
    {"local", NULL, "per_row: its work-group reduced to fit the device (absent when it ran as "
                    "asked): what ran, so the case",
     CLB_ROLE_CASE},
    {0, 0, 0, 0}};

/* ---- counts ------------------------------------------------------------- */

/* Every kernel reads the n x m input once and writes the output once:
 * 2*n*m*sizeof bytes; the group holds the two matrices. An empty kernel name
 * counts as any kernel (all count the same). */
static int count(const struct clb_query *q, struct clb_counts *out)
{
    int rc = q->kernel && !q->kernel[0]
                 ? CLB_OK
                 : clb_query_kernel(q, "transpose", "copy, copy_local, serial, per_row, naive, "
                                    "coalesced, nobankconflict, fine_grained, coarse_grained, "
                                    "diagonal, best");
    return rc ? rc : clb_count_copy(q, out);
}

/* ---- parameters (the variant syntax: transpose_variant.c) ----------------- */

static int parse_tile(struct clb_env *env, struct transpose *st)
{
    const char *v = clb_param(env, "tile");
    int prof = strcmp(clb_param_origin(env, "tile"), "profile") == 0;
    if (clb_tr_parse_pair(v, &st->tile, &st->brows, 0, NULL) || st->tile % st->brows)
        return clb_eusage("transpose: bad tile '%s'%s (accepted: TILExROWS with TILE a multiple of "
                          "ROWS, e.g. 32x8)", v, prof ? " (from the profile)" : "");
    /* a tile the device cannot launch is reduced when it is built (fit_tiles) */
    return CLB_OK;
}

/* The built-in candidates of the probe, by element size: 16-byte vectors,
 * larger tiles, more bytes in flight per work-item, and the plain tile; then
 * one of each later idea: tiles in column order, persistent work-groups,
 * tiles down a column (two local tiles of 64 doubles exceed NVIDIA's 48 KiB,
 * hence 32-wide ones there). None uses nt: the probe runs everywhere. */
static const char *const probe_float[] = {
    "32x8v1", "64x16v4", "64x8v4", "64x4v4", "32x8v4", "r4g8x32", "r4g4x64", "r2g8x32",
    "64x4v4l", "64x8v4l", "64x4v4k2", "64x8v4k2", "rect128x32v4w256", "rect256x32v4w256",
    "rect256x16v4w256", "64x8v4oC", "64x8v4p4", "64x8v4d2", NULL};
static const char *const probe_double[] = {
    "32x8v1", "32x16v2", "64x8v2", "64x16v2", "32x8v2", "r2g8x32", "r2g4x64",
    "64x8v2l", "64x16v2l", "32x8v2k2", "32x4v2k4", "rect128x32v2w256", "rect128x16v2w256",
    "64x8v2oC", "32x16v2p8", "32x16v2d2", NULL};

/* The work-group and the local memory of a variant, as a tile to fit. */
static void variant_tile(const struct transpose *st, const struct clb_tr_variant *v,
                         struct clb_tile *t)
{
    *t = (struct clb_tile){2, {0, 1, 1}, 0, {0}, 0};
    if (v->reg) {
        t->local[0] = (size_t)v->gx;
        t->local[1] = (size_t)v->gy;
    } else if (v->rect) {
        t->local[0] = (size_t)v->gx;
        t->own_local = (size_t)v->bt * (size_t)(v->bc + 1) * st->esize;
    } else {
        int two = v->bk > 1 || v->bd || v->bp;
        t->local[0] = (size_t)(v->bt / v->bv);
        t->local[1] = (size_t)v->br;
        t->own_local = (two ? 2u : 1u) * (size_t)v->bt * (size_t)(v->bt + 1) * st->esize;
    }
}

/* Can the variant run here, its size aside (the vector width divides the
 * matrix, nt only on NVIDIA)? */
static int variant_runs(const struct clb_env *env, const struct transpose *st,
                        const struct clb_tr_variant *v, char *why, size_t n)
{
    if (st->n % (size_t)v->bv || st->m % (size_t)v->bv) {
        snprintf(why, n, "vector width %ld needs n and m multiples of %ld", v->bv, v->bv);
        return 0;
    }
    if (v->nt && !st->nvidia) {
        /* (the name cut to 64: the reason must fit the caller's short buffer) */
        snprintf(why, n, "nt stores through NVIDIA inline PTX; platform '%.64s' is not NVIDIA's",
                 env->info->platform_name);
        return 0;
    }
    return 1;
}

/* Within the device's work-group and local-memory limits, and can it run? */
static int variant_usable(const struct clb_env *env, const struct transpose *st,
                          const struct clb_tr_variant *v, char *why, size_t n)
{
    struct clb_tile t;
    struct clb_wg_limit l;
    variant_tile(st, v, &t);
    clb_wg_device_limit(env, &l);
    return clb_wg_fits(&l, t.dims, t.local, t.own_local, why, n) &&
           variant_runs(env, st, v, why, n);
}

/* ---- kernels ------------------------------------------------------------ */

static void base_defines(const char *dtype, const struct transpose *st, char *o, size_t n)
{
    clb_dtype_defines(dtype, o, n);
    clb_appendf(o, n, " -DIDX=%s", st->wide ? "ulong" : "uint");
}

/* A best variant's program: its options and kernel name. */
static const char *best_options(const char *dtype, const struct transpose *st,
                                const struct clb_tr_variant *v, char *opts, size_t n)
{
    base_defines(dtype, st, opts, n);
    if (v->rect)
        clb_appendf(opts, n, " -DRT=%ld -DCT=%ld -DRV=%ld -DRWG=%ld", v->bt, v->bc,
                    v->bv, v->gx);
    else if (v->reg)
        clb_appendf(opts, n, " -DRB=%ld -DRGX=%ld -DRGY=%ld", v->bv, v->gx, v->gy);
    else
        clb_appendf(opts, n, " -DBT=%ld -DBV=%ld -DBR=%ld", v->bt, v->bv, v->br);
    if (!v->reg && !v->rect && v->bk)
        clb_appendf(opts, n, " -DBK=%ld", v->bk);
    if (!v->reg && !v->rect && v->bd)
        clb_appendf(opts, n, " -DBD=%ld", v->bd);
    if (!v->reg && !v->rect && v->bp)
        clb_appendf(opts, n, " -DBP=1");
    if (clb_tr_linear_grid(v)) /* best_seq always orders its tiles; rows by default */
        clb_appendf(opts, n, " -DORD=%d", v->ord ? v->ord - 1 : CLB_TR_ROWS);
    if (v->ord == 1 + CLB_TR_BANDS)
        clb_appendf(opts, n, " -DOSK=%ld", v->osk);
    if (v->nt)
        clb_appendf(opts, n, " -DNTS=1");
    return v->rect               ? "best_rect"
           : v->reg             ? "best_reg"
           : v->bd || v->bp     ? "best_seq"
           : v->bk              ? "best_pipe"
                                : "best";
}

static int build_best(struct clb_env *env, struct clb_group *g, struct transpose *st, int i)
{
    if (st->kbest[i])
        return CLB_OK;
    char opts[256];
    const char *name = best_options(g->dtype, st, &st->best[i], opts, sizeof opts);
    return clb_kernel(env->dev, "transpose", opts, name, &st->kbest[i]);
}

/* The launch shape of kernel k (v: best's variant). */
static void geometry(const struct transpose *st, int k, const struct clb_tr_variant *v,
                     unsigned *dims, size_t *global, size_t *local)
{
    *dims = 2;
    if (k == K_SERIAL) {
        *dims = 1;
        global[0] = local[0] = 1;
    } else if (k == K_PER_ROW) {
        *dims = 1;
        local[0] = st->per_row_local; /* one work-item per output row (input column) */
        global[0] = (st->m + st->per_row_local - 1) / st->per_row_local * st->per_row_local;
    } else if (v && v->rect) {
        local[0] = (size_t)v->gx;
        local[1] = 1;
        global[0] = (st->m + (size_t)v->bc - 1) / (size_t)v->bc * local[0];
        global[1] = (st->n + (size_t)v->bt - 1) / (size_t)v->bt;
    } else if (v && v->reg) {
        size_t bx = st->m / (size_t)v->bv, by = st->n / (size_t)v->bv;
        local[0] = (size_t)v->gx;
        local[1] = (size_t)v->gy;
        global[0] = (bx + local[0] - 1) / local[0] * local[0];
        global[1] = (by + local[1] - 1) / local[1] * local[1];
    } else if (clb_tr_linear_grid(v)) { /* a 1-D grid of work-groups: tile_at maps them */
        size_t t = (size_t)v->bt, gx = (st->m + t - 1) / t, gy = (st->n + t - 1) / t, groups;
        if (v->bp)
            groups = clb_tr_persist_groups(gx * gy, (size_t)v->bp * st->cus);
        else if (v->bd)
            groups = gx * ((gy + (size_t)v->bd - 1) / (size_t)v->bd);
        else if (v->bk > 1)
            groups = (gx + (size_t)v->bk - 1) / (size_t)v->bk * gy;
        else
            groups = gx * gy;
        local[0] = (size_t)(v->bt / v->bv);
        local[1] = (size_t)v->br;
        global[0] = groups * local[0];
        global[1] = local[1];
    } else {
        size_t t = (size_t)(v ? v->bt : st->tile);
        size_t k = v && v->bk > 1 ? (size_t)v->bk : 1; /* tiles per work-group along a row */
        local[0] = v ? (size_t)(v->bt / v->bv) : t;
        local[1] = (size_t)(v ? v->br : st->brows);
        global[0] = ((st->m + t - 1) / t + k - 1) / k * local[0];
        global[1] = (st->n + t - 1) / t * local[1];
    }
}

static int launch(struct clb_env *env, struct transpose *st, cl_kernel k, unsigned dims,
                  const size_t *global, const size_t *local, cl_event *ev)
{
    cl_ulong n64 = st->n, m64 = st->m;
    cl_uint n32 = (cl_uint)st->n, m32 = (cl_uint)st->m;
    size_t is = st->wide ? sizeof n64 : sizeof n32;
    int rc = clb_args(k, sizeof(cl_mem), &st->io.din, sizeof(cl_mem), &st->io.dout, is,
                      st->wide ? (const void *)&n64 : (const void *)&n32, is,
                      st->wide ? (const void *)&m64 : (const void *)&m32, (size_t)0);
    return rc ? rc : clb_launch(env->dev, k, dims, global, local, ev);
}

/* ---- fitting tiles and variants (clb_fit_tile) ----------------------------- */

/* A variant slot being fitted: its kernel is built from st->best[i]. */
struct vfit {
    struct transpose *st;
    struct clb_group *g;
    int i;
};

static int vfit_build(struct clb_env *env, void *ctx, const struct clb_tile *t, cl_kernel *k,
                      int *nk)
{
    (void)t;
    struct vfit *f = ctx;
    clb_release_kernels(&f->st->kbest[f->i], 1);
    int rc = build_best(env, f->g, f->st, f->i);
    *nk = rc ? 0 : 1;
    k[0] = f->st->kbest[f->i];
    return rc;
}

/* The next smaller variant of the same form: the tile form loses rows of
 * work-items (the next divisor of T) while they are too many, else halves
 * the tile and its rows, then the vector; the register form halves the
 * longer side of its work-group; the rectangular form halves W while its
 * divisibility holds (its tile stays). */
static int vfit_shrink(void *ctx, struct clb_tile *t, const struct clb_wg_limit *l)
{
    struct vfit *f = ctx;
    struct clb_tr_variant *v = &f->st->best[f->i];
    if (v->rect) {
        if (!clb_tr_rect_ok(v, v->gx / 2))
            return 0;
        v->gx /= 2;
    } else if (v->reg) {
        if (v->gx * v->gy <= 1)
            return 0;
        *(v->gx >= v->gy ? &v->gx : &v->gy) /= 2;
    } else if (v->br > 1 && (size_t)(v->bt / v->bv * v->br) > l->items &&
               t->own_local <= l->local_bytes) {
        do /* fewer rows of work-items: the same tile */
            v->br--;
        while (v->bt % v->br);
    } else if (v->bt / 2 >= v->bv && (v->bt / 2) % v->bv == 0) {
        v->bt /= 2; /* half the tile (local memory), half the rows */
        v->br = v->br % 2 == 0 ? v->br / 2 : v->bt % v->br == 0 ? v->br : 1;
    } else if (v->bv > 1) {
        v->bv /= 2;
    } else {
        return 0;
    }
    variant_tile(f->st, v, t);
    return 1;
}

static void vfit_text(void *ctx, const struct clb_tile *t, char *out, size_t n)
{
    (void)t;
    const struct vfit *f = ctx;
    clb_tr_variant_name(&f->st->best[f->i], out, n);
}

static const struct clb_fit_ops vfit_ops = {vfit_build, vfit_shrink, vfit_text};

/* Fit best variant i; its name before and after in the fit's texts. */
static int fit_variant(struct clb_env *env, struct clb_group *g, struct transpose *st, int i,
                       struct clb_fit *res)
{
    struct vfit f = {st, g, i};
    struct clb_tile t;
    variant_tile(st, &st->best[i], &t);
    res->what = "best";
    return clb_fit_tile(env, &vfit_ops, &f, &t, res);
}

/* The whitepaper kernels' tile: all of them (and serial, per_row) are in one
 * program built with -DTILE -DBROWS. */
struct tfit {
    struct transpose *st;
    struct clb_group *g;
    unsigned want;
};

static int tfit_build(struct clb_env *env, void *ctx, const struct clb_tile *t, cl_kernel *k,
                      int *nk)
{
    struct tfit *f = ctx;
    char opts[192]; /* TILE x TILE tiles, work-groups of TILE x BROWS (the fit's) */
    base_defines(f->g->dtype, f->st, opts, sizeof opts);
    clb_appendf(opts, sizeof opts, " -DTILE=%ld -DBROWS=%ld", t->v[0], t->v[1]);
    *nk = 0;
    for (int i = 0; i < K_BEST; i++) {
        if (!(f->want & 1u << i))
            continue;
        clb_release_kernels(&f->st->k[i], 1);
        int rc = clb_kernel(env->dev, "transpose", opts, knames[i], &f->st->k[i]);
        if (rc)
            return rc;
        if (i != K_SERIAL && i != K_PER_ROW && *nk < CLB_FIT_MAX_KERNELS) /* no tile */
            k[(*nk)++] = f->st->k[i];
    }
    return CLB_OK;
}

static const struct clb_fit_ops tfit_ops = {tfit_build, clb_shrink_rows, clb_tile_rows_text};

/* The tile of the whitepaper kernels (its padded local tile checked before
 * the build) and per_row's work-group, each the largest that fits. */
static int fit_tiles(struct clb_env *env, struct clb_group *g, struct transpose *st,
                     unsigned want, struct clb_fit *tres, struct clb_fit *pres)
{
    struct tfit f = {st, g, want};
    struct clb_tile t = {2, {(size_t)st->tile, (size_t)st->brows, 1}, 0,
                         {st->tile, st->brows, (long)st->esize},
                         (size_t)st->tile * (size_t)(st->tile + 1) * st->esize};
    *tres = (struct clb_fit){.what = "tile"};
    *pres = (struct clb_fit){.what = "local"};
    int rc = clb_fit_tile(env, &tfit_ops, &f, &t, tres);
    if (rc)
        return rc;
    st->tile = t.v[0];
    st->brows = t.v[1];
    st->per_row_local = PER_ROW_LOCAL;
    if (want & 1u << K_PER_ROW)
        rc = clb_fit_items(env, &st->k[K_PER_ROW], 1, PER_ROW_LOCAL, 0, 0, &st->per_row_local,
                           pres);
    return rc;
}

/* The probe launches one best variant. */
struct probe {
    struct transpose *st;
    cl_kernel k;
    unsigned dims;
    size_t global[3], local[3];
};
static int probe_launch(struct clb_env *env, void *ctx, cl_event *ev)
{
    struct probe *p = ctx;
    return launch(env, p->st, p->k, p->dims, p->global, p->local, ev);
}

/* The variants --param best names (v). */
static int parse_best(struct transpose *st, const char *v)
{
    int nv;
    char **list = clb_split(v, &nv);
    if (!list)
        return CLB_ESYS;
    for (int i = 0; i < nv; i++) {
        if (st->nbest == CLB_TR_MAX_VARIANTS ||
            clb_tr_parse_variant(list[i], &st->best[st->nbest])) {
            clb_seterr("transpose: bad best variant '%s' (accepted: up to %d of TxRvV, T a "
                       "multiple of R and V, V 1, 2 or 4, optional suffix l, kK (K 2 to %d), "
                       "dK (K 2 to %d) or pP (P 1 to %d), then optional oR, oC, oD or oS<k> "
                       "(k 1 to %d), then optional nt, e.g. 64x16v4, 64x4v4l, 64x4v4k2, "
                       "64x8v4d4oC, 64x8v4p4, 64x8v4oS32nt; or rVgXxY, V 2 or 4, e.g. "
                       "r4g8x32; or rectRxCvVwW, R, C <= 256 multiples of V, W a multiple "
                       "of C/V and of R/V that divides R*C/V, e.g. rect128x32v4w256)",
                       list[i], CLB_TR_MAX_VARIANTS, CLB_TR_MAX_BK, CLB_TR_MAX_BD,
                       CLB_TR_MAX_BP, CLB_TR_MAX_OSK);
            free(list);
            return CLB_EUSAGE;
        }
        st->nbest++; /* reduced to what fits when it is built (fit_variant) */
    }
    free(list);
    return CLB_OK;
}

/* Parse --param best, or probe the built-in list and keep the fastest. */
static int choose_best(struct clb_env *env, struct clb_group *g, struct transpose *st,
                       struct clb_buf *note)
{
    const char *v = clb_param(env, "best");
    char why[160];
    int rc;
    if (v[0])
        return parse_best(st, v);
    const char *const *cand = st->esize == 8 ? probe_double : probe_float;
    struct clb_tr_variant all[CLB_TR_MAX_VARIANTS];
    int nall = 0;
    for (int i = 0; cand[i] && nall < CLB_TR_MAX_VARIANTS; i++) {
        struct clb_tr_variant c;
        if (clb_tr_parse_variant(cand[i], &c) == 0 && variant_usable(env, st, &c, why, sizeof why))
            all[nall++] = c;
    }
    /* Build and time each candidate in slot 0..nall-1, keep the fastest in slot 0. */
    double best_t = 1e30;
    int best_i = 0;
    clb_buf_printf(note, "best probe GB/s");
    for (int i = 0; i < nall; i++) {
        st->best[i] = all[i];
        if ((rc = build_best(env, g, st, i)))
            return rc;
        struct probe p = {st, st->kbest[i], 0, {0}, {0}};
        geometry(st, K_BEST, &all[i], &p.dims, p.global, p.local);
        struct clb_tile tile; /* the compiled kernel may allow a smaller work-group only */
        struct clb_wg_limit l;
        variant_tile(st, &all[i], &tile);
        if ((rc = clb_wg_limit(env, st->kbest[i], &l)))
            return rc;
        if (!clb_wg_fits(&l, tile.dims, tile.local, 0, why, sizeof why)) {
            clb_release_kernels(&st->kbest[i], 1);
            all[i--] = all[--nall];
            continue;
        }
        double t;
        if ((rc = clb_probe_min(env, probe_launch, &p, 4, &t)))
            return rc;
        char name[48];
        clb_tr_variant_name(&all[i], name, sizeof name);
        /* whole GB/s from 100 up: a short note (it was cut at 255 characters) */
        double gbps = 2.0 * (double)(st->n * st->m * st->esize) / t / 1e9;
        clb_buf_printf(note, gbps >= 100 ? " %s:%.0f" : " %s:%.1f", name, gbps);
        if (t < best_t) {
            best_t = t;
            best_i = i;
        }
    }
    st->nbest = 1;
    if (nall == 0) { /* none fits as it is: the plain tile, reduced (fit_variant) */
        clb_tr_parse_variant(probe_float[0], &st->best[0]);
        return CLB_OK;
    }
    st->best[0] = all[best_i]; /* the fastest to slot 0, the others' kernels released */
    cl_kernel fastest = st->kbest[best_i];
    st->kbest[best_i] = st->kbest[0];
    st->kbest[0] = fastest;
    clb_release_kernels(st->kbest + 1, (size_t)nall - 1);
    return CLB_OK;
}

/* ---- setup ---------------------------------------------------------------- */

/* What setup and the plan know of a group before any buffer: its shape, the
 * tile, the kernels wanted. */
static int describe(struct clb_env *env, const char *dtype, const struct clb_size *size,
                    struct transpose *st, unsigned *want)
{
    st->n = size->d[0];
    st->m = size->d[1];
    st->esize = clb_dtype_size(dtype);
    st->cus = env->info->compute_units ? env->info->compute_units : 1;
    st->nvidia = strstr(env->info->platform_name, "NVIDIA") != NULL;
    /* 32-bit indices while every index (tiles overhang by < 256) fits */
    st->wide = (double)(st->n + 256) * (double)(st->m + 256) >= 4294967296.0;
    int rc = parse_tile(env, st);
    return rc ? rc : clb_param_names(env, "kernels", KNOWN_KERNELS, 1, want);
}

/* Why serial or per_row cannot run here (else ""): above its size cap, or
 * longer loops per work-item than this implementation runs (clb_loop_limit). */
static int too_long(struct clb_env *env, struct transpose *st, int k, char *why, size_t n)
{
    const char *key = k == K_SERIAL ? "serial_max" : "per_row_max";
    long cap;
    int rc = clb_param_int(env, key, 1, 1L << 62, &cap);
    why[0] = 0;
    if (rc)
        return rc;
    if (st->n * st->m > (size_t)cap) {
        snprintf(why, n, "%s: %zu elements above %s=%ld (would take too long)", knames[k],
                 st->n * st->m, key, cap);
        return CLB_OK;
    }
    /* serial: n*m iterations of the inner loop, and llvmpipe's counter
     * takes about 2 more per outer one (tests/impl/impl_checks.c: 256 x 256
     * ran 65027 of 65536); per_row: m per work-item */
    size_t iters = k == K_SERIAL ? st->n * (st->m + 2) : st->m, limit;
    if ((rc = clb_loop_limit(env, &limit)) || !limit || iters <= limit)
        return rc;
    snprintf(why, n, "%s: a work-item loops about %zu times; this implementation ('%.40s') "
             "ends a work-item's loops after %zu iterations in all without an error (measured "
             "by clbench's loop probe; Mesa llvmpipe's LP_MAX_TGSI_LOOP_ITERATIONS): the "
             "result would be wrong, not slow", knames[k], iters, env->info->platform_name,
             limit);
    return CLB_OK;
}

/* The case's params: the variant, the tile, or per_row's work-group when
 * it was reduced. */
static int case_add(struct clb_group *g, struct transpose *st, int k, const char *vname,
                    const struct clb_fit *res, struct clb_case **c)
{
    if (k == K_BEST)
        return clb_case_add(g, c, knames[k], "best=%s", vname);
    if (k == K_PER_ROW && res->reduced)
        return clb_case_add(g, c, knames[k], "local=%zu", st->per_row_local);
    if (k == K_SERIAL || k == K_PER_ROW) /* no tile */
        return clb_case_add(g, c, knames[k], NULL);
    return clb_case_add(g, c, knames[k], "tile=%ldx%ld", st->tile, st->brows);
}

/* res: how the case's tile (variant, work-group) was fitted; skip: why the
 * case cannot run (NULL: it can, as far as known here). */
static int add_case(struct clb_env *env, struct clb_group *g, struct transpose *st, int k,
                    int vi, const char *note, const struct clb_fit *res, const char *skip)
{
    const struct clb_tr_variant *v = k == K_BEST ? &st->best[vi] : NULL;
    char vname[48] = "";
    if (v)
        clb_tr_variant_name(v, vname, sizeof vname);
    struct clb_case *c;
    int rc = case_add(g, st, k, vname, res, &c);
    if (rc)
        return rc;
    *(struct transpose_case *)c->data = (struct transpose_case){k, vi};
    geometry(st, k, v, &c->dims, c->global, c->local);
    char why[512];
    if ((k == K_SERIAL || k == K_PER_ROW) && (rc = too_long(env, st, k, why, sizeof why)))
        return rc;
    if ((k == K_SERIAL || k == K_PER_ROW) && why[0])
        clb_case_skip(c, "%s", why);
    if (v && !variant_usable(env, st, v, why, sizeof why))
        clb_case_skip(c, "best=%s: %s", vname, why);
    if (k != K_SERIAL)
        clb_fit_note(c, res);
    if (note && note[0])
        clb_case_note(c, "%s", note);
    if (skip)
        clb_case_skip(c, "%s", skip);
    return CLB_OK;
}

/* The best rows: each variant reduced to what fits and built. The inline
 * PTX of nt is the one kernel text no test compiles: if this driver refuses
 * it, that row is skipped (the build log is on stderr), the others run. */
static int add_best(struct clb_env *env, struct clb_group *g, struct transpose *st, int vi,
                    const char *note)
{
    struct clb_fit res = {.what = "best"};
    char vname[48], cannot[160];
    clb_tr_variant_name(&st->best[vi], vname, sizeof vname);
    /* what no smaller variant changes is said by add_case, without a build */
    int runs = variant_runs(env, st, &st->best[vi], cannot, sizeof cannot);
    int rc = runs ? fit_variant(env, g, st, vi, &res) : CLB_OK;
    char *why = NULL;
    if (rc == CLB_ECL && st->best[vi].nt)
        why = clb_asprintf("best=%s: the inline-PTX store did not build: %s", vname,
                           clb_lasterr());
    else if (rc == CLB_SKIP)
        why = clb_asprintf("best=%s: %s", vname, clb_lasterr());
    else if (rc)
        return rc;
    rc = add_case(env, g, st, K_BEST, vi, note, &res, why);
    free(why);
    return rc;
}

/* The cases, enumerated once: each fixed kernel wanted in order, then best
 * once per variant (nbest: those best= names, else 1, the probe's fastest).
 * Set-up adds them; the plan counts them. */
#define MAX_CASES (K_BEST + CLB_TR_MAX_VARIANTS)

static int cases(unsigned want, int nbest, struct transpose_case out[MAX_CASES])
{
    int n = 0;
    for (int k = 0; k < K_BEST; k++)
        if (want & 1u << k)
            out[n++] = (struct transpose_case){k, 0};
    for (int vi = 0; (want & 1u << K_BEST) && vi < nbest && vi < CLB_TR_MAX_VARIANTS; vi++)
        out[n++] = (struct transpose_case){K_BEST, vi};
    return n;
}

/* How many best variants best= names (0: none, the probe picks one). */
static int named_best(const struct clb_env *env)
{
    int nv = 0;
    const char *best = clb_param(env, "best");
    free(best[0] ? clb_split(best, &nv) : NULL);
    return nv;
}

static int setup(struct clb_env *env, struct clb_group *g)
{
    struct transpose *st = g->state;
    unsigned want;
    int rc;
    if ((rc = describe(env, g->dtype, &g->size, st, &want)))
        return rc;
    const size_t bytes = st->n * st->m * st->esize; /* counted (overflow-checked) by the core */
    struct clb_fit tres, pres;
    if ((rc = clb_inout_setup(env, bytes, bytes, st->esize == 8, 11, CL_MEM_READ_WRITE, &st->io)) ||
        (rc = fit_tiles(env, g, st, want, &tres, &pres)))
        return rc;
    struct clb_buf note = {0};
    if ((want & 1u << K_BEST) && (rc = choose_best(env, g, st, &note))) {
        clb_buf_free(&note);
        return rc;
    }
    struct transpose_case cs[MAX_CASES];
    int n = cases(want, st->nbest, cs);
    for (int i = 0; i < n && !rc; i++) {
        int k = cs[i].k;
        rc = k == K_BEST ? add_best(env, g, st, cs[i].vi, clb_buf_str(&note))
                         : add_case(env, g, st, k, 0, NULL, k == K_PER_ROW ? &pres : &tres, NULL);
    }
    clb_buf_free(&note);
    return rc;
}

/* ---- run and verify --------------------------------------------------- */

static int prepare(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    (void)c;
    struct transpose *st = g->state;
    return clb_poison(env->dev, st->io.dout, st->n * st->m * st->esize);
}

static int run(struct clb_env *env, struct clb_group *g, struct clb_case *c, struct clb_sample *s)
{
    struct transpose *st = g->state;
    const struct transpose_case *tc = c->data;
    cl_kernel kern = tc->k == K_BEST ? st->kbest[tc->vi] : st->k[tc->k];
    return launch(env, st, kern, c->dims, c->global, c->local, &s->first);
}

static int verify(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct transpose *st = g->state;
    int k = ((const struct transpose_case *)c->data)->k;
    int rc = clb_read(env->dev, st->io.dout, st->io.out, st->n * st->m * st->esize);
    if (rc)
        return rc;
    long long first;
    size_t tile = (size_t)st->tile; /* fine and coarse use the whitepaper tile */
    size_t bad = clb_tr_check(kmap[k], st->n, st->m, tile, st->esize, st->io.in, st->io.out,
                              &first);
    if (bad) {
        size_t w = clb_tr_out_width(kmap[k], st->n, st->m);
        clb_case_note(c, "%zu of %zu elements wrong (first at row %lld col %lld)", bad,
                      st->n * st->m, first / (long long)w, first % (long long)w);
        return CLB_FAIL;
    }
    return CLB_OK;
}

static void teardown(struct clb_env *env, struct clb_group *g)
{
    (void)env;
    struct transpose *st = g->state;
    CLB_RELEASE_KERNELS(st->k);
    CLB_RELEASE_KERNELS(st->kbest);
    clb_inout_free(&st->io);
}

/* The cases setup will add (cases()). */
static int plan(struct clb_env *env, const char *dtype, const struct clb_size *size)
{
    struct transpose st = {0};
    unsigned want;
    if (describe(env, dtype, size, &st, &want))
        return -1;
    struct transpose_case cs[MAX_CASES];
    int nbest = named_best(env);
    return cases(want, nbest ? nbest : 1, cs);
}

/* Its kernels' changes (git history): what a baseline from before them ran. */
static const struct clb_kernel_rev revisions[] = {
    {"per_row", "2026-11-25T20:44:34Z", "066ef11",
     "the lecture's per-row kernel: coalesced reads, strided writes"},
    {0}};

const struct clb_workload clb_wl_transpose = {
    .name = "transpose",
    .summary = "matrix transpose from serial to a copy-speed tiled kernel (whitepaper + lecture)",
    .dtypes = "float,double",
    .default_dtypes = "float",
    .params = params,
    .row_keys = row_keys,
    .size_help = "rows x columns NxM, any shape, e.g. 8192x8192 or 1000x3000 (default 2048x2048 "
                 "and 8192x8192 on GPUs; on CPUs the matrices >= 4x the last-level cache and "
                 "128 MiB, e.g. 4096x4096)",
    .size_dims = 2,
    /* The two matrices >= 4 x the last-level cache (the cache-resident
     * threshold) and the floor; GPUs also the whitepaper's 2048x2048, capped
     * at 8192x8192; no CPU cap (docs/workloads/transpose.md; docs/MEASURING.md,
     * "Default sizes"). */
    .sizes = {.quick = "256x256", .llc_times = 4, .floor_mib = {128, 512}, .cap_mib = {0, 1024},
              .extra = {NULL, "2048x2048"}},
    .baselines = "stream/copy,transpose/copy",
    .state_size = sizeof(struct transpose),
    .case_size = sizeof(struct transpose_case),
    CLB_STEPS,
    .plan = plan,
    .prepare = prepare,
    /* the whitepaper's sequence (copy baselines, naive to diagonal), the
     * lecture's serial and per-row first, then the best variant; each bar
     * against the copy of its size */
    .figure = {.order = "copy,copy_local,serial,per_row,naive,coalesced,nobankconflict,"
                        "fine_grained,coarse_grained,diagonal,best",
               .baseline = "copy"},
    .revisions = revisions,
};

/* Work-groups and tiles that fit the device (docs/PORTABILITY.md, "Tiles
 * that fit"): what a compiled kernel allows, the largest tile of a
 * workload's shape within it, and the run's list of reductions for the
 * summary. The core never learns a workload's name: the workload's
 * callbacks build its kernels and shrink its tiles. */
#include "core.h"

#include <stdlib.h>
#include <string.h>

void clb_wg_device_limit(const struct clb_env *env, struct clb_wg_limit *out)
{
    const struct clb_devinfo *d = env->info;
    out->items = d->max_wg;
    out->by = d->wg_forced ? "CLBENCH_MAX_WORK_GROUP" : "CL_DEVICE_MAX_WORK_GROUP_SIZE";
    memcpy(out->dim, d->max_wi, sizeof out->dim);
    out->local_bytes = (size_t)d->local_mem;
}

int clb_wg_limit(const struct clb_env *env, cl_kernel k, struct clb_wg_limit *out)
{
    const struct clb_devinfo *d = env->info;
    size_t kwg = 0;
    cl_ulong klocal = 0;
    CLB_CHECK(clGetKernelWorkGroupInfo(k, d->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kwg, &kwg,
                                       NULL),
              "clGetKernelWorkGroupInfo(CL_KERNEL_WORK_GROUP_SIZE)");
    CLB_CHECK(clGetKernelWorkGroupInfo(k, d->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof klocal,
                                       &klocal, NULL),
              "clGetKernelWorkGroupInfo(CL_KERNEL_LOCAL_MEM_SIZE)");
    /* The device's maximum (lowered by the test hook) bounds every kernel:
     * a driver's kernel figure above it (none should) is not believed. */
    clb_wg_device_limit(env, out);
    if (kwg && kwg < out->items) {
        out->items = kwg;
        out->by = "CL_KERNEL_WORK_GROUP_SIZE";
    }
    out->local_bytes = d->local_mem > klocal ? (size_t)(d->local_mem - klocal) : 0;
    return CLB_OK;
}

/* The tighter of a and b, into a. */
static void limit_and(struct clb_wg_limit *a, const struct clb_wg_limit *b)
{
    if (b->items < a->items) {
        a->items = b->items;
        a->by = b->by;
    }
    for (int i = 0; i < 3; i++)
        if (b->dim[i] < a->dim[i])
            a->dim[i] = b->dim[i];
    if (b->local_bytes < a->local_bytes)
        a->local_bytes = b->local_bytes;
}

int clb_wg_fits(const struct clb_wg_limit *l, unsigned dims, const size_t *local,
                size_t local_bytes, char *why, size_t n)
{
    size_t items = 1;
    char shape[96];
    clb_shape_text(dims, local, shape, sizeof shape);
    for (unsigned i = 0; i < dims && i < 3; i++)
        items *= local[i];
    if (items > l->items) {
        snprintf(why, n, "work-groups of %s need %zu work-items; %s allows %zu", shape, items,
                 l->by, l->items);
        return 0;
    }
    for (unsigned i = 0; i < dims && i < 3; i++)
        if (local[i] > l->dim[i]) {
            snprintf(why, n, "work-groups of %s need %zu work-items in dimension %u; the "
                     "device allows %zu there", shape, local[i], i, l->dim[i]);
            return 0;
        }
    if (local_bytes > l->local_bytes) {
        snprintf(why, n, "work-groups of %s need %zu B of local memory; %zu B are left",
                 shape, local_bytes, l->local_bytes);
        return 0;
    }
    return 1;
}

/* ---- the run's reductions, for the summary ------------------------------- */

/* Keep "<workload>: <what> A reduced to B (why)" once in the run's notes
 * (the session's: each device, and each device thread of a process that
 * drives several, says its own). */
static void keep_note(const struct clb_env *env, const struct clb_fit *res)
{
    struct clb_notes *n = env->notes;
    char *line = n ? clb_asprintf("%s: %s %s reduced to %s (%s)", env->wl ? env->wl->name : "?",
                                  res->what, res->asked, res->got, res->why)
                   : NULL;
    for (size_t i = 0; line && i < n->n; i++)
        if (strcmp(n->v[i], line) == 0) {
            free(line);
            return;
        }
    if (line && CLB_GROW(n->v, n->n, n->cap) == 0)
        n->v[n->n++] = line;
    else
        free(line); /* a summary line lost to OOM: the rows still say it */
}

void clb_fit_summary(struct clb_notes *n, FILE *out)
{
    if (n->n && out) {
        fprintf(out, "\nreduced to fit this device:\n");
        for (size_t i = 0; i < n->n; i++) {
            fprintf(out, "  ");
            clb_wrap(out, 2, 4, n->v[i]);
        }
    }
    for (size_t i = 0; i < n->n; i++)
        free(n->v[i]);
    free(n->v);
    memset(n, 0, sizeof *n);
}

/* ---- fitting ---------------------------------------------------------------- */

static void tile_text(const struct clb_fit_ops *ops, void *ctx, const struct clb_tile *t,
                      char *out, size_t n)
{
    if (ops->text)
        ops->text(ctx, t, out, n);
    else
        clb_shape_text(t->dims, t->local, out, n);
}

void clb_fit_record(const struct clb_env *env, struct clb_fit *res, const char *why)
{
    res->reduced = strcmp(res->asked, res->got) != 0;
    if (!res->reduced)
        return;
    clb_strlcpy(res->why, why, sizeof res->why);
    keep_note(env, res);
}

/* Does t fit l? When not, the reason, also kept in `first` (the reason the
 * asked tile was reduced) when that is still empty. */
static int fits(const struct clb_tile *t, const struct clb_wg_limit *l, size_t own, char *why,
                size_t n, char *first)
{
    if (clb_wg_fits(l, t->dims, t->local, t->local_bytes + own, why, n))
        return 1;
    if (!first[0])
        clb_strlcpy(first, why, n);
    return 0;
}

/* Shrink t until it fits l (no build between): 0 when no smaller tile does. */
static int shrink_to(const struct clb_fit_ops *ops, void *ctx, struct clb_tile *t,
                     const struct clb_wg_limit *l, size_t own, char *why, size_t n, char *first)
{
    for (int guard = 0; guard < 64; guard++) {
        if (fits(t, l, own ? t->own_local : 0, why, n, first))
            return 1;
        if (!ops->shrink(ctx, t, l))
            return 0;
    }
    return 0;
}

/* The limits of every kernel of a build, within the device's. */
static int build_limit(struct clb_env *env, const cl_kernel *k, int nk,
                       struct clb_wg_limit *lim)
{
    for (int i = 0; i < nk && i < CLB_FIT_MAX_KERNELS; i++) {
        struct clb_wg_limit one;
        int rc = clb_wg_limit(env, k[i], &one);
        if (rc)
            return rc;
        limit_and(lim, &one);
    }
    return CLB_OK;
}

int clb_fit_tile(struct clb_env *env, const struct clb_fit_ops *ops, void *ctx,
                 struct clb_tile *t, struct clb_fit *res)
{
    if (!res->what)
        res->what = "tile";
    res->reduced = 0;
    tile_text(ops, ctx, t, res->asked, sizeof res->asked);
    char why[192] = "", first[192] = "";
    struct clb_wg_limit lim;
    clb_wg_device_limit(env, &lim);
    /* a build for a work-group the device cannot have may be refused by
     * the compiler (reqd_work_group_size): shrink to the device first */
    for (int round = 0; round < 16; round++) {
        /* before the first build the kernel's own __local arrays count too
         * (later, a build's CL_KERNEL_LOCAL_MEM_SIZE is in lim) */
        if (!shrink_to(ops, ctx, t, &lim, round == 0, why, sizeof why, first))
            break;
        cl_kernel k[CLB_FIT_MAX_KERNELS];
        int nk = 0, rc = ops->build(env, ctx, t, k, &nk);
        if (rc || (rc = build_limit(env, k, nk, &lim)))
            return rc;
        if (fits(t, &lim, 0, why, sizeof why, first)) {
            tile_text(ops, ctx, t, res->got, sizeof res->got);
            clb_fit_record(env, res, first);
            return CLB_OK;
        }
        /* the kernel's limit may depend on the tile (registers): shrink to
         * what this build allows, rebuild and look again */
        if (!ops->shrink(ctx, t, &lim))
            break;
    }
    return clb_err(CLB_SKIP, "no %s down from %s fits: %s", res->what, res->asked, why);
}

int clb_fit_items(struct clb_env *env, const cl_kernel *k, int nk, size_t want,
                  size_t per_item_bytes, unsigned flags, size_t *got, struct clb_fit *res)
{
    if (!res->what)
        res->what = "work-group";
    res->reduced = 0;
    snprintf(res->asked, sizeof res->asked, "%zu", want);
    struct clb_wg_limit lim;
    clb_wg_device_limit(env, &lim);
    int rc = build_limit(env, k, nk, &lim);
    if (rc)
        return rc;
    size_t l = want ? want : 1;
    char why[192] = "";
    clb_wg_fits(&lim, 1, &l, l * per_item_bytes, why, sizeof why);
    if (l > lim.items)
        l = lim.items;
    if (l > lim.dim[0])
        l = lim.dim[0];
    if (per_item_bytes && l > lim.local_bytes / per_item_bytes)
        l = lim.local_bytes / per_item_bytes;
    if ((flags & CLB_FIT_POW2) && l)
        while (l & (l - 1))
            l &= l - 1; /* the highest bit: the largest power of two <= l */
    if (l == 0)
        return clb_err(CLB_SKIP, "no work-group fits: %s", why);
    *got = l;
    snprintf(res->got, sizeof res->got, "%zu", l);
    clb_fit_record(env, res, why);
    return CLB_OK;
}

int clb_shrink_rows(void *ctx, struct clb_tile *t, const struct clb_wg_limit *l)
{
    (void)ctx;
    long side = t->v[0], rows = t->v[1];
    int too_many = (size_t)side * (size_t)rows > l->items || (size_t)rows > l->dim[1];
    int too_big = t->own_local + t->local_bytes > l->local_bytes;
    if (too_many && !too_big && rows > 1 && (size_t)side <= l->dim[0] &&
        (size_t)side <= l->items) {
        do /* fewer rows: the same tile, more of it per work-item */
            rows--;
        while (side % rows);
    } else if (side > 1) {
        /* half the tile (local memory, or one row is still too many): half
         * the rows too, each work-item keeping its share */
        side /= 2;
        rows = rows % 2 == 0 ? rows / 2 : side % rows == 0 ? rows : 1;
    } else {
        return 0;
    }
    t->v[0] = side;
    t->v[1] = rows;
    t->dims = 2;
    t->local[0] = (size_t)side;
    t->local[1] = (size_t)rows;
    if (t->own_local && t->v[2]) /* v[2]: bytes of an element of a padded side x (side+1) tile */
        t->own_local = (size_t)side * (size_t)(side + 1) * (size_t)t->v[2];
    return 1;
}

void clb_tile_rows_text(void *ctx, const struct clb_tile *t, char *out, size_t n)
{
    (void)ctx;
    snprintf(out, n, "%ldx%ld", t->v[0], t->v[1]);
}

void clb_fit_note(struct clb_case *c, const struct clb_fit *res)
{
    if (!res->reduced)
        return;
    clb_case_note(c, "%s %s reduced to %s: %s", res->what, res->asked, res->got, res->why);
    /* as data: compare's line identity keeps a reduced launch apart from
     * one that ran as asked (docs/COMPARE.md, "Line identity") */
    clb_case_metric(c, "reduced", 1);
}

/* ---- an implementation's loop limit ---------------------------------------- */

#define LOOP_PROBE (1u << 20)

/* One work-item runs a loop of LOOP_PROBE iterations; how many it ran. */
static int loop_probe(struct clb_device *d, cl_uint *count)
{
    cl_uint stop[64] = {0};
    cl_mem b[2] = {NULL, NULL};
    cl_kernel k = NULL;
    cl_uint n = LOOP_PROBE;
    size_t one = 1;
    *count = 0;
    int rc = clb_kernel(d, "loops", "", "loop_count", &k);
    if (!rc && !(rc = clb_buffer(d, CL_MEM_READ_ONLY, sizeof stop, &b[0])) &&
        !(rc = clb_buffer(d, CL_MEM_READ_WRITE, sizeof *count, &b[1])) &&
        !(rc = clb_write(d, b[0], stop, sizeof stop)) &&
        !(rc = clb_args(k, sizeof(cl_mem), &b[0], sizeof(cl_mem), &b[1], sizeof n, &n,
                        (size_t)0)) &&
        !(rc = clb_launch(d, k, 1, &one, &one, NULL)))
        rc = clb_read(d, b[1], count, sizeof *count);
    clb_release_mems(b, 2);
    clb_release_kernels(&k, 1);
    return rc;
}

int clb_loop_limit(struct clb_env *env, size_t *limit)
{
    struct clb_device *d = env->dev;
    if (!d->loop_probed) {
        cl_uint count;
        int rc = loop_probe(d, &count);
        if (rc)
            return rc;
        d->loop_limit = count < LOOP_PROBE ? count : 0;
        d->loop_probed = 1;
        if (d->loop_limit)
            clb_debug("this implementation ends a work-item's loops after %zu iterations\n",
                      d->loop_limit);
    }
    *limit = d->loop_limit;
    return CLB_OK;
}

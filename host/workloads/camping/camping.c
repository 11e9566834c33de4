/* camping: the partition-camping probe ([Ruetsch09], [C1060Report, Part I]).
 * G concurrent work-groups each copy a contiguous chunk; the chunks of
 * consecutive groups start D bytes further apart than their length, D swept
 * over multiples of a base width: an unhashed device of P partitions of W
 * bytes collapses where D is a multiple of P x W (docs/workloads/camping.md,
 * cl/camping.cl). Bytes: 2 x G x chunk, the same for every D. */
#include "clb_workload.h"
#include "clb_fit.h"
#include "camping.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ROW_BYTES 16384 /* a chunk row: a power of two (see cl/camping.cl) */
#define MAX_DIST 1024   /* distances in one sweep */

/* A case: one distance between the chunks. */
struct camping_case {
    size_t distance;          /* bytes */
};

struct camping {
    size_t esize, groups, rows, chunk, dmax; /* chunk and dmax in bytes */
    size_t buf_bytes;
    struct clb_inout io;      /* the chunks (and gaps) in and out, host and device */
    cl_kernel k[1];
    size_t local;
};

static const struct clb_param_def params[] = {
    {"base", "", "distance step in bytes (a multiple of the element size; the report's "
                 "partition width is 256 B); also the slice a group walks at a time "
                 "(default 256; 1024 on CPUs)", CLB_ROLE_CASE},
    {"max_distance", "8192", "largest distance in bytes; distances 0, base, 2 base, ... up to it",
     CLB_ROLE_CASE},
    {"groups", "", "concurrent work-groups G (default: profile camping.groups, else 4 x CU on GPUs, 2 x CU "
                "elsewhere)", CLB_ROLE_TUNING},
    {"local", "256", "work-items per work-group (reduced to what the device and the compiled "
                     "kernel allow; the slice then to at most one element per work-item)",
     CLB_ROLE_TUNING},
    {0, 0, 0, 0}};

static const struct clb_param_def row_keys[] = {
    {"distance", NULL, "the row's distance in bytes (one of 0, base, 2 base, ... max_distance)",
     CLB_ROLE_CASE},
    {0, 0, 0, 0}};

/* ---- counts ------------------------------------------------------------ */

/* Each of G groups copies a chunk of whole ROW_BYTES rows, its share of the
 * N elements: bytes 2 G chunk, the same for every distance (the footprint
 * too: the gaps between the chunks are never touched). The group's buffers,
 * in and out, each hold G x (chunk + the largest distance).
 * G is in each case's params; for the group it comes from --param groups.
 * Without it the count assumes one group: the real default (4 or 2 per
 * compute unit, or the profile's camping.groups) is the device's, unknown to
 * a count; it changes the buffers by the chunks' rounding to whole rows and
 * the G gaps (G x max_distance bytes each), a little. */
static int count(const struct clb_query *q, struct clb_counts *out)
{
    if (q->kernel && strcmp(q->kernel, "copy"))
        return clb_eusage("unknown camping kernel '%s' (known: copy)", q->kernel);
    int ovf = 0;
    size_t es = clb_query_esize(q);
    size_t groups = (size_t)clb_query_long(q, "groups", 1, 1L << 20, 1);
    size_t rows = clb_mulz(q->size->total / groups, es, &ovf) / ROW_BYTES;
    size_t chunk = rows * ROW_BYTES; /* <= total x es */
    size_t all = clb_mulz(groups, chunk, &ovf);
    size_t bytes = clb_mulz(all, 2, &ovf);
    if (q->kernel)
        return clb_count_done(q, ovf, out, bytes, 0, bytes, all, CLB_UNIT_GBPS);
    size_t base = (size_t)clb_query_long(q, "base", 1, 1L << 20, 256);
    size_t dmax = (size_t)clb_query_long(q, "max_distance", 0, 1L << 26, 8192) / base * base;
    size_t buf = clb_mulz(groups, clb_addz(chunk, dmax, &ovf), &ovf);
    return clb_count_done(q, ovf, out, bytes, 0, clb_mulz(buf, 2, &ovf), buf, CLB_UNIT_GBPS);
}

/* Parameters into the state; the distance list's step in *base. */
static int read_params(const struct clb_env *env, struct camping *st, const char *dtype,
                       long *base)
{
    /* Enough groups to fill the device: 4 per CU on GPUs (with the barrier per
     * slice, 2 of 256 work-items leave an SM short of loads in flight), 2 per
     * CU elsewhere; --param groups or the profile's camping.groups replace it. */
    int gpu = strcmp(env->info->type_name, "gpu") == 0;
    long dmax, groups = (gpu ? 4L : 2L) * (long)env->info->compute_units, local;
    int rc;
    /* CPUs have no partitions to camp on: a coarser distance step by default */
    if (!clb_param(env, "base")[0])
        *base = strcmp(env->info->type_name, "cpu") == 0 ? 1024 : 256;
    else if ((rc = clb_param_int(env, "base", 1, 1L << 20, base)))
        return rc;
    if ((rc = clb_param_int(env, "max_distance", 0, 1L << 26, &dmax)) ||
        (rc = clb_param_int(env, "local", 1, 1L << 20, &local)))
        return rc;
    if (clb_param(env, "groups")[0] && (rc = clb_param_int(env, "groups", 1, 1L << 20, &groups)))
        return rc;
    if (*base % (long)st->esize)
        return clb_eusage("camping: base %ld B is not a multiple of the %s element size "
                          "(%zu B)", *base, dtype, st->esize);
    if (dmax / *base + 1 > MAX_DIST)
        return clb_eusage("camping: max_distance %ld / base %ld gives more than %d distances",
                          dmax, *base, MAX_DIST);
    /* (a local the device cannot have is reduced when the kernel is built) */
    if (*base / (long)st->esize > local)
        return clb_eusage("camping: base %ld B is %ld %s elements, more than the %ld work-items of "
                          "a work-group (base <= %ld B, or raise local)", *base,
                          *base / (long)st->esize, dtype, local, local * (long)st->esize);
    st->dmax = (size_t)(dmax / *base * *base);
    st->groups = (size_t)groups;
    st->local = (size_t)local;
    return CLB_OK;
}

/* Each group's share of the elements, in whole rows; the buffer. */
static int layout(struct camping *st, size_t elems, const char *size_text)
{
    st->rows = elems / st->groups * st->esize / ROW_BYTES;
    if (st->rows == 0)
        return clb_eusage("camping: size %s gives each of %zu groups less than one %d-byte row; "
                          "use at least %zu elements", size_text, st->groups, ROW_BYTES,
                          st->groups * (ROW_BYTES / st->esize));
    st->chunk = st->rows * ROW_BYTES;
    /* Counted by the core only for the groups of --param groups: check here. */
    int ovf = 0;
    st->buf_bytes = clb_mulz(st->groups, clb_addz(st->chunk, st->dmax, &ovf), &ovf);
    clb_mulz(st->buf_bytes, 2, &ovf);
    if (ovf)
        return clb_eusage("camping: size %s with %zu groups: the byte count does not fit in "
                          "64 bits", size_text, st->groups);
    return CLB_OK;
}

/* The build options for a slice of m elements (64 bytes in flight per
 * work-item per row pass; the fit's). */
static void options(const char *dtype, const struct camping *st, long m, char *opts, size_t n)
{
    if (strcmp(dtype, "float4") == 0)
        snprintf(opts, n, "-DT=float4 -DT_SIZE=16");
    else
        clb_dtype_defines(dtype, opts, n);
    clb_appendf(opts, n, " -DM=%ld -DUNROLL=%zu -DIDX=%s", m, 64 / st->esize,
                st->buf_bytes / st->esize < UINT32_MAX ? "uint" : "ulong");
}

/* Fitting the work-group (clb_fit_tile): v[0] work-items, v[1] = M, the
 * slice in elements, compiled in and at most one element per work-item. */
struct fit {
    struct camping *st;
    const char *dtype;
};

static int fit_build(struct clb_env *env, void *ctx, const struct clb_tile *t, cl_kernel *k,
                     int *nk)
{
    struct fit *f = ctx;
    struct camping *st = f->st;
    char opts[200];
    options(f->dtype, st, t->v[1], opts, sizeof opts);
    clb_release_kernels(st->k, 1);
    int rc = clb_kernel(env->dev, "camping", opts, "copy", &st->k[0]);
    *nk = rc ? 0 : 1;
    k[0] = st->k[0];
    return rc;
}

/* The largest work-group the limit allows (else half), the slice no wider. */
static int fit_shrink(void *ctx, struct clb_tile *t, const struct clb_wg_limit *l)
{
    (void)ctx;
    long local = t->v[0], m = t->v[1];
    if (local <= 1)
        return 0;
    local = (size_t)local > l->items && l->items > 0 ? (long)l->items : local / 2;
    if ((size_t)local > l->dim[0] && l->dim[0] > 0)
        local = (long)l->dim[0];
    m = m < local ? m : local;
    *t = (struct clb_tile){1, {(size_t)local, 1, 1}, 0, {local, m}, 0};
    return 1;
}

/* no text: the fit names the work-group, v[0] work-items */
static const struct clb_fit_ops fit_ops = {fit_build, fit_shrink, NULL};

/* The work-group of --param local and the base's slice, as the fit takes them. */
static struct clb_tile asked_tile(const struct camping *st, long base)
{
    return (struct clb_tile){1, {st->local, 1, 1}, 0, {(long)st->local, base / (long)st->esize}, 0};
}

/* The cases, one per distance, 0 to max_distance (a multiple of the base) by
 * the base, at the fitted work-group and slice of m elements. */
static int add_cases(struct clb_group *g, struct camping *st, long base, long m,
                     const struct clb_fit *res)
{
    for (size_t d = 0; d <= st->dmax; d += (size_t)base) {
        struct clb_case *c;
        int rc = res->reduced
                     ? clb_case_add(g, &c, "copy", "groups=%zu,distance=%zu,local=%zu",
                                    st->groups, d, st->local)
                     : clb_case_add(g, &c, "copy", "groups=%zu,distance=%zu", st->groups, d);
        if (rc)
            return rc;
        ((struct camping_case *)c->data)->distance = d;
        c->dims = 1;
        c->local[0] = st->local;
        c->global[0] = st->groups * st->local;
        clb_case_note(c, "chunk %zu B per group, base %ld B", st->chunk, base);
        if (m != base / (long)st->esize)
            clb_case_note(c, "slice %ld elements (narrower than the base)", m);
        clb_fit_note(c, res);
    }
    return CLB_OK;
}

static int setup(struct clb_env *env, struct clb_group *g)
{
    struct camping *st = g->state;
    st->esize = clb_dtype_size(g->dtype);
    long base;
    int rc;
    if ((rc = read_params(env, st, g->dtype, &base)))
        return rc;
    if ((rc = layout(st, g->size.total, g->size_text)))
        return rc;
    if ((rc = clb_inout_setup(env, st->buf_bytes, st->buf_bytes, st->esize == 8, 31,
                              CL_MEM_WRITE_ONLY, &st->io)))
        return rc;

    struct fit f = {st, g->dtype};
    struct clb_tile tile = asked_tile(st, base);
    struct clb_fit res = {.what = "local"};
    if ((rc = clb_fit_tile(env, &fit_ops, &f, &tile, &res)))
        return rc;
    st->local = (size_t)tile.v[0];
    return add_cases(g, st, base, tile.v[1], &res);
}

static int prepare(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct camping *st = g->state;
    cl_ulong pitch = (st->chunk + ((const struct camping_case *)c->data)->distance) / st->esize;
    cl_uint row_elems = (cl_uint)(ROW_BYTES / st->esize), nrows = (cl_uint)st->rows;
    int rc = clb_args(st->k[0], sizeof(cl_mem), &st->io.din, sizeof(cl_mem), &st->io.dout,
                      sizeof pitch, &pitch, sizeof row_elems, &row_elems, sizeof nrows, &nrows,
                      (size_t)0);
    return rc ? rc : clb_poison(env->dev, st->io.dout, st->buf_bytes);
}

static int run(struct clb_env *env, struct clb_group *g, struct clb_case *c, struct clb_sample *s)
{
    struct camping *st = g->state;
    return clb_launch(env->dev, st->k[0], 1, c->global, c->local, &s->first);
}

/* Every chunk copied exactly, and nothing written between the chunks (the
 * poison's 0xFF bytes left there). */
static int verify(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct camping *st = g->state;
    unsigned char *in = st->io.in, *out = st->io.out;
    int rc = clb_read(env->dev, st->io.dout, out, st->buf_bytes);
    if (rc)
        return rc;
    size_t pitch = st->chunk + ((const struct camping_case *)c->data)->distance;
    long bad_chunks = 0, stray = 0, first = -1;
#pragma omp parallel for reduction(+ : bad_chunks, stray) schedule(static)
    for (long gi = 0; gi < (long)st->groups; gi++) {
        size_t at = (size_t)gi * pitch;
        if (memcmp(in + at, out + at, st->chunk) != 0) {
            bad_chunks++;
#pragma omp critical
            if (first < 0 || gi < first)
                first = gi;
        }
        size_t gap_end = gi + 1 < (long)st->groups ? at + pitch : st->buf_bytes;
        for (size_t b = at + st->chunk; b < gap_end; b++)
            stray += out[b] != 0xFF;
    }
    if (bad_chunks || stray) {
        clb_case_note(c, "%ld of %zu chunks wrong (first: group %ld), %ld bytes written outside "
                      "the chunks", bad_chunks, st->groups, first, stray);
        return CLB_FAIL;
    }
    return CLB_OK;
}

static void teardown(struct clb_env *env, struct clb_group *g)
{
    (void)env;
    struct camping *st = g->state;
    CLB_RELEASE_KERNELS(st->k);
    clb_inout_free(&st->io);
}

/* Criterion: a series shows camping when the best-run bandwidth of its worst
 * distance is below CLB_CAMPING_THRESHOLD x the median over the series. */
#define CLB_CAMPING_THRESHOLD 0.7

void clb_camping_stats(const double *v, int n, double *median, int worst[3])
{
    double *s = malloc((size_t)n * sizeof *s);
    if (!s) {
        *median = NAN;
        worst[0] = worst[1] = worst[2] = -1;
        return;
    }
    memcpy(s, v, (size_t)n * sizeof *s);
    *median = clb_median(s, (size_t)n);
    free(s);
    for (int w = 0; w < 3; w++) {
        worst[w] = -1;
        for (int i = 0; i < n; i++) {
            int taken = 0;
            for (int k = 0; k < w; k++)
                taken |= worst[k] == i;
            if (!taken && (worst[w] < 0 || v[i] < v[worst[w]]))
                worst[w] = i;
        }
    }
}

/* Rows of one series share dtype, size and the params before ",distance=". */
static int same_series(const struct clb_row *a, const struct clb_row *b)
{
    const char *da = strstr(a->params, ",distance="), *db = strstr(b->params, ",distance=");
    if (!da || !db || da - a->params != db - b->params)
        return 0;
    return strcmp(a->dtype, b->dtype) == 0 && strcmp(a->size, b->size) == 0 &&
           strncmp(a->params, b->params, (size_t)(da - a->params)) == 0;
}

/* The end of a series' line: a camping verdict only where the profile
 * names memory partitions to camp on; elsewhere (hashed addresses, a CPU, an
 * unknown device) only what the curve does: "flat" or "dip". */
static void verdict(const struct clb_summary_ctx *ctx, double worst, double med, FILE *out)
{
    int low = worst < CLB_CAMPING_THRESHOLD * med;
    const struct clb_profile *p = ctx ? ctx->profile : NULL;
    if (p && !isnan(p->partitions) && p->partitions >= 1)
        fprintf(out, "; %s (worst %s %.1f x median; %g partitions in profile %s)\n",
                low ? "CAMPING" : "no camping", low ? "<" : ">=", CLB_CAMPING_THRESHOLD,
                p->partitions, p->id);
    else
        fprintf(out, "; %s (worst %s %.1f x median; no verdict on camping: the profile%s%s "
                     "names no memory partitions)\n",
                low ? "dip" : "flat", low ? "<" : ">=", CLB_CAMPING_THRESHOLD, p ? " " : "",
                p ? p->id : "");
}

static void summarize_series(const struct clb_summary_ctx *ctx, const struct clb_row *rows,
                             const size_t *idx, int n, FILE *out)
{
    double *v = malloc((size_t)n * sizeof *v);
    if (!v)
        return;
    /* Each row's best run: camping slows every run of a distance alike,
     * while interference from other work hits single runs. */
    for (int i = 0; i < n; i++)
        v[i] = rows[idx[i]].gbps_best;
    double med;
    int worst[3];
    clb_camping_stats(v, n, &med, worst);
    const struct clb_row *r0 = &rows[idx[0]];
    const char *dist = strstr(r0->params, ",distance=");
    fprintf(out, "  %s %s %.*s: median %.2f GB/s (best runs) over %d distances; worst:", r0->dtype, r0->size,
            (int)(dist - r0->params), r0->params, med, n);
    for (int w = 0; w < 3 && worst[w] >= 0; w++) {
        const char *d = strstr(rows[idx[worst[w]]].params, ",distance=") + 10;
        fprintf(out, "%s %s B %.2f (%.2fx)", w ? "," : "", d, v[worst[w]], v[worst[w]] / med);
    }
    verdict(ctx, worst[0] >= 0 ? v[worst[0]] : med, med, out);
    free(v);
}

static void summarize(const struct clb_summary_ctx *ctx, const struct clb_row *rows, size_t n,
                      FILE *out)
{
    size_t *idx = malloc(n * sizeof *idx);
    char *done = calloc(n, 1);
    int header = 0;
    for (size_t i = 0; idx && done && i < n; i++) {
        if (done[i] || strcmp(rows[i].status, "ok") || !strstr(rows[i].params, ",distance="))
            continue;
        int k = 0;
        for (size_t j = i; j < n; j++)
            if (!done[j] && strcmp(rows[j].status, "ok") == 0 && same_series(&rows[i], &rows[j])) {
                idx[k++] = j;
                done[j] = 1;
            }
        if (!header) {
            fprintf(out, "\ncamping: bandwidth against the distance between concurrent groups\n");
            header = 1;
        }
        summarize_series(ctx, rows, idx, k, out);
    }
    free(idx);
    free(done);
}

/* The cases setup will add: the distances 0, base, ... dmax. */
static int plan(struct clb_env *env, const char *dtype, const struct clb_size *size)
{
    (void)size;
    struct camping st = {.esize = clb_dtype_size(dtype)};
    long base;
    return read_params(env, &st, dtype, &base) ? -1 : (int)(st.dmax / (size_t)base) + 1;
}

const struct clb_workload clb_wl_camping = {
    .name = "camping",
    .summary = "partition-camping probe: bandwidth against the distance between the chunks of "
               "concurrent work-groups",
    .dtypes = "float,double,float4",
    .default_dtypes = "float,double",
    .params = params,
    .row_keys = row_keys,
    .size_help = "elements copied in all N, split into G chunks of whole 16 KiB rows, e.g. 2^27 "
                 "(default: in + out >= 8x the last-level cache, 256 MiB on GPUs)",
    .size_dims = 1,
    /* in + out >= 8x the last-level cache and 256 MiB on GPUs, 64 MiB
     * elsewhere. The quick size leaves each of up to 1024 groups a float row:
     * the H100's 528 groups get 1 (float) to 7 (float4) rows, PoCL's 4 256. */
    .sizes = {.quick = "4194304", .llc_times = 8, .floor_mib = {64, 256}},
    .baselines = "stream/copy",
    .state_size = sizeof(struct camping),
    .case_size = sizeof(struct camping_case),
    CLB_STEPS,
    .plan = plan,
    .prepare = prepare,
    .summarize = summarize,
    .figure = {.x_param = "distance", .x_label = "distance between concurrent work-groups",
               .x_bytes = 1},
};

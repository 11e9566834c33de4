/* stream: BabelStream-style copy, scale, add, triad; every device's measured
 * bandwidth ceiling. Bytes: copy and scale 2N, add and triad 3N elements. */
#include "clb_workload.h"

#include <stdlib.h>
#include <string.h>

enum { COPY, SCALE, ADD, TRIAD, NKERNELS };
static const char *const kernel_names[NKERNELS] = {"copy", "scale", "add", "triad"};
static const int arrays_moved[NKERNELS] = {2, 2, 3, 3};
#define SCALAR 0.4

struct stream {
    int dbl;
    size_t n, esize;
    void *a, *b, *c;          /* host: inputs and the read-back output */
    cl_mem da, db, dc;
    cl_kernel k[4][4][NKERNELS]; /* per width index and ILP index (1,2,4,8 each) */
};

static const struct clb_param_def params[] = {
    {"vec", "", "vector width 1,2,4,8 or a list; empty = the profile's stream.vec, else the "
                "fastest of a short copy probe"},
    {"ilp", "1", "vectors per work-item, loaded before the first store: 1,2,4,8 or a list"},
    {"local", "", "work-group size or a list (0 = the driver chooses; default 256 on GPUs, "
                  "the driver's choice on CPUs)"},
    {"driver_copy", "0", "1 = also time the driver's own device copy (clEnqueueCopyBuffer a -> c): "
                         "row copy_driver, a reference for the copy kernel"},
    {0, 0, 0}};

/* 1,2,4,8 -> 0,1,2,3 */
static int pow2_index(long v) { return v == 1 ? 0 : v == 2 ? 1 : v == 4 ? 2 : 3; }

/* A launch configuration. */
struct shape { long vec, ilp; size_t local; };

static void default_sizes(const struct clb_env *env, const char *dtype, char *out, size_t n)
{
    size_t es = clb_dtype_size(dtype);
    if (env->quick) {
        snprintf(out, n, "%d", 1 << 20);
        return;
    }
    /* Each of the three arrays at least 4x the last-level cache, and at least
     * 1 GiB on GPUs (so launch overhead is < 1%), 64 MiB on CPUs. */
    size_t floor_bytes = (env->info->type & CL_DEVICE_TYPE_CPU) ? (64u << 20) : (1u << 30);
    size_t want = 4 * clb_llc_bytes(env);
    if (want < floor_bytes)
        want = floor_bytes;
    size_t cap = clb_max_buffer(env, 3);
    if (want > cap)
        want = cap;
    size_t elems = 1;
    while (elems * 2 * es <= want) /* a power of two: vector widths divide it */
        elems *= 2;
    snprintf(out, n, "%zu", elems);
}

static int build(struct clb_env *env, struct stream *st, const char *dtype, long vec, long ilp)
{
    char opts[128];
    clb_dtype_defines(dtype, opts, sizeof opts);
    clb_appendf(opts, sizeof opts, " -DVEC=%ld -DILP=%ld", vec, ilp);
    cl_kernel *ks = st->k[pow2_index(vec)][pow2_index(ilp)];
    for (int k = 0; k < NKERNELS; k++) {
        if (ks[k])
            continue;
        int rc = clb_kernel(env->dev, "stream", opts, kernel_names[k], &ks[k]);
        if (rc)
            return rc;
    }
    return CLB_OK;
}

/* Work-items: one per ILP vectors, rounded up to whole work-groups. */
static size_t global_size(const struct stream *st, const struct shape *sh)
{
    size_t nv = st->n / (size_t)sh->vec;
    size_t items = (nv + (size_t)sh->ilp - 1) / (size_t)sh->ilp;
    if (items == 0)
        items = 1; /* the tail still needs work-item 0 */
    return sh->local ? (items + sh->local - 1) / sh->local * sh->local : items;
}

static int launch(struct clb_env *env, struct stream *st, int k, const struct shape *sh,
                  cl_event *ev)
{
    cl_kernel kern = st->k[pow2_index(sh->vec)][pow2_index(sh->ilp)][k];
    cl_ulong n = st->n;
    float sf = (float)SCALAR;
    double sd = SCALAR;
    int rc = clb_args(kern, sizeof(cl_mem), &st->da, sizeof(cl_mem), &st->db, sizeof(cl_mem),
                      &st->dc, st->esize, st->dbl ? (const void *)&sd : (const void *)&sf,
                      sizeof n, &n, (size_t)0);
    if (rc)
        return rc;
    size_t global = global_size(st, sh);
    return clb_launch(env->dev, kern, 1, &global, sh->local ? &sh->local : NULL, ev);
}

/* The fastest width for copy over a few runs: "default: the fastest". */
static int probe_vec(struct clb_env *env, struct stream *st, const char *dtype,
                     struct shape sh, long *best, char *note, size_t nn)
{
    static const long widths[] = {1, 2, 4, 8};
    double best_bw = 0;
    clb_strlcpy(note, "vec probe GB/s", nn);
    for (int w = 0; w < 4; w++) {
        sh.vec = widths[w];
        int rc = build(env, st, dtype, sh.vec, sh.ilp);
        if (rc)
            return rc;
        double tmin = 1e30;
        for (int r = 0; r < 4; r++) {
            cl_event ev;
            double t;
            if ((rc = launch(env, st, COPY, &sh, &ev)))
                return rc;
            rc = clb_event_seconds(ev, ev, &t);
            clReleaseEvent(ev);
            if (rc)
                return rc;
            if (r > 0 && t < tmin) /* the first run warms up */
                tmin = t;
        }
        double bw = 2.0 * (double)(st->n * st->esize) / tmin / 1e9;
        clb_appendf(note, nn, " %ld:%.1f", widths[w], bw);
        if (bw > best_bw) {
            best_bw = bw;
            *best = widths[w];
        }
    }
    return CLB_OK;
}

static int add_case(struct clb_group *g, const struct stream *st, int k, struct shape sh,
                    const char *note)
{
    struct clb_case *c = clb_case_add(g, kernel_names[k], "vec=%ld,ilp=%ld", sh.vec, sh.ilp);
    if (!c)
        return CLB_ESYS;
    if (sh.local)
        clb_appendf(c->params, sizeof c->params, ",local=%zu", sh.local);
    size_t bytes = st->n * st->esize;
    c->iarg[0] = k;
    c->iarg[1] = sh.vec;
    c->iarg[2] = sh.ilp;
    c->iarg[3] = (long)sh.local;
    c->bytes = (double)arrays_moved[k] * (double)bytes;
    c->footprint = 3.0 * (double)bytes;
    c->flops = (k == COPY) ? 0 : (k == TRIAD ? 2.0 : 1.0) * (double)st->n;
    c->dims = 1;
    c->local[0] = sh.local;
    c->global[0] = global_size(st, &sh);
    if (note[0])
        clb_case_note(c, "%s", note);
    return CLB_OK;
}

/* The driver's own copy of a into c: what the copy kernel is measured
 * against. No ND-range of ours (dims 0, vec 0 marks it); the model and the
 * cache note the core gives kernels are set here. */
static int add_driver_copy(struct clb_env *env, struct clb_group *g, const struct stream *st)
{
    struct clb_case *c = clb_case_add(g, "copy_driver", "clEnqueueCopyBuffer");
    if (!c)
        return CLB_ESYS;
    double bytes = (double)(st->n * st->esize);
    c->iarg[0] = COPY;
    c->bytes = 2.0 * bytes;
    c->footprint = 2.0 * bytes;
    c->model = env->profile->peak_bandwidth_gbs;
    size_t llc = clb_llc_bytes(env);
    if (llc && c->footprint < 4.0 * (double)llc)
        clb_case_note(c, "cache_resident (%.3g MB < 4 x %.3g MB cache)", c->footprint / 1e6,
                      llc / 1e6);
    return CLB_OK;
}

static int setup(struct clb_env *env, struct clb_group *g)
{
    struct stream *st = calloc(1, sizeof *st);
    if (!st)
        return CLB_ESYS;
    g->state = st;
    st->dbl = strcmp(g->dtype, "double") == 0;
    st->esize = clb_dtype_size(g->dtype);
    st->n = g->size.total;
    size_t bytes = st->n * st->esize;

    long vecs[8], ilps[8], locals[16], driver_copy;
    int nvec = 0, nilp, nloc = 1, ndc, rc;
    if ((rc = clb_param_ints(env, "driver_copy", 0, 1, &driver_copy, 1, &ndc)))
        return rc;
    if (clb_param(env, "vec")[0] && (rc = clb_param_ints(env, "vec", 1, 8, vecs, 8, &nvec)))
        return rc;
    if ((rc = clb_param_ints(env, "ilp", 1, 8, ilps, 8, &nilp)))
        return rc;
    for (int i = 0; i < nvec + nilp; i++) {
        long v = i < nvec ? vecs[i] : ilps[i - nvec];
        if (v != 1 && v != 2 && v != 4 && v != 8) {
            clb_seterr("stream: bad %s %ld (accepted: 1, 2, 4, 8)", i < nvec ? "vec" : "ilp", v);
            return CLB_EUSAGE;
        }
    }
    locals[0] = (env->info->type & CL_DEVICE_TYPE_GPU) ? 256 : 0;
    if (clb_param(env, "local")[0] &&
        (rc = clb_param_ints(env, "local", 0, (long)env->info->max_wg, locals, 16, &nloc)))
        return rc;

    if ((rc = clb_fits(env->dev, bytes, 3 * bytes)))
        return rc;
    st->a = clb_xmalloc(bytes);
    st->b = clb_xmalloc(bytes);
    st->c = clb_xmalloc(bytes);
    if (!st->a || !st->b || !st->c)
        return CLB_ESYS;
    if (st->dbl) {
        clb_fill_f64(st->a, st->n, 1);
        clb_fill_f64(st->b, st->n, 2);
    } else {
        clb_fill_f32(st->a, st->n, 1);
        clb_fill_f32(st->b, st->n, 2);
    }
    if ((rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, bytes, &st->da)) ||
        (rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, bytes, &st->db)) ||
        (rc = clb_buffer(env->dev, CL_MEM_READ_WRITE, bytes, &st->dc)) ||
        (rc = clb_write(env->dev, st->da, st->a, bytes)) ||
        (rc = clb_write(env->dev, st->db, st->b, bytes)))
        return rc;

    char note[160] = "";
    if (nvec == 0) {
        struct shape probe = {4, ilps[0], (size_t)locals[0]};
        long best = 4;
        if ((rc = probe_vec(env, st, g->dtype, probe, &best, note, sizeof note)))
            return rc;
        vecs[nvec++] = best;
    }
    for (int v = 0; v < nvec; v++)
        for (int il = 0; il < nilp; il++) {
            if ((rc = build(env, st, g->dtype, vecs[v], ilps[il])))
                return rc;
            for (int l = 0; l < nloc; l++)
                for (int k = 0; k < NKERNELS; k++)
                    if ((rc = add_case(g, st, k, (struct shape){vecs[v], ilps[il], (size_t)locals[l]},
                                       note)))
                        return rc;
        }
    return driver_copy ? add_driver_copy(env, g, st) : CLB_OK;
}

static int prepare(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    (void)c;
    struct stream *st = g->state;
    return clb_poison(env->dev, st->dc, st->n * st->esize);
}

static int run(struct clb_env *env, struct clb_group *g, struct clb_case *c, struct clb_sample *s)
{
    struct stream *st = g->state;
    if (c->iarg[1] == 0) { /* copy_driver */
        CLB_CHECK(clEnqueueCopyBuffer(env->dev->queue, st->da, st->dc, 0, 0, st->n * st->esize, 0,
                                      NULL, &s->first),
                  "clEnqueueCopyBuffer");
        return CLB_OK;
    }
    struct shape sh = {c->iarg[1], c->iarg[2], (size_t)c->iarg[3]};
    return launch(env, st, (int)c->iarg[0], &sh, &s->first);
}

/* Copy and scale and add are exact (one rounding at most, the same on host
 * and device); triad may be contracted to an FMA, so it gets 2 ulps. */
static int verify(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct stream *st = g->state;
    int rc = clb_read(env->dev, st->dc, st->c, st->n * st->esize);
    if (rc)
        return rc;
    int k = (int)c->iarg[0];
    long bad = 0, first = -1;
    double eps = st->dbl ? 2.220446049250313e-16 : 1.1920929e-07;
#pragma omp parallel for reduction(+ : bad) schedule(static)
    for (long i = 0; i < (long)st->n; i++) {
        double a, b, got, ref;
        if (st->dbl) {
            a = ((double *)st->a)[i];
            b = ((double *)st->b)[i];
            got = ((double *)st->c)[i];
        } else {
            a = ((float *)st->a)[i];
            b = ((float *)st->b)[i];
            got = ((float *)st->c)[i];
        }
        double tol = 0;
        switch (k) {
        case COPY: ref = a; break;
        case SCALE: ref = st->dbl ? SCALAR * a : (double)((float)SCALAR * (float)a);
            tol = eps * fabs(ref); break;
        case ADD: ref = a + b; tol = eps * (fabs(a) + fabs(b)); break;
        default: ref = a + SCALAR * b; tol = 2 * eps * (fabs(a) + fabs(SCALAR * b)); break;
        }
        if (!(fabs(got - ref) <= tol)) {
            bad++;
#pragma omp critical
            if (first < 0 || i < first)
                first = i;
        }
    }
    if (bad) {
        clb_case_note(c, "%ld of %zu elements wrong (first at %ld)", bad, st->n, first);
        return CLB_FAIL;
    }
    return CLB_OK;
}

static void teardown(struct clb_env *env, struct clb_group *g)
{
    (void)env;
    struct stream *st = g->state;
    if (!st)
        return;
    for (int v = 0; v < 4; v++)
        for (int i = 0; i < 4; i++)
            for (int k = 0; k < NKERNELS; k++)
                if (st->k[v][i][k])
                    clReleaseKernel(st->k[v][i][k]);
    if (st->da) clReleaseMemObject(st->da);
    if (st->db) clReleaseMemObject(st->db);
    if (st->dc) clReleaseMemObject(st->dc);
    free(st->a);
    free(st->b);
    free(st->c);
    free(st);
    g->state = NULL;
}

const struct clb_workload clb_wl_stream = {
    .name = "stream",
    .summary = "BabelStream copy, scale, add, triad: the device's bandwidth ceiling",
    .dtypes = "float,double",
    .default_dtypes = "float,double",
    .params = params,
    .size_help = "elements per array N, e.g. 2^28, 64M (default: each array >= 4x the last-level "
                 "cache, 1 GiB on GPUs)",
    .size_dims = 1,
    .default_sizes = default_sizes,
    .setup = setup,
    .prepare = prepare,
    .run = run,
    .verify = verify,
    .teardown = teardown,
};

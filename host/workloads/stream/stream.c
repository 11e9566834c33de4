/* stream: BabelStream-style [Deakin16] copy, scale, add, triad; every device's measured
 * bandwidth ceiling. Bytes: copy and scale 2N, add and triad 3N elements;
 * flops: scale and add N, triad 2N. */
#include "clb_workload.h"
#include "clb_fit.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

enum { COPY, SCALE, ADD, TRIAD, DRIVER, NKERNELS };
static const char *const kernel_names[NKERNELS] = {"copy", "scale", "add", "triad", "copy_driver"};
static const int arrays_moved[NKERNELS] = {2, 2, 3, 3, 2};
static const int flops_per_elem[NKERNELS] = {0, 1, 1, 2, 0};
#define SCALAR 0.4

/* A launch configuration: one case. */
struct shape {
    int k;                    /* kernel index */
    long vec, ilp;
    size_t local;
    int nt;                   /* streaming stores */
};

struct stream {
    int dbl;
    size_t n, esize;
    void *h[3];               /* host: the inputs a, b and the read-back output c */
    cl_mem d[3];              /* a, b, c */
    int init_device;          /* init=device: a kernel touched the arrays first */
    int have_nt;              /* the compiler has streaming stores (probe_nt) */
    /* per width index and ILP index (1,2,4,8 each), nt */
    cl_kernel k[4][4][2][DRIVER];
};

static const struct clb_param_def params[] = {
    {"vec", "", "vector width 1,2,4,8 or a list; empty = the profile's stream.vec, else the "
                "fastest of a short copy probe", CLB_ROLE_TUNING},
    {"ilp", "1", "vectors per work-item, loaded before the first store: 1,2,4,8 or a list",
     CLB_ROLE_TUNING},
    {"local", "", "work-group size or a list (0 = the driver chooses; default 256 on GPUs, "
                  "the driver's choice on CPUs)", CLB_ROLE_TUNING},
    {"local2", "", "work-group size of add and triad (two input arrays) where it differs from "
                   "copy's and scale's (empty: local); one value", CLB_ROLE_TUNING},
    {"nt", "0", "1 = stores marked non-temporal (clang's __builtin_nontemporal_store; skipped "
                "where the compiler has none; whether the implementation keeps the mark is "
                "measured, not known), 0 = plain stores, or 0,1", CLB_ROLE_TUNING},
    {"init", "host", "who writes the arrays first: host (clEnqueueWriteBuffer of the host's "
                     "data) or device (a kernel writes every element, then the host's data)",
     CLB_ROLE_TUNING},
    {"kernels", "", "subset of copy,scale,add,triad to run (default: all)", CLB_ROLE_CASE},
    {"driver_copy", "0", "1 = also time the driver's own device copy (clEnqueueCopyBuffer a -> c): "
                         "row copy_driver, a reference for the copy kernel", CLB_ROLE_CASE},
    {0, 0, 0, 0}};

static const struct clb_param_def row_keys[] = {
    {"driver", NULL, "the copy_driver row's copy: clEnqueueCopyBuffer", CLB_ROLE_CASE},
    {0, 0, 0, 0}};

/* ---- counts ------------------------------------------------------------ */

static int kernel_index(const char *name)
{
    for (int k = 0; k < NKERNELS; k++)
        if (strcmp(kernel_names[k], name) == 0)
            return k;
    return -1;
}

static int count(const struct clb_query *q, struct clb_counts *out)
{
    int ovf = 0;
    size_t n = q->size->total;
    size_t array = clb_mulz(n, clb_query_esize(q), &ovf);
    size_t three = clb_mulz(array, 3, &ovf);
    if (!q->kernel) /* the group: a, b and c */
        return clb_count_done(q, ovf, out, three, 0, three, array, CLB_UNIT_GBPS);
    int k = kernel_index(q->kernel);
    if (k < 0)
        return clb_eusage("unknown stream kernel '%s' (known: copy, scale, add, triad, "
                          "copy_driver)", q->kernel);
    size_t bytes = clb_mulz(array, (size_t)arrays_moved[k], &ovf);
    size_t flops = clb_mulz(n, (size_t)flops_per_elem[k], &ovf);
    return clb_count_done(q, ovf, out, bytes, flops, three, array, CLB_UNIT_GBPS);
}

/* ---- kernels ----------------------------------------------------------- */

/* 1,2,4,8 -> 0,1,2,3 */
static int pow2_index(long v) { return v == 1 ? 0 : v == 2 ? 1 : v == 4 ? 2 : 3; }

/* The build options of a shape's program: setup's and the plan's. */
static void options(const char *dtype, const struct shape *sh, char *opts, size_t n)
{
    clb_dtype_defines(dtype, opts, n);
    clb_appendf(opts, n, " -DVEC=%ld -DILP=%ld", sh->vec, sh->ilp);
    if (sh->nt)
        clb_appendf(opts, n, " -DNT=1");
}

static cl_kernel *kernels_of(struct stream *st, const struct shape *sh)
{
    return st->k[pow2_index(sh->vec)][pow2_index(sh->ilp)][sh->nt != 0];
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

static int launch(struct clb_env *env, struct stream *st, const struct shape *sh, cl_event *ev)
{
    cl_kernel kern = kernels_of(st, sh)[sh->k];
    cl_ulong n = st->n;
    float sf = (float)SCALAR;
    double sd = SCALAR;
    int rc = clb_args(kern, sizeof(cl_mem), &st->d[0], sizeof(cl_mem), &st->d[1], sizeof(cl_mem),
                      &st->d[2], st->esize, st->dbl ? (const void *)&sd : (const void *)&sf,
                      sizeof n, &n, (size_t)0);
    if (rc)
        return rc;
    size_t global = global_size(st, sh);
    return clb_launch(env->dev, kern, 1, &global, sh->local ? &sh->local : NULL, ev);
}

/* A kernel shape built (the kernels of its program not built yet), its
 * work-group reduced to what its kernel allows (0, the driver's choice,
 * stays). */
static int ready_shape(struct clb_env *env, struct stream *st, const char *dtype,
                       struct shape *sh, struct clb_fit *res)
{
    char opts[160];
    options(dtype, sh, opts, sizeof opts);
    cl_kernel *ks = kernels_of(st, sh);
    *res = (struct clb_fit){.what = "local"};
    for (int k = 0; k < DRIVER; k++) {
        int rc = ks[k] ? CLB_OK : clb_kernel(env->dev, "stream", opts, kernel_names[k], &ks[k]);
        if (rc)
            return rc;
    }
    if (!sh->local)
        return CLB_OK;
    return clb_fit_items(env, &ks[sh->k], 1, sh->local, 0, 0, &sh->local, res);
}

/* The probe launches a copy of one shape. */
struct probe { struct stream *st; struct shape sh; };
static int probe_launch(struct clb_env *env, void *ctx, cl_event *ev)
{
    struct probe *p = ctx;
    return launch(env, p->st, &p->sh, ev);
}

/* The fastest width for copy over a few runs: "default: the fastest". */
static int probe_vec(struct clb_env *env, struct stream *st, const char *dtype, struct shape sh,
                     long *best, struct clb_buf *note)
{
    static const long widths[] = {1, 2, 4, 8};
    double best_bw = 0;
    clb_buf_printf(note, "vec probe GB/s");
    for (int w = 0; w < 4; w++) {
        struct probe p = {st, sh};
        p.sh.vec = widths[w];
        p.sh.k = COPY;
        double tmin;
        struct clb_fit fit;
        int rc = ready_shape(env, st, dtype, &p.sh, &fit);
        if (rc || (rc = clb_probe_min(env, probe_launch, &p, 4, &tmin)))
            return rc;
        double bw = 2.0 * (double)(st->n * st->esize) / tmin / 1e9;
        clb_buf_printf(note, " %ld:%.1f", widths[w], bw);
        if (bw > best_bw) {
            best_bw = bw;
            *best = widths[w];
        }
    }
    return CLB_OK;
}

/* ---- set-up ------------------------------------------------------------- */

static int add_case(struct clb_env *env, struct clb_group *g, struct stream *st,
                    struct shape sh, const char *note)
{
    struct clb_case *c;
    struct clb_fit fit = {.what = "local"};
    int rc = sh.k == DRIVER ? CLB_OK : ready_shape(env, st, g->dtype, &sh, &fit);
    if (rc)
        return rc;
    char more[24]; /* the choices that are not the default, in the params */
    snprintf(more, sizeof more, "%s%s", sh.nt ? ",nt=1" : "", st->init_device ? ",init=device" : "");
    if (sh.k == DRIVER)
        rc = clb_case_add(g, &c, kernel_names[sh.k], "driver=clEnqueueCopyBuffer");
    else if (sh.local)
        rc = clb_case_add(g, &c, kernel_names[sh.k], "vec=%ld,ilp=%ld,local=%zu%s", sh.vec,
                          sh.ilp, sh.local, more);
    else
        rc = clb_case_add(g, &c, kernel_names[sh.k], "vec=%ld,ilp=%ld%s", sh.vec, sh.ilp, more);
    if (rc)
        return rc;
    *(struct shape *)c->data = sh;
    if (sh.nt && !st->have_nt)
        clb_case_skip(c, "nt=1: this implementation's compiler ('%.40s') has no streaming stores",
                      env->info->platform_name);
    if (sh.k != DRIVER) {
        c->dims = 1;
        c->local[0] = sh.local;
        c->global[0] = global_size(st, &sh);
    }
    clb_fit_note(c, &fit);
    if (note[0])
        clb_case_note(c, "%s", note);
    return CLB_OK;
}

/* The shapes of a group's cases (vecs: the widths given, or the probe's one). */
struct shapes {
    long vecs[8], ilps[8], locals[16], nts[2], local2, driver_copy;
    int nvec, nilp, nloc, nnt, init_device;
    unsigned kernels;         /* bit k: kernel k of copy, scale, add, triad */
};

static int check_pow2s(const long *v, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        if (v[i] != 1 && v[i] != 2 && v[i] != 4 && v[i] != 8)
            return clb_eusage("stream: bad %s %ld (accepted: 1, 2, 4, 8)", what, v[i]);
    return CLB_OK;
}

static int read_shapes(struct clb_env *env, struct shapes *sp)
{
    int rc;
    unsigned init = 0;
    *sp = (struct shapes){.nloc = 1, .local2 = -1}; /* local2 none: add and triad take local */
    if (clb_param(env, "local2")[0] &&
        (rc = clb_param_int(env, "local2", 0, 1L << 20, &sp->local2)))
        return rc;
    if ((rc = clb_param_int(env, "driver_copy", 0, 1, &sp->driver_copy)) ||
        (rc = clb_param_names(env, "kernels", "copy,scale,add,triad", 1, &sp->kernels)) ||
        (rc = clb_param_names(env, "init", "host,device", 0, &init)))
        return rc;
    if ((rc = clb_param_ints(env, "nt", 0, 1, sp->nts, 2, &sp->nnt)))
        return rc;
    if (init != 1 && init != 2)
        return clb_eusage("stream: parameter init: one of host, device");
    sp->init_device = init == 2;
    if (clb_param(env, "vec")[0] && (rc = clb_param_ints(env, "vec", 1, 8, sp->vecs, 8, &sp->nvec)))
        return rc;
    if ((rc = clb_param_ints(env, "ilp", 1, 8, sp->ilps, 8, &sp->nilp)) ||
        (rc = check_pow2s(sp->vecs, sp->nvec, "vec")) ||
        (rc = check_pow2s(sp->ilps, sp->nilp, "ilp")))
        return rc;
    sp->locals[0] = strcmp(env->info->type_name, "gpu") == 0 ? 256 : 0;
    if (clb_param(env, "local")[0])
        return clb_param_ints(env, "local", 0, 1L << 20, sp->locals, 16, &sp->nloc);
    return CLB_OK;
}

/* The cases, enumerated once: per (vec, ilp, nt, local) the selected
 * kernels (add and triad once, at local2, where it is given), then the
 * driver's copy. Set-up adds them; the plan counts them (out NULL: counted
 * only). */
static int cases(const struct shapes *sp, struct shape *out)
{
    int n = 0, nshape = sp->nvec * sp->nilp * sp->nnt * sp->nloc;
    for (int i = 0; i < nshape; i++) { /* vec, then ilp, then nt, then local */
        int l = i % sp->nloc, t = i / sp->nloc % sp->nnt;
        int il = i / (sp->nloc * sp->nnt) % sp->nilp, v = i / (sp->nloc * sp->nnt * sp->nilp);
        for (int k = 0; k < DRIVER; k++) {
            int two_inputs = k == ADD || k == TRIAD;
            if (!(sp->kernels >> k & 1) || (two_inputs && sp->local2 >= 0 && l > 0))
                continue; /* not selected; one add and one triad at local2 */
            long local = two_inputs && sp->local2 >= 0 ? sp->local2 : sp->locals[l];
            if (out)
                out[n] = (struct shape){k, sp->vecs[v], sp->ilps[il], (size_t)local,
                                        (int)sp->nts[t]};
            n++;
        }
    }
    if (sp->driver_copy && out)
        out[n] = (struct shape){DRIVER, 0, 0, 0, 0};
    return n + (sp->driver_copy != 0);
}

/* The cases of cases(), each built and fitted as it is added. */
static int add_cases(struct clb_env *env, struct clb_group *g, const struct shapes *sp,
                     const char *note)
{
    int n = cases(sp, NULL), rc = CLB_OK;
    struct shape *cs = calloc((size_t)n + 1, sizeof *cs);
    if (!cs)
        return CLB_ESYS;
    cases(sp, cs);
    for (int i = 0; i < n && !rc; i++)
        rc = add_case(env, g, g->state, cs[i], cs[i].k == DRIVER ? "" : note);
    free(cs);
    return rc;
}

/* init=device: a kernel writes every element of a, b and c first, so that
 * the device's own threads touch the pages (on a CPU: which core's memory
 * and caches hold them), as BabelStream's init_arrays does; the host's data
 * is written over it after. */
static int device_init(struct clb_env *env, struct stream *st, const char *dtype)
{
    struct shape sh = {COPY, 1, 1, 0, 0};
    char opts[160];
    options(dtype, &sh, opts, sizeof opts);
    cl_kernel k;
    int rc = clb_kernel(env->dev, "stream", opts, "init", &k);
    if (rc)
        return rc;
    cl_ulong n = st->n;
    size_t global = st->n;
    rc = clb_args(k, sizeof(cl_mem), &st->d[0], sizeof(cl_mem), &st->d[1], sizeof(cl_mem),
                  &st->d[2], sizeof n, &n, (size_t)0);
    if (!rc)
        rc = clb_launch(env->dev, k, 1, &global, NULL, NULL);
    if (!rc)
        rc = clb_finish(env->dev->queue);
    clReleaseKernel(k);
    return rc;
}

/* Does the compiler have streaming stores? Built with -DNT=1, stream.cl
 * defines the kernel nt_stores only where it does. */
static int probe_nt(struct clb_env *env, const char *dtype, int *have)
{
    struct shape sh = {COPY, 1, 1, 0, 1};
    char opts[160];
    options(dtype, &sh, opts, sizeof opts);
    cl_program p;
    size_t len = 0;
    int rc = clb_program(env->dev, "stream", opts, &p);
    if (rc)
        return rc;
    CLB_CHECK(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &len), "clGetProgramInfo");
    char *names = clb_xmalloc(len + 2);
    if (!names)
        return CLB_ESYS;
    names[0] = ';'; /* ";copy;scale;...;": a name is found whole */
    cl_int err = clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, len, names + 1, NULL);
    names[len] = ';';
    names[len + 1] = 0;
    *have = err == CL_SUCCESS && strstr(names, ";nt_stores;") != NULL;
    free(names);
    CLB_CHECK(err, "clGetProgramInfo");
    return CLB_OK;
}

/* nt=1 asked: does the compiler have streaming stores? (st->have_nt) */
static int check_nt(struct clb_env *env, const char *dtype, struct stream *st,
                    const struct shapes *sp)
{
    for (int t = 0; t < sp->nnt; t++)
        if (sp->nts[t] == 1)
            return probe_nt(env, dtype, &st->have_nt);
    return CLB_OK;
}

static int setup(struct clb_env *env, struct clb_group *g)
{
    struct stream *st = g->state;
    st->dbl = clb_dtype_is_double(g->dtype);
    st->esize = clb_dtype_size(g->dtype);
    st->n = g->size.total;
    size_t bytes = st->n * st->esize; /* counted (overflow-checked) by the core */

    struct shapes sp;
    int rc;
    if ((rc = read_shapes(env, &sp)) || (rc = check_nt(env, g->dtype, st, &sp)))
        return rc;
    for (int i = 0; i < 3; i++) {
        if (!(st->h[i] = clb_xmalloc(bytes)))
            return CLB_ESYS;
        if ((rc = clb_buffer(env->dev, i < 2 ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE, bytes,
                             &st->d[i])))
            return rc;
    }
    clb_fill(st->h[0], st->n, st->dbl, 1);
    clb_fill(st->h[1], st->n, st->dbl, 2);
    st->init_device = sp.init_device;
    if ((st->init_device && (rc = device_init(env, st, g->dtype))) ||
        (rc = clb_write(env->dev, st->d[0], st->h[0], bytes)) ||
        (rc = clb_write(env->dev, st->d[1], st->h[1], bytes)))
        return rc;

    struct clb_buf note = {0};
    if (sp.nvec == 0) {
        struct shape probe = {COPY, 4, sp.ilps[0], (size_t)sp.locals[0], (int)sp.nts[0]};
        long best = 4;
        rc = probe_vec(env, st, g->dtype, probe, &best, &note);
        sp.vecs[sp.nvec++] = best;
    }
    if (!rc)
        rc = add_cases(env, g, &sp, clb_buf_str(&note));
    clb_buf_free(&note);
    return rc;
}

/* ---- measuring ---------------------------------------------------------- */

static int prepare(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    (void)c;
    struct stream *st = g->state;
    return clb_poison(env->dev, st->d[2], st->n * st->esize);
}

static int run(struct clb_env *env, struct clb_group *g, struct clb_case *c, struct clb_sample *s)
{
    struct stream *st = g->state;
    const struct shape *sh = c->data;
    if (sh->k == DRIVER) {
        CLB_CHECK(clEnqueueCopyBuffer(env->dev->queue, st->d[0], st->d[2], 0, 0,
                                      st->n * st->esize, 0, NULL, &s->first),
                  "clEnqueueCopyBuffer");
        return CLB_OK;
    }
    return launch(env, st, sh, &s->first);
}

/* Element i of host array h (a, b, c) as a double. */
static double elem(const struct stream *st, int h, long i)
{
    return st->dbl ? ((const double *)st->h[h])[i] : ((const float *)st->h[h])[i];
}

/* Copy and scale and add are exact (one rounding at most, the same on host
 * and device); triad may be contracted to an FMA, so it gets 2 ulps. */
static int verify(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct stream *st = g->state;
    int rc = clb_read(env->dev, st->d[2], st->h[2], st->n * st->esize);
    if (rc)
        return rc;
    int k = ((const struct shape *)c->data)->k;
    if (k == COPY || k == DRIVER)
        return clb_check_exact(c, st->h[2], st->h[0], st->n, st->esize, st->esize);
    long bad = 0, first = -1;
    double eps = st->dbl ? DBL_EPSILON : FLT_EPSILON;
#pragma omp parallel for reduction(+ : bad) schedule(static)
    for (long i = 0; i < (long)st->n; i++) {
        double a = elem(st, 0, i), b = elem(st, 1, i), got = elem(st, 2, i), ref, tol;
        switch (k) {
        case SCALE:
            ref = st->dbl ? SCALAR * a : (double)((float)SCALAR * (float)a);
            tol = eps * fabs(ref);
            break;
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
    CLB_RELEASE_KERNELS(st->k);
    CLB_RELEASE_MEMS(st->d);
    for (int i = 0; i < 3; i++)
        free(st->h[i]);
}

/* The cases setup will add (cases(), with the probe's one width where vec
 * is not given). */
static int plan(struct clb_env *env, const char *dtype, const struct clb_size *size)
{
    (void)dtype;
    (void)size;
    struct shapes sp;
    if (read_shapes(env, &sp))
        return -1;
    if (sp.nvec == 0)
        sp.vecs[sp.nvec++] = 4; /* the probe's pick, whichever: one width */
    return cases(&sp, NULL);
}

/* ---- ceilings ------------------------------------------------------------ */

/* The best copy and triad rows that left the caches behind: the measured
 * memory bandwidth (and triad's, which the dslash model reads). */
static int ceilings(const struct clb_row *rows, size_t n, struct clb_ceiling *out, int max)
{
    const struct clb_row *best[2] = {NULL, NULL}; /* copy, triad */
    for (size_t i = 0; i < n; i++) {
        const struct clb_row *r = &rows[i];
        int k = strcmp(r->kernel, "copy") == 0 ? 0 : strcmp(r->kernel, "triad") == 0 ? 1 : -1;
        if (k < 0 || isnan(r->gbps) || clb_row_flag(r, "cache_resident"))
            continue;
        if (!best[k] || r->gbps > best[k]->gbps)
            best[k] = r;
    }
    int m = 0;
    for (int k = 0; k < 2; k++)
        for (int t = 0; t <= k && best[k] && m < max; t++) {
            out[m] = (struct clb_ceiling){t ? CLB_CEIL_TRIAD : CLB_CEIL_BW, best[k]->gbps, NAN,
                                          NAN, best[k], "", ""};
            snprintf(out[m].what, sizeof out[0].what, "stream %s", best[k]->kernel);
            snprintf(out[m++].note, sizeof out[0].note, "%s %s", best[k]->dtype, best[k]->params);
        }
    return m;
}

/* Its figure of the headline: triad, the measured bandwidth ceiling. */
static const struct clb_headline headline[] = {
    {"stream triad", "triad", NULL, CLB_CEIL_TRIAD, 1}, {0}};

const struct clb_workload clb_wl_stream = {
    .name = "stream",
    .summary = "BabelStream copy, scale, add, triad: the device's bandwidth ceiling",
    .dtypes = "float,double",
    .default_dtypes = "float,double",
    .params = params,
    .row_keys = row_keys,
    .size_help = "elements per array N, e.g. 2^28, 64M (default: each array >= 4x the last-level "
                 "cache, 1 GiB on GPUs, 64 MiB on CPUs)",
    .size_dims = 1,
    /* three arrays, each >= 4 x LLC and >= 1 GiB (GPUs) / 64 MiB (CPUs) */
    .sizes = {.quick = "1048576", .llc_times = 12, .floor_mib = {192, 3072}},
    .state_size = sizeof(struct stream),
    .case_size = sizeof(struct shape),
    CLB_STEPS,
    .plan = plan,
    .prepare = prepare,
    .ceilings = ceilings,
    .figure = {.order = "copy,scale,add,triad"},
    .ceiling_kinds = 1u << CLB_CEIL_BW | 1u << CLB_CEIL_TRIAD,
    .ceiling_rows = "copy or triad rows that are not cache-resident",
    .headline = headline,
};

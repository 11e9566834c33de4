/* dot: the dot product of the host-transfer article [DotArticle]. A reduction is cheap;
 * where the vectors start in host memory the bus decides, and the CPU may do
 * better than the device. Kernels device (vectors on the device), host (from
 * pinned host memory over several queues), hybrid (host plus the CPU), their
 * *_sumsq (x = y), cpu1 and cpu; each result checked against a compensated
 * reference (dot.h). What each runs, its bytes and timing, and why host and
 * hybrid create their queues at set-up where the article's reduce() does in
 * every timed call: docs/workloads/dot.md. */
#include "clb_workload.h"
#include "clb_fit.h"
#include "dot.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

enum kind { K_DEVICE, K_HOST, K_HYBRID, K_CPU1, K_CPU, NKINDS };
static const char *const kind_names[NKINDS] = {"device", "host", "hybrid", "cpu1", "cpu"};
enum { SPLIT_POW2, SPLIT_AUTO };
#define MAX_QUEUES 1024
/* Every kernel, in the order of kernels= (bit i of its mask). */
static const char *const all_kernels =
    "device,host,hybrid,device_sumsq,host_sumsq,hybrid_sumsq,cpu1,cpu";
enum { KM_DEVICE = 1 << 0, KM_HOST = 1 << 1, KM_HYBRID = 1 << 2, KM_DEVICE_SQ = 1 << 3,
       KM_HOST_SQ = 1 << 4, KM_HYBRID_SQ = 1 << 5, KM_CPU1 = 1 << 6, KM_CPU = 1 << 7 };
#define KM_DEV_PATH (KM_DEVICE | KM_DEVICE_SQ)
#define KM_HOST_PATH (KM_HOST | KM_HYBRID | KM_HOST_SQ | KM_HYBRID_SQ)
/* The default grid (groups=0) follows the compute units, which a count
 * cannot see: its partials are counted as this many groups, more than any
 * default (16 per CPU core, 4 per GPU compute unit). */
#define DEFAULT_GROUPS_BOUND 65536

/* One row: which kernel, on which share of the vectors. */
struct dot_case {
    enum kind k;
    int sumsq;
    int split;              /* hybrid: SPLIT_POW2 or SPLIT_AUTO */
    long groups;            /* device: work-groups */
    size_t n_dev;           /* host/hybrid: elements the device reduces (auto: calibrated) */
};

static const struct clb_param_def params[] = {
    {"queues", "64", "host/hybrid: most in-order queues (the article's MAX_STREAMS), 1..1024",
     CLB_ROLE_TUNING},
    {"min_chunk", "4096", "host/hybrid: fewest elements per queue (MIN_N_PER_STREAM_SIZE)",
     CLB_ROLE_TUNING},
    {"max_groups", "32", "host/hybrid: most work-groups per chunk (MAX_BLOCKS_PER_STREAM)",
     CLB_ROLE_TUNING},
    {"local_size", "1024", "host/hybrid: work-group size (THREADS_PER_BLOCK), clamped to the "
                           "device's limits with a note", CLB_ROLE_TUNING},
    {"split", "pow2,auto", "hybrid: pow2 (device takes the largest power of two <= N) and/or "
                           "auto (shares from measured rates)", CLB_ROLE_CASE},
    {"groups", "0", "device: work-groups, a list (one row each; 0 = from the compute units: "
                    "4 per CU on GPUs, 2 when the kernel allows < 1024 work-items; 16 per core "
                    "on CPUs)", CLB_ROLE_TUNING},
    {"access", "auto", "device loop: strided (coalesced, GPUs), blocked (contiguous per "
                       "work-item, CPUs) or auto (by device type)", CLB_ROLE_TUNING},
    {"kernels", "", "subset to run, e.g. device,cpu (default: all)", CLB_ROLE_CASE},
    {0, 0, 0, 0}};

struct dot {
    int dbl, blocked;
    size_t n, es;
    cl_mem px, py;          /* pinned host vectors (CL_MEM_ALLOC_HOST_PTR) ... */
    void *hx, *hy;          /* ... and their mapped pointers */
    cl_mem dx, dy, dpart, dout;   /* the device kernels' vectors and partials */
    cl_kernel kdot, ksq, ksum;
    size_t dev_local, dev_groups;  /* dev_groups: the most of glist (partials) */
    struct clb_fit dev_fit;        /* how dev_local was fitted */
    long glist[8];          /* groups= values, 0 replaced by the default */
    int ng;
    /* host path: one queue, chunk buffers and partials per queue */
    cl_command_queue q[MAX_QUEUES];
    cl_mem cx[MAX_QUEUES], cy[MAX_QUEUES], cpart[MAX_QUEUES];
    int nq;                 /* queues created */
    long queues, min_chunk, max_groups;
    size_t host_local, chunk_cap;
    long want_local;        /* local_size= as given */
    cl_mem ppart;           /* pinned host copies of the partials (a non-blocking */
    void *hpart;            /* read into pageable memory may block the enqueue loop) */
    char host_note[256];
    struct clb_dotref ref_dot, ref_sq;
    int have_ref_dot, have_ref_sq;
    double result;
    size_t depth;           /* roundings of the last host/hybrid run (see chain) */
};

/* ---- counts ---------------------------------------------------------------- */

static const char *const kernel_names[] = {"device", "host", "hybrid", "device_sumsq",
                                           "host_sumsq", "hybrid_sumsq", "cpu1", "cpu"};
#define NKERNEL_NAMES ((int)(sizeof kernel_names / sizeof *kernel_names))

static int kernel_index(const char *name)
{
    for (int k = 0; k < NKERNEL_NAMES; k++)
        if (strcmp(kernel_names[k], name) == 0)
            return k;
    return -1;
}

/* The group's device buffers: the pinned vectors; for device kernels the
 * device vectors, the partials and the result; for host/hybrid the chunk
 * buffers and partials of every queue and the pinned copy of the partials
 * (see setup_host_path). A group query sees --param only: a profile's
 * [tuning] dot.queues etc. is counted at the declared default. */
static int count_group(const struct clb_query *q, struct clb_counts *out)
{
    int ovf = 0;
    size_t n = q->size->total, es = clb_query_esize(q);
    size_t vec = clb_mulz(n, es, &ovf);
    unsigned mask = 0;
    const char *kl = clb_query_param(q, "kernels", "");
    for (int k = 0; k < NKERNEL_NAMES; k++)
        mask |= clb_list_has(kl, kernel_names[k]) ? 1u << k : 0;
    if (!mask)
        mask = ~0u; /* every kernel; or a list set-up refuses */
    size_t total = clb_mulz(vec, 2, &ovf), largest = vec;
    if (mask & KM_DEV_PATH) {
        long glist[8];
        char err[256];
        int ng = clb_parse_int_list(clb_query_param(q, "groups", "0"), 0, 1 << 20, glist, 8, err,
                                    sizeof err);
        size_t groups = ng > 0 ? 1 : DEFAULT_GROUPS_BOUND;
        for (int i = 0; i < ng; i++) {
            size_t gi = glist[i] ? (size_t)glist[i] : DEFAULT_GROUPS_BOUND;
            groups = gi > groups ? gi : groups;
        }
        size_t part = clb_mulz(groups, es, &ovf);
        total = clb_addz(clb_addz(total, clb_mulz(vec, 2, &ovf), &ovf), clb_addz(part, es, &ovf),
                         &ovf);
        largest = part > largest ? part : largest;
    }
    if (mask & KM_HOST_PATH) {
        size_t queues = (size_t)clb_query_long(q, "queues", 1, MAX_QUEUES, 64);
        size_t mc = (size_t)clb_query_long(q, "min_chunk", 1, 1L << 40, 4096);
        size_t mg = (size_t)clb_query_long(q, "max_groups", 1, 1 << 16, 32);
        size_t k = n / mc;
        k = k < 1 ? 1 : k > queues ? queues : k;
        size_t per = n / queues + (n % queues != 0);
        size_t cap = clb_addz(per > 2 * mc ? per : 2 * mc, 4, &ovf);
        size_t chunk = clb_mulz(cap < n ? cap : n, es, &ovf), part = clb_mulz(mg, es, &ovf);
        size_t per_queue = clb_addz(clb_mulz(chunk, 2, &ovf), part, &ovf);
        size_t ppart = clb_mulz(k, part, &ovf);
        total = clb_addz(total, clb_addz(clb_mulz(k, per_queue, &ovf), ppart, &ovf), &ovf);
        largest = ppart > largest ? ppart : largest;
    }
    return clb_count_done(q, ovf, out, total, 0, total, largest, CLB_UNIT_GBPS);
}

/* A case: x and y read once (x alone for *_sumsq), a multiply-add per
 * element. host, hybrid, cpu1 and cpu are host work. */
static int count(const struct clb_query *q, struct clb_counts *out)
{
    if (!clb_query_esize(q))
        return clb_eusage("dot types are float and double, not '%s'", q->dtype);
    if (!q->kernel)
        return count_group(q, out);
    int k = kernel_index(q->kernel);
    if (k < 0)
        return clb_eusage("unknown dot kernel '%s' (known: %s)", q->kernel, all_kernels);
    int ovf = 0;
    size_t n = q->size->total;
    size_t vec = clb_mulz(n, clb_query_esize(q), &ovf);
    int sumsq = strstr(q->kernel, "_sumsq") != NULL;
    size_t bytes = clb_mulz(vec, sumsq ? 1 : 2, &ovf);
    size_t flops = clb_mulz(n, 2, &ovf);
    out->host_bound = !((1u << k) & KM_DEV_PATH);
    return clb_count_done(q, ovf, out, bytes, flops, 0, vec, CLB_UNIT_GBPS);
}

/* Default sizes: powers of two up to 2^28 elements per vector, clbench's
 * choice (GPUs always take the largest that fits; see .sizes). The article
 * quotes its AVX throughput "at array sizes of 268M elements" (2^28) without
 * saying per vector; its largest size per vector is not taken from it. */
static int ladder(int i, char *out, size_t n)
{
    if (i > 22)
        return 0;
    snprintf(out, n, "%llu", 1ULL << (6 + i));
    return 1;
}

/* ---- OpenCL pieces --------------------------------------------------------- */

static void unpin(struct clb_env *env, cl_mem buf, void *ptr)
{
    if (buf && ptr && clEnqueueUnmapMemObject(env->dev->queue, buf, ptr, 0, NULL, NULL) ==
                          CL_SUCCESS)
        clFinish(env->dev->queue);
    clb_release_mems(&buf, 1);
}

/* ---- setup --------------------------------------------------------------- */

/* kdot and ksq are built (setup). */
static int setup_device_kernel(struct clb_env *env, struct dot *st, const char *opts)
{
    int rc = clb_kernel(env->dev, "dot", opts, "sum_partials", &st->ksum);
    if (rc)
        return rc;
    int gpu = strcmp(env->info->type_name, "gpu") == 0;
    /* one T of local memory a work-item, in each of the three kernels */
    cl_kernel all[3] = {st->kdot, st->ksq, st->ksum};
    st->dev_fit = (struct clb_fit){.what = "device work-group"};
    if ((rc = clb_fit_items(env, all, 3, gpu ? 256 : 16, st->es, 0, &st->dev_local,
                            &st->dev_fit)))
        return rc;
    struct clb_wg_limit w1, w2;
    if ((rc = clb_wg_limit(env, st->kdot, &w1)) || (rc = clb_wg_limit(env, st->ksq, &w2)))
        return rc;
    /* GPUs: every group resident at once (4 per CU where the kernel allows
     * 1024 work-items, else 2); CPUs: 16 per core, for the runtime to
     * balance (docs/workloads/dot.md, on `device`). */
    long groups = (long)env->info->compute_units *
                  (gpu ? ((w1.items < w2.items ? w1.items : w2.items) >= 1024 ? 4 : 2) : 16);
    if (groups < 1)
        groups = 1;
    if (st->ng == 0)
        st->glist[st->ng++] = 0;
    st->dev_groups = 1;
    for (int i = 0; i < st->ng; i++) {
        if (st->glist[i] == 0)
            st->glist[i] = groups;
        if ((size_t)st->glist[i] > st->dev_groups)
            st->dev_groups = (size_t)st->glist[i];
    }
    size_t bytes = st->n * st->es;
    if ((rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, bytes, &st->dx)) ||
        (rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, bytes, &st->dy)) ||
        (rc = clb_buffer(env->dev, CL_MEM_READ_WRITE, st->dev_groups * st->es, &st->dpart)) ||
        (rc = clb_buffer(env->dev, CL_MEM_READ_WRITE, st->es, &st->dout)) ||
        (rc = clb_write(env->dev, st->dx, st->hx, bytes)) ||
        (rc = clb_write(env->dev, st->dy, st->hy, bytes)))
        return rc;
    return CLB_OK;
}

/* Queues and per-queue buffers large enough for any device share of n (the
 * chunk rule of clb_dot_chunks: at most max(n/queues, 2*min_chunk) + 4). */
static int setup_host_path(struct clb_env *env, struct dot *st)
{
    cl_kernel both[2] = {st->kdot, st->ksq};
    struct clb_fit fit = {.what = "local_size"};
    int rc = clb_fit_items(env, both, 2, (size_t)st->want_local, st->es, 0, &st->host_local, &fit);
    if (rc)
        return rc;
    if (fit.reduced)
        snprintf(st->host_note, sizeof st->host_note, "local_size %ld clamped to %zu (%s)",
                 st->want_local, st->host_local, fit.why);
    size_t n = st->n, mc = (size_t)st->min_chunk;
    size_t k = n / mc;
    k = k < 1 ? 1 : k > (size_t)st->queues ? (size_t)st->queues : k;
    size_t per = (n + (size_t)st->queues - 1) / (size_t)st->queues;
    size_t cap = (per > 2 * mc ? per : 2 * mc) + 4;
    st->chunk_cap = cap < n ? cap : n;
    size_t pbytes = (size_t)st->max_groups * st->es; /* the group's count checked them all */
    if ((rc = clb_pinned(env, k * pbytes, "pinned", &st->ppart, &st->hpart)))
        return rc;
    for (size_t i = 0; i < k; i++) {
        cl_int err;
        st->q[i] = clCreateCommandQueue(env->dev->ctx, env->info->device, 0, &err);
        if (err != CL_SUCCESS)
            return clb_err(CLB_ECL, "clCreateCommandQueue (queue %zu of %zu): %s", i + 1, k,
                                    clb_cl_errstr(err));
        st->nq = (int)i + 1;
        if ((rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, st->chunk_cap * st->es, &st->cx[i])) ||
            (rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, st->chunk_cap * st->es, &st->cy[i])) ||
            (rc = clb_buffer(env->dev, CL_MEM_READ_WRITE, pbytes, &st->cpart[i])))
            return rc;
    }
    return CLB_OK;
}

static int read_params(struct clb_env *env, struct dot *st, unsigned *kernels, unsigned *splits)
{
    int rc;
    /* every parameter is checked before anything is allocated */
    if ((rc = clb_param_names(env, "kernels", all_kernels, 1, kernels)) ||
        (rc = clb_param_names(env, "split", "pow2,auto", 0, splits)) ||
        (rc = clb_param_int(env, "queues", 1, MAX_QUEUES, &st->queues)) ||
        (rc = clb_param_int(env, "min_chunk", 1, 1L << 40, &st->min_chunk)) ||
        (rc = clb_param_int(env, "max_groups", 1, 1 << 16, &st->max_groups)) ||
        (rc = clb_param_int(env, "local_size", 1, 1L << 30, &st->want_local)) ||
        (rc = clb_param_ints(env, "groups", 0, 1 << 20, st->glist, 8, &st->ng)))
        return rc;
    const char *acc = clb_param(env, "access");
    if (strcmp(acc, "auto") && strcmp(acc, "strided") && strcmp(acc, "blocked"))
        return clb_eusage("dot: bad access '%s' (accepted: auto, strided, blocked)", acc);
    st->blocked = strcmp(acc, "auto") ? strcmp(acc, "blocked") == 0
                                      : strcmp(env->info->type_name, "cpu") == 0;
    return CLB_OK;
}

/* The cases, enumerated once: for dot then sum of squares, device once
 * per groups= value, host, hybrid once per split; then the CPU baselines.
 * Set-up adds them; the plan counts them. */
#define MAX_CASES (2 * (8 + 1 + 2) + 2)

static int cases(unsigned km, unsigned splits, const long *glist, int ng,
                 struct dot_case out[MAX_CASES])
{
    int n = 0;
    for (int sq = 0; sq < 2; sq++) {
        for (int i = 0; i < ng && (km & (sq ? KM_DEVICE_SQ : KM_DEVICE)); i++)
            out[n++] = (struct dot_case){K_DEVICE, sq, 0, glist[i], 0};
        if (km & (sq ? KM_HOST_SQ : KM_HOST))
            out[n++] = (struct dot_case){K_HOST, sq, 0, 0, 0};
        for (int sp = 0; sp < 2; sp++)
            if ((km & (sq ? KM_HYBRID_SQ : KM_HYBRID)) && (splits & (1u << sp)))
                out[n++] = (struct dot_case){K_HYBRID, sq, sp, 0, 0};
    }
    if (km & KM_CPU1)
        out[n++] = (struct dot_case){K_CPU1, 0, 0, 0, 0};
    if (km & KM_CPU)
        out[n++] = (struct dot_case){K_CPU, 0, 0, 0, 0};
    return n;
}

/* A case of cases(): device once per grid of `groups` work-groups (in
 * params where --param or a profile gave them); host and hybrid with their
 * launch shape in params (rows of a sweep differ by it); cpu1, cpu. */
static int add_case(struct clb_env *env, struct clb_group *g, struct dot *st, struct dot_case dc)
{
    char name[48];
    snprintf(name, sizeof name, "%s%s", kind_names[dc.k], dc.sumsq ? "_sumsq" : "");
    const char *sp = dc.k != K_HYBRID ? "" : dc.split == SPLIT_AUTO ? "split=auto," : "split=pow2,";
    int given = strcmp(clb_param_origin(env, "groups"), "default") != 0;
    int hostlike = dc.k == K_HOST || dc.k == K_HYBRID;
    struct clb_case *c;
    int rc;
    if (dc.k == K_DEVICE && given)
        rc = clb_case_add(g, &c, name, "groups=%ld", dc.groups);
    else if (hostlike)
        rc = clb_case_add(g, &c, name, "%squeues=%ld,max_groups=%ld,min_chunk=%ld", sp,
                          st->queues, st->max_groups, st->min_chunk);
    else
        rc = clb_case_add(g, &c, name, NULL);
    if (rc)
        return rc;
    if (dc.k != K_DEVICE)
        dc.n_dev = dc.k == K_HYBRID && dc.split == SPLIT_POW2 ? clb_dot_pow2(st->n) : st->n;
    *(struct dot_case *)c->data = dc;
    if (dc.k == K_DEVICE) {
        c->dims = 1;
        c->global[0] = (size_t)dc.groups * st->dev_local;
        c->local[0] = st->dev_local;
        clb_case_note(c, "%ld groups x %zu, %s", dc.groups, st->dev_local,
                      st->blocked ? "blocked" : "strided");
        clb_fit_note(c, &st->dev_fit);
    }
    if (dc.k == K_CPU1)
        clb_case_note(c, "1 thread");
    if (dc.k == K_CPU)
        clb_case_note(c, "%d threads", omp_get_max_threads());
    if (hostlike && st->host_note[0]) { /* the host path's local_size clamped to fit: what ran */
        clb_case_note(c, "%s", st->host_note);
        clb_case_metric(c, "reduced", 1);
    }
    return CLB_OK;
}

/* The cases of cases(). */
static int add_cases(struct clb_env *env, struct clb_group *g, struct dot *st, unsigned km,
                     unsigned splits)
{
    struct dot_case cs[MAX_CASES];
    int n = cases(km, splits, st->glist, st->ng, cs), rc = CLB_OK;
    for (int i = 0; i < n && rc == CLB_OK; i++)
        rc = add_case(env, g, st, cs[i]);
    return rc;
}

static int setup(struct clb_env *env, struct clb_group *g)
{
    struct dot *st = g->state;
    st->dbl = clb_dtype_is_double(g->dtype);
    st->es = clb_dtype_size(g->dtype);
    st->n = g->size.total;
    unsigned km, splits;
    int rc = read_params(env, st, &km, &splits);
    if (rc)
        return rc;
    size_t bytes = st->n * st->es; /* counted (overflow-checked) by the core */
    /* pinned host vectors: ALLOC_HOST_PTR buffers mapped for the whole group */
    if ((rc = clb_pinned(env, bytes, "pinned", &st->px, &st->hx)) ||
        (rc = clb_pinned(env, bytes, "pinned", &st->py, &st->hy)))
        return rc;
    clb_fill(st->hx, st->n, st->dbl, 11);
    clb_fill(st->hy, st->n, st->dbl, 12);
    char opts[160]; /* the one program of the group */
    clb_dtype_defines(g->dtype, opts, sizeof opts);
    clb_appendf(opts, sizeof opts, " -DBLOCKED=%d", st->blocked);
    if ((km & (KM_DEV_PATH | KM_HOST_PATH)) &&
        ((rc = clb_kernel(env->dev, "dot", opts, "dot_partial", &st->kdot)) ||
         (rc = clb_kernel(env->dev, "dot", opts, "sumsq_partial", &st->ksq))))
        return rc;
    if ((km & KM_DEV_PATH) && (rc = setup_device_kernel(env, st, opts)))
        return rc;
    if ((km & KM_HOST_PATH) && (rc = setup_host_path(env, st)))
        return rc;
    return add_cases(env, g, st, km, splits);
}

/* ---- accuracy: how many roundings a product goes through ----------------- */

static size_t log2_ceil(size_t v)
{
    size_t l = 0;
    while (((size_t)1 << l) < v)
        l++;
    return l;
}

/* One partial-sum kernel over `elems` elements with `items` work-items in
 * groups of L: the longest loop in one work-item (vectors per item), the tree
 * of the group, and a few more (product, the two accumulators, the
 * horizontal sum of the vector, the tail). */
static size_t chain(size_t elems, size_t items, size_t L)
{
    size_t nv = elems / 4;
    return (nv + items - 1) / (items ? items : 1) + log2_ceil(L) + 8;
}

/* ---- the host path (host, hybrid) ---------------------------------------- */

/* Enqueue the device share [0, n_dev): per chunk, on its own queue, upload x
 * (and y), reduce it, read the partials back; each queue is flushed at once
 * so that its transfers overlap the kernels of the queues before it. */
static int enqueue_chunks(struct dot *st, size_t n_dev, int sumsq, int *nchunks, size_t *groups)
{
    size_t off[MAX_QUEUES + 1];
    int k = clb_dot_chunks(n_dev, st->queues, st->min_chunk, off);
    *nchunks = k;
    if (k > st->nq)
        return clb_err(CLB_ESYS, "dot: %d chunks but %d queues (internal error)", k, st->nq);
    size_t es = st->es, L = st->host_local;
    for (int i = 0; i < k; i++) {
        size_t len = off[i + 1] - off[i];
        groups[i] = 0;
        if (len == 0)
            continue;
        if (len > st->chunk_cap)
            return clb_err(CLB_ESYS, "dot: chunk of %zu > %zu elements (internal error)", len,
                                     st->chunk_cap);
        size_t gr = (len / 4 + L - 1) / L;
        gr = gr < 1 ? 1 : gr > (size_t)st->max_groups ? (size_t)st->max_groups : gr;
        groups[i] = gr;
        size_t depth = chain(len, gr * L, L);
        if (depth > st->depth)
            st->depth = depth;
        cl_command_queue q = st->q[i];
        CLB_CHECK(clEnqueueWriteBuffer(q, st->cx[i], CL_FALSE, 0, len * es,
                                       (char *)st->hx + off[i] * es, 0, NULL, NULL),
                  "clEnqueueWriteBuffer (chunk of x)");
        if (!sumsq)
            CLB_CHECK(clEnqueueWriteBuffer(q, st->cy[i], CL_FALSE, 0, len * es,
                                           (char *)st->hy + off[i] * es, 0, NULL, NULL),
                      "clEnqueueWriteBuffer (chunk of y)");
        cl_ulong ln = len;
        int rc = sumsq ? clb_args(st->ksq, sizeof(cl_mem), &st->cx[i], sizeof(cl_mem),
                                  &st->cpart[i], L * es, NULL, sizeof ln, &ln, (size_t)0)
                       : clb_args(st->kdot, sizeof(cl_mem), &st->cx[i], sizeof(cl_mem),
                                  &st->cy[i], sizeof(cl_mem), &st->cpart[i], L * es, NULL,
                                  sizeof ln, &ln, (size_t)0);
        if (rc)
            return rc;
        size_t global = gr * L;
        CLB_CHECK(clEnqueueNDRangeKernel(q, sumsq ? st->ksq : st->kdot, 1, NULL, &global, &L, 0,
                                         NULL, NULL),
                  "clEnqueueNDRangeKernel (chunk)");
        CLB_CHECK(clEnqueueReadBuffer(q, st->cpart[i], CL_FALSE, 0, gr * es,
                                      (char *)st->hpart + (size_t)i * st->max_groups * es, 0,
                                      NULL, NULL),
                  "clEnqueueReadBuffer (partials)");
        CLB_CHECK(clFlush(q), "clFlush");
    }
    return CLB_OK;
}

/* One host or hybrid run: the device reduces [0, n_dev) through the queues
 * while this thread's OpenMP team reduces [n_dev, n). *t_cpu (if given): the
 * seconds until the CPU share was done. Every queue is finished on every
 * path, so no command outlives a failed run. */
static int run_hostlike(struct dot *st, size_t n_dev, int sumsq, double *t_cpu)
{
    double t0 = clb_now();
    int k = 0;
    size_t groups[MAX_QUEUES];
    /* the CPU share: blocks summed in T, block sums in double */
    st->depth = n_dev < st->n ? CLB_DOT_BLOCK + 8 : 0;
    int rc = n_dev ? enqueue_chunks(st, n_dev, sumsq, &k, groups) : CLB_OK;
    double total = 0;
    if (rc == CLB_OK && n_dev < st->n) {
        const char *x = (const char *)st->hx + n_dev * st->es;
        const char *y = sumsq ? x : (const char *)st->hy + n_dev * st->es;
        total = clb_dot_cpu(x, y, st->n - n_dev, st->dbl, 0);
    }
    if (t_cpu)
        *t_cpu = clb_now() - t0;
    /* every queue was flushed: clb_finish, not clFinish (Rusticl) */
    for (int i = 0; i < st->nq; i++) {
        if (clb_finish(st->q[i]) != CLB_OK && rc == CLB_OK)
            rc = clb_err(CLB_ECL, "queue %d: %s", i + 1, clb_lasterr());
    }
    if (rc)
        return rc;
    for (int i = 0; i < k; i++)
        for (size_t g = 0; g < groups[i]; g++) {
            size_t j = (size_t)i * (size_t)st->max_groups + g;
            total += st->dbl ? ((const double *)st->hpart)[j] : ((const float *)st->hpart)[j];
        }
    st->result = total;
    return CLB_OK;
}

/* Elements the device takes for a share in [0, 1] (a multiple of 4 below n). */
static size_t dev_elems(double share, size_t n)
{
    if (share >= 1)
        return n;
    if (!(share > 0))
        return 0;
    return (size_t)(share * (double)n) & ~(size_t)3;
}

/* The fastest of `reps` hybrid runs with n_dev elements on the device:
 * its time and the time its CPU share took. */
static int timed_hostlike(struct dot *st, size_t n_dev, int sq, int reps, double *t, double *tc)
{
    *t = INFINITY;
    *tc = 0;
    for (int r = 0; r < reps; r++) {
        double tcpu, t0 = clb_now();
        int rc = run_hostlike(st, n_dev, sq, &tcpu);
        if (rc)
            return rc;
        double dt = clb_now() - t0;
        if (dt < *t) {
            *t = dt;
            *tc = tcpu;
        }
    }
    return CLB_OK;
}

/* split=auto: rates of each side alone (all on the device, all on the CPU;
 * best of 3 after a warm-up), then up to four concurrent runs (best of 2),
 * each updating the rates from what it measured: the CPU's from its own
 * finishing time, the device's when it finished last (both share the host's
 * memory bandwidth, so concurrent rates are lower than alone). The fastest
 * split measured, the two ends included, is kept (under MPI rank 0's, so
 * that every rank runs one configuration). */
static int calibrate(struct clb_env *env, struct dot *st, struct clb_case *c)
{
    struct dot_case *dc = c->data;
    int sq = dc->sumsq, rc;
    size_t n = st->n;
    double t_dev = 0, t_cpu = 0, tc = 0;
    if ((rc = run_hostlike(st, n, sq, NULL)) || (rc = timed_hostlike(st, n, sq, 3, &t_dev, &tc)) ||
        (rc = timed_hostlike(st, 0, sq, 3, &t_cpu, &tc)))
        return rc;
    double rd = (double)n / t_dev, rcpu = (double)n / t_cpu;
    double best_t = t_cpu < t_dev ? t_cpu : t_dev, best_share = t_cpu < t_dev ? 0 : 1;
    double share = clb_dot_share(rd, rcpu);
    int runs = 0;
    for (; runs < 4; runs++) {
        size_t nd = dev_elems(share, n);
        double t;
        if ((rc = timed_hostlike(st, nd, sq, 2, &t, &tc)))
            return rc;
        if (t < best_t) {
            best_t = t;
            best_share = share;
        }
        if (nd < n && tc > 0)
            rcpu = (double)(n - nd) / tc;
        if (nd > 0 && t > 1.02 * tc)
            rd = (double)nd / t;
        share = clb_dot_share(rd, rcpu);
    }
    if ((rc = clb_probe_decide(env, &best_share)))
        return rc;
    dc->n_dev = dev_elems(best_share, n);
    double bpe = (sq ? 1.0 : 2.0) * (double)st->es / 1e9;
    clb_case_note(c, "auto: alone device %.3g GB/s, cpu %.3g GB/s; %d concurrent splits tried",
                  (double)n / t_dev * bpe, (double)n / t_cpu * bpe, runs);
    return CLB_OK;
}

/* ---- steps ---------------------------------------------------------------- */

static int prepare(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct dot *st = g->state;
    const struct dot_case *dc = c->data;
    int rc;
    st->result = NAN;
    if (dc->k == K_DEVICE) {
        rc = clb_poison(env->dev, st->dout, st->es);
        return rc ? rc : clb_poison(env->dev, st->dpart, st->dev_groups * st->es);
    }
    if (dc->k != K_HOST && dc->k != K_HYBRID)
        return CLB_OK;
    if (dc->k == K_HYBRID && dc->split == SPLIT_AUTO && (rc = calibrate(env, st, c)))
        return rc;
    /* poisoned chunk buffers (after calibrating): a chunk that was never
     * uploaded shows */
    for (int i = 0; i < st->nq; i++)
        if ((rc = clb_poison(env->dev, st->cx[i], st->chunk_cap * st->es)) ||
            (rc = clb_poison(env->dev, st->cy[i], st->chunk_cap * st->es)))
            return rc;
    if (dc->k == K_HYBRID) {
        clb_case_note(c, "dev_share=%.4f", (double)dc->n_dev / (double)st->n);
        clb_case_metric(c, "dev_share", (double)dc->n_dev / (double)st->n);
    }
    return CLB_OK;
}

static int run_device(struct clb_env *env, struct dot *st, int sumsq, long groups,
                      struct clb_sample *s)
{
    cl_ulong n = st->n, m = (cl_ulong)groups;
    size_t L = st->dev_local, scratch = L * st->es, global = (size_t)groups * L;
    int rc = sumsq ? clb_args(st->ksq, sizeof(cl_mem), &st->dx, sizeof(cl_mem), &st->dpart,
                              scratch, NULL, sizeof n, &n, (size_t)0)
                   : clb_args(st->kdot, sizeof(cl_mem), &st->dx, sizeof(cl_mem), &st->dy,
                              sizeof(cl_mem), &st->dpart, scratch, NULL, sizeof n, &n, (size_t)0);
    if (rc || (rc = clb_launch(env->dev, sumsq ? st->ksq : st->kdot, 1, &global, &L, &s->first)))
        return rc;
    if ((rc = clb_args(st->ksum, sizeof(cl_mem), &st->dpart, sizeof(cl_mem), &st->dout, scratch,
                       NULL, sizeof m, &m, (size_t)0)))
        return rc;
    return clb_launch(env->dev, st->ksum, 1, &L, &L, &s->last);
}

static int run(struct clb_env *env, struct clb_group *g, struct clb_case *c, struct clb_sample *s)
{
    struct dot *st = g->state;
    const struct dot_case *dc = c->data;
    int sumsq = dc->sumsq, rc = CLB_OK;
    if (dc->k == K_DEVICE)
        return run_device(env, st, sumsq, dc->groups, s);
    double t0 = clb_now();
    if (dc->k == K_HOST || dc->k == K_HYBRID) /* host: n_dev = n */
        rc = run_hostlike(st, dc->n_dev, sumsq, NULL);
    else /* cpu1: one thread; cpu: all */
        st->result = clb_dot_cpu(st->hx, st->hy, st->n, st->dbl, dc->k == K_CPU1);
    s->seconds = clb_now() - t0;
    return rc;
}

static int verify(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct dot *st = g->state;
    const struct dot_case *dc = c->data;
    int sumsq = dc->sumsq;
    if (dc->k == K_DEVICE) {
        union { double d; float f; } v;
        int rc = clb_read(env->dev, st->dout, &v, st->es);
        if (rc)
            return rc;
        st->result = st->dbl ? v.d : (double)v.f;
    }
    struct clb_dotref *ref = sumsq ? &st->ref_sq : &st->ref_dot;
    int *have = sumsq ? &st->have_ref_sq : &st->have_ref_dot;
    if (!*have) {
        clb_dot_reference(st->hx, sumsq ? st->hx : st->hy, st->n, st->dbl, ref);
        *have = 1;
    }
    size_t depth = st->depth;
    if (dc->k == K_DEVICE) /* + the second pass: a loop over partials, a tree */
        depth = chain(st->n, (size_t)dc->groups * st->dev_local, st->dev_local) +
                ((size_t)dc->groups + st->dev_local - 1) / st->dev_local +
                log2_ceil(st->dev_local);
    else if (dc->k == K_CPU1 || dc->k == K_CPU)
        depth = CLB_DOT_BLOCK + 8;
    double err = fabs(st->result - ref->sum);
    double tol = clb_dot_tolerance(depth, st->dbl, ref->abs);
    double mag = fabs(ref->sum);
    clb_case_note(c, "relerr=%.2e bound=%.2e kappa=%.3g depth=%zu", err / mag, tol / mag,
                  ref->abs / mag, depth);
    clb_case_metric(c, "relerr", err / mag);
    clb_case_metric(c, "relerr_bound", tol / mag);
    if (!(err <= tol)) {
        clb_case_note(c, "result %.17g, reference %.17g: error above the bound", st->result,
                      ref->sum);
        return CLB_FAIL;
    }
    return CLB_OK;
}

static void teardown(struct clb_env *env, struct clb_group *g)
{
    struct dot *st = g->state;
    for (int i = 0; i < st->nq; i++) { /* queue i is set for every i < nq */
        clb_finish(st->q[i]);
        clReleaseCommandQueue(st->q[i]);
    }
    clb_release_mems(st->cx, (size_t)st->nq);
    clb_release_mems(st->cy, (size_t)st->nq);
    clb_release_mems(st->cpart, (size_t)st->nq);
    cl_kernel ks[] = {st->kdot, st->ksq, st->ksum};
    CLB_RELEASE_KERNELS(ks);
    cl_mem ms[] = {st->dx, st->dy, st->dpart, st->dout};
    CLB_RELEASE_MEMS(ms);
    unpin(env, st->px, st->hx);
    unpin(env, st->py, st->hy);
    unpin(env, st->ppart, st->hpart);
}

/* The ok row of a kernel (and params) for one type and size; NAN if none. */
static double row_gbps(const struct clb_row *rows, size_t n, const struct clb_row *like,
                       const char *kernel, const char *params)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(rows[i].dtype, like->dtype) && !strcmp(rows[i].size, like->size) &&
            !strcmp(rows[i].kernel, kernel) && !strcmp(rows[i].params, params) &&
            !strcmp(rows[i].status, "ok"))
            return rows[i].gbps;
    return NAN;
}

/* Per type and size: split=auto against the better of cpu and host (the
 * host row of the same queues, max_groups and min_chunk). */
static void summarize(const struct clb_summary_ctx *ctx, const struct clb_row *rows, size_t n,
                      FILE *out)
{
    (void)ctx;
    static const char auto_prefix[] = "split=auto,";
    for (size_t i = 0; i < n; i++) {
        if (strcmp(rows[i].kernel, "hybrid") ||
            strncmp(rows[i].params, auto_prefix, sizeof auto_prefix - 1))
            continue;
        double autobw = rows[i].gbps, cpu = row_gbps(rows, n, &rows[i], "cpu", "");
        double host = row_gbps(rows, n, &rows[i], "host",
                               rows[i].params + sizeof auto_prefix - 1);
        double best = isnan(cpu) ? host : isnan(host) ? cpu : fmax(cpu, host);
        if (strcmp(rows[i].status, "ok") || isnan(best))
            continue;
        fprintf(out, "dot %s %s: hybrid split=auto %.2f GB/s = %.2f x the better of cpu (%.2f) "
                     "and host (%.2f)\n",
                rows[i].dtype, rows[i].size, autobw, autobw / best, cpu, host);
    }
}

/* The cases setup will add (cases()). */
static int plan(struct clb_env *env, const char *dtype, const struct clb_size *size)
{
    (void)dtype;
    (void)size;
    struct dot st = {0};
    unsigned km, splits;
    if (read_params(env, &st, &km, &splits))
        return -1;
    struct dot_case cs[MAX_CASES];
    return cases(km, splits, st.glist, st.ng, cs);
}

/* Its figure of the headline: the device's dot product. */
static const struct clb_headline headline[] = {{"dot", "device", NULL, -1, 0}, {0}};

const struct clb_workload clb_wl_dot = {
    .name = "dot",
    .summary = "dot product and sum of squares: on the device, from host memory over several "
               "queues, CPU+device hybrid, CPU baselines",
    .dtypes = "float,double",
    .default_dtypes = "float,double",
    .params = params,
    .size_help = "elements N, e.g. 2^28, 1000003 (default: 2^28 on GPUs; on CPUs both vectors "
                 ">= 4x the last-level cache)",
    .size_dims = 1,
    /* GPUs: 2^28 elements per vector (the ladder's top), or the
     * largest that fits. CPUs: both vectors >= 4x the last-level cache and
     * each >= 64 MiB; the group's footprint with every kernel is six vectors
     * (pinned x, y; device x, y; the chunk buffers of x and y), hence 12x
     * and 384 MiB (less with a kernels= subset). */
    .sizes = {.quick = "65536", .llc_times = 12, .floor_mib = {384, 12288}, .ladder = ladder},
    .baselines = "stream/copy",
    .state_size = sizeof(struct dot),
    .case_size = sizeof(struct dot_case),
    CLB_STEPS,
    .plan = plan,
    .prepare = prepare,
    .summarize = summarize,
    .figure = {.order = "device,device_sumsq,host,host_sumsq,hybrid,hybrid_sumsq,cpu1,cpu",
               .split = "dev_share", .split_names = "device,CPU"},
    .headline = headline,
};

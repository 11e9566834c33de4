/* stride: coalescing. Kernel gather reads in[(i*stride) mod N] for
 * out[i], kernel offset reads in[i+offset]; the effective bandwidth counts
 * the useful bytes, N reads and N writes (2*N*sizeof), whatever the memory
 * system really moved. See docs/WORKLOADS.md#stride. */
#include "clb_access.h"
#include "clb_workload.h"

#include <stdlib.h>
#include <string.h>

enum { GATHER, OFFSET, NKERNELS };
static const char *const kernel_names[NKERNELS] = {"gather", "offset"};
#define MAX_LIST 256
#define MAX_STRIDE (1L << 24)
#define MAX_OFFSET 4096L

struct stride {
    size_t n, esize, pad;    /* pad: extra input elements for the largest offset */
    void *in, *out;          /* host copies: input, read-back output */
    cl_mem din, dout;
    uint32_t *gbase, *lbase; /* gather's index tables (cl/stride.cl) */
    cl_mem dgbase, dlbase;
    size_t groups;
    cl_kernel k[NKERNELS];
    size_t local;
    long sector;             /* gather model's transfer unit in bytes */
};

static const struct clb_param_def params[] = {
    {"kernels", "gather,offset", "which kernels to run: gather, offset or both"},
    {"strides", "1,2,3,4,7,8,16,32,33,64,128,256,257,512,1024",
     "gather: distance in elements between neighbouring work-items' reads (1..2^24, a list)"},
    {"offsets", "0,1,2,4,8,16,31,32",
     "offset: misalignment of the reads in elements (0..4096, a list; 0..32 for the full sweep)"},
    {"sector", "", "gather model: bytes the memory moves per scattered read (default 32 on GPUs, "
                   "the L2 sector; 64 on CPUs, the cache line)"},
    {"local", "", "work-group size L (default 256 on GPUs, 4096 on CPUs, at most the device's limit)"},
    {0, 0, 0}};

/* Default N: the largest prime not above the target, so that every stride
 * (all below N) is a permutation of the input: each element read exactly once. */
static void default_sizes(const struct clb_env *env, const char *dtype, char *out, size_t n)
{
    size_t es = clb_dtype_size(dtype);
    size_t bytes;
    if (env->quick) {
        bytes = (size_t)1 << 20;
    } else {
        /* each of the two arrays beyond the caches, 1 GiB on GPUs, 64 MiB on CPUs */
        int cpu = (env->info->type & CL_DEVICE_TYPE_CPU) != 0;
        bytes = clb_beyond_cache(env, cpu ? (64u << 20) : (1u << 30));
        size_t cap = clb_max_buffer(env, 2) - MAX_OFFSET * es;
        if (bytes > cap)
            bytes = cap;
    }
    uint64_t elems = bytes / es;
    if (elems > UINT32_MAX)
        elems = UINT32_MAX;
    snprintf(out, n, "%llu", (unsigned long long)clb_prime_at_most(elems));
}

static int check_size(const struct clb_size *s, char *err, size_t errlen)
{
    if (s->total < 2 || s->total > UINT32_MAX) {
        snprintf(err, errlen, "bad size %zu (accepted: 2 .. 2^32-1 elements)", s->total);
        return CLB_EUSAGE;
    }
    return CLB_OK;
}

static int read_lists(struct clb_env *env, int *want, long *strides, int *ns, long *offs, int *no)
{
    int rc;
    *ns = *no = 0;
    want[GATHER] = want[OFFSET] = 0;
    int nk;
    char **ks = clb_split(clb_param(env, "kernels"), &nk);
    if (!ks)
        return CLB_ESYS;
    for (int i = 0; i < nk; i++) {
        int found = 0;
        for (int k = 0; k < NKERNELS; k++)
            if (strcmp(ks[i], kernel_names[k]) == 0)
                want[k] = found = 1;
        if (!found) {
            clb_seterr("stride: unknown kernel '%s' (accepted: gather, offset)", ks[i]);
            free(ks);
            return CLB_EUSAGE;
        }
    }
    free(ks);
    if (!want[GATHER] && !want[OFFSET]) {
        clb_seterr("stride: empty kernels list (accepted: gather, offset)");
        return CLB_EUSAGE;
    }
    if (want[GATHER] && (rc = clb_param_ints(env, "strides", 1, MAX_STRIDE, strides, MAX_LIST, ns)))
        return rc;
    if (want[OFFSET] && (rc = clb_param_ints(env, "offsets", 0, MAX_OFFSET, offs, MAX_LIST, no)))
        return rc;
    return CLB_OK;
}

static size_t global_for(const struct stride *st)
{
    return st->groups * st->local;
}

/* The gather model: each read moves max(sizeof, min(stride*sizeof, sector))
 * bytes (neighbours share a sector until the stride spans one), each write
 * sizeof; the useful bytes are 2*sizeof. Assumes no sector survives in a
 * cache until its next use, true when N is well beyond the caches. */
static double gather_model(double peak, size_t es, long stride, long sector)
{
    double rd = (double)stride * (double)es;
    if (rd > (double)sector)
        rd = (double)sector;
    if (rd < (double)es)
        rd = (double)es;
    return peak * 2.0 * (double)es / ((double)es + rd);
}

static void fill_case(struct clb_case *c, const struct stride *st, int k, long v, double peak)
{
    c->iarg[0] = k;
    c->iarg[1] = v;
    c->bytes = 2.0 * (double)st->n * (double)st->esize;
    c->dims = 1;
    c->global[0] = global_for(st);
    c->local[0] = st->local;
    c->footprint = c->bytes;
    if (k == GATHER) {
        /* With gcd(stride, N) = g > 1 only N/g elements are read, g times each. */
        if (!isnan(peak) && peak > 0)
            c->model = gather_model(peak, st->esize, v, st->sector);
        uint64_t g = clb_gcd((uint64_t)v % st->n, st->n);
        if (g > 1) {
            c->footprint = ((double)st->n + (double)(st->n / g)) * (double)st->esize;
            clb_case_note(c, "gcd(stride,N)=%llu: %zu distinct elements read, each %llu times",
                          (unsigned long long)g, (size_t)(st->n / g), (unsigned long long)g);
        }
    }
}

static int setup(struct clb_env *env, struct clb_group *g)
{
    struct stride *st = calloc(1, sizeof *st);
    if (!st)
        return CLB_ESYS;
    g->state = st;
    st->esize = clb_dtype_size(g->dtype);
    st->n = g->size.total;
    int want[NKERNELS], ns, no, rc;
    long strides[MAX_LIST], offs[MAX_LIST];
    if ((rc = read_lists(env, want, strides, &ns, offs, &no)))
        return rc;
    for (int i = 0; i < no; i++)
        if ((size_t)offs[i] > st->pad)
            st->pad = (size_t)offs[i];
    /* A fixed work-group size on every device: gather's tables need it, and
     * a driver's choice for a prime N could be a group of 1. */
    long local = (env->info->type & CL_DEVICE_TYPE_CPU) ? 4096 : 256; /* CPUs: fewer, larger groups */
    if ((size_t)local > env->info->max_wg)
        local = (long)env->info->max_wg;
    if (clb_param(env, "local")[0]) {
        int nl;
        if ((rc = clb_param_ints(env, "local", 1, (long)env->info->max_wg, &local, 1, &nl)))
            return rc;
    }
    st->local = (size_t)local;
    st->groups = (st->n + st->local - 1) / st->local;
    st->sector = (env->info->type & CL_DEVICE_TYPE_CPU) ? 64 : 32;
    if (clb_param(env, "sector")[0]) {
        int nsec;
        if ((rc = clb_param_ints(env, "sector", 1, 65536, &st->sector, 1, &nsec)))
            return rc;
    }

    size_t out_bytes = st->n * st->esize, in_bytes = (st->n + st->pad) * st->esize;
    struct clb_inout io;
    rc = clb_inout_setup(env, in_bytes, out_bytes, st->esize == 8, 11, CL_MEM_READ_WRITE, &io);
    st->in = io.in;
    st->out = io.out;
    st->din = io.din;
    st->dout = io.dout;
    if (rc)
        return rc;
    if (want[GATHER]) {
        st->gbase = clb_xmalloc(st->groups * sizeof *st->gbase);
        st->lbase = clb_xmalloc(st->local * sizeof *st->lbase);
        if (!st->gbase || !st->lbase)
            return CLB_ESYS;
        if ((rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, st->groups * sizeof *st->gbase,
                             &st->dgbase)) ||
            (rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, st->local * sizeof *st->lbase,
                             &st->dlbase)))
            return rc;
    }
    char opts[128];
    clb_dtype_defines(g->dtype, opts, sizeof opts);
    for (int k = 0; k < NKERNELS; k++)
        if (want[k] && (rc = clb_kernel(env->dev, "stride", opts, kernel_names[k], &st->k[k])))
            return rc;
    for (int i = 0; i < ns; i++) {
        struct clb_case *c = clb_case_add(g, "gather", "stride=%ld", strides[i]);
        if (!c)
            return CLB_ESYS;
        fill_case(c, st, GATHER, strides[i], env->profile->peak_bandwidth_gbs);
    }
    for (int i = 0; i < no; i++) {
        struct clb_case *c = clb_case_add(g, "offset", "offset=%ld", offs[i]);
        if (!c)
            return CLB_ESYS;
        fill_case(c, st, OFFSET, offs[i], NAN);
    }
    return CLB_OK;
}

/* Poison the output; for gather, upload this stride's index tables. */
static int prepare(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct stride *st = g->state;
    int rc;
    if (c->iarg[0] == GATHER) {
        clb_stride_tables(st->n, (uint64_t)c->iarg[1], st->local, st->groups, st->gbase,
                          st->lbase);
        if ((rc = clb_write(env->dev, st->dgbase, st->gbase, st->groups * sizeof *st->gbase)) ||
            (rc = clb_write(env->dev, st->dlbase, st->lbase, st->local * sizeof *st->lbase)))
            return rc;
    }
    return clb_poison(env->dev, st->dout, st->n * st->esize);
}

static int run(struct clb_env *env, struct clb_group *g, struct clb_case *c, struct clb_sample *s)
{
    struct stride *st = g->state;
    int k = (int)c->iarg[0];
    cl_ulong n = st->n, off = (cl_ulong)c->iarg[1];
    int rc = k == GATHER
                 ? clb_args(st->k[k], sizeof(cl_mem), &st->din, sizeof(cl_mem), &st->dout, sizeof n,
                            &n, sizeof(cl_mem), &st->dgbase, sizeof(cl_mem), &st->dlbase, (size_t)0)
                 : clb_args(st->k[k], sizeof(cl_mem), &st->din, sizeof(cl_mem), &st->dout, sizeof n,
                            &n, sizeof off, &off, (size_t)0);
    if (rc)
        return rc;
    return clb_launch(env->dev, st->k[k], 1, c->global, c->local, &s->first);
}

/* Exact: every output element must be the bits of the input element it names. */
static int verify(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct stride *st = g->state;
    int rc = clb_read(env->dev, st->dout, st->out, st->n * st->esize);
    if (rc)
        return rc;
    int k = (int)c->iarg[0];
    uint64_t v = (uint64_t)c->iarg[1], n = st->n, vs = v % n;
    size_t es = st->esize;
    const unsigned char *in = st->in, *out = st->out;
    long bad = 0, first = -1;
#pragma omp parallel for reduction(+ : bad) schedule(static)
    for (long i = 0; i < (long)n; i++) {
        uint64_t j = k == GATHER ? (uint64_t)i * vs % n : (uint64_t)i + v;
        if (memcmp(out + (size_t)i * es, in + j * es, es) != 0) {
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
    struct stride *st = g->state;
    if (!st)
        return;
    for (int k = 0; k < NKERNELS; k++)
        if (st->k[k])
            clReleaseKernel(st->k[k]);
    if (st->din) clReleaseMemObject(st->din);
    if (st->dout) clReleaseMemObject(st->dout);
    if (st->dgbase) clReleaseMemObject(st->dgbase);
    if (st->dlbase) clReleaseMemObject(st->dlbase);
    free(st->gbase);
    free(st->lbase);
    free(st->in);
    free(st->out);
    free(st);
    g->state = NULL;
}

/* Per type: gather at stride 1 against the slowest stride, offset 0 against
 * the slowest offset. */
static void summarize(const struct clb_row *rows, size_t n, FILE *out)
{
    static const char *const types[] = {"float", "double"};
    for (int t = 0; t < 2; t++)
        for (int k = 0; k < NKERNELS; k++) {
            const char *key = k == GATHER ? "stride=1" : "offset=0";
            double base = NAN, worst = INFINITY;
            const char *wp = NULL;
            for (size_t i = 0; i < n; i++) {
                const struct clb_row *r = &rows[i];
                if (strcmp(r->dtype, types[t]) || strcmp(r->kernel, kernel_names[k]) ||
                    strcmp(r->status, "ok"))
                    continue;
                if (strcmp(r->params, key) == 0)
                    base = r->gbps;
                if (r->gbps < worst) {
                    worst = r->gbps;
                    wp = r->params;
                }
            }
            if (wp && !isnan(base))
                fprintf(out, "stride %s %s: %s %.2f GB/s; slowest %s %.2f GB/s (%.3f of %s)\n",
                        kernel_names[k], types[t], key, base, wp, worst, worst / base, key);
        }
}

const struct clb_workload clb_wl_stride = {
    .name = "stride",
    .summary = "coalescing: strided gather and misaligned copy, bandwidth of the useful bytes",
    .dtypes = "float,double",
    .default_dtypes = "float",
    .params = params,
    .size_help = "elements N, 2 .. 2^32-1 (default: the largest prime with each array >= 8x the "
                 "last-level cache, 1 GiB on GPUs, 64 MiB on CPUs)",
    .size_dims = 1,
    .default_sizes = default_sizes,
    .check_size = check_size,
    .setup = setup,
    .prepare = prepare,
    .run = run,
    .verify = verify,
    .teardown = teardown,
    .summarize = summarize,
};

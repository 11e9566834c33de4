/* stride: coalescing. Kernel gather reads in[(i*stride) mod N] for
 * out[i], kernel offset reads in[i+offset]; the effective bandwidth counts
 * the useful bytes, N reads and N writes (2*N*sizeof), whatever the memory
 * system really moved. See docs/workloads/stride.md. */
#include "clb_workload.h"
#include "clb_fit.h"
#include "stride.h"

#include <stdlib.h>
#include <string.h>

enum { GATHER, OFFSET, NKERNELS };
static const char *const kernel_names[NKERNELS] = {"gather", "offset"};
#define MAX_LIST 256
#define MAX_STRIDE (1L << 24)
#define MAX_OFFSET 4096L
#define DEFAULT_KERNELS "gather,offset"
#define DEFAULT_OFFSETS "0,1,2,4,8,16,31,32"
/* The work-group size of GPUs: the most groups (and the largest table) a
 * default makes, so the group count never undercounts when local is not given. */
#define GPU_LOCAL 256
#define CPU_LOCAL 4096

/* One case: a kernel and its stride or offset. */
struct stride_case {
    int k;
    long v;
};

struct stride {
    size_t n, esize, pad;    /* pad: extra input elements for the largest offset */
    struct clb_inout io;     /* input (n + pad) and output (n), host and device */
    void *want;              /* gather's expected output, built at verify */
    uint32_t *gbase, *lbase; /* gather's index tables (cl/stride.cl) */
    cl_mem dtab[2];          /* their device copies: gbase, lbase */
    size_t groups;
    cl_kernel k[NKERNELS];
    size_t local;
    struct clb_fit fit;       /* how local was fitted (a reduction is in each row) */
    long sector;             /* gather model's transfer unit in bytes */
};

static const struct clb_param_def params[] = {
    {"kernels", DEFAULT_KERNELS, "which kernels to run: gather, offset or both", CLB_ROLE_CASE},
    {"strides", "1,2,3,4,7,8,16,32,33,64,128,256,257,512,1024",
     "gather: distance in elements between neighbouring work-items' reads (1..2^24, a list)",
     CLB_ROLE_CASE},
    {"offsets", DEFAULT_OFFSETS,
     "offset: misalignment of the reads in elements (0..4096, a list; 0..32 for the full sweep)",
     CLB_ROLE_CASE},
    {"sector", "", "gather model: bytes the memory moves per scattered read (default 32 on GPUs, "
                   "the L2 sector; 64 on CPUs, the cache line)", CLB_ROLE_TUNING},
    {"local", "", "work-group size L (default 256 on GPUs, 4096 on CPUs; reduced to what the "
                  "device and the compiled kernels allow)", CLB_ROLE_TUNING},
    {0, 0, 0, 0}};

static const struct clb_param_def row_keys[] = {
    {"stride", NULL, "gather: the row's stride in elements (one of strides)", CLB_ROLE_CASE},
    {"offset", NULL, "offset: the row's misalignment in elements (one of offsets)", CLB_ROLE_CASE},
    {0, 0, 0, 0}};

/* ---- sizes and counts --------------------------------------------------- */

/* The default-size ladder: the largest prime at most m * 2^k (m = 8..15, so
 * eight steps per octave, from 61 up to 4294967291 < 2^32), so that every
 * stride (all below N) is a permutation of the input: each element read
 * exactly once. */
static int ladder(int i, char *out, size_t n)
{
    uint64_t v = (uint64_t)(8 + i % 8) << (3 + i / 8);
    if (i < 0 || v > ((uint64_t)1 << 32))
        return 0;
    snprintf(out, n, "%llu", (unsigned long long)clb_prime_at_most(v));
    return 1;
}

static int check_size(const struct clb_size *s)
{
    if (s->total < 2 || s->total > UINT32_MAX)
        return clb_eusage("bad size %zu (accepted: 2 .. 2^32-1 elements)", s->total);
    return CLB_OK;
}

/* The input's extra elements for the largest offset of a list; a list that
 * does not parse counts the largest allowed (set-up then refuses it). */
static size_t pad_of(const char *offsets)
{
    long v[MAX_LIST];
    char err[256];
    int n = clb_parse_int_list(offsets, 0, MAX_OFFSET, v, MAX_LIST, err, sizeof err);
    if (n < 0)
        return (size_t)MAX_OFFSET;
    size_t pad = 0;
    for (int i = 0; i < n; i++)
        if ((size_t)v[i] > pad)
            pad = (size_t)v[i];
    return pad;
}

/* The group: input (n + pad) and output (n) elements, and gather's index
 * tables, groups + L 32-bit words. What the count sees are the --param
 * values: without `local` it counts the tables of L = 256 (GPUs; the most
 * groups a default makes; CPUs' L = 4096 needs 16 times fewer), and a
 * profile's [tuning] values are not seen (they change the count by at most
 * 4096 elements of padding). */
static int count_group(const struct clb_query *q, struct clb_counts *out)
{
    int ovf = 0;
    size_t n = q->size->total, es = clb_query_esize(q);
    const char *ks = clb_query_param(q, "kernels", DEFAULT_KERNELS);
    int gather = clb_list_has(ks, "gather"), offset = clb_list_has(ks, "offset");
    if (!gather && !offset)
        gather = offset = 1; /* a bad list: set-up refuses it */
    size_t pad = offset ? pad_of(clb_query_param(q, "offsets", DEFAULT_OFFSETS)) : 0;
    size_t in = clb_mulz(clb_addz(n, pad, &ovf), es, &ovf), outb = clb_mulz(n, es, &ovf);
    size_t total = clb_addz(in, outb, &ovf);
    if (gather) {
        long local = clb_query_long(q, "local", 1, 1L << 30, GPU_LOCAL);
        size_t groups = n / (size_t)local + (n % (size_t)local != 0);
        size_t tables = clb_mulz(clb_addz(groups, (size_t)local, &ovf), sizeof(uint32_t), &ovf);
        total = clb_addz(total, tables, &ovf);
    }
    return clb_count_done(q, ovf, out, total, 0, total, in, CLB_UNIT_GBPS);
}

/* A case: 2*N*sizeof useful bytes. Its footprint is what it touches: N
 * elements read and N written, but with gcd(stride, N) = g > 1 gather reads
 * only N/g distinct elements (g times each). */
static int count(const struct clb_query *q, struct clb_counts *out)
{
    if (!q->kernel)
        return count_group(q, out);
    int ovf = 0;
    size_t n = q->size->total, es = clb_query_esize(q);
    size_t array = clb_mulz(n, es, &ovf);
    size_t bytes = clb_mulz(array, 2, &ovf), footprint = bytes;
    if (strcmp(q->kernel, "gather") == 0) {
        const char *s = clb_query_param(q, "stride", "1");
        char *end;
        unsigned long long v = strtoull(s, &end, 10);
        if (end == s || *end || s[0] == '-' || v < 1)
            return clb_eusage("bad stride '%s' (accepted: a whole number >= 1)", s);
        uint64_t g = n ? clb_gcd((uint64_t)(v % n), n) : 1;
        if (g > 1)
            footprint = clb_mulz(clb_addz(n, (size_t)(n / g), &ovf), es, &ovf);
    } else if (strcmp(q->kernel, "offset") != 0) {
        return clb_eusage("unknown stride kernel '%s' (known: gather, offset)", q->kernel);
    }
    return clb_count_done(q, ovf, out, bytes, 0, footprint, array, CLB_UNIT_GBPS);
}

/* ---- set-up ------------------------------------------------------------- */

static int read_lists(struct clb_env *env, unsigned *want, long *strides, int *ns, long *offs,
                      int *no)
{
    int rc;
    *ns = *no = 0;
    if ((rc = clb_param_names(env, "kernels", DEFAULT_KERNELS, 0, want)))
        return rc;
    if ((*want & 1u << GATHER) &&
        (rc = clb_param_ints(env, "strides", 1, MAX_STRIDE, strides, MAX_LIST, ns)))
        return rc;
    if ((*want & 1u << OFFSET) &&
        (rc = clb_param_ints(env, "offsets", 0, MAX_OFFSET, offs, MAX_LIST, no)))
        return rc;
    return CLB_OK;
}

/* The gather model: each read moves max(sizeof, min(stride*sizeof, sector))
 * bytes (neighbours share a sector until the stride spans one), each write
 * sizeof; the useful bytes are 2*sizeof. Assumes no sector survives in a
 * cache until its next use, true when N is well beyond the caches. */
static double gather_model(double peak, size_t es, long stride, long sector)
{
    double rd = fmax((double)es, fmin((double)stride * (double)es, (double)sector));
    return peak * 2.0 * (double)es / ((double)es + rd);
}

/* One case; peak (GB/s) scales gather's model. */
static int add_case(struct clb_group *g, const struct stride *st, int k, long v, double peak)
{
    struct clb_case *c;
    const char *name = k == GATHER ? "gather" : "offset", *key = k == GATHER ? "stride" : "offset";
    int rc = st->fit.reduced ? clb_case_add(g, &c, name, "%s=%ld,local=%zu", key, v, st->local)
                             : clb_case_add(g, &c, name, "%s=%ld", key, v);
    if (rc)
        return rc;
    *(struct stride_case *)c->data = (struct stride_case){k, v};
    c->dims = 1;
    c->global[0] = st->groups * st->local;
    c->local[0] = st->local;
    clb_fit_note(c, &st->fit);
    if (k == GATHER) {
        if (!isnan(peak) && peak > 0)
            c->model = gather_model(peak, st->esize, v, st->sector);
        uint64_t gcd = clb_gcd((uint64_t)v % st->n, st->n);
        if (gcd > 1)
            clb_case_note(c, "gcd(stride,N)=%llu: %zu distinct elements read, each %llu times",
                          (unsigned long long)gcd, (size_t)(st->n / gcd), (unsigned long long)gcd);
    }
    return CLB_OK;
}

static int setup(struct clb_env *env, struct clb_group *g)
{
    struct stride *st = g->state;
    st->esize = clb_dtype_size(g->dtype);
    st->n = g->size.total;
    unsigned want;
    int ns, no, rc;
    long strides[MAX_LIST], offs[MAX_LIST];
    if ((rc = read_lists(env, &want, strides, &ns, offs, &no)))
        return rc;
    for (int i = 0; i < no; i++) /* the largest offset */
        if ((size_t)offs[i] > st->pad)
            st->pad = (size_t)offs[i];
    /* A fixed work-group size on every device: gather's tables need it, and
     * a driver's choice for a prime N could be a group of 1. */
    int cpu = strcmp(env->info->type_name, "cpu") == 0;
    long local = cpu ? CPU_LOCAL : GPU_LOCAL; /* CPUs: fewer, larger groups */
    if (clb_param(env, "local")[0] && (rc = clb_param_int(env, "local", 1, 1L << 20, &local)))
        return rc;
    st->sector = cpu ? 64 : 32;
    if (clb_param(env, "sector")[0] && (rc = clb_param_int(env, "sector", 1, 65536, &st->sector)))
        return rc;

    /* counted (overflow-checked) by the core */
    size_t out_bytes = st->n * st->esize, in_bytes = (st->n + st->pad) * st->esize;
    if ((rc = clb_inout_setup(env, in_bytes, out_bytes, st->esize == 8, 11, CL_MEM_READ_WRITE,
                              &st->io)))
        return rc;
    /* the kernels first: the work-group they allow sizes the tables */
    char opts[128];
    clb_dtype_defines(g->dtype, opts, sizeof opts);
    for (int k = 0; k < NKERNELS; k++)
        if ((want & 1u << k) &&
            (rc = clb_kernel(env->dev, "stride", opts, kernel_names[k], &st->k[k])))
            return rc;
    cl_kernel built[NKERNELS];
    int nb = 0;
    for (int k = 0; k < NKERNELS; k++)
        if (st->k[k])
            built[nb++] = st->k[k];
    st->fit = (struct clb_fit){.what = "local"};
    if ((rc = clb_fit_items(env, built, nb, (size_t)local, 0, 0, &st->local, &st->fit)))
        return rc;
    st->groups = (st->n + st->local - 1) / st->local;
    if (want & 1u << GATHER) {
        st->gbase = clb_xmalloc(st->groups * sizeof *st->gbase);
        st->lbase = clb_xmalloc(st->local * sizeof *st->lbase);
        if (!st->gbase || !st->lbase)
            return CLB_ESYS;
        if ((rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, st->groups * sizeof *st->gbase,
                             &st->dtab[0])) ||
            (rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, st->local * sizeof *st->lbase,
                             &st->dtab[1])))
            return rc;
    }
    /* the cases: gather at each stride, then offset at each offset */
    for (int i = 0; i < ns && !rc; i++)
        rc = add_case(g, st, GATHER, strides[i], env->profile->peak_bandwidth_gbs);
    for (int i = 0; i < no && !rc; i++)
        rc = add_case(g, st, OFFSET, offs[i], NAN);
    return rc;
}

/* ---- measuring ---------------------------------------------------------- */

/* Poison the output; for gather, upload this stride's index tables. */
static int prepare(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct stride *st = g->state;
    const struct stride_case *sc = c->data;
    int rc;
    if (sc->k == GATHER) {
        clb_stride_tables(st->n, (uint64_t)sc->v, st->local, st->groups, st->gbase, st->lbase);
        if ((rc = clb_write(env->dev, st->dtab[0], st->gbase, st->groups * sizeof *st->gbase)) ||
            (rc = clb_write(env->dev, st->dtab[1], st->lbase, st->local * sizeof *st->lbase)))
            return rc;
    }
    return clb_poison(env->dev, st->io.dout, st->n * st->esize);
}

static int run(struct clb_env *env, struct clb_group *g, struct clb_case *c, struct clb_sample *s)
{
    struct stride *st = g->state;
    const struct stride_case *sc = c->data;
    cl_kernel kern = st->k[sc->k];
    cl_ulong n = st->n, off = (cl_ulong)sc->v;
    int rc = sc->k == GATHER
                 ? clb_args(kern, sizeof(cl_mem), &st->io.din, sizeof(cl_mem), &st->io.dout,
                            sizeof n, &n, sizeof(cl_mem), &st->dtab[0], sizeof(cl_mem),
                            &st->dtab[1], (size_t)0)
                 : clb_args(kern, sizeof(cl_mem), &st->io.din, sizeof(cl_mem), &st->io.dout,
                            sizeof n, &n, sizeof off, &off, (size_t)0);
    return rc ? rc : clb_launch(env->dev, kern, 1, c->global, c->local, &s->first);
}

/* Exact: every output element must be the bits of the input element it names. */
static int verify(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct stride *st = g->state;
    const struct stride_case *sc = c->data;
    size_t es = st->esize;
    int rc = clb_read(env->dev, st->io.dout, st->io.out, st->n * es);
    if (rc)
        return rc;
    const unsigned char *in = st->io.in;
    if (sc->k == OFFSET)
        return clb_check_exact(c, st->io.out, in + (size_t)sc->v * es, st->n, es, es);
    if (!st->want && !(st->want = clb_xmalloc(st->n * es)))
        return CLB_ESYS;
    unsigned char *want = st->want;
    uint64_t n = st->n, vs = (uint64_t)sc->v % n;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < (long)n; i++)
        memcpy(want + (size_t)i * es, in + (size_t)((uint64_t)i * vs % n) * es, es);
    return clb_check_exact(c, st->io.out, want, st->n, es, es);
}

static void teardown(struct clb_env *env, struct clb_group *g)
{
    (void)env;
    struct stride *st = g->state;
    CLB_RELEASE_KERNELS(st->k);
    CLB_RELEASE_MEMS(st->dtab);
    clb_inout_free(&st->io);
    free(st->want);
    free(st->gbase);
    free(st->lbase);
}

/* Per type: gather at stride 1 against the slowest stride, offset 0 against
 * the slowest offset. */
static void summarize(const struct clb_summary_ctx *ctx, const struct clb_row *rows, size_t n,
                      FILE *out)
{
    (void)ctx;
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

/* The cases setup will add: one per stride and one per offset. */
static int plan(struct clb_env *env, const char *dtype, const struct clb_size *size)
{
    (void)dtype;
    (void)size;
    unsigned want;
    int ns, no;
    long strides[MAX_LIST], offs[MAX_LIST];
    return read_lists(env, &want, strides, &ns, offs, &no) ? -1 : ns + no;
}

const struct clb_workload clb_wl_stride = {
    .name = "stride",
    .summary = "coalescing: strided gather and misaligned copy, bandwidth of the useful bytes",
    .dtypes = "float,double",
    .default_dtypes = "float",
    .params = params,
    .row_keys = row_keys,
    .size_help = "elements N, 2 .. 2^32-1 (default: the largest prime with each array >= 8x the "
                 "last-level cache, 1 GiB on GPUs, 64 MiB on CPUs)",
    .size_dims = 1,
    /* Each of the two arrays >= 8 x LLC, 1 GiB on GPUs, 64 MiB on CPUs: the
     * group (both arrays) >= 16 x LLC, 2 GiB, 128 MiB, each less a little
     * (15.9, 2047, 127) so that the largest prime below a ladder step, a few
     * elements short of it, still reaches the step. Quick: the largest prime
     * in 1 MiB of floats, for both types. */
    .sizes = {.quick = "262139", .llc_times = 15.9, .floor_mib = {127, 2047}, .cap_mib = {128, 0},
              .ladder = ladder},
    .baselines = "stream/copy",
    .state_size = sizeof(struct stride),
    .case_size = sizeof(struct stride_case),
    CLB_STEPS,
    .plan = plan,
    .check_size = check_size,
    .prepare = prepare,
    .summarize = summarize,
    .figure = {.x_param = "stride,offset", .x_label = "stride or offset (elements)",
               .order = "gather,offset"},
};

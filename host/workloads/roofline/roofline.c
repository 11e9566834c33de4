/* roofline: an empirical roofline [Williams09], mixbench-style [Konstantinidis17].
 * One kernel reads each element once, applies F/2 dependent FMAs
 * x <- fma(x, x, a) (F flops), and writes it once: F sweeps the arithmetic
 * intensity past the ridge (docs/workloads/roofline.md). Inputs take one of
 * CLASSES random values (element i: class i % CLASSES), so the host recomputes
 * CLASSES chains and checks every element bit for bit (roofline.h). */
#include "clb_workload.h"
#include "clb_fit.h"
#include "roofline.h"

#include <stdlib.h>
#include <string.h>

#define CLASSES 1021    /* prime: no alignment with vectors or work-groups */
#define MAX_F 8190       /* NFMA < 4096: the kernel's straight-line chain */
#define LOW_INTENSITY 1.0
#define HIGH_INTENSITY 8.0

struct roof_case {
    long flops, vec, ilp;
    size_t local;
    int muladd;                  /* x*x + a, two roundings (op=muladd) */
};

struct roof {
    int dbl;
    size_t n, esize;
    void *in, *out, *pool, *ref;
    unsigned char a[8];
    cl_mem din, dout;
    cl_kernel *k;                /* one per case, in case order */
    int nk;
};

static const struct clb_param_def params[] = {
    {"flops", "", "flops per element, even (2 per FMA), or a list (default 0,2,4,...,1024: "
                  "float 0 to 128 flop/byte, double 0 to 64; --quick 0,8,128)", CLB_ROLE_CASE},
    {"vec", "", "vector width: 1, 2, 4, 8 or a list (default 4 on GPUs and accelerators, 8 on "
                "CPUs)", CLB_ROLE_TUNING},
    {"ilp", "", "vectors per work-item, their chains interleaved: 1, 2, 4, 8 or a list (default 1 "
                "on GPUs and accelerators, 4 on CPUs, whose cores need independent chains)",
     CLB_ROLE_TUNING},
    {"local", "", "work-group size (default 256 on GPUs and accelerators, the driver's choice "
                  "on CPUs)", CLB_ROLE_TUNING},
    {"op", "", "the step: fma, or muladd (x*x + a, contraction off; default where the device "
               "has no hardware fma for the type: no CL_FP_FMA, fma() emulated)", CLB_ROLE_CASE},
    {0, 0, 0, 0}};

/* ---- counts ------------------------------------------------------------ */

static int count(const struct clb_query *q, struct clb_counts *out)
{
    size_t es = clb_query_esize(q);
    if (!es || (strcmp(q->dtype, "float") && strcmp(q->dtype, "double")))
        return clb_eusage("roofline types are float and double, not '%s'", q->dtype);
    int ovf = 0;
    size_t n = q->size->total, array = clb_mulz(n, es, &ovf), two = clb_mulz(array, 2, &ovf);
    if (!q->kernel)
        return clb_count_done(q, ovf, out, two, 0, two, array, CLB_UNIT_GBPS);
    if (strcmp(q->kernel, "fma"))
        return clb_eusage("unknown roofline kernel '%s' (known: fma)", q->kernel);
    long f[2];
    char err[256];
    size_t fl = clb_parse_int_list(clb_query_param(q, "flops", "0"), 0, MAX_F, f, 2, err,
                                   sizeof err) == 1 ? (size_t)f[0] : 0;
    return clb_count_done(q, ovf, out, two, clb_mulz(n, fl, &ovf), two, array,
                          fl ? CLB_UNIT_GFLOPS : CLB_UNIT_GBPS);
}

/* ---- set-up ------------------------------------------------------------- */

/* Work-items: one per ilp whole vectors, and one more for what is left. */
static size_t global_size(size_t n, long vec, long ilp, size_t local)
{
    size_t nv = n / (size_t)vec, s = nv / (size_t)ilp;
    size_t items = s + (s * (size_t)ilp < nv || nv * (size_t)vec < n);
    if (!items)
        items = 1;
    return local ? (items + local - 1) / local * local : items;
}

static int pow2_list(long *v, int n, const char *key)
{
    for (int i = 0; i < n; i++)
        if (v[i] != 1 && v[i] != 2 && v[i] != 4 && v[i] != 8)
            return clb_eusage("roofline: bad %s %ld (accepted: 1, 2, 4, 8)", key, v[i]);
    return CLB_OK;
}

/* The step: op=, else fma where the device does fma() in hardware for the
 * type (CL_FP_FMA), else mul+add. Emulated fma() is the step's speed of a
 * software routine, not of the device's arithmetic, and Mesa's llvmpipe
 * compiles a straight chain of them superlinearly (minutes at --quick sizes:
 * docs/PORTABILITY.md). */
static int pick_op(struct clb_env *env, int dbl, int *muladd)
{
    const char *op = clb_param(env, "op");
    if (!op[0]) {
        *muladd = !(dbl ? env->info->fma_dp : env->info->fma_sp);
        return CLB_OK;
    }
    if (strcmp(op, "fma") && strcmp(op, "muladd"))
        return clb_eusage("roofline: bad op '%s' (accepted: fma, muladd)", op);
    *muladd = strcmp(op, "muladd") == 0;
    return CLB_OK;
}

/* What the parameters ask for: the lists, the work-group, the step. */
struct choice {
    long fl[32], vecs[4], ilps[4], local;
    int nf, nv, ni, muladd;
};

static int read_choice(struct clb_env *env, const char *dtype, struct choice *ch)
{
    int cpu = strcmp(env->info->type_name, "cpu") == 0;
    int rc;
    if (clb_param(env, "flops")[0]) {
        if ((rc = clb_param_ints(env, "flops", 0, MAX_F, ch->fl, 32, &ch->nf)))
            return rc;
    } else {
        ch->nf = 0;
        for (long f = 0; f <= 1024; f = f ? 2 * f : 2)
            if (!env->quick || f == 0 || f == 8 || f == 128)
                ch->fl[ch->nf++] = f;
    }
    for (int i = 0; i < ch->nf; i++)
        if (ch->fl[i] % 2)
            return clb_eusage("roofline: bad flops %ld (accepted: even numbers 0..%d, 2 flops per "
                              "FMA)", ch->fl[i], MAX_F);
    ch->nv = ch->ni = 1;
    ch->vecs[0] = cpu ? 8 : 4;
    ch->ilps[0] = cpu ? 4 : 1;
    if (clb_param(env, "vec")[0] && (rc = clb_param_ints(env, "vec", 1, 8, ch->vecs, 4, &ch->nv)))
        return rc;
    if (clb_param(env, "ilp")[0] && (rc = clb_param_ints(env, "ilp", 1, 8, ch->ilps, 4, &ch->ni)))
        return rc;
    if ((rc = pow2_list(ch->vecs, ch->nv, "vec")) || (rc = pow2_list(ch->ilps, ch->ni, "ilp")))
        return rc;
    ch->local = cpu ? 0 : 256;
    if (clb_param(env, "local")[0] && (rc = clb_param_int(env, "local", 0, 1L << 20, &ch->local)))
        return rc;
    return pick_op(env, clb_dtype_is_double(dtype), &ch->muladd);
}

/* The options of a (vec, ilp, flops, op) program. */
static void options(const char *dtype, long vec, long ilp, long flops, int muladd, char *opts,
                    size_t n)
{
    clb_dtype_defines(dtype, opts, n);
    clb_appendf(opts, n, " -DVEC=%ld -DILP=%ld -DNFMA=%ld%s", vec, ilp, flops / 2,
                muladd ? " -DMULADD=1" : "");
}

/* Build one case's kernel and add the case. */
static int add_case(struct clb_env *env, struct clb_group *g, long flops, long vec, long ilp,
                    long local, int muladd)
{
    struct roof *st = g->state;
    char opts[160];
    options(g->dtype, vec, ilp, flops, muladd, opts, sizeof opts);
    int rc = clb_kernel(env->dev, "roofline", opts, "roofline", &st->k[st->nk++]);
    /* the work-group this kernel allows (0, the driver's choice, stays) */
    size_t l = (size_t)local;
    struct clb_fit fit = {.what = "local"};
    if (!rc && l)
        rc = clb_fit_items(env, &st->k[st->nk - 1], 1, l, 0, 0, &l, &fit);
    struct clb_case *c;
    /* a copy (flops=0) has no step: its params stay those of every device */
    const char *op = muladd && flops ? ",op=muladd" : "";
    if (!rc)
        rc = fit.reduced ? clb_case_add(g, &c, "fma", "flops=%ld,vec=%ld,ilp=%ld,local=%zu%s",
                                        flops, vec, ilp, l, op)
                         : clb_case_add(g, &c, "fma", "flops=%ld,vec=%ld,ilp=%ld%s", flops, vec,
                                        ilp, op);
    if (rc)
        return rc;
    *(struct roof_case *)c->data = (struct roof_case){flops, vec, ilp, l, muladd};
    c->dims = 1;
    c->local[0] = l;
    c->global[0] = global_size(st->n, vec, ilp, l);
    clb_fit_note(c, &fit);
    clb_case_note(c, "flop_per_byte=%.4g", (double)flops / (2.0 * (double)st->esize));
    if (muladd && flops)
        clb_case_note(c, "step x*x+a (%s)", clb_param(env, "op")[0]
                                              ? "op=muladd given"
                                              : "no hardware fma for the type: CL_FP_FMA absent");
    return CLB_OK;
}

static int setup(struct clb_env *env, struct clb_group *g)
{
    struct roof *st = g->state;
    int dbl = clb_dtype_is_double(g->dtype);
    st->dbl = dbl;
    st->esize = dbl ? 8 : 4;
    st->n = g->size.total;
    struct choice ch;
    int rc = read_choice(env, g->dtype, &ch);
    if (rc)
        return rc;
    int n = ch.nv * ch.ni * ch.nf;
    size_t bytes = st->n * st->esize; /* counted (overflow-checked) by the core */
    st->in = clb_xmalloc(bytes);
    st->out = clb_xmalloc(bytes);
    st->pool = clb_xmalloc(CLASSES * st->esize);
    st->ref = clb_xmalloc(CLASSES * st->esize);
    st->k = calloc((size_t)n, sizeof *st->k);
    if (!st->in || !st->out || !st->pool || !st->ref || !st->k)
        return CLB_ESYS;
    clb_fill(st->pool, CLASSES, dbl, 21);
    if (dbl)
        memcpy(st->a, &(double){CLB_ROOFLINE_ADDEND}, 8);
    else
        memcpy(st->a, &(float){(float)CLB_ROOFLINE_ADDEND}, 4);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < (long)st->n; i++)
        memcpy((unsigned char *)st->in + (size_t)i * st->esize,
               (unsigned char *)st->pool + (size_t)(i % CLASSES) * st->esize, st->esize);
    if ((rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, bytes, &st->din)) ||
        (rc = clb_buffer(env->dev, CL_MEM_WRITE_ONLY, bytes, &st->dout)) ||
        (rc = clb_write(env->dev, st->din, st->in, bytes)))
        return rc;
    for (int v = 0; v < ch.nv && !rc; v++) /* one per (vec, ilp, flops), in this order */
        for (int il = 0; il < ch.ni && !rc; il++)
            for (int f = 0; f < ch.nf && !rc; f++)
                rc = add_case(env, g, ch.fl[f], ch.vecs[v], ch.ilps[il], ch.local, ch.muladd);
    return rc;
}

/* The cases setup will add: one per (vec, ilp, flops). */
static int plan(struct clb_env *env, const char *dtype, const struct clb_size *size)
{
    (void)size;
    struct choice ch;
    return read_choice(env, dtype, &ch) ? -1 : ch.nv * ch.ni * ch.nf;
}

/* ---- measuring ---------------------------------------------------------- */

static int prepare(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    (void)c;
    struct roof *st = g->state;
    return clb_poison(env->dev, st->dout, st->n * st->esize);
}

static int run(struct clb_env *env, struct clb_group *g, struct clb_case *c, struct clb_sample *s)
{
    struct roof *st = g->state;
    cl_kernel k = st->k[c - g->cases];
    cl_ulong n = st->n;
    int rc = clb_args(k, sizeof(cl_mem), &st->din, sizeof(cl_mem), &st->dout, st->esize, st->a,
                      sizeof n, &n, (size_t)0);
    return rc ? rc : clb_launch(env->dev, k, 1, c->global, c->local[0] ? c->local : NULL, &s->first);
}

static int verify(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct roof *st = g->state;
    const struct roof_case *rc_ = c->data;
    int rc = clb_read(env->dev, st->dout, st->out, st->n * st->esize);
    if (rc)
        return rc;
#pragma omp parallel for schedule(static)
    for (int k = 0; k < CLASSES; k++)
        clb_roofline_ref(st->dbl, rc_->muladd, (unsigned char *)st->pool + (size_t)k * st->esize,
                         (size_t)rc_->flops / 2, st->a, (unsigned char *)st->ref + (size_t)k * st->esize);
    long first;
    long bad = clb_mismatches(st->out, st->ref, st->n, st->esize, st->esize, CLASSES, &first);
    if (bad) {
        clb_case_note(c, "%ld of %zu elements differ from the host's chain (first at %ld)", bad,
                      st->n, first);
        return CLB_FAIL;
    }
    return CLB_OK;
}

static void teardown(struct clb_env *env, struct clb_group *g)
{
    (void)env;
    struct roof *st = g->state;
    clb_release_kernels(st->k, (size_t)st->nk);
    free(st->k);
    clb_release_mems(&st->din, 1);
    clb_release_mems(&st->dout, 1);
    free(st->in);
    free(st->out);
    free(st->pool);
    free(st->ref);
}

/* ---- summary and ceilings ---------------------------------------------- */

static double intensity(const struct clb_row *r)
{
    return r->bytes > 0 ? (isnan(r->flops) ? 0 : r->flops) / r->bytes : NAN;
}

/* The best bandwidth of the low-intensity rows and the best GFlop/s of the
 * high-intensity rows of a type; memory_only: of the rows that left the
 * caches behind (no cache_resident mark) for the bandwidth. */
static void best(const struct clb_row *rows, size_t n, const char *dtype, int memory_only,
                 const struct clb_row **bw, const struct clb_row **fl)
{
    *bw = *fl = NULL;
    for (size_t i = 0; i < n; i++) {
        const struct clb_row *r = &rows[i];
        if (strcmp(r->status, "ok") || strcmp(r->dtype, dtype))
            continue;
        double ai = intensity(r);
        if (ai <= LOW_INTENSITY && !isnan(r->gbps) &&
            !(memory_only && clb_row_flag(r, "cache_resident")) && (!*bw || r->gbps > (*bw)->gbps))
            *bw = r;
        if (ai >= HIGH_INTENSITY && !isnan(r->gflops) && (!*fl || r->gflops > (*fl)->gflops))
            *fl = r;
    }
}

static void summarize(const struct clb_summary_ctx *ctx, const struct clb_row *rows, size_t n,
                      FILE *out)
{
    (void)ctx;
    int header = 0;
    for (int t = 0; t < 2; t++) {
        const char *dtype = t ? "double" : "float";
        const struct clb_row *bw, *fl;
        best(rows, n, dtype, 0, &bw, &fl);
        if (!bw && !fl)
            continue;
        if (!header++)
            fprintf(out, "\nroofline ceilings (bandwidth: best of the rows at <= %g flop/byte; "
                         "compute: best at >= %g):\n", LOW_INTENSITY, HIGH_INTENSITY);
        fprintf(out, "  %-6s", dtype);
        if (bw)
            fprintf(out, "  bandwidth %9.2f GB/s (%s%s)", bw->gbps, bw->params,
                    clb_row_flag(bw, "cache_resident") ? ", cache-resident" : "");
        if (fl)
            fprintf(out, "  compute %10.1f GFlop/s (%s)", fl->gflops, fl->params);
        if (bw && fl)
            fprintf(out, "  ridge %.2f flop/byte", fl->gflops / bw->gbps);
        fputc('\n', out);
    }
}

static int ceilings(const struct clb_row *rows, size_t n, struct clb_ceiling *out, int max)
{
    int k = 0;
    for (int t = 0; t < 2; t++) {
        const struct clb_row *bw, *fl;
        best(rows, n, t ? "double" : "float", 1, &bw, &fl);
        if (bw && k < max) {
            out[k] = (struct clb_ceiling){CLB_CEIL_BW, bw->gbps, NAN, NAN, bw, "", ""};
            snprintf(out[k].what, sizeof out[0].what, "roofline bandwidth");
            snprintf(out[k++].note, sizeof out[0].note, "%s %s", bw->dtype, bw->params);
        }
        if (fl && k < max) {
            out[k] = (struct clb_ceiling){t ? CLB_CEIL_DP : CLB_CEIL_SP, fl->gflops, NAN, NAN, fl,
                                          "", ""};
            snprintf(out[k].what, sizeof out[0].what, "roofline compute");
            snprintf(out[k++].note, sizeof out[0].note, "%s %s", fl->dtype, fl->params);
        }
    }
    return k;
}

const struct clb_workload clb_wl_roofline = {
    .name = "roofline",
    .summary = "empirical roofline: read, F dependent FMAs, write; bandwidth and compute ceilings",
    .dtypes = "float,double",
    .default_dtypes = "float,double",
    .params = params,
    .size_help = "elements N, e.g. 2^26 (default: the two arrays >= 8 x the last-level cache, "
                 "1 GiB on GPUs, 64 MiB on CPUs)",
    .size_dims = 1,
    .sizes = {.quick = "65536", .llc_times = 8, .floor_mib = {64, 1024}},
    .state_size = sizeof(struct roof),
    .case_size = sizeof(struct roof_case),
    CLB_STEPS,
    .plan = plan,
    .prepare = prepare,
    .summarize = summarize,
    .ceilings = ceilings,
    .ceiling_kinds = 1u << CLB_CEIL_BW | 1u << CLB_CEIL_SP | 1u << CLB_CEIL_DP,
    .ceiling_rows = "rows at <= 1 flop/byte that are not cache-resident (bandwidth), rows at "
                    ">= 8 flop/byte (compute)",
    .figure = {.kind = CLB_FIGURE_ROOFLINE},
};

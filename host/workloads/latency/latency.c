/* latency: memory latency through the hierarchy by pointer chasing. One
 * work-item follows a random cycle (Sattolo's algorithm: no prefetcher can
 * guess the next address) whose elements lie `stride` bytes apart, `loads`
 * dependent loads per launch. A group is a sweep: one row per working set
 * from `from` bytes up to its size (by default at least 8 x the last-level
 * cache: at 4 x a random chase still finds about a quarter of its loads in
 * the cache). The rows' columns and metrics (llc_bytes tells the summary and
 * --ceilings caches from memory) and the check of the position after the
 * last run: docs/workloads/latency.md. */
#include "clb_workload.h"
#include "latency.h"

#include <stdlib.h>
#include <string.h>

#define MAX_STRIDES 8
#define TOLERANCE 0.15

struct lat_case {
    size_t ws, stride;
    unsigned long long runs;   /* launches since prepare */
};

struct lat {
    size_t size;               /* the group's largest working set, bytes */
    uint32_t *chain;           /* host copy of the chain words (size bytes) */
    uint32_t *ord;             /* the cycle's order (elements of the smallest stride) */
    cl_mem dchain, dstate;
    cl_kernel k;
    cl_uint loads;
    double clock_mhz;
    const char *clock_from;
    size_t llc;
};

static const struct clb_param_def params[] = {
    {"stride", "", "bytes between the chain's elements, a multiple of 4, or a list (default: "
                   "the cache line, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE; 64 when it says 0)",
     CLB_ROLE_CASE},
    {"from", "1024", "the smallest working set, bytes", CLB_ROLE_CASE},
    {"per_octave", "", "working sets per doubling: 1 (powers of two) or 2 (also 1.5x); "
                       "default 2, --quick 1", CLB_ROLE_CASE},
    {"loads", "", "dependent loads per launch (default 65536; --quick 4096)", CLB_ROLE_TUNING},
    {0, 0, 0, 0}};

static const struct clb_param_def row_keys[] = {
    {"ws", NULL, "the row's working set in bytes (from, per_octave, up to the size)",
     CLB_ROLE_CASE},
    {0, 0, 0, 0}};

/* ---- counts ------------------------------------------------------------ */

/* No bytes, no flops (latency rows); a case touches its working set, the
 * group holds the largest and the 4-byte position. */
static int count(const struct clb_query *q, struct clb_counts *out)
{
    int ovf = 0;
    size_t size = q->size->total;
    if (!q->kernel)
        return clb_count_done(q, ovf, out, 0, 0, clb_addz(size, 4, &ovf), size, CLB_UNIT_GBPS);
    if (clb_query_kernel(q, "latency", "chase"))
        return CLB_EUSAGE;
    const char *w = clb_query_param(q, "ws", "");
    size_t fp = w[0] ? (size_t)strtoull(w, NULL, 10) : size;
    return clb_count_done(q, ovf, out, 0, 0, fp, size, CLB_UNIT_GBPS);
}

static int check_size(const struct clb_size *s)
{
    if (s->total < 8 || s->total / 4 > UINT32_MAX)
        return clb_eusage("bad working set %zu bytes (accepted: 8 bytes to 16 GiB: the chain holds "
                          "32-bit word indices)", s->total);
    return CLB_OK;
}

/* ---- set-up ------------------------------------------------------------- */

/* The sweep of a group: working sets from `from` up, `per` an octave (w and
 * 1.5 w), for each stride, and the group's size at the top. */
struct plan_sweep {
    long strides[MAX_STRIDES];
    int ns, per;
    size_t from, size;
    long loads;
};

static int read_sweep(struct clb_env *env, size_t size, struct plan_sweep *sw)
{
    long from, per = env->quick ? 1 : 2;
    int rc;
    sw->size = size;
    sw->ns = 1;
    sw->loads = env->quick ? 4096 : 65536;
    sw->strides[0] = env->info->cache_line ? (long)env->info->cache_line : 64;
    if (clb_param(env, "stride")[0] &&
        (rc = clb_param_ints(env, "stride", 4, 1L << 20, sw->strides, MAX_STRIDES, &sw->ns)))
        return rc;
    for (int i = 0; i < sw->ns; i++)
        if (sw->strides[i] % 4)
            return clb_eusage("latency: bad stride %ld (accepted: a multiple of 4 bytes, "
                              "4..1048576)", sw->strides[i]);
    if ((rc = clb_param_int(env, "from", 8, 1L << 40, &from)) ||
        (clb_param(env, "per_octave")[0] && (rc = clb_param_int(env, "per_octave", 1, 2, &per))) ||
        (clb_param(env, "loads")[0] && (rc = clb_param_int(env, "loads", 1, 1L << 31, &sw->loads))))
        return rc;
    sw->from = (size_t)from;
    sw->per = (int)per;
    return CLB_OK;
}

/* A case of the sweep, counted in *n and added to g (NULL: counted only). */
static int add_case(struct clb_group *g, int *n, size_t ws, size_t stride)
{
    ++*n;
    if (!g)
        return CLB_OK;
    struct clb_case *c;
    int rc = clb_case_add(g, &c, "chase", "ws=%zu,stride=%zu", ws, stride);
    if (rc)
        return rc;
    *(struct lat_case *)c->data = (struct lat_case){ws, stride, 0};
    c->dims = 1;
    c->global[0] = c->local[0] = 1;
    return CLB_OK;
}

/* Every (working set, stride) of the sweep, in order, to add_case (which
 * counts them for the plan or adds them as cases): one enumeration for both. */
static int sweep_each(const struct plan_sweep *sw, struct clb_group *g, int *n)
{
    size_t size = sw->size;
    for (int s = 0; s < sw->ns; s++) {
        size_t st = (size_t)sw->strides[s];
        size_t last = 0;
        int rc;
        for (size_t w = sw->from; w <= size && w >= sw->from; w *= 2) {
            size_t cand[2] = {w, w + w / 2};
            for (int k = 0; k < sw->per; k++) {
                if (cand[k] > size || cand[k] < 2 * st)
                    continue;
                if ((rc = add_case(g, n, cand[k], st)))
                    return rc;
                last = cand[k];
            }
        }
        if (last != size && size >= 2 * st && (rc = add_case(g, n, size, st)))
            return rc; /* the top of the sweep: the group's size */
    }
    return CLB_OK;
}

/* The cases setup will add. */
static int plan(struct clb_env *env, const char *dtype, const struct clb_size *size)
{
    (void)dtype;
    struct plan_sweep sw;
    int n = 0;
    if (read_sweep(env, size->total, &sw) || sweep_each(&sw, NULL, &n))
        return -1;
    return n;
}

static int setup(struct clb_env *env, struct clb_group *g)
{
    struct lat *st = g->state;
    st->size = g->size.total;
    struct plan_sweep sw;
    int rc = read_sweep(env, st->size, &sw);
    if (rc)
        return rc;
    st->loads = (cl_uint)sw.loads;
    long smin = sw.strides[0];
    for (int i = 1; i < sw.ns; i++)
        smin = sw.strides[i] < smin ? sw.strides[i] : smin;
    if (st->size < 2 * (size_t)smin)
        return clb_eusage("latency: working set %zu bytes holds fewer than two elements %ld bytes "
                          "apart", st->size, smin);
    st->llc = clb_llc_bytes(env);
    st->clock_mhz = env->info->clock_mhz;
    st->clock_from = "CL_DEVICE_MAX_CLOCK_FREQUENCY";
    if (!isnan(env->profile->core_clock_mhz) && env->profile->core_clock_mhz > 0) {
        st->clock_mhz = env->profile->core_clock_mhz;
        st->clock_from = "profile";
    }
    st->chain = calloc(st->size / 4, 4);
    st->ord = clb_xmalloc(st->size / (size_t)smin * sizeof *st->ord); /* the most elements */
    if (!st->chain || !st->ord)
        return clb_err(CLB_ESYS, CLB_OOM " for a %zu-byte chain", st->size);
    if ((rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, st->size, &st->dchain)) ||
        (rc = clb_buffer(env->dev, CL_MEM_READ_WRITE, 4, &st->dstate)) ||
        (rc = clb_kernel(env->dev, "latency", "", "chase", &st->k)))
        return rc;
    int n = 0;
    return sweep_each(&sw, g, &n);
}

/* ---- measuring ---------------------------------------------------------- */

/* A new random cycle over the case's working set, its order for the check,
 * the position back at element 0. */
static int prepare(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct lat *st = g->state;
    struct lat_case *lc = c->data;
    size_t n = lc->ws / lc->stride, w = lc->stride / 4;
    clb_sattolo(st->ord, n, 0x1a7e9c1e5ULL + lc->ws + lc->stride);
    for (size_t i = 0; i < n; i++)
        st->chain[i * w] = st->ord[i] * (uint32_t)w;
    if (clb_cycle_order(st->chain, n, w, st->ord))
        return clb_err(CLB_ESYS, "latency: the chain of %zu elements is not one cycle (host error)",
                                 n);
    lc->runs = 0;
    cl_uint zero = 0;
    int rc = clb_write(env->dev, st->dchain, st->chain, n * lc->stride);
    return rc ? rc : clb_write(env->dev, st->dstate, &zero, sizeof zero);
}

static int run(struct clb_env *env, struct clb_group *g, struct clb_case *c, struct clb_sample *s)
{
    struct lat *st = g->state;
    struct lat_case *lc = c->data;
    int rc = clb_args(st->k, sizeof(cl_mem), &st->dchain, sizeof(cl_mem), &st->dstate,
                      sizeof st->loads, &st->loads, (size_t)0);
    if (rc)
        return rc;
    lc->runs++;
    return clb_launch(env->dev, st->k, 1, c->global, c->local, &s->first);
}

static int verify(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct lat *st = g->state;
    const struct lat_case *lc = c->data;
    cl_uint got;
    int rc = clb_read(env->dev, st->dstate, &got, sizeof got);
    if (rc)
        return rc;
    size_t n = lc->ws / lc->stride, w = lc->stride / 4;
    unsigned long long steps = lc->runs * (unsigned long long)st->loads;
    cl_uint want = st->ord[steps % n] * (cl_uint)w;
    if (got != want) {
        clb_case_note(c, "after %llu dependent loads the chase stands at word %u, the host's "
                         "walk at word %u", steps, got, want);
        return CLB_FAIL;
    }
    return CLB_OK;
}

static int measured(struct clb_env *env, struct clb_group *g, struct clb_case *c,
                    const struct clb_measure *m)
{
    (void)env;
    struct lat *st = g->state;
    double ns = m->t.median / st->loads * 1e9;
    clb_case_note(c, "loads=%u ns_per_load=%.3f", st->loads, ns);
    clb_case_metric(c, "loads", st->loads);
    clb_case_metric(c, "ns_per_load", ns);
    if (st->clock_mhz > 0) {
        clb_case_note(c, "cycles=%.1f clock_mhz=%.0f clock_from=%s", ns * st->clock_mhz / 1e3,
                      st->clock_mhz, st->clock_from);
        clb_case_metric(c, "cycles", ns * st->clock_mhz / 1e3);
        clb_case_metric(c, "clock_mhz", st->clock_mhz);
        clb_case_metric_token(c, "clock_from", st->clock_from);
    }
    clb_case_note(c, "llc=%zu", st->llc);
    clb_case_metric(c, "llc_bytes", (double)st->llc);
    return CLB_OK;
}

static void teardown(struct clb_env *env, struct clb_group *g)
{
    (void)env;
    struct lat *st = g->state;
    clb_release_kernels(&st->k, 1);
    clb_release_mems(&st->dchain, 1);
    clb_release_mems(&st->dstate, 1);
    free(st->chain);
    free(st->ord);
}

/* ---- summary and ceilings ---------------------------------------------- */

/* The rows of one sweep (same run, size and stride), sorted by working set;
 * ws, ns and cyc are one allocation. */
struct sweep {
    double *ws, *ns, *cyc, llc, clock;
    const struct clb_row **row;
    int n;
};

static int cmp_ws(const void *a, const void *b)
{
    double x = clb_row_param(*(const struct clb_row *const *)a, "ws");
    double y = clb_row_param(*(const struct clb_row *const *)b, "ws");
    return (x > y) - (x < y);
}

/* An ok row with what a sweep reads (the core checks rows from files
 * against .row_params/.row_metrics too; this keeps the hooks total on any
 * rows they are given). */
static int usable(const struct clb_row *r)
{
    return strcmp(r->status, "ok") == 0 && clb_row_has(r, "ws,stride", "ns_per_load", NULL);
}

static int same_sweep(const struct clb_row *a, const struct clb_row *b)
{
    return strcmp(a->run_id, b->run_id) == 0 && strcmp(a->size, b->size) == 0 &&
           clb_row_param(a, "stride") == clb_row_param(b, "stride");
}

/* The sweep that rows[i] starts (rows before i of the same sweep were
 * taken already: done[]). */
static int collect(const struct clb_row *rows, size_t n, size_t i, char *done, struct sweep *s)
{
    memset(s, 0, sizeof *s);
    s->row = calloc(n, sizeof *s->row);
    s->ws = calloc(3 * n, sizeof *s->ws);
    if (!s->row || !s->ws)
        return -1;
    s->ns = s->ws + n;
    s->cyc = s->ns + n;
    for (size_t j = i; j < n; j++)
        if (!done[j] && usable(&rows[j]) && same_sweep(&rows[i], &rows[j])) {
            done[j] = 1;
            s->row[s->n++] = &rows[j];
        }
    if (s->n == 0) /* rows[i] is usable, so it is in its own sweep; never empty */
        return -1;
    qsort(s->row, (size_t)s->n, sizeof *s->row, cmp_ws);
    for (int k = 0; k < s->n; k++) {
        s->ws[k] = clb_row_param(s->row[k], "ws");
        s->ns[k] = clb_row_metric(s->row[k], "ns_per_load");
        s->cyc[k] = clb_row_metric(s->row[k], "cycles");
    }
    s->llc = clb_row_metric(s->row[0], "llc_bytes");
    s->clock = clb_row_metric(s->row[0], "clock_mhz");
    if (isnan(s->llc))
        s->llc = 0;
    return 0;
}

static void sweep_free(struct sweep *s)
{
    free(s->row);
    free(s->ws);
}

static double mean_of(const double *v, int a, int b)
{
    double sum = 0;
    for (int i = a; i <= b; i++)
        sum += v[i];
    return sum / (b - a + 1);
}

#define MAX_LEVELS 16

static void print_plateau(const struct sweep *s, const struct clb_plateau *p, FILE *out)
{
    char a[32], b[32];
    clb_bytes_text(s->ws[p->first], a, sizeof a);
    clb_bytes_text(s->ws[p->last], b, sizeof b);
    double cyc = mean_of(s->cyc, p->first, p->last);
    fprintf(out, "  %-10s %9s .. %-9s %9.2f ns", p->name, a, b, p->mean);
    if (!isnan(cyc))
        fprintf(out, "  %8.1f cycles", cyc);
}

/* Each reported level and the rise in latency its size matches, if any. */
static void print_levels(const struct sweep *s, const struct clb_plateau *pl,
                         const struct clb_cache_level *lv, const int *step, int nl, FILE *out)
{
    if (nl == 0)
        fprintf(out, "  no cache level is reported (no OpenCL cache size, no profile L2, no "
                     "OS hierarchy): the plateaus stay unnamed\n");
    for (int l = 0; l < nl; l++) {
        char sz[32], a[32], b[32];
        clb_bytes_text(lv[l].bytes, sz, sizeof sz);
        fprintf(out, "  %s %s (%s): ", lv[l].name, sz, lv[l].source);
        int p = step[l];
        if (p < 0) {
            fprintf(out, "%s\n", s->ws[s->n - 1] <= lv[l].bytes
                                     ? "not reached: the sweep ends at or below its size"
                                     : "no rise in latency within a factor 2 of its size: its "
                                       "size matches no plateau");
            continue;
        }
        clb_bytes_text(s->ws[pl[p].last], a, sizeof a);
        clb_bytes_text(s->ws[pl[p + 1].first], b, sizeof b);
        fprintf(out, "the rise from %s to %s (%.2f -> %.2f ns)\n", a, b, pl[p].mean,
                pl[p + 1].mean);
    }
}

/* One sweep: its plateaus (a name only where a reported level's size
 * matches the step that ends one), then the reported levels. */
static void summarize_sweep(const struct sweep *s, const struct clb_cache_level *lv, int nl,
                            struct clb_plateau *pl, FILE *out)
{
    double llc = s->llc; /* "memory" only above every cache reported */
    for (int l = 0; l < nl; l++)
        llc = lv[l].bytes > llc ? lv[l].bytes : llc;
    int np = clb_plateaus(s->ws, s->ns, s->n, TOLERANCE, llc, pl), step[MAX_LEVELS];
    for (int l = 0; l < nl; l++)
        step[l] = clb_level_step(s->ws, pl, np, lv[l].bytes);
    fprintf(out, "\nlatency plateaus (stride %g B; within %.0f %%; a cache level is named only "
                 "where the device or the OS reports one):\n",
            clb_row_param(s->row[0], "stride"), TOLERANCE * 100);
    for (int p = 0; p < np; p++) {
        print_plateau(s, &pl[p], out);
        for (int l = 0; l < nl; l++)
            if (step[l] == p)
                fprintf(out, "  ends near the %s size", lv[l].name);
        fputc('\n', out);
    }
    if (np && strcmp(pl[np - 1].name, "memory"))
        fprintf(out, "  (memory not reached: the sweep ends inside the caches)\n");
    fprintf(out, " cache levels reported:\n");
    print_levels(s, pl, lv, step, nl, out);
}

static void summarize(const struct clb_summary_ctx *ctx, const struct clb_row *rows, size_t n,
                      FILE *out)
{
    struct clb_cache_level lv[MAX_LEVELS]; /* the levels the device or the OS reports */
    int nl = clb_cache_levels(ctx ? ctx->info : NULL, ctx ? ctx->profile : NULL, lv, MAX_LEVELS);
    char *done = calloc(n ? n : 1, 1);
    struct clb_plateau *pl = calloc(n ? n : 1, sizeof *pl);
    for (size_t i = 0; done && pl && i < n; i++) {
        if (done[i] || !usable(&rows[i]))
            continue;
        struct sweep s;
        if (collect(rows, n, i, done, &s) == 0)
            summarize_sweep(&s, lv, nl, pl, out);
        sweep_free(&s);
    }
    free(done);
    free(pl);
}

/* The memory plateau of every sweep: mean ns and cycles of its sizes. */
static int ceilings(const struct clb_row *rows, size_t n, struct clb_ceiling *out, int max)
{
    int k = 0;
    char *done = calloc(n ? n : 1, 1);
    struct clb_plateau *pl = calloc(n ? n : 1, sizeof *pl);
    for (size_t i = 0; done && pl && i < n && k < max; i++) {
        if (done[i] || !usable(&rows[i]))
            continue;
        struct sweep s;
        if (collect(rows, n, i, done, &s) == 0) {
            int np = clb_plateaus(s.ws, s.ns, s.n, TOLERANCE, s.llc, pl);
            const struct clb_plateau *m = np ? &pl[np - 1] : NULL;
            if (m && strcmp(m->name, "memory") == 0) {
                char a[32], b[32];
                clb_bytes_text(s.ws[m->first], a, sizeof a);
                clb_bytes_text(s.ws[m->last], b, sizeof b);
                out[k] = (struct clb_ceiling){CLB_CEIL_LATENCY, m->mean,
                                              mean_of(s.cyc, m->first, m->last), s.clock,
                                              s.row[m->last], "", ""};
                snprintf(out[k].what, sizeof out[k].what, "latency memory plateau");
                snprintf(out[k].note, sizeof out[k].note, "%s..%s, stride %g B", a, b,
                         clb_row_param(s.row[0], "stride"));
                k++;
            }
        }
        sweep_free(&s);
    }
    free(done);
    free(pl);
    return k;
}

/* Its figure of the headline: the memory plateau's latency (the ceiling). */
static const struct clb_headline headline[] = {
    {"memory latency", "chase", NULL, CLB_CEIL_LATENCY, 0}, {0}};

const struct clb_workload clb_wl_latency = {
    .name = "latency",
    .summary = "memory latency by pointer chasing, swept through the caches to memory",
    .params = params,
    .row_keys = row_keys,
    .size_help = "the largest working set in bytes, e.g. 256MiB (default: >= 8 x the last-level "
                 "cache; the sweep runs from `from` up to it)",
    .size_dims = 1,
    .size_in_bytes = 1,
    .sizes = {.quick = "1048576", .llc_times = 8, .floor_mib = {64, 256}},
    .state_size = sizeof(struct lat),
    .case_size = sizeof(struct lat_case),
    CLB_STEPS,
    .plan = plan,
    .check_size = check_size,
    .prepare = prepare,
    .measured = measured,
    .summarize = summarize,
    .ceilings = ceilings,
    .ceiling_kinds = 1u << CLB_CEIL_LATENCY,
    .ceiling_rows = "a sweep that reaches memory (its last plateau above the last-level cache)",
    .figure = {CLB_FIGURE_STAIRS, "ws", "ns_per_load", "working set", "ns per dependent load", 1},
    .row_params = "ws,stride",
    .row_metrics = "ns_per_load",
    .headline = headline,
};

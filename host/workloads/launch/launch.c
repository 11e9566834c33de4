/* launch: kernel launch latency three ways, with a kernel that does nothing
 * (its first work-item stores the launch's number): dispatch (QUEUED -> START
 * of one launch's events), roundtrip (enqueue -> clFinish returned, host
 * clock) and rate (`batch` launches back to back, then one clFinish). The t_*
 * columns carry the latency, bytes and flops are 0 (docs/workloads/launch.md). */
#include "clb_workload.h"

#include <stdlib.h>
#include <string.h>

enum { DISPATCH, ROUNDTRIP, RATE, NKINDS };
static const char *const kernel_names[NKINDS] = {"dispatch", "roundtrip", "rate"};

struct launch_case {
    int kind;
    long batch;
    /* dispatch: SUBMIT -> START and START -> END of every run (warm-up runs
     * first; the timed runs are the last ones) */
    double *sub_start, *start_end;
    long n;
    size_t cap[2];
};

struct launch {
    cl_mem dout;
    cl_kernel k;
    cl_uint counter;             /* the number of the last launch */
};

static const struct clb_param_def params[] = {
    {"kernels", "", "subset of dispatch,roundtrip,rate (default: all)", CLB_ROLE_CASE},
    {"batch", "", "rate: launches per timed run (default 1000; --quick 100)", CLB_ROLE_CASE},
    {0, 0, 0, 0}};

/* ---- counts ------------------------------------------------------------ */

/* No bytes, no flops: latency rows. The 4-byte result buffer is the group's
 * memory. Host-involving work: no roofline, no cache mark. */
static int count(const struct clb_query *q, struct clb_counts *out)
{
    if (q->kernel && !clb_list_has("dispatch,roundtrip,rate", q->kernel))
        return clb_eusage("unknown launch kernel '%s' (known: dispatch, roundtrip, rate)",
                          q->kernel);
    out->host_bound = 1;
    return clb_count_done(q, 0, out, 0, 0, 4, 4, CLB_UNIT_GBPS);
}

/* One default size: one work-item. */
static int ladder(int i, char *out, size_t n)
{
    if (i > 0)
        return 0;
    snprintf(out, n, "1");
    return 1;
}

/* ---- set-up ------------------------------------------------------------- */

/* The kinds to measure (a mask of enum kind) and the rate's batch. */
static int read_params(struct clb_env *env, unsigned *mask, long *batch)
{
    *batch = env->quick ? 100 : 1000;
    int rc = clb_param_names(env, "kernels", "dispatch,roundtrip,rate", 1, mask);
    if (!rc && clb_param(env, "batch")[0])
        rc = clb_param_int(env, "batch", 1, 1000000, batch);
    return rc;
}

/* The cases setup will add: one per kind measured. */
static int plan(struct clb_env *env, const char *dtype, const struct clb_size *size)
{
    (void)dtype;
    (void)size;
    unsigned mask;
    long batch;
    return read_params(env, &mask, &batch) ? -1 : __builtin_popcount(mask);
}

static int setup(struct clb_env *env, struct clb_group *g)
{
    struct launch *st = g->state;
    unsigned mask;
    long batch;
    int rc = read_params(env, &mask, &batch);
    if (rc)
        return rc;
    if ((rc = clb_buffer(env->dev, CL_MEM_WRITE_ONLY, 4, &st->dout)) ||
        (rc = clb_kernel(env->dev, "launch", "", "empty", &st->k)))
        return rc;
    for (int k = 0; k < NKINDS; k++) { /* in enum order */
        struct clb_case *c;
        if (!(mask >> k & 1))
            continue;
        rc = k == RATE ? clb_case_add(g, &c, kernel_names[k], "batch=%ld", batch)
                       : clb_case_add(g, &c, kernel_names[k], "%s", "");
        if (rc)
            return rc;
        struct launch_case *lc = c->data;
        lc->kind = k;
        lc->batch = k == RATE ? batch : 1;
        c->dims = 1;
        c->global[0] = g->size.total;
        /* queued -> start exists only in the device's timestamps: never from
         * events the core found false (a 0 would read as an instant launch) */
        if (k == DISPATCH && clb_timer_untrusted(env))
            clb_case_skip(c, "dispatch (enqueued -> kernel start) needs the device's event "
                          "timestamps, which are not trusted here: %s", clb_timer_untrusted(env));
    }
    return CLB_OK;
}

/* ---- measuring ---------------------------------------------------------- */

static int prepare(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    (void)c;
    struct launch *st = g->state;
    return clb_poison(env->dev, st->dout, 4);
}

static int enqueue(struct clb_env *env, struct launch *st, size_t items, cl_event *ev)
{
    st->counter++;
    int rc = clb_args(st->k, sizeof(cl_mem), &st->dout, sizeof st->counter, &st->counter,
                      (size_t)0);
    return rc ? rc : clb_launch(env->dev, st->k, 1, &items, NULL, ev);
}

static int profile_ns(cl_event ev, cl_profiling_info what, cl_ulong *out)
{
    CLB_CHECK(clGetEventProfilingInfo(ev, what, sizeof *out, out, NULL), "clGetEventProfilingInfo");
    return CLB_OK;
}

/* dispatch: the events' QUEUED -> START, read here (the core times START ->
 * END otherwise); clFlush at once, so that the command is not held back in
 * the host's queue until the wait. */
static int run_dispatch(struct clb_env *env, struct launch *st, struct clb_case *c,
                        struct clb_sample *s)
{
    struct launch_case *lc = c->data;
    cl_event ev;
    int rc = enqueue(env, st, c->global[0], &ev);
    if (rc)
        return rc;
    cl_int err = clFlush(env->dev->queue);
    if (err == CL_SUCCESS)
        err = clWaitForEvents(1, &ev);
    cl_ulong q = 0, sub = 0, start = 0, end = 0;
    if (err != CL_SUCCESS)
        rc = clb_err(CLB_ECL, "clWaitForEvents (launch dispatch): %s", clb_cl_errstr(err));
    if (!rc && !(rc = profile_ns(ev, CL_PROFILING_COMMAND_QUEUED, &q)) &&
        !(rc = profile_ns(ev, CL_PROFILING_COMMAND_SUBMIT, &sub)) &&
        !(rc = profile_ns(ev, CL_PROFILING_COMMAND_START, &start)))
        rc = profile_ns(ev, CL_PROFILING_COMMAND_END, &end);
    clReleaseEvent(ev);
    if (rc)
        return rc;
    s->seconds = start >= q ? (double)(start - q) * 1e-9 : 0;
    if (clb_grow((void **)&lc->sub_start, (size_t)lc->n, &lc->cap[0], sizeof(double), 64) ||
        clb_grow((void **)&lc->start_end, (size_t)lc->n, &lc->cap[1], sizeof(double), 64))
        return CLB_ESYS;
    lc->sub_start[lc->n] = start >= sub && sub >= q ? (double)(start - sub) * 1e-9 : NAN;
    lc->start_end[lc->n++] = end >= start ? (double)(end - start) * 1e-9 : NAN;
    return CLB_OK;
}

static int run(struct clb_env *env, struct clb_group *g, struct clb_case *c, struct clb_sample *s)
{
    struct launch *st = g->state;
    const struct launch_case *lc = c->data;
    if (lc->kind == DISPATCH)
        return run_dispatch(env, st, c, s);
    /* wall clock: nothing of ours may be pending before t0 */
    CLB_CHECK(clFinish(env->dev->queue), "clFinish");
    double t0 = clb_now();
    for (long i = 0; i < lc->batch; i++) {
        int rc = enqueue(env, st, c->global[0], NULL);
        if (rc)
            return rc;
    }
    CLB_CHECK(clFinish(env->dev->queue), "clFinish");
    s->seconds = (clb_now() - t0) / (double)lc->batch;
    return CLB_OK;
}

/* The last launch's number is in the buffer: every launch ran, in order. */
static int verify(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct launch *st = g->state;
    cl_uint got;
    int rc = clb_read(env->dev, st->dout, &got, sizeof got);
    if (rc)
        return rc;
    if (got != st->counter) {
        clb_case_note(c, "the kernel stored %u, the last launch was number %u", got, st->counter);
        return CLB_FAIL;
    }
    return CLB_OK;
}

static int measured(struct clb_env *env, struct clb_group *g, struct clb_case *c,
                    const struct clb_measure *m)
{
    (void)env;
    (void)g;
    const struct launch_case *lc = c->data;
    clb_case_note(c, "latency_us=%.3f", m->t.median * 1e6);
    clb_case_metric(c, "latency_us", m->t.median * 1e6);
    if (lc->kind != DISPATCH || lc->n < m->reps || m->reps < 1)
        return CLB_OK;
    /* the medians of the timed runs (the last m->reps) */
    struct clb_stats a, b;
    const double *sa = lc->sub_start + (lc->n - m->reps), *sb = lc->start_end + (lc->n - m->reps);
    clb_stats_compute(sa, (size_t)m->reps, &a);
    clb_stats_compute(sb, (size_t)m->reps, &b);
    clb_case_metric(c, "submit_to_start_us", a.median * 1e6);
    clb_case_metric(c, "start_to_end_us", b.median * 1e6);
    if (!isnan(a.median))
        clb_case_note(c, "submit_to_start_us=%.3f", a.median * 1e6);
    else
        clb_case_note(c, "the driver's SUBMIT timestamp is not between QUEUED and START");
    if (!isnan(b.median))
        clb_case_note(c, "start_to_end_us=%.3f", b.median * 1e6);
    return CLB_OK;
}

static void teardown(struct clb_env *env, struct clb_group *g)
{
    (void)env;
    struct launch *st = g->state;
    for (int i = 0; i < g->ncases; i++) {
        struct launch_case *lc = g->cases[i].data;
        free(lc->sub_start);
        free(lc->start_end);
    }
    clb_release_kernels(&st->k, 1);
    clb_release_mems(&st->dout, 1);
}

static void summarize(const struct clb_summary_ctx *ctx, const struct clb_row *rows, size_t n,
                      FILE *out)
{
    (void)ctx;
    int header = 0;
    for (size_t i = 0; i < n; i++) {
        const struct clb_row *r = &rows[i];
        if (strcmp(r->status, "ok") || isnan(r->t_median_s))
            continue;
        if (!header++)
            fprintf(out, "\nlaunch latency (median, best), microseconds:\n");
        const char *what = strcmp(r->kernel, "dispatch") == 0    ? "enqueued -> kernel start"
                           : strcmp(r->kernel, "roundtrip") == 0 ? "enqueue -> clFinish returns"
                                                                 : "per launch, back to back";
        fprintf(out, "  %-9s %4s items %10.2f %10.2f  %s\n", r->kernel, r->size,
                r->t_median_s * 1e6, r->t_min_s * 1e6, what);
    }
}

/* Its figure of the headline: one launch's latency. */
static const struct clb_headline headline[] = {{"launch latency", "dispatch", NULL, -1, 0}, {0}};

const struct clb_workload clb_wl_launch = {
    .name = "launch",
    .summary = "kernel launch latency: dispatch (queued -> start), round trip, back-to-back rate",
    .params = params,
    .size_help = "work-items of the empty kernel, e.g. 1 or 1M (default 1)",
    .size_dims = 1,
    .size_unit = "work-items",
    .sizes = {.quick = "1", .ladder = ladder},
    .state_size = sizeof(struct launch),
    .case_size = sizeof(struct launch_case),
    CLB_STEPS,
    .plan = plan,
    .prepare = prepare,
    .measured = measured,
    .summarize = summarize,
    .figure = {.y_metric = "latency_us", .y_label = "launch latency (\xc2\xb5s)", .y_unit = "\xc2\xb5s",
               .lower_is_better = 1, .order = "dispatch,roundtrip,rate"},
    .headline = headline,
};

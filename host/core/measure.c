/* Measuring one configuration: warm up, time until the policy says stop,
 * validate, and turn the times into a row: statistics, rates, the fraction
 * of the peak, the model, the cache mark, the baselines, the energy. Under
 * MPI every rank does this in lockstep (lockstep.c). */
#define _GNU_SOURCE
#include "clb_model.h"
#include "session.h"
#include "timer.h"
#include "watchdog.h"

#include <stdlib.h>
#include <string.h>

/* When to stop timing a configuration (docs/MEASURING.md): after `reps`
 * runs; or once `max_time` seconds of timed runs are spent (and min_reps
 * done); or once min_time is spent, min_reps done and the median's relative
 * standard error (robust: 1.2533 x 1.4826 x MAD / sqrt(n) / median) is below
 * `tolerance`. */
static int timing_stop(const double *t, int n, double spent, const struct clb_run_opts *o)
{
    if (n >= o->reps)
        return 1;
    if (n < o->min_reps)
        return 0;
    if (spent >= o->max_time)
        return 1;
    if (!(o->tolerance > 0) || spent < o->min_time || n < 5)
        return 0;
    double v[64];
    if (n > 64)
        n = 64; /* the robust error of the first 64 is enough to decide */
    memcpy(v, t, (size_t)n * sizeof *v);
    double med = clb_median(v, (size_t)n);
    for (int i = 0; i < n; i++)
        v[i] = fabs(v[i] - med);
    double mad = clb_median(v, (size_t)n);
    double se = 1.2533 * 1.4826 * mad / sqrt((double)n);
    return med > 0 && se <= o->tolerance * med;
}

/* The measured figures of a row: statistics, rates, the peak, the model, the
 * cache mark and the baselines (from `baselines`: this process's rows, or
 * the aggregate rows for an aggregate). */
void clb_fill_figures(struct session *s, struct clb_row *r, struct clb_env *env,
                      struct clb_group *g, struct clb_case *c, const double *t, int n,
                      const struct rows *baselines)
{
    struct clb_stats st;
    clb_stats_compute(t, (size_t)n, &st);
    r->t_min_s = st.min;
    r->t_median_s = st.median;
    r->t_mean_s = st.mean;
    r->t_max_s = st.max;
    r->t_stddev_s = st.stddev;
    r->gbps = clb_rate(r->bytes, st.median) / 1e9;
    r->gbps_best = clb_rate(r->bytes, st.min) / 1e9;
    if (r->flops > 0)
        r->gflops = clb_rate(r->flops, st.median) / 1e9;
    const struct clb_counts *k = &c->counts;
    const struct clb_profile *p = env->profile;
    /* an aggregate's peak is the job's (rank NULL: ranks unlike, no aggregate) */
    double scale = r->rank && !strcmp(r->rank, "all") && r->ranks > 0 ? r->ranks : 1;
    if (!isnan(r->gbps) && !isnan(p->peak_bandwidth_gbs) && p->peak_bandwidth_gbs > 0 &&
        !k->host_bound && !k->compute_bound)
        r->pct_peak_bw = 100.0 * r->gbps / (p->peak_bandwidth_gbs * scale);
    r->model = c->model;
    double pf = clb_profile_peak_gflops(p, g->dtype);
    if (isnan(r->model) && !k->host_bound && r->bytes > 0 && !isnan(p->peak_bandwidth_gbs) &&
        !(k->compute_bound && isnan(pf))) {
        struct clb_roofline rf;
        clb_roofline_predict(r->bytes, r->flops, p->peak_bandwidth_gbs * scale, pf * scale, &rf);
        r->model = k->unit == CLB_UNIT_GFLOPS ? rf.gflops : rf.gbps;
    }
    clb_note_ratios(s, g, c, r->gbps, baselines);
}

/* Time one repetition: the events' START -> END (the core waits for and
 * releases them) or the workload's own seconds in *t, and in *wall the host
 * clock of the same repetition between two clFinish. Where the device's
 * events are not trusted (timer.c), an evented repetition's *t is its wall. */
static int one_rep(struct clb_env *env, struct clb_group *g, struct clb_case *c, double *t,
                   double *wall, int *evented)
{
    struct clb_device *d = env->dev;
    CLB_CHECK(clFinish(d->queue), "clFinish");
    struct clb_sample smp = {NULL, NULL, NAN};
    double t0 = clb_now();
    int rc = g->wl->run(env, g, c, &smp);
    *t = smp.seconds;
    *evented = smp.first != NULL;
    if (rc == CLB_OK && smp.first)
        rc = clb_event_seconds(smp.first, smp.last ? smp.last : smp.first, t);
    cl_int err = rc == CLB_OK ? clFinish(d->queue) : CL_SUCCESS;
    *wall = clb_now() - t0;
    if (smp.first)
        clReleaseEvent(smp.first);
    if (smp.last && smp.last != smp.first)
        clReleaseEvent(smp.last);
    CLB_CHECK(err, "clFinish");
    if (rc == CLB_OK && *evented && d->timer_host)
        *t = *wall;
    return rc;
}

/* Warm up (compilation, first touch: at most a quarter of --max-time after
 * the first run, so a slow configuration keeps its budget), then time until
 * timing_stop. An energy reading is kept only over a window the source
 * resolves; only --energy on or --energy-window stretches the timed runs to
 * it, so by default the suite's time does not grow (docs/ENERGY.md). Under
 * MPI the ranks time each run together and stop on the slowest's times. */
static int time_case(struct session *s, struct clb_env *env, struct clb_group *g,
                     struct clb_case *c, struct timed *tm)
{
    const struct clb_run_opts *o = s->o;
    int rc = CLB_OK;
    double w0 = clb_now();
    for (int i = 0; rc == CLB_OK && i < o->warmup && !clb_signal; i++) {
        double t, w;
        rc = one_rep(env, g, c, &t, &w, &tm->evented);
        if (clb_now() - w0 > o->max_time / 4)
            break;
    }
    rc = clb_agree(s, rc);
    double e0 = NAN, spent = 0;
    tm->n = 0;
    tm->joules = NAN;
    double window = !s->energy ? 0
                    : isnan(o->energy_window) ? clb_energy_min_window(s->energy) : o->energy_window;
    int want_energy = s->energy && (o->energy == CLB_ENERGY_ON || !isnan(o->energy_window));
    if (s->run->mpi) {  /* every rank stretches its window if any rank reads energy */
        double any = want_energy;
        clb_comm_allreduce(&any, 1, CLB_MAX);
        want_energy = any > 0;
    }
    if (rc == CLB_OK && s->energy && clb_energy_read(s->energy, &e0) != CLB_OK)
        e0 = NAN;
    double t_start = clb_now();
    while (rc == CLB_OK) {
        if (CLB_GROW(tm->times, tm->n, tm->times_cap) ||
            CLB_GROW(tm->walls, tm->n, tm->walls_cap) ||
            (s->run->mpi && CLB_GROW(tm->agg, tm->n, tm->agg_cap))) {
            rc = CLB_ESYS;
            break;
        }
        double t = NAN, w = NAN, t0 = clb_now();
        rc = clb_signal ? CLB_EINTR : one_rep(env, g, c, &t, &w, &tm->evented);
        spent += clb_now() - t0;
        tm->times[tm->n] = t;
        tm->walls[tm->n] = w;
        double job_t = t, job_spent = spent;
        rc = clb_agree_rep(s, rc, &job_t, &job_spent);
        if (rc)
            break;
        if (tm->agg)
            tm->agg[tm->n] = job_t;
        tm->n++;
        const double *policy = tm->agg ? tm->agg : tm->times;
        if (timing_stop(policy, tm->n, job_spent, o) &&
            (!want_energy || clb_now() - t_start >= window || tm->n >= CLB_ENERGY_MAX_REPS))
            break;
    }
    tm->wall = clb_now() - t_start;
    double e1;
    if (rc == CLB_OK && !isnan(e0) && tm->wall >= window &&
        clb_energy_read(s->energy, &e1) == CLB_OK)
        tm->joules = e1 - e0;
    return rc;
}

/* The energy columns: joules over the timed runs, their mean power, the
 * source; the board's (or packages') idle power as a note. */
static void energy_row(struct session *s, struct clb_row *r, struct clb_case *c,
                       const struct timed *tm)
{
    if (!s->energy || isnan(tm->joules) || tm->joules < 0)
        return;
    r->energy_j = tm->joules;
    r->avg_power_w = tm->wall > 0 ? tm->joules / tm->wall : NAN;
    r->power_source = clb_energy_source(s->energy);
    if (!isnan(clb_energy_idle_w(s->energy))) {
        clb_case_note(c, "idle_power_w=%.1f", clb_energy_idle_w(s->energy));
        clb_case_metric(c, "idle_power_w", clb_energy_idle_w(s->energy));
    }
}

/* Events the timer check rejects (timer.c) make the device's timer untrusted
 * for the rest of the run, and the case is timed again on the host clock;
 * every case the host clock timed says so in its detail. Under MPI the ranks
 * decide together (the aggregate's times must be of one kind). */
static int check_events(struct session *s, struct clb_env *env, struct clb_group *g,
                        struct clb_case *c, struct timed *tm)
{
    struct clb_device *d = env->dev;
    if (!tm->evented)
        return CLB_OK; /* the workload timed itself on the host clock */
    int rc = CLB_OK;
    if (!d->timer_host) {
        struct clb_buf why = {0};
        double bad = clb_timer_check(d, tm->times, tm->walls, tm->n, &why);
        if (s->run->mpi)
            clb_comm_allreduce(&bad, 1, CLB_MAX);
        if (bad > 0) {
            clb_timer_distrust(d, why.len ? clb_buf_str(&why)
                                          : "another rank's events disagreed with its host clock");
            clb_info("timer: %s %s: %s; from here on kernels are timed on the host clock\n",
                     g->wl->name, c->kernel, d->timer_why ? d->timer_why : "");
            rc = time_case(s, env, g, c, tm);
        }
        clb_buf_free(&why);
        if (bad <= 0 || rc != CLB_OK)
            return rc;
    }
    clb_timer_note(d, &c->detail);
    clb_case_metric(c, "timer_host", 1);
    clb_case_metric(c, "launch_overhead_us", d->launch_s * 1e6); /* not written when NAN */
    s->nhost++;
    return CLB_OK;
}

/* How far above a profile's peak a figure may honestly be: a CPU's cores
 * boost above the clock OpenCL reports (the base clock), by the ratio of
 * the kernel's cpufreq maximum where the kernel says, else by up to
 * CPU_BOOST_MARGIN; a GPU's profile peak is at its boost clock already, and
 * GPU_MARGIN leaves room for the timer's resolution. */
#define CPU_BOOST_MARGIN 1.5
#define GPU_MARGIN 1.05
static double clock_margin(const struct clb_devinfo *di)
{
    if (strcmp(di->type_name, "cpu") && strcmp(di->type_name, "accelerator"))
        return GPU_MARGIN;
    char *text = clb_read_regular("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq",
                                  "cpufreq maximum", 64);
    double khz = text ? strtod(text, NULL) : NAN;
    free(text);
    if (khz > 0 && di->clock_mhz > 0 && khz / 1e3 > di->clock_mhz)
        return GPU_MARGIN * khz / 1e3 / di->clock_mhz;
    return CPU_BOOST_MARGIN;
}

/* A rate the device cannot reach: GFlop/s (best run) above the matched
 * profile's peak for the type times the clock margin. Operations cannot be
 * served by a cache; bytes can (each input is counted once, whatever a cache
 * re-serves), so a bandwidth above the peak is the summary's `!`, not this.
 * The row is an error: its figures stay, its status says not to use them. */
static void check_possible(struct session *s, struct clb_env *env, struct clb_group *g,
                           struct clb_case *c, struct clb_row *r)
{
    double pf = clb_profile_peak_gflops(s->base_profile, g->dtype);
    if (!(r->flops > 0) || !(r->t_min_s > 0) || !(pf > 0) || strcmp(r->status, "ok"))
        return;
    double best = r->flops / r->t_min_s / 1e9, margin = clock_margin(env->info);
    if (best <= margin * pf)
        return;
    clb_case_note(c, "impossible: %.4g GFlop/s is above the peak of profile %s (%.4g GFlop/s x "
                  "%.2f clock margin): a timer or counting fault, not a measurement", best,
                  s->base_profile->id, pf, margin);
    clb_case_metric(c, "impossible", 1);
    r->status = clb_status_name(CLB_ECL);
    s->nimpossible++;
}

/* The row's columns that do not depend on the timed runs. */
static void shape_row(struct session *s, struct clb_env *env, struct clb_case *c, struct clb_row *r)
{
    char range[2][64] = {"", ""};   /* local, global */
    for (unsigned i = 0; i < c->dims; i++) {
        if (c->local[0])
            clb_appendf(range[0], sizeof range[0], "%s%zu", i ? "x" : "", c->local[i]);
        clb_appendf(range[1], sizeof range[1], "%s%zu", i ? "x" : "", c->global[i]);
    }
    r->local_size = clb_keep(s, range[0]);
    r->global_size = clb_keep(s, range[1]);
    size_t llc = clb_llc_bytes(env);
    double fp = c->counts.footprint > 0 ? c->counts.footprint : c->counts.bytes;
    if (llc && !c->counts.host_bound && !c->counts.compute_bound &&
        fp < CLB_RESIDENT_TIMES * (double)llc) {
        clb_case_note(c, "cache_resident (%.3g MB < %d x %.3g MB cache%s)", fp / 1e6,
                      CLB_RESIDENT_TIMES, llc / 1e6,
                      strcmp(clb_llc_from(env), "unit_cap") ? "" : ", its share per compute unit");
        clb_case_metric(c, "cache_resident", 1);
    }
}

/* The workload's `measured` step: work after the timed runs (a profiled
 * solve) can meet a device error too: the row is then an error, never an ok
 * row with a note (the figures stay, the status says they are not to be used). */
static void after_runs(struct session *s, struct clb_env *env, struct clb_group *g,
                       struct clb_case *c, const double *times, int n, struct clb_row *r,
                       struct clb_row *agg)
{
    struct clb_measure m = {.reps = n, .gbps = r->gbps, .gflops = r->gflops};
    clb_stats_compute(times, (size_t)n, &m.t);
    int mrc = clb_agree(s, g->wl->measured(env, g, c, &m));
    if (mrc != CLB_OK && mrc != CLB_EINTR) {
        clb_case_note(c, "after the timed runs: %s", clb_lasterr());
        r->status = clb_status_name(mrc == CLB_SKIP || mrc == CLB_FAIL ? CLB_ECL : mrc);
        if (agg)
            agg->status = r->status;
    }
}

/* Prepare, time (and check the timer), verify: the case's outcome. */
static int run_case(struct session *s, struct clb_env *env, struct clb_group *g,
                    struct clb_case *c, struct timed *tm, int *timed, int *own)
{
    int rc = c->status;
    if (rc == CLB_OK && g->wl->prepare)
        rc = g->wl->prepare(env, g, c);
    rc = clb_agree(s, rc);
    *timed = rc == CLB_OK;
    if (*timed)
        rc = time_case(s, env, g, c, tm);
    if (rc == CLB_OK)
        rc = check_events(s, env, g, c, tm);
    *own = rc; /* this rank's outcome: its row says it; the aggregate says the job's */
    if (rc == CLB_OK) {
        *own = g->wl->verify(env, g, c);
        rc = clb_agree(s, *own);
    }
    return rc;
}

/* The row (and under MPI the aggregate) of a case; CLB_OK when there is one
 * to emit, else the rc that ends the run. */
static int case_rows(struct session *s, struct clb_env *env, struct clb_group *g,
                     struct clb_case *c, struct timed *tm, struct clb_row *r, struct clb_row *agg)
{
    int timed, own;
    int rc = run_case(s, env, g, c, tm, &timed, &own);
    if (rc == CLB_EUSAGE || rc == CLB_EINTR)
        return rc;
    r->status = clb_status_name(rc == CLB_FAIL && own == CLB_OK ? CLB_OK : rc);
    shape_row(s, env, c, r);
    if (g->size_from)
        clb_case_metric_token(c, "size_from", g->size_from);
    if (g->size_from && clb_list_has("rule,ladder,budget", g->size_from))
        clb_case_metric_token(c, "llc_from", clb_llc_from(env));
    if (clb_comm()->devices > 1) /* a process drives several devices, each a rank */
        clb_case_metric(c, "devices_per_rank", clb_comm()->devices);
    char fp[40];
    if (clb_fp_case(env->dev, c->kernel, fp, sizeof fp))
        clb_case_metric_token(c, "fp", fp);
    int figures = timed && (rc == CLB_OK || rc == CLB_FAIL);
    if (figures) {
        r->warmup = s->o->warmup;
        r->reps = tm->n;
        r->bytes = c->counts.bytes;
        r->flops = c->counts.flops;
    }
    if (rc == CLB_ECL || rc == CLB_ESYS)
        clb_case_note(c, "%s", clb_lasterr());
    /* The aggregate first: its notes (ratios to aggregate baselines) are its own. */
    if (s->run->mpi) {
        /* keep this rank's notes and metrics apart */
        struct clb_buf notes = c->detail, mine = c->metrics;
        c->detail = c->metrics = (struct clb_buf){0};
        clb_buf_add(&c->detail, clb_buf_str(&notes), notes.len);
        clb_buf_add(&c->metrics, clb_buf_str(&mine), mine.len);
        int arc = clb_aggregate_row(s, r, env, g, c, tm, agg);
        agg->status = clb_status_name(rc);
        clb_buf_free(&c->detail);
        clb_buf_free(&c->metrics);
        c->detail = notes;
        c->metrics = mine;
        if (arc)
            return arc;
    }
    if (figures) {
        clb_fill_figures(s, r, env, g, c, tm->times, tm->n, &s->rows);
        energy_row(s, r, c, tm);
        if (g->wl->measured)
            after_runs(s, env, g, c, tm->times, tm->n, r, s->run->mpi ? agg : NULL);
        check_possible(s, env, g, c, r);
    }
    r->detail = clb_keep(s, clb_buf_str(&c->detail));
    r->metrics = clb_keep(s, clb_buf_str(&c->metrics));
    return CLB_OK;
}

int clb_measure_case(struct session *s, struct clb_env *env, struct clb_group *g,
                     struct clb_case *c)
{
    struct clb_row r, agg;
    clb_base_row(s, &r, g);
    r.kernel = clb_keep(s, c->kernel);
    r.params = clb_keep(s, c->params);
    struct timed tm = {.joules = NAN};
    if (s->run->mpi && CLB_GROW(tm.agg, 0, tm.agg_cap)) /* tm.agg set: the job's times */
        return CLB_ESYS;
    s->cur_case = c;
    char *outer = clb_watchdog_enter("%s %s %s%s%s%s%s", g->wl->name, c->kernel, g->dtype,
                                     g->dtype[0] ? " " : "", g->size_text,
                                     c->params[0] ? " " : "", c->params);
    int rc = case_rows(s, env, g, c, &tm, &r, &agg);
    clb_watchdog_leave(outer);
    s->cur_case = NULL;
    free(tm.agg);
    free(tm.walls);
    free(tm.times);
    if (rc)
        return rc;
    clb_progress(s, g, c->kernel, c->params, s->run->mpi ? &agg : &r, c->counts.unit, 0);
    return clb_emit(s, &r, s->run->mpi ? &agg : NULL);
}

/* `clbench run`: the driver. Owns device selection, default sizes, the
 * timing loop and statistics, skips, result rows, ratios to baselines,
 * models, progress and the summary; workloads only fill in the steps of
 * clb_workload.h. Nothing here knows a workload by name. */
#define _GNU_SOURCE
#include "clb_model.h"
#include "core.h"
#include "energy.h"
#include "summary.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t interrupted;

/* The first signal asks the run to stop after the current repetition and
 * release the device; a second one (a hung driver call) ends it at once,
 * as if no handler were installed. Rows already written are whole either way. */
static void on_signal(int sig)
{
    if (interrupted) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
    interrupted = sig;
}

int clb_interrupted(void) { return interrupted != 0; }

/* What the whole invocation holds: the devices, the profiles, the progress
 * over every device. */
struct run {
    struct clb_run_opts *o;
    struct clb_profiles profiles;
    struct clb_devinfo *devs;
    int ndev;
    int *sel, nsel;           /* the selected devices (indices into devs) */
    long done, total;         /* configurations measured / planned, all devices */
    double t0;                /* start of the measurements */
    int status;               /* the worst exit status so far */
    char *host;
};

/* One device's part of the run. */
struct session {
    struct run *run;
    struct clb_run_opts *o;
    struct clb_profile generic, custom;
    const struct clb_profile *profile;
    struct clb_device dev;
    int dev_open;
    struct clb_energy *energy; /* NULL: no source (or --energy off) */
    struct clb_writer out;
    char *outpath, *run_id;
    struct clb_arena arena;   /* the strings of this device's rows */
    struct clb_row *rows;     /* this device's rows: the summary and the baselines */
    size_t nrows, caprows;
    int nfailed, nerror, nok, nskip;
    struct clb_buf first_bad; /* the first error or failure, repeated at the end */
};

static struct clb_env make_env(struct session *s, const struct clb_workload *wl)
{
    struct clb_env env = {&s->dev, &s->dev.info, s->profile, wl, &s->o->params, s->o->quick};
    return env;
}

/* ---- devices and profiles ------------------------------------------------ */

/* -d SPEC: one device, "all", or a comma list of specs. */
static int select_devices(struct run *r)
{
    const char *spec = r->o->device;
    r->sel = clb_xcalloc((size_t)r->ndev, sizeof *r->sel);
    if (!r->sel)
        return CLB_ESYS;
    if (spec && strcmp(spec, "all") == 0) {
        for (int i = 0; i < r->ndev; i++)
            if (strcmp(r->devs[i].type_name, "emulator") != 0)
                r->sel[r->nsel++] = i;
        if (!r->nsel) {
            clb_seterr("-d all: only emulated devices were found; name one with -d INDEX");
            return CLB_EUSAGE;
        }
        return CLB_OK;
    }
    int n = 1;
    char **list = NULL;
    if (spec && strchr(spec, ',')) {
        list = clb_split(spec, &n);
        if (!list)
            return CLB_ESYS;
    }
    int rc = CLB_OK;
    for (int i = 0; i < n && rc == CLB_OK; i++) {
        int idx = clb_select_device(r->devs, r->ndev, list ? list[i] : spec);
        if (idx < 0) {
            rc = CLB_EUSAGE;
            break;
        }
        int dup = 0;
        for (int k = 0; k < r->nsel; k++)
            dup |= r->sel[k] == idx;
        if (!dup)
            r->sel[r->nsel++] = idx;
    }
    free(list);
    return rc;
}

/* The profile of a device: forced (-p, with a warning when it does not
 * match), matched, or generic; then the peaks of --peak-* over it. */
static int pick_profile(struct session *s, const struct clb_devinfo *di)
{
    struct clb_run_opts *o = s->o;
    const struct clb_profiles *ps = &s->run->profiles;
    const struct clb_profile *p = NULL;
    if (o->profile && strcmp(o->profile, "generic") != 0) {
        p = clb_profiles_find(ps, o->profile);
        if (!p) {
            struct clb_buf known = {0};
            for (size_t i = 0; i < ps->n; i++)
                clb_buf_printf(&known, "%s, ", ps->v[i].id);
            clb_seterr("unknown profile '%s' (known: %sgeneric)", o->profile, clb_buf_str(&known));
            clb_buf_free(&known);
            return CLB_EUSAGE;
        }
        if (clb_profiles_match(ps, di) != p)
            clb_info("warning: profile '%s' (%s) was forced on device '%s', which it does not "
                     "match (its match: %s): peaks and models are that profile's\n",
                     p->id, p->name, di->name, p->match ? p->match : "none");
    } else if (!o->profile) {
        p = clb_profiles_match(ps, di);
    }
    if (!p) {
        clb_profile_generic(&s->generic, di);
        p = &s->generic;
    }
    s->profile = p;
    if (isnan(o->peak_bw) && isnan(o->peak_sp) && isnan(o->peak_dp))
        return CLB_OK;
    /* A shallow copy with the command line's peaks; its strings stay the
     * original's (freed with it, never with the copy). */
    s->custom = *p;
    if (!isnan(o->peak_bw))
        s->custom.peak_bandwidth_gbs = o->peak_bw;
    if (!isnan(o->peak_sp))
        s->custom.peak_gflops_sp = o->peak_sp;
    if (!isnan(o->peak_dp))
        s->custom.peak_gflops_dp = o->peak_dp;
    s->custom.id = clb_asprintf("%s+cli-peaks", p->id);
    if (!s->custom.id)
        return CLB_ESYS;
    s->profile = &s->custom;
    return CLB_OK;
}

static int open_output(struct session *s)
{
    if (s->o->output) {
        s->outpath = clb_strdup(s->o->output);
    } else {
        /* a user's own runs: apart from the committed measurements, git-ignored */
        char *slug = clb_slug(s->dev.info.name);
        s->outpath = slug ? clb_asprintf("results/local/%s.%s", slug,
                                         s->o->format == CLB_FORMAT_JSON ? "jsonl" : "csv")
                          : NULL;
        free(slug);
    }
    if (!s->outpath)
        return CLB_ESYS;
    enum clb_format f = s->o->format_set ? s->o->format : clb_format_of_path(s->outpath);
    return clb_writer_open(&s->out, s->outpath, f) ? CLB_EUSAGE : CLB_OK;
}

/* The device line comes before any set-up, so a user sees what runs. */
static void announce(struct session *s)
{
    const struct clb_devinfo *di = &s->dev.info;
    clb_info("device %d '%s' (%s, %s), profile %s, results to %s%s%s\n", di->index, di->name,
             di->type_name, di->platform_name, s->profile->id, s->outpath,
             s->energy ? ", energy from " : "", s->energy ? clb_energy_source(s->energy) : "");
}

/* ---- rows ------------------------------------------------------------- */

static const char *keep(struct session *s, const char *text)
{
    const char *p = clb_arena_intern(&s->arena, text, strlen(text));
    return p ? p : "";
}

static void base_row(struct session *s, struct clb_row *r, const struct clb_group *g)
{
    clb_row_init(r);
    time_t now = time(NULL);
    struct tm tm;
    char ts[32];
    gmtime_r(&now, &tm);
    strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
    r->run_id = s->run_id;
    r->timestamp = keep(s, ts);
    r->host = s->run->host;
    r->platform = s->dev.info.platform_name;
    r->device = s->dev.info.name;
    r->device_type = s->dev.info.type_name;
    r->driver = s->dev.info.driver;
    r->profile = s->profile->id;
    r->workload = g->wl->name;
    r->dtype = g->dtype;
    r->size = g->size_text;
    r->clbench_version = CLB_VERSION;
    r->ranks = 1;
    r->rank = "0";
}

/* Remember the first error (else the first validation failure) for the
 * closing message on stderr: with -q it is the only place the reason shows. */
static void note_bad(struct session *s, const struct clb_row *r)
{
    int err = strcmp(r->status, "error") == 0;
    if (!err && strcmp(r->status, "failed") != 0)
        return;
    if (s->first_bad.len && !(err && !s->nerror))
        return;
    clb_buf_free(&s->first_bad);
    clb_buf_printf(&s->first_bad, "%s %s %s %s: %s", r->workload, r->kernel, r->dtype, r->size,
                   r->detail);
}

static int emit(struct session *s, struct clb_row *r)
{
    note_bad(s, r);
    if (s->nrows == s->caprows) {
        size_t cap = s->caprows ? 2 * s->caprows : 64;
        void *nv = realloc(s->rows, cap * sizeof *s->rows);
        if (!nv) {
            clb_seterr("out of host memory");
            return CLB_ESYS;
        }
        s->rows = nv;
        s->caprows = cap;
    }
    s->rows[s->nrows++] = *r;
    if (strcmp(r->status, "ok") == 0) s->nok++;
    else if (strcmp(r->status, "failed") == 0) s->nfailed++;
    else if (strcmp(r->status, "skipped") == 0) s->nskip++;
    else s->nerror++;
    return clb_writer_put(&s->out, r);
}

static const char *status_name(int rc)
{
    switch (rc) {
    case CLB_OK: return "ok";
    case CLB_FAIL: return "failed";
    case CLB_SKIP: return "skipped";
    default: return "error";
    }
}

/* ---- progress ------------------------------------------------------------ */

static void fmt_duration(char *buf, size_t n, double s)
{
    if (s < 60)
        snprintf(buf, n, "%.0fs", s);
    else if (s < 3600)
        snprintf(buf, n, "%dm%02ds", (int)(s / 60), (int)s % 60);
    else
        snprintf(buf, n, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
}

/* "[37/253] transpose best float 8192x8192 best=64x4v4: 2831.20 GB/s ok  ETA 1m40s":
 * one counter over the whole invocation; the ETA from the mean wall time
 * per configuration so far. */
static void progress(struct session *s, const struct clb_group *g, const char *kernel,
                     const char *params, const struct clb_row *r, enum clb_unit unit)
{
    struct run *run = s->run;
    run->done++;
    if (run->done > run->total)
        run->total = run->done;
    if (clb_verbosity < 1)
        return;
    fprintf(stderr, "[%ld/%ld] %s %s %s %s%s%s", run->done, run->total, g->wl->name, kernel,
            g->dtype, g->size_text, params[0] ? " " : "", params);
    if (!isnan(r->gflops) && unit == CLB_UNIT_GFLOPS)
        fprintf(stderr, ": %.1f GFlop/s", r->gflops);
    else if (!isnan(r->gbps))
        fprintf(stderr, ": %.2f GB/s", r->gbps);
    int ok = strcmp(r->status, "ok") == 0;
    fprintf(stderr, " %s%s%s", r->status, !ok && r->detail[0] ? ": " : "", ok ? "" : r->detail);
    double spent = clb_now() - run->t0;
    if (run->total > run->done && run->done > 0) {
        char eta[32];
        fmt_duration(eta, sizeof eta, spent / (double)run->done * (double)(run->total - run->done));
        fprintf(stderr, "  ETA %s", eta);
    }
    fputc('\n', stderr);
}

/* A row for a whole group that could not run (skip or error). */
static int group_row(struct session *s, const struct clb_group *g, const char *status,
                     const char *detail, int planned)
{
    struct clb_row r;
    base_row(s, &r, g);
    r.kernel = "*";
    r.status = status;
    r.detail = keep(s, detail);
    /* the group's planned configurations are one row now */
    s->run->total -= planned > 1 ? planned - 1 : 0;
    progress(s, g, "*", "", &r, CLB_UNIT_GBPS);
    return emit(s, &r);
}

/* ---- baselines -------------------------------------------------------- */

/* The baseline's figure for a row: a kernel of this workload is looked up in
 * the same group (type and size); a kernel of another workload is the best
 * ok row of this run with the same type, else with any type. */
static double baseline_gbps(const struct session *s, const struct clb_group *g, const char *bwl,
                            const char *bk)
{
    int same = strcmp(bwl, g->wl->name) == 0;
    double best = 0, any = 0;
    for (size_t i = 0; i < s->nrows; i++) {
        const struct clb_row *r = &s->rows[i];
        if (strcmp(r->workload, bwl) || strcmp(r->kernel, bk) || strcmp(r->status, "ok") ||
            isnan(r->gbps))
            continue;
        int same_type = strcmp(r->dtype, g->dtype) == 0;
        if (same && (!same_type || strcmp(r->size, g->size_text)))
            continue;
        if (same_type && r->gbps > best)
            best = r->gbps;
        if (r->gbps > any)
            any = r->gbps;
    }
    return best > 0 ? best : any;
}

static void note_ratios(struct session *s, const struct clb_group *g, struct clb_case *c,
                        double gbps)
{
    const char *list = g->wl->baselines;
    if (!list || isnan(gbps) || c->counts.host_bound)
        return;
    int n;
    char **bl = clb_split(list, &n);
    for (int i = 0; bl && i < n; i++) {
        char *slash = strchr(bl[i], '/');
        if (!slash)
            continue;
        *slash = 0;
        const char *bwl = bl[i], *bk = slash + 1;
        int same = strcmp(bwl, g->wl->name) == 0;
        if (same && strcmp(bk, c->kernel) == 0)
            continue; /* the baseline itself */
        double base = baseline_gbps(s, g, bwl, bk);
        if (base > 0) {
            if (same)
                clb_case_note(c, "of_%s=%.3f", bk, gbps / base);
            else
                clb_case_note(c, "of_%s_%s=%.3f", bwl, bk, gbps / base);
        }
    }
    free(bl);
}

/* ---- measuring -------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int clb_timing_stop(const double *t, int n, double spent, const struct clb_run_opts *o)
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
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    double med = (n % 2) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    for (int i = 0; i < n; i++)
        v[i] = fabs(v[i] - med);
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    double mad = (n % 2) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    double se = 1.2533 * 1.4826 * mad / sqrt((double)n);
    return med > 0 && se <= o->tolerance * med;
}

static void fmt_range(char *buf, size_t n, const size_t *v, unsigned dims)
{
    buf[0] = 0;
    for (unsigned i = 0; i < dims; i++)
        clb_appendf(buf, n, "%s%zu", i ? "x" : "", v[i]);
}

/* Fill the measured figures of a row: statistics, rates, the peak, the
 * model, the cache mark and the baselines. */
static void measured_row(struct session *s, struct clb_row *r, struct clb_env *env,
                         struct clb_group *g, struct clb_case *c, const double *t, int n)
{
    struct clb_measure m;
    clb_stats_compute(t, (size_t)n, &m.t);
    m.reps = n;
    r->t_min_s = m.t.min;
    r->t_median_s = m.t.median;
    r->t_mean_s = m.t.mean;
    r->t_max_s = m.t.max;
    r->t_stddev_s = m.t.stddev;
    const struct clb_counts *k = &c->counts;
    r->gbps = m.gbps = clb_rate(k->bytes, m.t.median) / 1e9;
    r->gbps_best = clb_rate(k->bytes, m.t.min) / 1e9;
    m.gflops = NAN;
    if (k->flops > 0)
        r->gflops = m.gflops = clb_rate(k->flops, m.t.median) / 1e9;
    const struct clb_profile *p = env->profile;
    if (!isnan(r->gbps) && !isnan(p->peak_bandwidth_gbs) && p->peak_bandwidth_gbs > 0 &&
        !k->host_bound)
        r->pct_peak_bw = 100.0 * r->gbps / p->peak_bandwidth_gbs;
    r->model = c->model;
    if (isnan(r->model) && !k->host_bound && k->bytes > 0 && !isnan(p->peak_bandwidth_gbs)) {
        struct clb_roofline rf;
        clb_roofline_predict(k->bytes, k->flops, p->peak_bandwidth_gbs,
                             clb_profile_peak_gflops(p, g->dtype), &rf);
        r->model = k->unit == CLB_UNIT_GFLOPS ? rf.gflops : rf.gbps;
    }
    /* Host transfers and CPU baselines are not served by the device's cache. */
    double fp = k->footprint > 0 ? k->footprint : k->bytes;
    size_t llc = clb_llc_bytes(env);
    if (llc && !k->host_bound && fp < 4.0 * (double)llc)
        clb_case_note(c, "cache_resident (%.3g MB < 4 x %.3g MB cache)", fp / 1e6, llc / 1e6);
    note_ratios(s, g, c, r->gbps);
    if (g->wl->measured)
        g->wl->measured(env, g, c, &m);
}

/* Time one repetition; the events are the core's to wait for and release. */
static int one_rep(struct clb_env *env, struct clb_group *g, struct clb_case *c, double *t)
{
    struct clb_sample smp = {NULL, NULL, NAN};
    int rc = g->wl->run(env, g, c, &smp);
    *t = smp.seconds;
    if (rc == CLB_OK && smp.first)
        rc = clb_event_seconds(smp.first, smp.last ? smp.last : smp.first, t);
    if (smp.first)
        clReleaseEvent(smp.first);
    if (smp.last && smp.last != smp.first)
        clReleaseEvent(smp.last);
    return rc;
}

/* What the timed runs of a configuration gave besides their times. */
struct timed {
    int n;               /* timed runs */
    double wall;         /* seconds the timed runs took, wall clock */
    double joules;       /* energy over them; NAN when none was read */
};

/* Warm up (compilation, first touch), then time until the policy says stop
 * (clb_timing_stop). Warm-up runs stop early, after the first, once they
 * took a quarter of --max-time: a slow configuration should not spend its
 * budget warming up. With an energy source the counter is read around the
 * timed runs, which go on until they span --energy-window (a counter that
 * updates every few tens of milliseconds cannot resolve less). */
static int time_case(struct session *s, struct clb_env *env, struct clb_group *g,
                     struct clb_case *c, double **times, int *cap, struct timed *tm)
{
    const struct clb_run_opts *o = s->o;
    int rc = CLB_OK;
    double w0 = clb_now();
    for (int i = 0; rc == CLB_OK && i < o->warmup && !interrupted; i++) {
        double t;
        rc = one_rep(env, g, c, &t);
        if (clb_now() - w0 > o->max_time / 4)
            break;
    }
    double e0 = NAN, spent = 0;
    tm->n = 0;
    tm->joules = NAN;
    if (rc == CLB_OK && s->energy && clb_energy_read(s->energy, &e0) != CLB_OK)
        e0 = NAN;
    double t_start = clb_now();
    while (rc == CLB_OK && !interrupted) {
        if (tm->n == *cap) {
            int ncap = *cap * 2;
            double *nv = realloc(*times, (size_t)ncap * sizeof *nv);
            if (!nv) {
                rc = CLB_ESYS;
                break;
            }
            *times = nv;
            *cap = ncap;
        }
        double t, t0 = clb_now();
        rc = one_rep(env, g, c, &t);
        spent += clb_now() - t0;
        if (rc == CLB_OK)
            (*times)[tm->n++] = t;
        if (rc == CLB_OK && clb_timing_stop(*times, tm->n, spent, o) &&
            (isnan(e0) || clb_now() - t_start >= o->energy_window ||
             tm->n >= CLB_ENERGY_MAX_REPS))
            break;
    }
    tm->wall = clb_now() - t_start;
    double e1;
    if (rc == CLB_OK && !isnan(e0) && clb_energy_read(s->energy, &e1) == CLB_OK)
        tm->joules = e1 - e0;
    return interrupted ? CLB_EINTR : rc;
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
    if (!isnan(clb_energy_idle_w(s->energy)))
        clb_case_note(c, "idle_power_w=%.1f", clb_energy_idle_w(s->energy));
}

static int measure_case(struct session *s, struct clb_env *env, struct clb_group *g,
                        struct clb_case *c, double **times, int *cap)
{
    struct clb_row r;
    base_row(s, &r, g);
    r.kernel = keep(s, c->kernel);
    r.params = keep(s, c->params);
    int rc = c->status;
    struct timed tm = {0, 0, NAN};
    if (rc == CLB_OK && g->wl->prepare)
        rc = g->wl->prepare(env, g, c);
    if (rc == CLB_OK)
        rc = time_case(s, env, g, c, times, cap, &tm);
    if (rc == CLB_EINTR)
        return rc;
    if (rc == CLB_OK)
        rc = g->wl->verify(env, g, c);
    if (rc == CLB_EUSAGE || rc == CLB_EINTR)
        return rc;
    r.status = status_name(rc);
    char range[64];
    fmt_range(range, sizeof range, c->local, c->local[0] ? c->dims : 0);
    r.local_size = keep(s, range);
    fmt_range(range, sizeof range, c->global, c->dims);
    r.global_size = keep(s, range);
    if (rc == CLB_OK || rc == CLB_FAIL) {
        r.warmup = s->o->warmup;
        r.reps = tm.n;
        r.bytes = c->counts.bytes;
        r.flops = c->counts.flops;
        measured_row(s, &r, env, g, c, *times, tm.n);
        energy_row(s, &r, c, &tm);
    }
    if (rc == CLB_ECL || rc == CLB_ESYS)
        clb_case_note(c, "%s", clb_lasterr());
    r.detail = keep(s, clb_buf_str(&c->detail));
    progress(s, g, c->kernel, c->params, &r, c->counts.unit);
    return emit(s, &r);
}

static void group_free(struct clb_env *env, struct clb_group *g)
{
    g->wl->teardown(env, g);
    for (int i = 0; i < g->ncases; i++)
        clb_case_free(&g->cases[i]);
    free(g->cases);
    g->cases = NULL;
    g->ncases = g->cap = 0;
}

/* Before set-up: the group's own count must exist (else the size is refused,
 * exit 2) and fit the device (else one skipped row naming both numbers). */
static int check_group(struct session *s, struct clb_group *g, char **why)
{
    *why = NULL;
    int rc = clb_count_group(g->wl, g->dtype, &g->size, &s->o->params, &g->counts);
    if (rc) {
        char *m = clb_strdup(clb_lasterr());
        clb_seterr("%s: size %s%s%s: %s", g->wl->name, g->size_text, g->dtype[0] ? " of " : "",
                   g->dtype, m ? m : "");
        free(m);
        return rc;
    }
    if (g->dtype[0] && clb_dtype_is_double(g->dtype) && !s->dev.info.fp64) {
        *why = clb_strdup("device has no fp64 (cl_khr_fp64)");
        return CLB_SKIP;
    }
    /* The counts are exact integers below 2^64 (clb_count_done). */
    if (clb_fits(&s->dev, (size_t)g->counts.largest, (size_t)g->counts.footprint) != CLB_OK) {
        *why = clb_strdup(clb_lasterr());
        return CLB_SKIP;
    }
    return CLB_OK;
}

static size_t unit_bytes(const struct clb_workload *wl, const char *dtype)
{
    if (wl->size_in_bytes)
        return 1;
    return dtype[0] ? clb_dtype_size(dtype) : 0;
}

/* Parse a size (clb_parse_size) and run its extra check. */
static int parse_group_size(const struct clb_workload *wl, const char *dtype, const char *text,
                            struct clb_size *out)
{
    char err[512];
    if (clb_parse_size(text, wl->size_dims, unit_bytes(wl, dtype), out, err, sizeof err)) {
        clb_seterr("%s: %s", wl->name, err);
        return CLB_EUSAGE;
    }
    if (wl->check_size && wl->check_size(out)) {
        char *m = clb_strdup(clb_lasterr());
        clb_seterr("%s: %s", wl->name, m ? m : "");
        free(m);
        return CLB_EUSAGE;
    }
    return CLB_OK;
}

static int plan_group(struct session *s, const struct clb_workload *wl, const char *dtype,
                      const struct clb_size *size)
{
    if (!wl->plan)
        return 1;
    struct clb_env env = make_env(s, wl);
    env.dev = NULL; /* a plan reads the device's description only */
    int k = wl->plan(&env, dtype, size);
    return k > 0 ? k : 1;
}

static int run_group(struct session *s, const struct clb_workload *wl, const char *dtype,
                     const struct clb_size *size)
{
    struct clb_env env = make_env(s, wl);
    struct clb_group g;
    memset(&g, 0, sizeof g);
    g.wl = wl;
    g.dtype = dtype;
    g.size = *size;
    char text[128];
    clb_size_text(size, text, sizeof text);
    g.size_text = keep(s, text);
    int planned = plan_group(s, wl, dtype, size);
    char *why;
    int rc = check_group(s, &g, &why);
    if (rc == CLB_EUSAGE || rc == CLB_ESYS)
        return rc;
    if (rc == CLB_SKIP) {
        rc = group_row(s, &g, "skipped", why ? why : "", planned);
        free(why);
        return rc;
    }
    clb_debug("%s %s %s: setting up\n", wl->name, dtype, g.size_text);
    rc = wl->setup(&env, &g);
    if (rc == CLB_EUSAGE || rc == CLB_EINTR) {
        group_free(&env, &g);
        return rc;
    }
    if (rc != CLB_OK) {
        char *msg = clb_strdup(clb_lasterr());
        group_free(&env, &g);
        rc = group_row(s, &g, rc == CLB_SKIP ? "skipped" : "error", msg ? msg : "", planned);
        free(msg);
        return rc;
    }
    s->run->total += g.ncases - planned; /* the plan was an estimate */
    int cap = s->o->reps > 16 ? s->o->reps : 16;
    double *times = clb_xcalloc((size_t)cap, sizeof *times);
    if (!times)
        rc = CLB_ESYS;
    for (int i = 0; rc == CLB_OK && i < g.ncases; i++)
        rc = interrupted ? CLB_EINTR : measure_case(s, &env, &g, &g.cases[i], &times, &cap);
    free(times);
    group_free(&env, &g);
    return rc;
}

/* The (type, size) groups of a workload on this device, in order. */
struct groups {
    const char **dtype;
    struct clb_size *size;
    int n;
};

static void groups_free(struct groups *gs)
{
    free(gs->dtype);
    free(gs->size);
    memset(gs, 0, sizeof *gs);
}

static int groups_add(struct groups *gs, const char *dtype, const struct clb_size *size)
{
    void *nd = realloc(gs->dtype, (size_t)(gs->n + 1) * sizeof *gs->dtype);
    if (nd)
        gs->dtype = nd;
    void *ns = nd ? realloc(gs->size, (size_t)(gs->n + 1) * sizeof *gs->size) : NULL;
    if (!ns)
        return CLB_ESYS;
    gs->size = ns;
    gs->dtype[gs->n] = dtype;
    gs->size[gs->n++] = *size;
    return CLB_OK;
}

static int list_groups(struct session *s, const struct clb_workload *wl, struct groups *gs)
{
    memset(gs, 0, sizeof *gs);
    int ntypes = 1;
    char **types = NULL;
    if (wl->dtypes) {
        types = clb_split(s->o->types ? s->o->types : wl->default_dtypes, &ntypes);
        if (!types)
            return CLB_ESYS;
    }
    int rc = CLB_OK;
    for (int t = 0; t < ntypes && rc == CLB_OK; t++) {
        const char *dtype = types ? keep(s, types[t]) : "";
        if (types && !clb_list_has(wl->dtypes, dtype))
            continue; /* -t lists types of other workloads too */
        char *sizes = NULL;
        if (!s->o->sizes) {
            struct clb_env env = make_env(s, wl);
            if (!(sizes = clb_default_sizes(&env, dtype))) {
                rc = CLB_ESYS;
                break;
            }
        }
        int nsz;
        char **sz = clb_split(sizes ? sizes : s->o->sizes, &nsz);
        if (!sz)
            rc = CLB_ESYS;
        for (int i = 0; sz && i < nsz && rc == CLB_OK; i++) {
            struct clb_size size;
            if (!(rc = parse_group_size(wl, dtype, sz[i], &size)))
                rc = groups_add(gs, dtype, &size);
        }
        free(sz);
        free(sizes);
    }
    free(types);
    if (rc)
        groups_free(gs);
    return rc;
}

/* ---- one device ----------------------------------------------------------- */

static void session_free(struct session *s)
{
    clb_energy_close(s->energy);
    if (s->dev_open)
        clb_close(&s->dev);
    clb_writer_close(&s->out);
    if (s->profile == &s->custom)
        free(s->custom.id);
    if (s->generic.id)
        clb_profile_free(&s->generic);
    free(s->rows);
    free(s->outpath);
    free(s->run_id);
    clb_arena_free(&s->arena);
    clb_buf_free(&s->first_bad);
}

static int device_status(const struct session *s, int rc)
{
    if (rc == CLB_EINTR || interrupted)
        return 128 + (interrupted ? (int)interrupted : SIGINT);
    if (rc != CLB_OK)
        return clb_exit_status(rc);
    if (s->nfailed)
        return CLB_EXIT_FAILED;
    if (s->nerror)
        return CLB_EXIT_ERROR;
    if (s->nrows && s->nskip == (int)s->nrows)
        return CLB_EXIT_NOTHING;
    return CLB_EXIT_OK;
}

/* Plan this device's groups (for the overall counter), then run them. */
static int run_device(struct run *run, struct session *s, struct groups *plan)
{
    struct clb_run_opts *o = run->o;
    int rc = CLB_OK;
    for (int w = 0; w < o->nwl && rc == CLB_OK; w++)
        for (int i = 0; i < plan[w].n && rc == CLB_OK; i++)
            rc = run_group(s, o->wls[w], plan[w].dtype[i], &plan[w].size[i]);
    if (rc == CLB_EUSAGE || rc == CLB_ECL || rc == CLB_ESYS)
        clb_die_msg("%s", clb_lasterr());
    if (rc != CLB_EINTR && s->nrows) {
        clb_summary_print(s->rows, s->nrows, o->wls, o->nwl, stdout);
        printf("\n%s: %d ok, %d failed, %d skipped, %d error; results in %s\n", s->dev.info.name,
               s->nok, s->nfailed, s->nskip, s->nerror, s->outpath);
    }
    int status = device_status(s, rc);
    if (!interrupted && (s->nerror || s->nfailed))
        clb_die_msg("%d configuration%s ended in an error, %d failed validation; first: %s",
                    s->nerror, s->nerror == 1 ? "" : "s", s->nfailed, clb_buf_str(&s->first_bad));
    if (status == CLB_EXIT_NOTHING)
        clb_die_msg("every configuration was skipped on '%s': nothing was measured (exit %d)",
                    s->dev.info.name, CLB_EXIT_NOTHING);
    if (interrupted)
        clb_die_msg("interrupted; %zu row%s measured before the signal are in %s", s->nrows,
                    s->nrows == 1 ? "" : "s", s->outpath);
    return status;
}

/* Open a device, plan its groups (every size parsed and counted before the
 * first set-up), and add them to the overall total. */
static int open_device(struct run *run, struct session *s, int idx, struct groups **plan)
{
    memset(s, 0, sizeof *s);
    s->run = run;
    s->o = run->o;
    s->out.fd = -1;
    const struct clb_devinfo *di = &run->devs[idx];
    int rc = pick_profile(s, di);
    if (!rc)
        rc = clb_open(&s->dev, di, s->o->kernel_dir);
    s->dev_open = rc == CLB_OK;
    if (!rc)
        rc = open_output(s);
    if (!rc && s->o->energy != CLB_ENERGY_OFF) {
        char *why = NULL;
        s->energy = clb_energy_open(di, &why);
        if (!s->energy && s->o->energy == CLB_ENERGY_ON)
            clb_info("energy: %s: the energy columns stay empty\n", why ? why : "no source");
        else if (!s->energy && why)
            clb_debug("energy: %s\n", why);
        free(why);
    }
    if (!rc && !(s->run_id = clb_asprintf("%lx-%ld-%d", (unsigned long)time(NULL),
                                          (long)getpid(), di->index)))
        rc = CLB_ESYS;
    *plan = rc ? NULL : clb_xcalloc((size_t)s->o->nwl, sizeof **plan);
    if (!rc && !*plan)
        rc = CLB_ESYS;
    for (int w = 0; !rc && w < s->o->nwl; w++) {
        if ((rc = list_groups(s, s->o->wls[w], &(*plan)[w])))
            break;
        for (int i = 0; i < (*plan)[w].n; i++)
            run->total += plan_group(s, s->o->wls[w], (*plan)[w].dtype[i], &(*plan)[w].size[i]);
    }
    return rc;
}

/* ---- the run ------------------------------------------------------------ */

static char *host_name(void)
{
    char buf[256];
    if (gethostname(buf, sizeof buf) != 0)
        return clb_strdup("");
    buf[sizeof buf - 1] = 0;
    return clb_strdup(buf);
}

static int worse(int a, int b)
{
    /* a validation failure is the worst outcome, then errors, then "nothing measured" */
    static const int rank[] = {0, 5, 3, 4, 2};
    if (a > 4 || b > 4)
        return a > 4 ? a : b; /* a signal */
    return rank[a] >= rank[b] ? a : b;
}

int clb_driver_run(struct clb_run_opts *o)
{
    struct run run;
    memset(&run, 0, sizeof run);
    run.o = o;
    int rc = clb_load_profiles_for(o->platforms_dir, &run.profiles);
    if (!rc)
        rc = clb_devices(&run.devs, &run.ndev);
    if (!rc)
        rc = select_devices(&run);
    if (!rc && !(run.host = host_name()))
        rc = CLB_ESYS;
    int nsel = rc ? 0 : run.nsel;
    struct session *ss = nsel ? clb_xcalloc((size_t)nsel, sizeof *ss) : NULL;
    struct groups **plans = nsel ? clb_xcalloc((size_t)nsel, sizeof *plans) : NULL;
    if (nsel && (!ss || !plans))
        rc = CLB_ESYS;
    /* Every device is opened and planned before the first measurement: a
     * bad size or output path is refused before anything runs. */
    for (int d = 0; !rc && d < nsel; d++)
        rc = open_device(&run, &ss[d], run.sel[d], &plans[d]);
    if (rc) {
        clb_die_msg("%s", clb_lasterr());
        run.status = clb_exit_status(rc);
    } else {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        run.t0 = clb_now();
        for (int d = 0; d < nsel && !interrupted; d++) {
            announce(&ss[d]);
            run.status = worse(run.status, run_device(&run, &ss[d], plans[d]));
        }
    }
    for (int d = 0; d < nsel; d++) {
        for (int w = 0; plans && plans[d] && w < o->nwl; w++)
            groups_free(&plans[d][w]);
        if (plans)
            free(plans[d]);
        if (ss)
            session_free(&ss[d]);
    }
    free(plans);
    free(ss);
    clb_profiles_free(&run.profiles);
    free(run.devs);
    free(run.sel);
    free(run.host);
    return run.status;
}

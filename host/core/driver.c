/* `clbench run`: the driver. Owns device selection, default sizes, the
 * timing loop and statistics, skips, CSV rows, ratios to baselines, models,
 * progress and the summary; workloads only fill in the steps of
 * clb_workload.h. Nothing here knows a workload by name. */
#define _GNU_SOURCE
#include "clb_model.h"
#include "core.h"
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

/* Everything one invocation of `run` holds. */
struct session {
    struct clb_run_opts *o;
    struct clb_profiles profiles;
    struct clb_profile generic;
    const struct clb_profile *profile;
    struct clb_devinfo *devs;
    int ndev;
    struct clb_device dev;
    int dev_open;
    struct clb_writer out;
    char *outpath, *run_id, *host;
    struct clb_arena arena;   /* the strings of this run's rows */
    struct clb_row *rows;     /* this run's rows: the summary and the baselines */
    size_t nrows, caprows;
    int nfailed, nerror, nok, nskip;
    struct clb_buf first_bad; /* the first error or failure, repeated at the end */
};

static struct clb_env make_env(struct session *s, const struct clb_workload *wl)
{
    struct clb_env env = {&s->dev, &s->dev.info, s->profile, wl, &s->o->params, s->o->quick};
    return env;
}

/* ---- device, profile, output ------------------------------------------- */

static int setup_device(struct session *s)
{
    int rc = clb_load_profiles_for(s->o->platforms_dir, &s->profiles);
    if (rc || (rc = clb_devices(&s->devs, &s->ndev))) {
        clb_die_msg("%s", clb_lasterr());
        return rc;
    }
    int idx = clb_select_device(s->devs, s->ndev, s->o->device);
    if (idx < 0) {
        clb_die_msg("%s", clb_lasterr());
        return CLB_EUSAGE;
    }
    const struct clb_devinfo *di = &s->devs[idx];
    if (s->o->profile) {
        s->profile = clb_profiles_find(&s->profiles, s->o->profile);
        if (!s->profile && strcmp(s->o->profile, "generic") != 0) {
            struct clb_buf known = {0};
            for (size_t i = 0; i < s->profiles.n; i++)
                clb_buf_printf(&known, "%s, ", s->profiles.v[i].id);
            clb_die_msg("unknown profile '%s' (known: %sgeneric)", s->o->profile,
                        clb_buf_str(&known));
            clb_buf_free(&known);
            return CLB_EUSAGE;
        }
    } else {
        s->profile = clb_profiles_match(&s->profiles, di);
    }
    if (!s->profile) {
        clb_profile_generic(&s->generic, di);
        s->profile = &s->generic;
    }
    if ((rc = clb_open(&s->dev, di, s->o->kernel_dir))) {
        clb_die_msg("%s", clb_lasterr());
        return rc;
    }
    s->dev_open = 1;
    return CLB_OK;
}

static int open_output(struct session *s)
{
    if (s->o->output) {
        s->outpath = clb_strdup(s->o->output);
    } else {
        char *slug = clb_slug(s->dev.info.name);
        s->outpath = slug ? clb_asprintf("results/runs/%s.csv", slug) : NULL;
        free(slug);
    }
    if (!s->outpath)
        return CLB_ESYS;
    if (clb_writer_open(&s->out, s->outpath)) {
        clb_die_msg("%s", clb_lasterr());
        return CLB_EUSAGE;
    }
    return CLB_OK;
}

/* The device line comes before any set-up, so a user sees what runs. */
static void announce(struct session *s)
{
    const struct clb_devinfo *di = &s->dev.info;
    clb_info("device %d '%s' (%s, %s), profile %s, results to %s\n", di->index, di->name,
             di->type_name, di->platform_name, s->profile->id, s->outpath);
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
    r->host = s->host;
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

/* A row for a whole group that could not run (skip or error). */
static int group_row(struct session *s, const struct clb_group *g, const char *status,
                     const char *detail)
{
    struct clb_row r;
    base_row(s, &r, g);
    r.kernel = "*";
    r.status = status;
    r.detail = keep(s, detail);
    clb_info("  %s %s %s: %s: %s\n", g->wl->name, g->dtype, g->size_text, status, detail);
    return emit(s, &r);
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
    if (!isnan(r->gbps) && !isnan(p->peak_bandwidth_gbs) && p->peak_bandwidth_gbs > 0)
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

static void progress(const struct clb_group *g, const struct clb_case *c, int idx,
                     const struct clb_row *r, int rc)
{
    if (clb_verbosity < 1)
        return;
    fprintf(stderr, "  [%d/%d] %s %s %s %s%s%s", idx + 1, g->ncases, g->wl->name, c->kernel,
            g->dtype, g->size_text, c->params[0] ? " " : "", c->params);
    if (!isnan(r->gflops) && c->counts.unit == CLB_UNIT_GFLOPS)
        fprintf(stderr, ": %.1f GFlop/s", r->gflops);
    else if (!isnan(r->gbps))
        fprintf(stderr, ": %.2f GB/s", r->gbps);
    fprintf(stderr, " %s%s%s\n", r->status, rc != CLB_OK && r->detail[0] ? ": " : "",
            rc != CLB_OK ? r->detail : "");
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

static int measure_case(struct session *s, struct clb_env *env, struct clb_group *g,
                        struct clb_case *c, int idx, double *times)
{
    const struct clb_run_opts *o = s->o;
    struct clb_row r;
    base_row(s, &r, g);
    r.kernel = keep(s, c->kernel);
    r.params = keep(s, c->params);
    int rc = c->status;
    int n = 0;
    if (rc == CLB_OK && g->wl->prepare)
        rc = g->wl->prepare(env, g, c);
    for (int i = 0; rc == CLB_OK && i < o->warmup + o->reps && !interrupted; i++) {
        double t;
        rc = one_rep(env, g, c, &t);
        if (rc == CLB_OK && i >= o->warmup)
            times[n++] = t;
    }
    if (interrupted)
        return CLB_EINTR;
    if (rc == CLB_OK)
        rc = g->wl->verify(env, g, c);
    if (rc == CLB_EUSAGE)
        return rc;
    r.status = status_name(rc);
    char range[64];
    fmt_range(range, sizeof range, c->local, c->local[0] ? c->dims : 0);
    r.local_size = keep(s, range);
    fmt_range(range, sizeof range, c->global, c->dims);
    r.global_size = keep(s, range);
    if (rc == CLB_OK || rc == CLB_FAIL) {
        r.warmup = o->warmup;
        r.reps = n;
        r.bytes = c->counts.bytes;
        r.flops = c->counts.flops;
        measured_row(s, &r, env, g, c, times, n);
    }
    if (rc == CLB_ECL || rc == CLB_ESYS)
        clb_case_note(c, "%s", clb_lasterr());
    r.detail = keep(s, clb_buf_str(&c->detail));
    progress(g, c, idx, &r, rc);
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
    /* Count limits are doubles; anything past size_t is refused above. */
    if (clb_fits(&s->dev, (size_t)g->counts.largest, (size_t)g->counts.footprint) != CLB_OK) {
        *why = clb_strdup(clb_lasterr());
        return CLB_SKIP;
    }
    return CLB_OK;
}

static int run_group(struct session *s, const struct clb_workload *wl, const char *dtype,
                     const char *size)
{
    struct clb_env env = make_env(s, wl);
    struct clb_group g;
    memset(&g, 0, sizeof g);
    g.wl = wl;
    g.dtype = dtype;
    g.size_text = keep(s, size);
    char err[512];
    if (clb_parse_dims(size, wl->size_dims, &g.size, err, sizeof err)) {
        clb_die_msg("%s: %s", wl->name, err);
        return CLB_EUSAGE;
    }
    if (wl->check_size && wl->check_size(&g.size)) {
        clb_die_msg("%s: %s", wl->name, clb_lasterr());
        return CLB_EUSAGE;
    }
    char *why;
    int rc = check_group(s, &g, &why);
    if (rc == CLB_EUSAGE || rc == CLB_ESYS) {
        clb_die_msg("%s", clb_lasterr());
        return rc;
    }
    if (rc == CLB_SKIP) {
        rc = group_row(s, &g, "skipped", why ? why : "");
        free(why);
        return rc;
    }
    clb_debug("%s %s %s: setting up\n", wl->name, dtype, size);
    rc = wl->setup(&env, &g);
    if (rc == CLB_EUSAGE) {
        clb_die_msg("%s", clb_lasterr());
        group_free(&env, &g);
        return rc;
    }
    if (rc != CLB_OK) {
        char *msg = clb_strdup(clb_lasterr());
        group_free(&env, &g);
        rc = group_row(s, &g, rc == CLB_SKIP ? "skipped" : "error", msg ? msg : "");
        free(msg);
        return rc;
    }
    double *times = clb_xcalloc((size_t)s->o->reps, sizeof *times);
    if (!times)
        rc = CLB_ESYS;
    for (int i = 0; rc == CLB_OK && i < g.ncases; i++)
        rc = measure_case(s, &env, &g, &g.cases[i], i, times);
    free(times);
    group_free(&env, &g);
    if (rc == CLB_EUSAGE)
        clb_die_msg("%s", clb_lasterr());
    return rc;
}

static int run_workload(struct session *s, const struct clb_workload *wl)
{
    int ntypes = 1;
    char **types = NULL;
    if (wl->dtypes) {
        types = clb_split(s->o->types ? s->o->types : wl->default_dtypes, &ntypes);
        if (!types)
            return CLB_ESYS;
    }
    int rc = CLB_OK;
    for (int t = 0; t < ntypes && rc == CLB_OK; t++) {
        const char *dtype = types ? types[t] : "";
        if (types && !clb_list_has(wl->dtypes, dtype))
            continue; /* -t lists types of other workloads too */
        char *sizes = NULL;
        if (!s->o->sizes) {
            struct clb_env env = make_env(s, wl);
            sizes = clb_default_sizes(&env, dtype);
            if (!sizes) {
                rc = CLB_ESYS;
                break;
            }
        }
        int nsz;
        char **sz = clb_split(sizes ? sizes : s->o->sizes, &nsz);
        if (!sz) {
            free(sizes);
            rc = CLB_ESYS;
            break;
        }
        for (int i = 0; i < nsz && rc == CLB_OK; i++)
            rc = run_group(s, wl, keep(s, dtype), sz[i]);
        free(sz);
        free(sizes);
    }
    free(types);
    return rc;
}

/* ---- the run ------------------------------------------------------------ */

static void session_free(struct session *s)
{
    if (s->dev_open)
        clb_close(&s->dev);
    clb_writer_close(&s->out);
    clb_profiles_free(&s->profiles);
    if (s->profile == &s->generic)
        clb_profile_free(&s->generic);
    free(s->devs);
    free(s->rows);
    free(s->outpath);
    free(s->run_id);
    free(s->host);
    clb_arena_free(&s->arena);
    clb_buf_free(&s->first_bad);
}

static char *host_name(void)
{
    char buf[256];
    if (gethostname(buf, sizeof buf) != 0)
        return clb_strdup("");
    buf[sizeof buf - 1] = 0;
    return clb_strdup(buf);
}

int clb_driver_run(struct clb_run_opts *o)
{
    struct session s;
    memset(&s, 0, sizeof s);
    s.o = o;
    s.out.fd = -1;
    int rc = setup_device(&s);
    if (rc == CLB_OK)
        rc = open_output(&s);
    if (rc == CLB_OK) {
        s.host = host_name();
        s.run_id = clb_asprintf("%lx-%ld", (unsigned long)time(NULL), (long)getpid());
        if (!s.host || !s.run_id)
            rc = CLB_ESYS;
    }
    if (rc != CLB_OK) {
        session_free(&s);
        return clb_exit_status(rc);
    }
    announce(&s);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    for (int w = 0; w < o->nwl && rc == CLB_OK; w++)
        rc = run_workload(&s, o->wls[w]);
    if (rc == CLB_ECL || rc == CLB_ESYS)
        clb_die_msg("%s", clb_lasterr());
    if (rc != CLB_EINTR)
        clb_summary_print(s.rows, s.nrows, o->wls, o->nwl, stdout);
    if (rc != CLB_EINTR && s.nrows)
        printf("\n%d ok, %d failed, %d skipped, %d error; results in %s\n", s.nok, s.nfailed,
               s.nskip, s.nerror, s.outpath);
    int status;
    if (rc == CLB_EINTR || interrupted)
        status = 128 + (interrupted ? (int)interrupted : SIGINT);
    else if (rc != CLB_OK)
        status = clb_exit_status(rc);
    else if (s.nfailed)
        status = CLB_EXIT_FAILED;
    else if (s.nerror)
        status = CLB_EXIT_ERROR;
    else
        status = CLB_EXIT_OK;
    if (!interrupted && (s.nerror || s.nfailed))
        clb_die_msg("%d configuration%s ended in an error, %d failed validation; first: %s",
                    s.nerror, s.nerror == 1 ? "" : "s", s.nfailed, clb_buf_str(&s.first_bad));
    if (interrupted)
        clb_die_msg("interrupted; %zu row%s measured before the signal are in %s", s.nrows,
                    s.nrows == 1 ? "" : "s", s.outpath);
    session_free(&s);
    return status;
}

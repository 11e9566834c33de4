/* `clbench run`: the driver. Owns device selection, the timing loop and
 * statistics, skips, CSV rows, progress and the summary; workloads only fill
 * in the steps of clb_workload.h. */
#define _GNU_SOURCE
#include "clb_cli.h"
#include "clb_stats.h"
#include "clb_workload.h"

#include <getopt.h>
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
    struct clb_opts opts;
    const struct clb_workload *wls[64];
    int nwl;
    struct clb_profiles profiles;
    struct clb_profile generic;
    const struct clb_profile *profile;
    struct clb_devinfo *devs;
    int ndev;
    struct clb_device dev;
    int dev_open;
    struct clb_writer out;
    char outpath[512];
    char run_id[40], host[64];
    struct clb_row *rows;     /* this run's rows, for the summary */
    size_t nrows, caprows;
    int nfailed, nerror, nok, nskip;
    char first_bad[768];      /* the first error or failure, repeated at the end */
    int announced;
};

static const struct option longopts[] = {
    {"device", required_argument, 0, 'd'},   {"profile", required_argument, 0, 'p'},
    {"type", required_argument, 0, 't'},     {"size", required_argument, 0, 's'},
    {"reps", required_argument, 0, 'n'},     {"warmup", required_argument, 0, 'W'},
    {"param", required_argument, 0, 'P'},    {"quick", no_argument, 0, 'Q'},
    {"output", required_argument, 0, 'o'},   {"quiet", no_argument, 0, 'q'},
    {"verbose", no_argument, 0, 'v'},        {"kernel-dir", required_argument, 0, 'K'},
    {"platforms-dir", required_argument, 0, 'L'}, {"help", no_argument, 0, 'h'},
    {0, 0, 0, 0}};

static void run_usage(FILE *f)
{
    fputs("usage: clbench run WORKLOAD[,WORKLOAD...]|all [options]\n"
          "  -d, --device SPEC     flat index, P:D, part of a device name, or cpu|gpu|accelerator\n"
          "  -p, --profile NAME    force a profile (default: matched by device name)\n"
          "  -t, --type LIST       element types, e.g. float,double\n"
          "  -s, --size LIST       problem sizes (see 'clbench WORKLOAD --help')\n"
          "  -n, --reps N          timed repetitions (default 20)\n"
          "      --warmup N        untimed repetitions first (default 3)\n"
          "      --param K=V       workload parameter, repeatable (V: value, list or range a..b)\n"
          "      --quick           small sizes, for smoke tests and CI\n"
          "  -o, --output FILE     results CSV (default results/runs/<device>.csv, appended)\n"
          "  -q, --quiet / -v, --verbose\n"
          "      --kernel-dir DIR  load kernels from DIR instead of the embedded copies\n"
          "      --platforms-dir DIR  profiles directory\n"
          "workloads: ",
          f);
    for (int i = 0; clb_workloads[i]; i++)
        fprintf(f, "%s%s", i ? ", " : "", clb_workloads[i]->name);
    fputc('\n', f);
}

static void known_workloads(char *buf, size_t n)
{
    buf[0] = 0;
    for (int i = 0; clb_workloads[i]; i++)
        clb_appendf(buf, n, "%s%s", i ? ", " : "", clb_workloads[i]->name);
}

static int parse_nonneg(const char *opt, const char *v, int min, int *out)
{
    char *end;
    long x = strtol(v, &end, 10);
    if (!*v || *end || x < min || x > 1000000) {
        clb_die_msg("bad %s '%s' (accepted: an integer %d..1000000)", opt, v, min);
        return CLB_EUSAGE;
    }
    *out = (int)x;
    return CLB_OK;
}

static int parse_args(struct session *s, int argc, char **argv)
{
    struct clb_opts *o = &s->opts;
    o->reps = 20;
    o->warmup = 3;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":d:p:t:s:n:o:qvh", longopts, NULL)) != -1) {
        switch (c) {
        case 'd': o->device = optarg; break;
        case 'p': o->profile = optarg; break;
        case 't': o->types = optarg; break;
        case 's': o->sizes = optarg; break;
        case 'o': o->output = optarg; break;
        case 'K': o->kernel_dir = optarg; break;
        case 'L': o->platforms_dir = optarg; break;
        case 'Q': o->quick = 1; break;
        case 'q': clb_verbosity = 0; break;
        case 'v': clb_verbosity = 2; break;
        case 'n': if (parse_nonneg("--reps", optarg, 1, &o->reps)) return CLB_EUSAGE; break;
        case 'W': if (parse_nonneg("--warmup", optarg, 0, &o->warmup)) return CLB_EUSAGE; break;
        case 'P':
            if (clb_kvlist_add(&o->params, optarg)) {
                clb_die_msg("%s", clb_lasterr());
                return CLB_EUSAGE;
            }
            break;
        case 'h': run_usage(stdout); return -1;
        case ':': clb_die_msg("option '%s' needs a value", argv[optind - 1]); return CLB_EUSAGE;
        default:
            clb_die_msg("unknown option '%s' (see 'clbench run --help')", argv[optind - 1]);
            return CLB_EUSAGE;
        }
    }
    if (optind >= argc) {
        clb_die_msg("run: which workload? (known: all, or see 'clbench --help')");
        return CLB_EUSAGE;
    }
    if (optind + 1 < argc) {
        clb_die_msg("run: unexpected argument '%s' (give workloads as one comma list)",
                    argv[optind + 1]);
        return CLB_EUSAGE;
    }
    const char *list = argv[optind];
    if (strcmp(list, "all") == 0) {
        for (int i = 0; clb_workloads[i] && s->nwl < 64; i++)
            s->wls[s->nwl++] = clb_workloads[i];
        return CLB_OK;
    }
    int n;
    char **names = clb_split(list, &n);
    if (!names)
        return CLB_ESYS;
    for (int i = 0; i < n && s->nwl < 64; i++) {
        const struct clb_workload *wl = clb_workload_find(names[i]);
        if (!wl) {
            char known[512];
            known_workloads(known, sizeof known);
            clb_die_msg("unknown workload '%s' (known: %s, all)", names[i], known);
            free(names);
            return CLB_EUSAGE;
        }
        s->wls[s->nwl++] = wl;
    }
    free(names);
    if (s->nwl == 0) {
        clb_die_msg("run: empty workload list");
        return CLB_EUSAGE;
    }
    return CLB_OK;
}

/* Every --param key must belong to a selected workload; every -t type to one
 * that accepts it; every -s size must parse for each selected workload. */
static int check_args(struct session *s)
{
    const struct clb_opts *o = &s->opts;
    for (size_t i = 0; i < o->params.n; i++) {
        const char *key = o->params.v[i].key;
        int found = 0;
        char known[512] = "";
        for (int w = 0; w < s->nwl; w++)
            for (const struct clb_param_def *p = s->wls[w]->params; p && p->key; p++) {
                if (strcmp(p->key, key) == 0)
                    found = 1;
                if (!clb_list_has(known, p->key))
                    clb_appendf(known, sizeof known, "%s%s", known[0] ? "," : "", p->key);
            }
        if (!found) {
            clb_die_msg("unknown parameter '%s' for %s (known: %s)", key,
                        s->nwl == 1 ? s->wls[0]->name : "the selected workloads",
                        known[0] ? known : "none");
            return CLB_EUSAGE;
        }
    }
    if (o->types) {
        int n;
        char **types = clb_split(o->types, &n);
        if (!types)
            return CLB_ESYS;
        for (int i = 0; i < n; i++) {
            int ok = 0;
            for (int w = 0; w < s->nwl; w++)
                ok |= s->wls[w]->dtypes && clb_list_has(s->wls[w]->dtypes, types[i]);
            if (!ok) {
                clb_die_msg("unknown type '%s' (accepted: %s)", types[i],
                            s->nwl == 1 && s->wls[0]->dtypes ? s->wls[0]->dtypes
                                                              : "float, double and others per workload");
                free(types);
                return CLB_EUSAGE;
            }
        }
        free(types);
        if (n == 0) {
            clb_die_msg("empty type list");
            return CLB_EUSAGE;
        }
    }
    if (o->sizes) {
        int n;
        char **sizes = clb_split(o->sizes, &n);
        if (!sizes)
            return CLB_ESYS;
        int rc = n ? CLB_OK : CLB_EUSAGE;
        if (!n)
            clb_die_msg("empty size list");
        for (int i = 0; i < n && !rc; i++)
            for (int w = 0; w < s->nwl && !rc; w++) {
                struct clb_size sz;
                char err[256];
                if (clb_parse_dims(sizes[i], s->wls[w]->size_dims, &sz, err, sizeof err) ||
                    (s->wls[w]->check_size && s->wls[w]->check_size(&sz, err, sizeof err))) {
                    clb_die_msg("%s: %s", s->wls[w]->name, err);
                    rc = CLB_EUSAGE;
                }
            }
        free(sizes);
        return rc;
    }
    return CLB_OK;
}

static int setup_device(struct session *s)
{
    int rc = clb_load_profiles_for(s->opts.platforms_dir, &s->profiles);
    if (rc) {
        clb_die_msg("%s", clb_lasterr());
        return rc;
    }
    if ((rc = clb_devices(&s->devs, &s->ndev))) {
        clb_die_msg("%s", clb_lasterr());
        return rc;
    }
    int idx = clb_select_device(s->devs, s->ndev, s->opts.device);
    if (idx < 0) {
        clb_die_msg("%s", clb_lasterr());
        return CLB_EUSAGE;
    }
    const struct clb_devinfo *di = &s->devs[idx];
    if (s->opts.profile) {
        s->profile = clb_profiles_find(&s->profiles, s->opts.profile);
        if (!s->profile && strcmp(s->opts.profile, "generic") != 0) {
            char known[1024] = "";
            for (size_t i = 0; i < s->profiles.n; i++)
                clb_appendf(known, sizeof known, "%s%s", i ? ", " : "", s->profiles.v[i].id);
            clb_die_msg("unknown profile '%s' (known: %s, generic)", s->opts.profile, known);
            return CLB_EUSAGE;
        }
    } else {
        s->profile = clb_profiles_match(&s->profiles, di);
    }
    if (!s->profile) {
        clb_profile_generic(&s->generic, di);
        s->profile = &s->generic;
    }
    if ((rc = clb_open(&s->dev, di, s->opts.kernel_dir))) {
        clb_die_msg("%s", clb_lasterr());
        return rc;
    }
    s->dev_open = 1;
    return CLB_OK;
}

/* Progress starts with the device; it is held back until the first result
 * so that a refusal found during set-up stays the only line on stderr. */
static void announce(struct session *s)
{
    if (s->announced)
        return;
    s->announced = 1;
    const struct clb_devinfo *di = &s->dev.info;
    clb_info("clbench: device %d '%s' (%s, %s), profile %s, results to %s\n", di->index, di->name,
             di->type_name, di->platform_name, s->profile->id, s->outpath);
}

static int open_output(struct session *s)
{
    if (s->opts.output) {
        clb_strlcpy(s->outpath, s->opts.output, sizeof s->outpath);
    } else {
        char slug[128];
        clb_slug(s->dev.info.name, slug, sizeof slug);
        snprintf(s->outpath, sizeof s->outpath, "results/runs/%s.csv", slug);
    }
    if (clb_writer_open(&s->out, s->outpath)) {
        clb_die_msg("%s", clb_lasterr());
        return CLB_EUSAGE;
    }
    return CLB_OK;
}

/* ---- rows ------------------------------------------------------------- */

static void base_row(struct session *s, struct clb_row *r, const struct clb_workload *wl,
                     const struct clb_group *g)
{
    clb_row_init(r);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(r->timestamp, sizeof r->timestamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
    clb_strlcpy(r->run_id, s->run_id, sizeof r->run_id);
    clb_strlcpy(r->host, s->host, sizeof r->host);
    clb_strlcpy(r->platform, s->dev.info.platform_name, sizeof r->platform);
    clb_strlcpy(r->device, s->dev.info.name, sizeof r->device);
    clb_strlcpy(r->device_type, s->dev.info.type_name, sizeof r->device_type);
    clb_strlcpy(r->driver, s->dev.info.driver, sizeof r->driver);
    clb_strlcpy(r->profile, s->profile->id, sizeof r->profile);
    clb_strlcpy(r->workload, wl->name, sizeof r->workload);
    clb_strlcpy(r->dtype, g->dtype, sizeof r->dtype);
    clb_strlcpy(r->size, g->size_text, sizeof r->size);
}

static void fmt_range(char *buf, size_t n, const size_t *v, unsigned dims)
{
    buf[0] = 0;
    for (unsigned i = 0; i < dims; i++)
        clb_appendf(buf, n, "%s%zu", i ? "x" : "", v[i]);
}

/* The best stream copy bandwidth of this run for a type (0 if none). */
static double copy_baseline(const struct session *s, const char *dtype)
{
    double best = 0, any = 0;
    for (size_t i = 0; i < s->nrows; i++) {
        const struct clb_row *r = &s->rows[i];
        if (strcmp(r->workload, "stream") || strcmp(r->kernel, "copy") || strcmp(r->status, "ok"))
            continue;
        if (strcmp(r->dtype, dtype) == 0 && r->gbps > best)
            best = r->gbps;
        if (r->gbps > any)
            any = r->gbps;
    }
    return best > 0 ? best : any;
}

/* Remember the first error (else the first validation failure) for the
 * closing message on stderr: with -q it is the only place the reason shows. */
static void note_bad(struct session *s, const struct clb_row *r, const char *why)
{
    int err = strcmp(r->status, "error") == 0;
    if (!err && strcmp(r->status, "failed") != 0)
        return;
    if (s->first_bad[0] && !(err && !s->nerror))
        return;
    snprintf(s->first_bad, sizeof s->first_bad, "%s %s %s %s: %s", r->workload, r->kernel,
             r->dtype, r->size, why);
}

static int emit(struct session *s, struct clb_row *r, const char *why)
{
    note_bad(s, r, why ? why : r->detail);
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
static int group_row(struct session *s, const struct clb_workload *wl, const struct clb_group *g,
                     const char *status, const char *detail)
{
    struct clb_row r;
    base_row(s, &r, wl, g);
    clb_strlcpy(r.kernel, "*", sizeof r.kernel);
    clb_strlcpy(r.status, status, sizeof r.status);
    clb_strlcpy(r.detail, detail, sizeof r.detail);
    announce(s);
    clb_info("  %s %s %s: %s: %s\n", wl->name, g->dtype, g->size_text, status, detail);
    return emit(s, &r, NULL);
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

/* Fill the measured figures of a row. */
static void measured_row(struct session *s, struct clb_row *r, const struct clb_env *env,
                         struct clb_case *c, const double *t, int n)
{
    struct clb_stats st;
    clb_stats_compute(t, (size_t)n, &st);
    r->t_min = st.min;
    r->t_median = st.median;
    r->t_mean = st.mean;
    r->t_max = st.max;
    r->t_stddev = st.stddev;
    r->gbps = clb_rate(c->bytes, st.median) / 1e9;
    r->gbps_best = clb_rate(c->bytes, st.min) / 1e9;
    if (c->flops > 0)
        r->gflops = clb_rate(c->flops, st.median) / 1e9;
    const struct clb_profile *p = env->profile;
    if (!isnan(r->gbps) && !isnan(p->peak_bandwidth_gbs) && p->peak_bandwidth_gbs > 0)
        r->pct_peak_bw = 100.0 * r->gbps / p->peak_bandwidth_gbs;
    r->model = c->model;
    if (isnan(r->model) && c->bytes > 0 && c->dims > 0) {
        /* Roofline: peak bandwidth x intensity, capped by peak flops. */
        double bw = p->peak_bandwidth_gbs, fl = clb_profile_peak_gflops(p, r->dtype);
        double ai = c->flops / c->bytes;
        if (c->main_gflops && !isnan(bw))
            r->model = isnan(fl) ? bw * ai : fmin(bw * ai, fl);
        else if (!c->main_gflops && !isnan(bw))
            r->model = (c->flops > 0 && !isnan(fl)) ? fmin(bw, fl / ai) : bw;
    }
    /* Only device kernels can be served by the device's cache; host
     * transfers and CPU baselines (no ND-range) are not marked. */
    double fp = c->footprint > 0 ? c->footprint : c->bytes;
    size_t llc = clb_llc_bytes(env);
    if (llc && c->dims > 0 && fp < 4.0 * (double)llc)
        clb_case_note(c, "cache_resident (%.3g MB < 4 x %.3g MB cache)", fp / 1e6, llc / 1e6);
    if (strcmp(r->workload, "stream") != 0 && !isnan(r->gbps) && c->dims > 0) {
        double base = copy_baseline(s, r->dtype);
        if (base > 0)
            clb_case_note(c, "of_stream_copy=%.3f", r->gbps / base);
    }
}

static int measure_case(struct session *s, struct clb_env *env, struct clb_group *g,
                        struct clb_case *c, int idx, double *times)
{
    const struct clb_workload *wl = env->wl;
    const struct clb_opts *o = &s->opts;
    struct clb_row r;
    base_row(s, &r, wl, g);
    clb_strlcpy(r.kernel, c->kernel, sizeof r.kernel);
    clb_strlcpy(r.params, c->params, sizeof r.params);
    int rc = c->status;
    int n = 0;
    if (rc == CLB_OK && wl->prepare)
        rc = wl->prepare(env, g, c);
    for (int i = 0; rc == CLB_OK && i < o->warmup + o->reps && !interrupted; i++) {
        struct clb_sample smp = {NULL, NULL, NAN};
        rc = wl->run(env, g, c, &smp);
        double t = smp.seconds;
        if (rc == CLB_OK && smp.first)
            rc = clb_event_seconds(smp.first, smp.last ? smp.last : smp.first, &t);
        if (smp.first)
            clReleaseEvent(smp.first);
        if (smp.last && smp.last != smp.first)
            clReleaseEvent(smp.last);
        if (rc == CLB_OK && i >= o->warmup)
            times[n++] = t;
    }
    if (interrupted)
        return CLB_EINTR;
    if (rc == CLB_OK)
        rc = wl->verify(env, g, c);
    if (rc == CLB_EUSAGE)
        return rc;
    clb_strlcpy(r.status, status_name(rc), sizeof r.status);
    fmt_range(r.local_size, sizeof r.local_size, c->local, c->local[0] ? c->dims : 0);
    fmt_range(r.global_size, sizeof r.global_size, c->global, c->dims);
    if (rc == CLB_OK || rc == CLB_FAIL) {
        r.warmup = o->warmup;
        r.reps = n;
        r.bytes = c->bytes;
        r.flops = c->flops;
        measured_row(s, &r, env, c, times, n);
    }
    char why[512] = "";
    if (rc == CLB_ECL || rc == CLB_ESYS) {
        clb_strlcpy(why, clb_lasterr(), sizeof why);
        clb_case_note(c, "%s", why);
    }
    clb_strlcpy(r.detail, c->detail, sizeof r.detail);
    if (clb_verbosity >= 1) {
        announce(s);
        fprintf(stderr, "  [%d/%d] %s %s %s %s%s%s", idx + 1, g->ncases, wl->name, c->kernel, g->dtype,
                g->size_text, c->params[0] ? " " : "", c->params);
        if (!isnan(r.gflops) && c->main_gflops)
            fprintf(stderr, ": %.1f GFlop/s", r.gflops);
        else if (!isnan(r.gbps))
            fprintf(stderr, ": %.2f GB/s", r.gbps);
        fprintf(stderr, " %s%s%s\n", r.status, rc != CLB_OK && r.detail[0] ? ": " : "",
                rc != CLB_OK ? r.detail : "");
    }
    int wrc = emit(s, &r, why[0] ? why : NULL);
    return wrc ? wrc : CLB_OK;
}

static int run_group(struct session *s, const struct clb_workload *wl, const char *dtype,
                     const char *size)
{
    struct clb_env env = {&s->dev, &s->dev.info, s->profile, &s->opts, wl, s->opts.quick};
    struct clb_group g;
    memset(&g, 0, sizeof g);
    g.dtype = dtype;
    g.size_text = size;
    char err[256];
    if (clb_parse_dims(size, wl->size_dims, &g.size, err, sizeof err)) {
        clb_die_msg("%s: %s", wl->name, err);
        return CLB_EUSAGE;
    }
    const char *why = dtype[0] ? clb_dtype_unsupported(&env, dtype) : NULL;
    if (why)
        return group_row(s, wl, &g, "skipped", why);
    clb_debug("%s %s %s: setting up\n", wl->name, dtype, size);
    int rc = wl->setup(&env, &g);
    if (rc == CLB_EUSAGE) {
        clb_die_msg("%s", clb_lasterr());
        wl->teardown(&env, &g);
        free(g.cases);
        return rc;
    }
    if (rc != CLB_OK) {
        char msg[512];
        clb_strlcpy(msg, clb_lasterr(), sizeof msg);
        wl->teardown(&env, &g);
        free(g.cases);
        return group_row(s, wl, &g, rc == CLB_SKIP ? "skipped" : "error", msg);
    }
    double *times = clb_xmalloc((size_t)s->opts.reps * sizeof *times);
    if (!times)
        rc = CLB_ESYS;
    for (int i = 0; rc == CLB_OK && i < g.ncases; i++)
        rc = measure_case(s, &env, &g, &g.cases[i], i, times);
    free(times);
    wl->teardown(&env, &g);
    free(g.cases);
    if (rc == CLB_EUSAGE)
        clb_die_msg("%s", clb_lasterr());
    return rc;
}

static int run_workload(struct session *s, const struct clb_workload *wl)
{
    int ntypes = 1;
    char **types = NULL;
    char *deflt_types = NULL;
    if (wl->dtypes) {
        const char *tl = s->opts.types ? s->opts.types : wl->default_dtypes;
        types = clb_split(tl, &ntypes);
        if (!types)
            return CLB_ESYS;
    }
    int rc = CLB_OK;
    for (int t = 0; t < ntypes && rc == CLB_OK; t++) {
        const char *dtype = types ? types[t] : "";
        if (types && !clb_list_has(wl->dtypes, dtype))
            continue; /* -t lists types of other workloads too */
        char sizes_buf[512];
        const char *sizes = s->opts.sizes;
        if (!sizes) {
            struct clb_env env = {&s->dev, &s->dev.info, s->profile, &s->opts, wl, s->opts.quick};
            sizes_buf[0] = 0;
            wl->default_sizes(&env, dtype, sizes_buf, sizeof sizes_buf);
            sizes = sizes_buf;
        }
        int nsz;
        char **sz = clb_split(sizes, &nsz);
        if (!sz) {
            rc = CLB_ESYS;
            break;
        }
        for (int i = 0; i < nsz && rc == CLB_OK; i++)
            rc = run_group(s, wl, dtype, sz[i]);
        free(sz);
    }
    free(types);
    free(deflt_types);
    return rc;
}

/* ---- summary ---------------------------------------------------------- */

static void summary(struct session *s)
{
    if (s->nrows == 0)
        return;
    printf("\n%-10s %-16s %-8s %-14s %-18s %10s %10s %9s %7s %10s  %s\n", "workload", "kernel",
           "dtype", "size", "params", "GB/s", "best GB/s", "GFlop/s", "%peak", "model", "status");
    for (size_t i = 0; i < s->nrows; i++) {
        const struct clb_row *r = &s->rows[i];
        char num[6][32];
        const double v[6] = {r->gbps, r->gbps_best, r->gflops, r->pct_peak_bw, r->model, 0};
        for (int k = 0; k < 5; k++) {
            if (isnan(v[k]))
                strcpy(num[k], "-");
            else
                snprintf(num[k], sizeof num[k], k == 3 ? "%.1f" : "%.2f", v[k]);
        }
        printf("%-10s %-16s %-8s %-14s %-18.18s %10s %10s %9s %7s %10s  %s\n", r->workload,
               r->kernel, r->dtype, r->size, r->params, num[0], num[1], num[2], num[3], num[4],
               r->status);
    }
    for (int w = 0; w < s->nwl; w++) {
        const struct clb_workload *wl = s->wls[w];
        if (!wl->summarize)
            continue;
        size_t first = s->nrows, n = 0;
        /* rows of one workload are contiguous */
        for (size_t i = 0; i < s->nrows; i++)
            if (strcmp(s->rows[i].workload, wl->name) == 0) {
                if (first == s->nrows)
                    first = i;
                n++;
            }
        if (n)
            wl->summarize(s->rows + first, n, stdout);
    }
    printf("\n%d ok, %d failed, %d skipped, %d error; results in %s\n", s->nok, s->nfailed,
           s->nskip, s->nerror, s->outpath);
}

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
    clb_kvlist_free(&s->opts.params);
}

int clb_cmd_run(int argc, char **argv)
{
    struct session s;
    memset(&s, 0, sizeof s);
    s.out.fd = -1;
    int rc = parse_args(&s, argc, argv);
    if (rc == -1) {
        session_free(&s);
        return CLB_EXIT_OK;
    }
    if (rc == CLB_OK)
        rc = check_args(&s);
    if (rc == CLB_OK)
        rc = setup_device(&s);
    if (rc == CLB_OK)
        rc = open_output(&s);
    if (rc != CLB_OK) {
        session_free(&s);
        return clb_exit_status(rc);
    }
    gethostname(s.host, sizeof s.host - 1);
    snprintf(s.run_id, sizeof s.run_id, "%lx-%ld", (unsigned long)time(NULL), (long)getpid());
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    for (int w = 0; w < s.nwl && rc == CLB_OK; w++)
        rc = run_workload(&s, s.wls[w]);
    if (rc == CLB_ECL || rc == CLB_ESYS)
        clb_die_msg("%s", clb_lasterr());
    if (rc != CLB_EINTR)
        summary(&s);
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
                    s.nerror, s.nerror == 1 ? "" : "s", s.nfailed, s.first_bad);
    if (interrupted)
        clb_die_msg("interrupted; %zu row%s measured before the signal are in %s", s.nrows,
                    s.nrows == 1 ? "" : "s", s.outpath);
    session_free(&s);
    return status;
}

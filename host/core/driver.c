/* `clbench run`: the driver. Chooses the devices and their profiles, plans
 * every (workload, type, size) group before the first measurement, runs
 * each group's set-up, cases and teardown, and ends with the summary and
 * the exit status. Measuring a case is measure.c's, rows are rows.c's, the
 * agreement of MPI ranks is lockstep.c's. Nothing here knows a workload by
 * name. */
#define _GNU_SOURCE
#include "comm.h"
#include "session.h"
#include "summary.h"
#include "timer.h"
#include "watchdog.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t clb_signal;

/* The first signal asks the run to stop after the current repetition and
 * release the device; a second one (a hung driver call) ends it at once,
 * as if no handler were installed. Rows already written are whole either way. */
static void on_signal(int sig)
{
    if (clb_signal) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
    clb_signal = sig;
}

double clb_case_timeout(const struct clb_run_opts *o)
{
    if (!isnan(o->case_timeout))
        return o->case_timeout;
    /* fmax ignores a NAN --energy-window (none given) */
    return fmax(CLB_CASE_TIMEOUT_S, 3 * fmax(o->max_time, o->energy_window));
}

static struct clb_env make_env(struct session *s, const struct clb_workload *wl)
{
    return (struct clb_env){&s->dev,    &s->dev.info, s->profile, wl, &s->o->params,
                            s->o->quick, "",          &s->notes};
}

/* ---- devices and profiles ------------------------------------------------ */

/* The devices a -d SPEC names: a type or a name part names every device that
 * has it (an MPI rank takes the i-th of them on its node), an index or P:D
 * one, "all" every device but emulators, a comma list each of its specs. */
static int candidates(struct run *r, const char *spec, int **out, int *n)
{
    *n = 0;
    *out = clb_xcalloc((size_t)r->ndev, sizeof **out);
    if (!*out)
        return CLB_ESYS;
    int first = clb_select_device(r->devs, r->ndev, spec && strcmp(spec, "all") ? spec : NULL);
    if (first < 0)
        return CLB_EUSAGE;
    int all = spec && strcmp(spec, "all") == 0;
    int by_type = !spec || clb_strieq(spec, "gpu") || clb_strieq(spec, "cpu") ||
                  clb_strieq(spec, "accelerator");
    int by_name = spec && !all && !by_type && spec[strspn(spec, "0123456789:")] != 0;
    for (int i = 0; i < r->ndev; i++) {
        const struct clb_devinfo *d = &r->devs[i];
        int take = i == first;
        if (all)
            take = strcmp(d->type_name, "emulator") != 0;
        else if (by_type)
            take = strcmp(d->type_name, r->devs[first].type_name) == 0;
        else if (by_name)
            take = clb_stristr(d->name, spec) != NULL;
        if (take)
            (*out)[(*n)++] = i;
    }
    return CLB_OK;
}

/* Add device idx to the n devices of v unless it is one of them. */
static void add_device(int *v, int *n, int idx)
{
    for (int j = 0; j < *n; j++)
        if (v[j] == idx)
            return;
    v[(*n)++] = idx;
}

/* Does this run drive several devices a process (--devices-per-rank)? */
static int team_asked(const struct clb_run_opts *o)
{
    return o->devices_per_rank < 0 || o->devices_per_rank > 1;
}

/* --devices-per-rank N (-1: all): the devices of this process's share of the
 * node, every device SPEC names in order (a list: each item's), N to each
 * of the node's processes in turn. */
static int select_team(struct run *r, const char *spec, char **list, int n)
{
    int per = r->o->devices_per_rank, nc = 0, rc = CLB_OK;
    int *all = clb_xcalloc((size_t)r->ndev, sizeof *all);
    if (!all)
        return CLB_ESYS;
    for (int i = 0; i < n && rc == CLB_OK; i++) {
        int *c, k;
        rc = candidates(r, list ? list[i] : spec, &c, &k);
        for (int j = 0; rc == CLB_OK && j < k; j++)
            add_device(all, &nc, c[j]);
        free(c);
    }
    const struct clb_comm_info *p = clb_comm();
    int procs = r->mpi ? p->local_size : 1, me = r->mpi ? p->local_rank : 0;
    if (rc == CLB_OK && per < 0)
        per = nc / procs > 1 ? nc / procs : 1;
    if (rc == CLB_OK && per > nc)
        rc = clb_eusage("--devices-per-rank %d: -d %s names %d device%s", per, spec ? spec : "gpu",
                        nc, nc == 1 ? "" : "s");
    /* processes that outnumber the devices share them, as ranks do (a warning
     * from rank 0: they compete) */
    for (int k = 0; rc == CLB_OK && k < per; k++)
        r->sel[r->nsel++] = all[(me * per + k) % nc];
    free(all);
    return rc;
}

/* Which devices this process runs. One process: the first device SPEC names
 * ("all" or a list: each in turn). An MPI rank: the node-local rank's of the
 * devices SPEC names (ranks that outnumber them share). --devices-per-rank:
 * select_team. */
static int select_devices(struct run *r)
{
    const char *spec = r->o->device;
    r->sel = clb_xcalloc((size_t)r->ndev, sizeof *r->sel);
    if (!r->sel)
        return CLB_ESYS;
    int n = 1;
    char **list = NULL;
    if (spec && strchr(spec, ',')) {
        if (!(list = clb_split(spec, &n)))
            return CLB_ESYS;
    }
    if (team_asked(r->o)) {
        int rc = select_team(r, spec, list, n);
        free(list);
        return rc;
    }
    int rc = CLB_OK, all = spec && !list && strcmp(spec, "all") == 0;
    for (int i = 0; i < n && rc == CLB_OK; i++) {
        int *c, nc;
        rc = candidates(r, list ? list[i] : spec, &c, &nc);
        if (rc == CLB_OK && nc == 0)
            rc = clb_eusage("-d %s: only emulated devices were found; name one with -d INDEX",
                            spec);
        /* one process: the first device of a type or name (all: each); a rank its own */
        int k = rc == CLB_OK && r->mpi ? clb_comm()->local_rank % nc : 0;
        for (int end = all && !r->mpi ? nc : k + 1; rc == CLB_OK && k < end; k++)
            add_device(r->sel, &r->nsel, c[k]);
        free(c);
        if (r->mpi)
            break; /* a rank runs one device */
    }
    free(list);
    return rc;
}

/* --ceilings FILE: the bandwidth and compute peaks this device's own rows
 * measured replace the profile's (in s->custom); each figure's source on
 * stderr. A file without rows of this device is refused. */
static int overlay_ceilings(struct session *s, const struct clb_devinfo *di)
{
    struct clb_ceilings c;
    struct clb_ceil_pick pick = {di->name, NULL, NULL, NULL};
    int rc = clb_ceilings_load(s->o->ceilings, &pick, &c);
    if (rc) {
        clb_ceilings_free(&c);
        return rc;
    }
    static const enum clb_ceiling_kind kinds[] = {CLB_CEIL_BW, CLB_CEIL_SP, CLB_CEIL_DP,
                                                  CLB_CEIL_LATENCY};
    double *dst[] = {&s->custom.peak_bandwidth_gbs, &s->custom.peak_gflops_sp,
                     &s->custom.peak_gflops_dp, NULL};   /* latency: said, no profile figure */
    for (int i = 0; i < 4; i++) {
        char *origin = clb_ceiling_origin(&c, kinds[i]);
        if (origin) {
            if (dst[i])
                *dst[i] = c.c[kinds[i]].value;
            clb_info("ceiling %s: %s\n", clb_ceiling_name(kinds[i]), origin);
        } else if (dst[i]) {
            char fig[32] = "none";
            if (!isnan(*dst[i]))
                snprintf(fig, sizeof fig, "%g", *dst[i]);
            clb_info("ceiling %s: not measured in %s; the profile's (%s)\n",
                     clb_ceiling_name(kinds[i]), s->o->ceilings, fig);
        }
        free(origin);
    }
    clb_ceilings_free(&c);
    return CLB_OK;
}

/* The profile of a device: forced (-p, with a warning when it does not
 * match), matched, or generic; then the measured peaks of --ceilings and
 * the peaks of --peak-* over it. */
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
    s->profile = s->base_profile = p;
    int cli = !isnan(o->peak_bw) || !isnan(o->peak_sp) || !isnan(o->peak_dp);
    if (!cli && !o->ceilings)
        return CLB_OK;
    /* A shallow copy with the measured and the command line's peaks; its
     * strings stay the original's (freed with it, never with the copy). */
    s->custom = *p;
    int rc = o->ceilings ? overlay_ceilings(s, di) : CLB_OK;
    if (rc)
        return rc;
    struct clb_profile *c = &s->custom;
    c->peak_bandwidth_gbs = isnan(o->peak_bw) ? c->peak_bandwidth_gbs : o->peak_bw;
    c->peak_gflops_sp = isnan(o->peak_sp) ? c->peak_gflops_sp : o->peak_sp;
    c->peak_gflops_dp = isnan(o->peak_dp) ? c->peak_gflops_dp : o->peak_dp;
    s->custom.id = clb_asprintf("%s%s%s", p->id, o->ceilings ? "+ceilings" : "",
                                cli ? "+cli-peaks" : "");
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
    if (s->run->mpi && clb_comm()->rank != 0)
        return CLB_OK; /* rank 0 writes every rank's rows */
    enum clb_format f = s->o->format_set ? s->o->format : clb_format_of_path(s->outpath);
    if (clb_writer_open(&s->out, s->outpath, f))
        return CLB_EUSAGE;
    s->writing = 1;
    return CLB_OK;
}

/* The device line comes before any set-up, so a user sees what runs. */
static void announce(struct session *s)
{
    const struct clb_devinfo *di = &s->dev.info;
    clb_info("device %d '%s' (%s, %s), profile %s, results to %s%s%s\n", di->index, di->name,
             di->type_name, di->platform_name, s->profile->id, s->outpath,
             s->energy ? ", energy from " : "", s->energy ? clb_energy_source(s->energy) : "");
}

/* ---- groups ------------------------------------------------------------- */

/* A row for a whole group that could not run (skip or error): this rank's,
 * and under MPI the job's. It stands for the group's planned cases. */
static int group_row(struct session *s, const struct clb_group *g, const char *status,
                     const char *detail)
{
    struct clb_row r;
    clb_base_row(s, &r, g);
    r.kernel = "*";
    r.status = status;
    r.detail = clb_keep(s, detail);
    struct clb_buf m = {0};
    if (g->size_from && clb_metrics_set_token(&m, "size_from", g->size_from) == CLB_OK)
        r.metrics = clb_keep(s, clb_buf_str(&m));
    clb_buf_free(&m);
    struct clb_row agg = r;
    agg.rank = "all";
    clb_progress(s, g, "*", "", &r, CLB_UNIT_GBPS, 1);
    return clb_emit(s, &r, s->run->mpi ? &agg : NULL);
}

/* The workload releases what its state holds; the core frees the state. */
static void group_free(struct clb_env *env, struct clb_group *g)
{
    if (g->state) {
        g->wl->teardown(env, g);
        free(g->state);
        g->state = NULL;
    }
    for (int i = 0; i < g->ncases; i++)
        clb_case_free(&g->cases[i]);
    free(g->cases);
    g->cases = NULL;
    g->ncases = g->cap = 0;
}

/* Before set-up: the group (counted when it was planned) must fit the
 * device, else one skipped row naming both numbers. */
static int check_group(struct session *s, struct clb_group *g)
{
    if (g->dtype[0] && clb_dtype_is_double(g->dtype) && !s->dev.info.fp64)
        return clb_err(CLB_SKIP, "device has no fp64 (cl_khr_fp64)");
    /* The counts are exact integers below 2^64 (clb_count_done). */
    return clb_fits(&s->dev, (size_t)g->counts.largest, (size_t)g->counts.footprint);
}

/* Parse a size (clb_parse_size) and run its extra check. */
static int parse_group_size(const struct clb_workload *wl, const char *dtype, const char *text,
                            struct clb_size *out)
{
    char err[512];
    size_t unit = wl->size_in_bytes ? 1 : dtype[0] ? clb_dtype_size(dtype) : 0;   /* 0: no bytes */
    if (clb_parse_size(text, wl->size_dims, unit, out, err, sizeof err))
        return clb_eusage("%s: %s", wl->name, err);
    if (wl->check_size && wl->check_size(out))
        return clb_eusage("%s: %s", wl->name, clb_lasterr());
    return CLB_OK;
}

/* The group's device memory, counted once, when it is planned: a size
 * whose byte count overflows is refused before anything is opened. */
static int count_group_size(const struct clb_workload *wl, const char *dtype,
                            const struct clb_size *size, const struct clb_kvlist *params,
                            struct clb_counts *c)
{
    if (clb_count_group(wl, dtype, size, params, c) == CLB_OK)
        return CLB_OK;
    char text[128];
    clb_size_text(size, text, sizeof text);
    return clb_eusage("%s: size %s%s%s: %s", wl->name, text, dtype[0] ? " of " : "", dtype,
                      clb_lasterr());
}

/* The cases a group will add (1 when its workload cannot say). */
static int plan_group(struct session *s, const struct clb_workload *wl, const char *dtype,
                      const struct clb_size *size)
{
    if (!wl->plan)
        return 1;
    struct clb_env env = make_env(s, wl);
    env.dev = NULL; /* a plan reads the device's description only */
    env.dtype = dtype;
    int k = wl->plan(&env, dtype, size);
    return k > 0 ? k : 1;
}

/* Set-up, every case, teardown. Under MPI each step is agreed by every rank
 * before the next; the ranks must have the same number of cases. */
static int group_steps(struct session *s, const struct clb_workload *wl, struct clb_group *g)
{
    struct clb_env env = make_env(s, wl);
    env.dtype = g->dtype;
    clb_progress_next_group(s->run);
    int rc = clb_agree(s, check_group(s, g));
    if (rc == CLB_SKIP)
        return group_row(s, g, "skipped", clb_lasterr());
    if (rc)
        return rc;
    clb_debug("%s %s %s: setting up\n", wl->name, g->dtype, g->size_text);
    clb_fp_reset(env.dev);   /* the kernels this group creates make its rows' fingerprints */
    if (wl->state_size && !(g->state = clb_xcalloc(1, wl->state_size)))
        rc = CLB_ESYS;
    rc = clb_agree(s, rc ? rc : wl->setup(&env, g));
    if (rc == CLB_OK && s->run->mpi) {
        double k[2] = {g->ncases, -g->ncases};
        clb_comm_allreduce(k, 2, CLB_MAX);
        if (k[0] != -k[1])
            rc = clb_eusage("the ranks set up different configurations for %s %s %s (%g to %g "
                            "cases): lockstep needs the same on every rank", wl->name, g->dtype,
                            g->size_text, -k[1], k[0]);
    }
    if (rc != CLB_OK) {   /* a skip's or an error's reason outlives the teardown */
        char *msg = clb_strdup(clb_lasterr());
        group_free(&env, g);
        if (rc != CLB_EUSAGE && rc != CLB_EINTR && rc != CLB_ESYS)
            rc = group_row(s, g, clb_status_name(rc), msg ? msg : "");
        free(msg);
        return rc;
    }
    clb_progress_recount(s->run, wl->name, g->ncases);
    for (int i = 0; rc == CLB_OK && i < g->ncases; i++)
        rc = clb_measure_case(s, &env, g, &g->cases[i]);
    group_free(&env, g);
    return rc;
}

/* A (type, size) group of a workload on a device, planned before anything
 * runs. */
struct planned {
    const char *dtype;
    struct clb_size size;
    const char *from;           /* where the size came from (clb_size_from) */
    struct clb_size was;        /* the size before --budget stepped it down */
    struct clb_counts counts;   /* the group's device memory */
};

/* A group under the watchdog: its set-up, the time between its cases and its
 * teardown are one step each (a case and a build are their own). */
static int run_group(struct session *s, const struct clb_workload *wl, const struct planned *p)
{
    struct clb_group g = {.wl = wl, .dtype = p->dtype, .size = p->size, .size_from = p->from,
                          .counts = p->counts};
    char text[128];
    clb_size_text(&p->size, text, sizeof text);
    g.size_text = clb_keep(s, text);
    s->cur_group = &g;
    char *outer = clb_watchdog_enter("the set-up or teardown of %s %s%s%s", wl->name, g.dtype,
                                     g.dtype[0] ? " " : "", g.size_text);
    int rc = group_steps(s, wl, &g);
    clb_watchdog_leave(outer);
    s->cur_group = NULL;
    return rc;
}

/* The groups of a workload on this device, in order. */
struct groups {
    struct planned *v;
    size_t n, cap;
};

/* A workload's sizes for a type: -s, else the default rule for this device
 * (under MPI rank 0's, so that every rank runs the same). */
static char *sizes_for(struct session *s, const struct clb_workload *wl, const char *dtype)
{
    if (s->o->sizes)
        return clb_strdup(s->o->sizes);
    struct clb_env env = make_env(s, wl);
    struct clb_buf why = {0};
    char *sizes = clb_default_sizes(&env, dtype, &why);
    if (why.len)
        clb_info("%s", clb_buf_str(&why));
    clb_buf_free(&why);
    if (sizes && s->run->mpi && clb_share_plan(s->run, &sizes) != CLB_OK) {
        free(sizes);
        return NULL;
    }
    return sizes;
}

/* The groups of a workload into gs (zeroed; its array the caller's to free,
 * whatever the outcome). */
static int list_groups(struct session *s, const struct clb_workload *wl, struct groups *gs)
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
        const char *dtype = types ? clb_keep(s, types[t]) : "";
        if (types && !clb_list_has(wl->dtypes, dtype))
            continue; /* -t lists types of other workloads too */
        char *sizes = sizes_for(s, wl, dtype);
        int nsz;
        char **sz = sizes ? clb_split(sizes, &nsz) : NULL;
        if (!sz)
            rc = CLB_ESYS;
        struct clb_env env = make_env(s, wl);
        env.dtype = dtype;
        for (int i = 0; sz && i < nsz && rc == CLB_OK; i++) {
            struct clb_size size;
            const char *from = s->o->sizes ? "given" : clb_size_from(&env, dtype, sz[i]);
            struct clb_counts c;
            if (!(rc = parse_group_size(wl, dtype, sz[i], &size)) &&
                !(rc = count_group_size(wl, dtype, &size, &s->o->params, &c)) &&
                CLB_GROW(gs->v, gs->n, gs->cap))
                rc = CLB_ESYS;
            if (!rc)
                gs->v[gs->n++] = (struct planned){dtype, size, from, size, c};
        }
        free(sz);
        free(sizes);
    }
    free(types);
    return rc;
}

/* ---- one device ----------------------------------------------------------- */

/* The row the watchdog writes for the step that hung (on its thread, while
 * this one is stuck in a driver call), and the results file it names. Under
 * MPI rank 0 writes the job's row (rank=all): the step hung on rank 0 or on
 * a rank it waits for, and each rank names itself on stderr. */
static const char *timeout_row(void *ctx, const char *why)
{
    struct session *s = ctx;
    if (s->writing && s->cur_group) {
        struct clb_row r;
        clb_base_row(s, &r, s->cur_group);
        r.kernel = s->cur_case ? s->cur_case->kernel : "*";
        r.params = s->cur_case ? s->cur_case->params : "";
        r.status = "error";
        r.detail = why;
        if (s->run->mpi)
            r.rank = "all";
        clb_writer_put(&s->out, &r);
    }
    return s->writing ? s->outpath : NULL;
}

/* The device the watchdog's messages name from now on (under MPI with the
 * rank), and the row it writes when a step hangs. */
static void watch_device(struct session *s, const struct clb_devinfo *di)
{
    if (clb_comm()->rank % clb_comm()->devices)
        return; /* one device of a process that drives several: its first names them */
    if (s->run->mpi)
        clb_watchdog_where(timeout_row, s, "rank %d of %d (%s, '%s' (%s, driver %s))%s",
                           clb_comm()->rank, clb_comm()->size, s->run->host, di->name,
                           di->platform_name, di->driver,
                           clb_comm()->rank ? "" : " or a rank it waits for");
    else
        clb_watchdog_where(timeout_row, s, "'%s' (%s, driver %s)", di->name, di->platform_name,
                           di->driver);
}

static void session_free(struct session *s)
{
    clb_energy_close(s->energy);
    if (s->dev_open) { /* the last driver calls of the device: under the watchdog too */
        watch_device(s, &s->dev.info);
        char *outer = clb_watchdog_enter("closing the device (the last clFinish, "
                                         "clReleaseCommandQueue, clReleaseContext)");
        clb_close(&s->dev);
        clb_watchdog_leave(outer);
        if (clb_comm()->devices > 1) /* the other devices' threads may close after this one */
            clb_watchdog_where(NULL, NULL, "the devices of rank %d's process", clb_comm()->rank);
    }
    clb_writer_close(&s->out);
    if (s->profile == &s->custom)
        free(s->custom.id);
    if (s->generic.id)
        clb_profile_free(&s->generic);
    free(s->rows.v);
    free(s->agg.v);
    free(s->outpath);
    free(s->run_id);
    clb_arena_free(&s->arena);
    clb_buf_free(&s->first_bad);
    clb_buf_free(&s->unlike);
}

static int device_status(const struct session *s, int rc)
{
    if (rc == CLB_EINTR || clb_signal)
        return 128 + (clb_signal ? (int)clb_signal : SIGINT);
    if (s->out.lost)
        return CLB_EXIT_OUTPUT_LOST;
    if (rc != CLB_OK)
        return clb_exit_status(rc);
    if (s->nfailed)
        return CLB_EXIT_FAILED;
    if (s->nerror)
        return CLB_EXIT_ERROR;
    size_t n = s->run->mpi ? s->agg.n + (size_t)s->nunlike : s->rows.n;
    if (n && s->nskip == (int)n)
        return CLB_EXIT_NOTHING;
    return CLB_EXIT_OK;
}

/* Before the first group: the watchdog's names, and the timer check (a
 * check that cannot run leaves the events untrusted, it does not end the run). */
static void check_timer(struct session *s)
{
    struct clb_device *d = &s->dev;
    watch_device(s, &d->info);
    char *outer = clb_watchdog_enter("the timer check (timer.cl)");
    int rc = clb_timer_probe(d);
    clb_watchdog_leave(outer);
    if (rc) {
        char *why = clb_asprintf("the timer check could not run: %s", clb_lasterr());
        clb_timer_distrust(d, why ? why : "the timer check could not run");
        free(why);
    }
    if (s->run->mpi) { /* the ranks time alike: their runs are compared in lockstep */
        double host = d->timer_host;
        clb_comm_allreduce(&host, 1, CLB_MAX);
        if (host > 0)
            clb_timer_distrust(d, "another rank's device events are not trusted");
    }
    if (d->timer_host)
        clb_info("timer: the device's events are not trusted (%s): its kernels are timed on the "
                 "host clock between two clFinish, launch overhead %.3g us included\n",
                 d->timer_why ? d->timer_why : "", d->launch_s * 1e6);
}

/* The lines after the summary table: what the host clock timed, what no
 * device can do. */
static void summary_notes(const struct session *s, FILE *out)
{
    if (s->nhost)
        clb_wrapf(out, 0, 2, "timer: %d row%s timed on the host clock (flag H, timer=host in "
                  "detail): %s; launch overhead %.3g us a launch included", s->nhost,
                  s->nhost == 1 ? "" : "s", s->dev.timer_why ? s->dev.timer_why : "",
                  s->dev.launch_s * 1e6);
    if (s->nimpossible)
        clb_wrapf(out, 0, 2, "impossible: %d row%s above the profile's peak (flag X): errors, "
                  "see their detail", s->nimpossible, s->nimpossible == 1 ? "" : "s");
    if (s->nunlike)
        clb_wrapf(out, 0, 2, "no aggregate: %d configuration%s without a rank=all row: the ranks "
                  "ran different params (first: %s)", s->nunlike, s->nunlike == 1 ? "" : "s",
                  clb_buf_str(&s->unlike));
}

/* Run this device's planned groups, then its summary. Under MPI, rank 0
 * summarises the job's aggregate rows. */
static int run_device(struct run *run, struct session *s, struct groups *plan)
{
    struct clb_run_opts *o = run->o;
    int rc = CLB_OK;
    check_timer(s);
    for (int w = 0; w < o->nwl && rc == CLB_OK; w++)
        for (size_t i = 0; i < plan[w].n && rc == CLB_OK; i++)
            rc = run_group(s, o->wls[w], &plan[w].v[i]);
    if (rc == CLB_EUSAGE || rc == CLB_ECL || rc == CLB_ESYS)
        clb_print_error("%s", clb_lasterr());
    const struct rows *shown = run->mpi ? &s->agg : &s->rows;
    if (rc != CLB_EINTR && (shown->n || s->nunlike) && s->writing) {
        /* -o -: the rows go to standard output, what a person reads to stderr */
        FILE *out = s->out.stream ? stderr : stdout;
        const struct clb_summary_ctx ctx = {&s->dev.info, s->profile};
        if (shown->n)
            clb_summary_print(&ctx, shown->v, shown->n, o->wls, o->nwl, out);
        clb_fit_summary(&s->notes, out);
        summary_notes(s, out);
        fprintf(out, "\n");
        clb_wrapf(out, 0, 2, "%s%s: %d ok, %d failed, %d skipped, %d error; %s %s%s",
                  run->mpi ? "job of " : "", run->mpi ? "all ranks" : s->dev.info.name, s->nok,
                  s->nfailed, s->nskip, s->nerror, s->out.lost ? "results file" : "results in",
                  s->out.stream ? "standard output" : s->outpath,
                  s->out.lost ? " lost (see the message on stderr)" : "");
    }
    clb_fit_summary(&s->notes, NULL);
    int status = device_status(s, rc);
    if (!clb_signal && (s->nerror || s->nfailed))
        clb_print_error("%d configuration%s ended in an error, %d failed validation; first: %s",
                        s->nerror, s->nerror == 1 ? "" : "s", s->nfailed,
                        clb_buf_str(&s->first_bad));
    if (status == CLB_EXIT_NOTHING)
        clb_print_error("every configuration was skipped on '%s': nothing was measured (exit %d)",
                        s->dev.info.name, CLB_EXIT_NOTHING);
    if (clb_signal)
        clb_print_error("interrupted; %zu row%s measured before the signal are in %s", shown->n,
                        shown->n == 1 ? "" : "s", s->outpath);
    return status;
}

/* Does the program-binary cache serve this device? --cache on/off, else
 * every driver but PoCL, which keeps its own cache of builds and compiles a
 * program again when its binary is asked for: there the cache made a cold
 * run 3x the compile time for a warm run's 1 s (docs/MEASURING.md,
 * "Program-binary cache"). */
static int cache_for(const struct clb_run_opts *o, const struct clb_devinfo *di)
{
    if (o->cache != CLB_CACHE_AUTO)
        return o->cache == CLB_CACHE_ON;
    if (strstr(di->platform_name, "Portable Computing Language")) {
        clb_debug("program cache: off on PoCL, which caches its builds (--cache on forces it)\n");
        return 0;
    }
    return 1;
}

/* Open a device: its profile, context, results file and energy source
 * (nothing here talks to other ranks). */
static int open_device(struct run *run, struct session *s, int idx)
{
    *s = (struct session){.run = run, .o = run->o, .out.fd = -1};
    const struct clb_devinfo *di = &run->devs[idx];
    int rc = pick_profile(s, di);
    watch_device(s, di);
    char *outer = clb_watchdog_enter("opening the device (clCreateContext, clCreateCommandQueue)");
    if (!rc)
        rc = clb_open(&s->dev, di, s->o->kernel_dir);
    clb_watchdog_next("opening the device's energy source");
    s->dev_open = rc == CLB_OK;
    if (!rc && cache_for(s->o, di))
        s->dev.bincache = run->cache;
    if (!rc && s->o->energy != CLB_ENERGY_OFF && !s->o->dry_run) {
        char *why = NULL;
        s->energy = clb_energy_open(di, &why);
        if (!s->energy && s->o->energy == CLB_ENERGY_ON)
            clb_info("energy: %s: the energy columns stay empty\n", why ? why : "no source");
        else if (!s->energy && why)
            clb_debug("energy: %s\n", why);
        if (s->energy && clb_energy_idle_why(s->energy))
            clb_info("energy: no idle power: %s\n", clb_energy_idle_why(s->energy));
        free(why);
    }
    clb_watchdog_leave(outer);
    if (!rc && !(s->run_id = clb_asprintf("%lx-%ld-%d", (unsigned long)time(NULL),
                                          (long)getpid(), di->index)))
        rc = CLB_ESYS;
    return rc;
}

/* --dry-run: a device's plan -- per group its cases, size and footprint --
 * and the most time its timed runs may take (docs/MEASURING.md). */
static void print_plan(struct session *s, const struct groups *plan)
{
    const struct clb_devinfo *di = &s->dev.info;
    const struct progress *p = &s->run->progress;
    struct clb_buf t = {0};
    long cases = 0;
    double largest = 0;
    int ng = 0;
    printf("\n");
    clb_wrapf(stdout, 0, 2, "device %d '%s' (%s, %s), profile %s: the plan", di->index, di->name,
              di->type_name, di->platform_name, s->profile->id);
    printf("%-10s %-14s %-30s %6s %11s\n", "workload", "type", "size", "cases", "footprint");
    int first = p->ng;   /* this device's groups are the last planned */
    for (int w = 0; w < s->o->nwl; w++)
        first -= (int)plan[w].n;
    for (int w = 0, g = first; w < s->o->nwl; w++)
        for (size_t i = 0; i < plan[w].n; i++, g++) {
            const struct clb_workload *wl = s->o->wls[w];
            char text[96];
            clb_size_text(&plan[w].v[i].size, text, sizeof text);
            t.len = 0;
            clb_size_words(wl, text, &t);
            double fp = p->g[g].work;
            int u = fp >= 1e9 ? 3 : fp >= 1e6 ? 2 : fp >= 1e3 ? 1 : 0;
            printf("%-10s %-14s %-30s %6ld %8.3g %s\n", wl->name,
                   plan[w].v[i].dtype[0] ? plan[w].v[i].dtype : "-", clb_buf_str(&t),
                   p->g[g].cases,
                   fp / pow(1e3, u), (const char *[]){"B", "kB", "MB", "GB"}[u]);
            cases += p->g[g].cases;
            largest = fp > largest ? fp : largest;
            ng++;
        }
    double most = (double)cases * 1.25 * s->o->max_time;
    char dur[32];
    if (most < 60)
        snprintf(dur, sizeof dur, "%.0f s", most);
    else
        snprintf(dur, sizeof dur, "%.0fm%02.0fs", floor(most / 60), fmod(most, 60));
    clb_wrapf(stdout, 0, 2, "%d group%s, %ld case%s; the largest footprint %.3g MB of %.3g GB "
              "(largest buffer %.3g GB). Time: each case's timed runs stop at --max-time %g s "
              "after a warm-up of at most a quarter of it, so at most about %s of timed runs "
              "(a case whose single run takes longer runs --min-reps %d of them), plus set-up, "
              "builds, probes and checks, which only a run measures.", ng, ng == 1 ? "" : "s",
              cases, cases == 1 ? "" : "s", largest / 1e6, (double)di->global_mem / 1e9,
              (double)di->max_alloc / 1e9, s->o->max_time, dur, s->o->min_reps);
    clb_buf_free(&t);
}

/* ---- --budget: the run's estimate against a budget ------------------------ */

/* The estimate of group p of workload w (clb_estimate_group). */
static double group_estimate(struct session *s, int w, const struct planned *p)
{
    const struct clb_workload *wl = s->o->wls[w];
    struct clb_env env = make_env(s, wl);
    return clb_estimate_group(&env, &p->counts, plan_group(s, wl, p->dtype, &p->size), s->o);
}

/* Step down the group of the largest estimate whose size the rule chose (or
 * the budget stepped already) by one size of its ladder, its change in the
 * estimate to *total. 0 when no group can step (or *rc says why not). */
static int step_down(struct session *s, struct groups *plan, double *total, int *rc)
{
    int bw = -1;
    struct planned *bp = NULL;
    double best = 0;
    char below[160];
    for (int w = 0; w < s->o->nwl; w++)
        for (size_t i = 0; i < plan[w].n; i++) {
            struct planned *p = &plan[w].v[i];
            struct clb_env env = make_env(s, s->o->wls[w]);
            if (strcmp(p->from, "rule") && strcmp(p->from, "budget"))
                continue;
            double e = group_estimate(s, w, p);
            if (e > best && clb_size_below(&env, p->dtype, &p->size, below, sizeof below))
                best = e, bw = w, bp = p;
        }
    if (bw < 0)
        return 0;
    const struct clb_workload *wl = s->o->wls[bw];
    struct clb_env env = make_env(s, wl);
    struct clb_size size;
    clb_size_below(&env, bp->dtype, &bp->size, below, sizeof below);
    if ((*rc = parse_group_size(wl, bp->dtype, below, &size)) ||
        (*rc = count_group_size(wl, bp->dtype, &size, &s->o->params, &bp->counts)))
        return 0;
    bp->size = size;
    bp->from = "budget";
    *total += group_estimate(s, bw, bp) - best;
    return 1;
}

/* The run's estimate of the device's groups; each at -v. */
static double run_estimate(struct session *s, struct groups *plan)
{
    double total = 0;
    for (int w = 0; w < s->o->nwl; w++)
        for (size_t i = 0; i < plan[w].n; i++) {
            const struct planned *p = &plan[w].v[i];
            double e = group_estimate(s, w, p);
            char text[160];
            clb_size_text(&p->size, text, sizeof text);
            clb_debug("estimate: %s %s %s: %.1f s\n", s->o->wls[w]->name, p->dtype, text, e);
            total += e;
        }
    return total;
}

/* --budget S: the run's estimate of every group of the device, before the
 * first case; while it is above S, the rule's largest groups step down
 * (size_from=budget), each group's change said under one note
 * (docs/MEASURING.md, "Default sizes"). Under MPI rank 0's sizes were shared
 * already: no budget there. */
static int fit_budget(struct session *s, struct groups *plan)
{
    if (!(s->o->budget > 0) || s->run->mpi)
        return CLB_OK;
    double first = run_estimate(s, plan), total = first;
    int rc = CLB_OK;
    while (!rc && total > s->o->budget && step_down(s, plan, &total, &rc))
        ;
    if (!rc && total < first) {
        clb_info("note: estimate %.0f s > --budget %.0f s: default sizes stepped down "
                 "(size_from=budget) to %.0f s:\n", first, s->o->budget, total);
        for (int w = 0; w < s->o->nwl; w++)
            for (size_t i = 0; i < plan[w].n; i++) {
                const struct planned *p = &plan[w].v[i];
                char was[160], now[160];
                clb_size_text(&p->was, was, sizeof was);
                clb_size_text(&p->size, now, sizeof now);
                if (!strcmp(p->from, "budget"))
                    clb_info("  %s%s%s %s -> %s\n", s->o->wls[w]->name, p->dtype[0] ? " " : "",
                             p->dtype, was, now);
            }
    }
    if (!rc && total > s->o->budget)
        clb_info("note: estimate %.0f s > --budget %.0f s: no size the rule chose is left to step "
                 "down (sizes given, a profile's, --quick's or a sweep's stay)\n", total,
                 s->o->budget);
    else if (!rc && total == first)
        clb_info("estimate: %.0f s, within --budget %.0f s\n", total, s->o->budget);
    return rc;
}

/* Plan a device's groups (every size parsed and counted before the first
 * set-up: a refused size leaves no results file behind) and add them to the
 * progress (the exact total of the run), then open the results file. Under
 * MPI every rank gets here (the job agreed that every device opened) and
 * takes rank 0's run id and default sizes. */
static int plan_device(struct run *run, struct session *s, int d, struct groups **plan)
{
    int rc = run->mpi ? clb_comm_bcast_text(&s->run_id, 0) : CLB_OK;
    *plan = rc ? NULL : clb_xcalloc((size_t)s->o->nwl, sizeof **plan);
    if (!rc && !*plan)
        rc = CLB_ESYS;
    for (int w = 0; !rc && w < s->o->nwl; w++)
        rc = list_groups(s, s->o->wls[w], &(*plan)[w]);
    if (!rc)
        rc = fit_budget(s, *plan);
    for (int w = 0; !rc && w < s->o->nwl; w++) {
        const struct clb_workload *wl = s->o->wls[w];
        struct groups *gs = &(*plan)[w];
        for (size_t i = 0; !rc && i < gs->n; i++)   /* the work, for the ETA: the footprint */
            rc = clb_progress_plan(run, d * s->o->nwl + w,
                                   plan_group(s, wl, gs->v[i].dtype, &gs->v[i].size),
                                   gs->v[i].counts.footprint);
    }
    if (!rc && s->o->dry_run)
        print_plan(s, *plan);
    return rc || s->o->dry_run ? rc : open_output(s);
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

/* The results file and run id of a device, for the report of the run. */
static int note_output(struct clb_run_opts *o, const struct session *s)
{
    clb_buf_printf(&o->run_ids, "%s%s", o->run_ids.len ? "," : "", s->run_id);
    for (int k = 0; k < o->nouts; k++)
        if (!strcmp(o->outs[k], s->outpath))
            return o->run_ids.oom;
    char *p = clb_strdup(s->outpath);
    if (!p || CLB_GROW(o->outs, o->nouts, o->outs_cap)) {
        free(p);
        return -1;
    }
    o->outs[o->nouts++] = p;
    return o->run_ids.oom;
}

/* This rank's devices (one, or without MPI each selected one in turn):
 * open, plan, run, the job's exit status. Every rank of the job gets here
 * (select_devices agreed). */
static int run_devices(struct run *run)
{
    struct clb_run_opts *o = run->o;
    struct session *ss = NULL;
    struct groups **plans = NULL;
    int nsel = run->nsel, rc = CLB_OK;
    if (nsel) {
        ss = clb_xcalloc((size_t)nsel, sizeof *ss);
        plans = clb_xcalloc((size_t)nsel, sizeof *plans);
        if (!ss || !plans)
            rc = CLB_ESYS;
    }
    /* Every device is opened and planned before the first measurement: a
     * bad size or output path is refused before anything runs. */
    struct session probe = {.run = run};
    for (int d = 0; !rc && d < nsel; d++)
        rc = open_device(run, &ss[d], run->sel[d]);
    rc = clb_agree(ss ? &ss[0] : &probe, rc);
    for (int d = 0; !rc && d < nsel; d++)
        rc = plan_device(run, &ss[d], d, &plans[d]);
    rc = clb_agree(ss ? &ss[0] : &probe, rc);
    if (rc) {
        clb_print_error("%s", clb_lasterr());
        run->status = clb_exit_status(rc);
    } else if (o->dry_run) {
        run->status = CLB_EXIT_OK;   /* the plans are printed: nothing runs */
    } else {
        struct sigaction sa = {.sa_handler = on_signal};
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        clb_print_ranks(&ss[0]);
        clb_progress_start(run);
        for (int d = 0; d < nsel && !clb_signal; d++) {
            announce(&ss[d]);
            run->status = clb_worse_status(run->status, run_device(run, &ss[d], plans[d]));
        }
    }
    run->status = clb_agree_status(run->status);
    for (int d = 0; d < nsel; d++) {   /* what a report of the run reads; then freed */
        if (ss && ss[d].writing && ss[d].run_id && note_output(o, &ss[d]))
            run->status = clb_worse_status(run->status, CLB_EXIT_ERROR);
        for (int w = 0; plans && plans[d] && w < o->nwl; w++)
            free(plans[d][w].v);
        if (plans)
            free(plans[d]);
        if (ss)
            session_free(&ss[d]);
    }
    free(plans);
    free(ss);
    return run->status;
}

/* One device of a process that drives several (--devices-per-rank): a rank
 * of the job on its own thread (team.c), with a run of its own (its
 * progress, its device) beside the process's profiles, devices and cache. */
static int device_thread(void *arg, int d)
{
    const struct run *parent = arg;
    struct run r = {.o = parent->o, .profiles = parent->profiles, .devs = parent->devs,
                    .ndev = parent->ndev, .sel = parent->sel + d, .nsel = 1,
                    .cache = parent->cache, .host = parent->host, .mpi = 1};
    int status = run_devices(&r);
    clb_progress_free(&r.progress);
    return status;
}

/* The devices of this process as ranks, each on its thread; the worst status. */
static int run_team(struct run *run)
{
    int *st = clb_xcalloc((size_t)run->nsel, sizeof *st), status = 0;
    if (!st)
        return CLB_EXIT_ERROR;
    int rc = clb_team_run(run->nsel, device_thread, run, st);
    if (rc) {
        clb_print_error("%s", clb_lasterr());
        status = clb_exit_status(rc);
    }
    for (int d = 0; !rc && d < run->nsel; d++)
        status = clb_worse_status(status, st[d]);
    free(st);
    return status;
}

int clb_driver_run(struct clb_run_opts *o)
{
    struct run run = {.o = o, .mpi = clb_comm_active()};
    clb_cache_init(&run.bincache);
    run.cache = &run.bincache;
    if (run.mpi && clb_comm()->rank != 0)
        clb_verbosity = -1; /* rank 0 speaks for the job */
    /* from the first driver call to the last release (docs/RELIABILITY.md),
     * every device thread's too */
    int rc = clb_watchdog_start(clb_case_timeout(o), &clb_signal);
    if (!rc)
        rc = clb_load_profiles_for(o->platforms_dir, &run.profiles);
    if (!rc)
        rc = clb_devices(&run.devs, &run.ndev);
    if (!rc)
        rc = select_devices(&run);
    if (!rc && !(run.host = host_name()))
        rc = CLB_ESYS;
    /* Every process must get this far; then the job agrees. */
    struct session probe = {.run = &run};
    rc = clb_agree(&probe, rc);
    int team = !rc && team_asked(o);
    if (rc) {
        clb_print_error("%s", clb_lasterr());
        run.status = clb_agree_status(clb_exit_status(rc));
    } else {
        run.status = team ? run_team(&run) : run_devices(&run);
    }
    clb_watchdog_stop(); /* after the devices are closed: a close that hangs still ends */
    clb_progress_free(&run.progress);
    clb_cache_close(&run.bincache);
    clb_profiles_free(&run.profiles);
    free(run.devs);
    free(run.sel);
    free(run.host);
    return run.status;
}

/* Services the core offers to workloads: cases and their counts, parameters,
 * types, device memory, exact checks, tuning probes. */
#define _GNU_SOURCE
#include "clb_workload.h"
#include "comm.h"
#include "core.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- counting ----------------------------------------------------------- */

const char *clb_query_param(const struct clb_query *q, const char *key, const char *def)
{
    const char *v = q->params ? clb_kvlist_get_scoped(q->params, q->workload, key) : NULL;
    return v ? v : def;
}

long clb_query_long(const struct clb_query *q, const char *key, long lo, long hi, long def)
{
    long v;
    return clb_parse_int_list(clb_query_param(q, key, ""), lo, hi, &v, 1, NULL, 0) == 1 ? v : def;
}

size_t clb_query_esize(const struct clb_query *q)
{
    return q->dtype && q->dtype[0] ? clb_dtype_size(q->dtype) : 0;
}

int clb_count_done(const struct clb_query *q, int ovf, struct clb_counts *out, size_t bytes,
                   size_t flops, size_t footprint, size_t largest, enum clb_unit unit)
{
    (void)q;
    if (ovf)
        return clb_eusage("the byte or flop count of this size does not fit in 64 bits");
    out->bytes = (double)bytes;
    out->flops = (double)flops;
    out->footprint = (double)footprint;
    out->largest = (double)largest;
    out->unit = unit;
    return CLB_OK;
}

int clb_query_kernel(const struct clb_query *q, const char *workload, const char *known)
{
    if (!q->kernel || clb_list_has(known, q->kernel))
        return CLB_OK;
    return clb_eusage("unknown %s kernel '%s' (known: %s)", workload, q->kernel, known);
}

int clb_count_copy(const struct clb_query *q, struct clb_counts *out)
{
    int ovf = 0;
    size_t one = clb_mulz(q->size->total, clb_query_esize(q), &ovf);
    size_t two = clb_mulz(one, 2, &ovf);
    return clb_count_done(q, ovf, out, two, 0, two, one, CLB_UNIT_GBPS);
}

/* ---- cases ------------------------------------------------------------- */

int clb_params_parse(const char *text, struct clb_kvlist *out)
{
    memset(out, 0, sizeof *out);
    int n;
    char **parts = clb_split(text, &n);
    if (!parts)
        return CLB_ESYS;
    int rc = CLB_OK;
    for (int i = 0; i < n && rc == CLB_OK; i++) {
        const char *eq = strchr(parts[i], '=');
        if (eq && eq != parts[i]) {
            *(char *)eq = 0;
            rc = clb_kvlist_add_pair(out, parts[i], eq + 1);
        } else {
            rc = clb_kvlist_add_pair(out, parts[i], "");
        }
    }
    free(parts);
    if (rc)
        clb_kvlist_free(out);
    return rc;
}

int clb_case_add(struct clb_group *g, struct clb_case **out, const char *kernel,
                 const char *fmt, ...)
{
    *out = NULL;
    if (CLB_GROW(g->cases, g->ncases, g->cap))
        return CLB_ESYS;
    struct clb_case *c = &g->cases[g->ncases];
    memset(c, 0, sizeof *c);
    c->model = NAN;
    c->status = CLB_OK;
    char *params = fmt ? NULL : clb_strdup("");
    va_list ap;
    va_start(ap, fmt);
    if (fmt && vasprintf(&params, fmt, ap) < 0)
        params = NULL;
    va_end(ap);
    c->params = params;
    c->kernel = clb_strdup(kernel);
    c->data = g->wl->case_size ? clb_xcalloc(1, g->wl->case_size) : NULL;
    if (!c->params || !c->kernel || (g->wl->case_size && !c->data)) {
        clb_case_free(c);
        return clb_oom();
    }
    g->ncases++;
    /* The workload counts its own case, from what the row will say. */
    struct clb_kvlist kv;
    int rc = clb_params_parse(params, &kv);
    if (rc)
        return rc;
    struct clb_query q = {kernel, g->dtype, &g->size, &kv, NULL};
    rc = g->wl->count(&q, &c->counts);
    clb_kvlist_free(&kv);
    if (rc == CLB_EUSAGE) {
        clb_seterr("%s %s %s %s: %s", g->wl->name, kernel, g->dtype, g->size_text,
                   clb_lasterr());
    }
    if (rc == CLB_OK)
        *out = c;
    return rc;
}

void clb_case_free(struct clb_case *c)
{
    free((char *)c->kernel);
    free((char *)c->params);
    free(c->data);
    clb_buf_free(&c->detail);
    clb_buf_free(&c->metrics);
}

void clb_case_skip(struct clb_case *c, const char *fmt, ...)
{
    c->status = CLB_SKIP;
    clb_buf_free(&c->detail);
    clb_buf_free(&c->metrics);
    va_list ap;
    va_start(ap, fmt);
    clb_buf_vprintf(&c->detail, fmt, ap);
    va_end(ap);
}

void clb_case_note(struct clb_case *c, const char *fmt, ...)
{
    if (c->detail.len)
        clb_buf_add(&c->detail, "; ", 2);
    va_list ap;
    va_start(ap, fmt);
    clb_buf_vprintf(&c->detail, fmt, ap);
    va_end(ap);
}

void clb_case_metric(struct clb_case *c, const char *key, double value)
{
    if (clb_metrics_set(&c->metrics, key, value))
        clb_print_error("%s", clb_lasterr());
}

void clb_case_metric_token(struct clb_case *c, const char *key, const char *token)
{
    if (clb_metrics_set_token(&c->metrics, key, token))
        clb_print_error("%s", clb_lasterr());
}

int clb_row_fits(const struct clb_workload *wl, const struct clb_row *r)
{
    return clb_row_has(r, wl->row_params, wl->row_metrics, NULL);
}

void clb_warn_unfit(const struct clb_workload *wl, size_t n, const char *where, const char *use)
{
    if (!n)
        return;
    struct clb_buf what = {0};
    if (wl->row_params)
        clb_buf_printf(&what, "params %s", wl->row_params);
    if (wl->row_metrics)
        clb_buf_printf(&what, "%smetrics %s", what.len ? " and " : "", wl->row_metrics);
    clb_print_error("warning: %zu %s row%s %s lack%s %s as numbers: skipped for %s", n, wl->name,
                    n == 1 ? "" : "s", where, n == 1 ? "s" : "", clb_buf_str(&what), use);
    clb_buf_free(&what);
}

/* ---- parameters -------------------------------------------------------- */

static const struct clb_param_def *find_def(const struct clb_param_def *t, const char *key)
{
    for (const struct clb_param_def *p = t; p && p->key; p++)
        if (strcmp(p->key, key) == 0)
            return p;
    return NULL;
}

const char *clb_param(const struct clb_env *env, const char *key)
{
    const char *v = env->params ? clb_kvlist_get_scoped(env->params, env->wl->name, key) : NULL;
    if (v)
        return v;
    v = clb_profile_tuning(env->profile, env->wl->name, key, env->dtype);
    if (v)
        return v;
    const struct clb_param_def *d = find_def(env->wl->params, key);
    return d ? d->def : "";
}

const char *clb_param_origin(const struct clb_env *env, const char *key)
{
    if (env->params && clb_kvlist_get_scoped(env->params, env->wl->name, key))
        return "param";
    if (clb_profile_tuning(env->profile, env->wl->name, key, env->dtype))
        return "profile";
    return "default";
}

static int param_error(const struct clb_env *env, const char *key, const char *what)
{
    int prof = strcmp(clb_param_origin(env, key), "profile") == 0;
    return clb_eusage("%s: parameter %s: %s%s%s%s", env->wl->name, key, what,
                      prof ? " (from the profile " : "", prof ? env->profile->path : "",
                      prof ? ")" : "");
}

int clb_param_ints(const struct clb_env *env, const char *key, long lo, long hi, long *out,
                   int max, int *n)
{
    const char *v = clb_param(env, key);
    char err[512];
    int k = clb_parse_int_list(v, lo, hi, out, max, err, sizeof err);
    if (k < 0)
        return param_error(env, key, err);
    *n = k;
    return CLB_OK;
}

int clb_param_int(const struct clb_env *env, const char *key, long lo, long hi, long *out)
{
    int n;
    int rc = clb_param_ints(env, key, lo, hi, out, 1, &n);
    if (rc == CLB_OK && n != 1)
        return param_error(env, key, "takes one value");
    return rc;
}

int clb_param_real(const struct clb_env *env, const char *key, double lo, double hi, double *out)
{
    const char *v = clb_param(env, key);
    char *end;
    double x = strtod(v, &end);
    if (end != v && !*end && x > lo && x < hi) {
        *out = x;
        return CLB_OK;
    }
    char *what = clb_asprintf("'%s' is not a number in (%g, %g)", v, lo, hi);
    param_error(env, key, what ? what : CLB_OOM);
    free(what);
    return CLB_EUSAGE;
}

int clb_param_names(const struct clb_env *env, const char *key, const char *known,
                    int all_if_empty, unsigned *mask)
{
    const char *v = clb_param(env, key);
    int nk, n;
    char **names = clb_split(known, &nk);
    char **list = names ? clb_split(v, &n) : NULL;
    *mask = 0;
    if (!list) {
        free(names);
        return CLB_ESYS;
    }
    int rc = CLB_OK;
    if (!v[0] && all_if_empty)
        *mask = nk >= 32 ? ~0u : (1u << nk) - 1;
    for (int i = 0; i < n && rc == CLB_OK; i++) {
        int k = 0;
        while (k < nk && strcmp(list[i], names[k]))
            k++;
        if (k == nk) {
            char *what = clb_asprintf("unknown value '%s' (accepted: %s)", list[i], known);
            rc = param_error(env, key, what ? what : CLB_OOM);
            free(what);
        } else {
            *mask |= 1u << k;
        }
    }
    if (rc == CLB_OK && !*mask)
        rc = param_error(env, key, "empty list");
    free(list);
    free(names);
    return rc;
}

/* The role wl declares for key in params or row_keys (CLB_ROLE_UNSET: none). */
static enum clb_param_role declared_role(const struct clb_workload *wl, const char *key)
{
    const struct clb_param_def *d = wl ? find_def(wl->params, key) : NULL;
    if (!d && wl)
        d = find_def(wl->row_keys, key);
    return d ? d->role : CLB_ROLE_UNSET;
}

enum clb_param_role clb_param_role_of(const struct clb_workload *wl, const char *key)
{
    enum clb_param_role r = declared_role(wl, key);
    return r == CLB_ROLE_TUNING || r == CLB_ROLE_RANK_PART ? CLB_ROLE_TUNING : CLB_ROLE_CASE;
}

int clb_param_per_rank(const struct clb_workload *wl, const char *key)
{
    return declared_role(wl, key) == CLB_ROLE_RANK_PART;
}

const char *clb_param_role_name(enum clb_param_role role)
{
    return role == CLB_ROLE_TUNING || role == CLB_ROLE_RANK_PART ? "tuning"
           : role == CLB_ROLE_CASE                              ? "case"
                                                                : "unset";
}

int clb_workload_param_known(const char *name, const char *key, struct clb_buf *why)
{
    const struct clb_workload *wl = clb_workload_find(name);
    if (!wl) {
        clb_buf_printf(why, "unknown workload '%s' (known:", name);
        for (const struct clb_workload *const *w = clb_workload_list(); *w; w++)
            clb_buf_printf(why, " %s", (*w)->name);
        clb_buf_printf(why, ")");
        return 0;
    }
    /* "<key>.<dtype>": one type's value, for a type the workload takes */
    const char *dot = strrchr(key, '.');
    size_t klen = dot ? (size_t)(dot - key) : strlen(key);
    if (dot && !clb_list_has(wl->dtypes, dot + 1)) {
        clb_buf_printf(why, "%s does not take type '%s' (types: %s)", name, dot + 1,
                       wl->dtypes ? wl->dtypes : "none");
        return 0;
    }
    for (const struct clb_param_def *p = wl->params; p && p->key; p++)
        if (strlen(p->key) == klen && strncmp(p->key, key, klen) == 0)
            return 1;
    if (strlen(CLB_TUNING_SIZES) == klen && strncmp(CLB_TUNING_SIZES, key, klen) == 0)
        return 1;
    clb_buf_printf(why, "%s has no parameter '%s' (known:", name, key);
    for (const struct clb_param_def *p = wl->params; p && p->key; p++)
        clb_buf_printf(why, " %s", p->key);
    clb_buf_printf(why, "%s)", wl->params && wl->params->key ? "" : " none");
    return 0;
}

/* ---- types ------------------------------------------------------------- */

static const struct { const char *name; size_t size; } dtypes[] = {
    {"float", 4},   {"double", 8},   {"float2", 8},          {"float3", 12},
    {"float3_aligned", 16}, {"float4", 16}, {"float8", 32},  {"double2", 16},
    {"double3", 24}, {"double4", 32}, {"int", 4},           {"uint", 4},
    {"half", 2},
};

size_t clb_dtype_size(const char *dtype)
{
    for (size_t i = 0; i < sizeof dtypes / sizeof *dtypes; i++)
        if (strcmp(dtypes[i].name, dtype) == 0)
            return dtypes[i].size;
    return 0;
}

int clb_dtype_is_double(const char *dtype) { return strncmp(dtype, "double", 6) == 0; }

void clb_dtype_defines(const char *dtype, char *out, size_t n)
{
    int dbl = clb_dtype_is_double(dtype);
    snprintf(out, n, "-DT=%s -DT_SIZE=%zu%s", dbl ? "double" : "float", clb_dtype_size(dtype),
             dbl ? " -DUSE_FP64=1" : "");
}

/* ---- device memory ----------------------------------------------------- */

/* The cache a device can use, and where the figure comes from. A CPU's
 * OpenCL cache is the L3 of the whole socket (or of the host a VM runs on:
 * 260 MiB for a 2-vCPU guest), of which the device's few cores own a share:
 * the figure is capped per compute unit (CLB_LLC_PER_UNIT, above any core's
 * share of today's largest L3, so no real cache is cut; a GPU's L2 is far
 * below it). docs/MEASURING.md, "Default sizes". */
static const char *llc_of(const struct clb_env *env, double *bytes)
{
    const char *from = "reported";
    double q = (double)env->info->cache_size;
    if (env->profile && !isnan(env->profile->l2_kb) && env->profile->l2_kb * 1024.0 > q) {
        q = env->profile->l2_kb * 1024.0;
        from = "profile";
    }
    double cap = CLB_LLC_PER_UNIT * (double)env->info->compute_units;
    if (cap > 0 && q > cap) {
        q = cap;
        from = "unit_cap";
    }
    *bytes = q;
    return from;
}

size_t clb_llc_bytes(const struct clb_env *env)
{
    double q;
    llc_of(env, &q);
    return (size_t)q;
}

const char *clb_llc_from(const struct clb_env *env)
{
    double q;
    return llc_of(env, &q);
}

void clb_release_mems(cl_mem *m, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (m[i]) {
            clReleaseMemObject(m[i]);
            m[i] = NULL;
        }
}

void clb_release_kernels(cl_kernel *k, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (k[i]) {
            clReleaseKernel(k[i]);
            k[i] = NULL;
        }
}

int clb_inout_setup(struct clb_env *env, size_t in_bytes, size_t out_bytes, int dbl,
                    unsigned long long seed, cl_mem_flags out_flags, struct clb_inout *io)
{
    memset(io, 0, sizeof *io);
    size_t largest = in_bytes > out_bytes ? in_bytes : out_bytes;
    int ovf = 0;
    int rc = clb_fits(env->dev, largest, clb_addz(in_bytes, out_bytes, &ovf));
    if (rc)
        return rc;
    io->in = clb_xmalloc(in_bytes);
    io->out = clb_xmalloc(out_bytes);
    if (!io->in || !io->out)
        return CLB_ESYS;
    clb_fill(io->in, in_bytes / (dbl ? 8 : 4), dbl, seed);
    if ((rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, in_bytes, &io->din)) ||
        (rc = clb_buffer(env->dev, out_flags, out_bytes, &io->dout)))
        return rc;
    return clb_write(env->dev, io->din, io->in, in_bytes);
}

void clb_inout_free(struct clb_inout *io)
{
    clb_release_mems(&io->din, 1);
    clb_release_mems(&io->dout, 1);
    free(io->in);
    free(io->out);
    io->in = io->out = NULL;
}

/* ---- checks ------------------------------------------------------------ */

long clb_mismatches(const unsigned char *got, const unsigned char *want, size_t n, size_t stride,
                    size_t cmp, size_t period, long *first)
{
    long bad = 0, lo = -1;
#pragma omp parallel for reduction(+ : bad) schedule(static)
    for (long i = 0; i < (long)n; i++) {
        size_t w = period ? (size_t)i % period : (size_t)i;
        if (memcmp(got + (size_t)i * stride, want + w * stride, cmp) != 0) {
            bad++;
#pragma omp critical(clb_mismatches_first)
            if (lo < 0 || i < lo)
                lo = i;
        }
    }
    *first = lo;
    return bad;
}

int clb_check_exact(struct clb_case *c, const void *got, const void *want, size_t n,
                    size_t stride, size_t cmp)
{
    return clb_check_exact_2d(c, got, want, n, stride, cmp, 0);
}

int clb_check_exact_2d(struct clb_case *c, const void *got, const void *want, size_t n,
                       size_t stride, size_t cmp, size_t width)
{
    long first;
    long bad = clb_mismatches(got, want, n, stride, cmp, 0, &first);
    if (bad && width)
        clb_case_note(c, "%ld of %zu elements wrong (first at row %ld, column %ld)", bad, n,
                      first / (long)width, first % (long)width);
    else if (bad)
        clb_case_note(c, "%ld of %zu elements wrong (first at %ld)", bad, n, first);
    return bad ? CLB_FAIL : CLB_OK;
}

/* ---- probes ------------------------------------------------------------ */

const char *clb_timer_untrusted(const struct clb_env *env)
{
    const struct clb_device *d = env->dev;
    if (!d || !d->timer_host)
        return NULL;
    return d->timer_why ? d->timer_why : "the device's events are not trusted";
}

/* Under MPI the candidate's time is the slowest rank's: every rank sees the
 * same times and so picks the same candidate (docs/SCALING.md). */
int clb_probe_min(struct clb_env *env, clb_launch_fn launch, void *ctx, int runs, double *tmin)
{
    *tmin = INFINITY;
    int host = clb_timer_untrusted(env) != NULL;
    for (int r = 0; r < runs; r++) {
        cl_event ev;
        double t;
        if (host)
            CLB_CHECK(clFinish(env->dev->queue), "clFinish");
        double t0 = clb_now();
        int rc = launch(env, ctx, &ev);
        if (rc)
            return rc;
        rc = host ? clb_event_wall(ev, t0, &t) : clb_event_seconds(ev, ev, &t);
        clReleaseEvent(ev);
        if (rc)
            return rc;
        if ((r > 0 || runs == 1) && t < *tmin) /* the first run warms up */
            *tmin = t;
    }
    return clb_job_probe_time(tmin);
}

int clb_probe_decide(struct clb_env *env, double *v)
{
    (void)env;
    return clb_job_probe_decide(v);
}

int clb_figure_pos(const struct clb_workload *wl, const char *kernel)
{
    const char *o = wl ? wl->figure.order : NULL;
    size_t n = strlen(kernel);
    int i = 0;
    for (; o && *o; i++) {
        size_t len = strcspn(o, ",");
        if (len == n && !strncmp(o, kernel, n))
            return i;
        o += len + (o[len] == ',');
    }
    return i;
}

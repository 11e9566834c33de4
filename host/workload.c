/* Services the core offers to workloads: cases, parameters, types, sizes. */
#include "clb_workload.h"
#include "clb_cli.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct clb_case *clb_case_add(struct clb_group *g, const char *kernel, const char *fmt, ...)
{
    if (g->ncases == g->cap) {
        int cap = g->cap ? 2 * g->cap : 16;
        void *nv = realloc(g->cases, (size_t)cap * sizeof *g->cases);
        if (!nv) {
            clb_seterr("out of host memory");
            return NULL;
        }
        g->cases = nv;
        g->cap = cap;
    }
    struct clb_case *c = &g->cases[g->ncases++];
    memset(c, 0, sizeof *c);
    c->model = NAN;
    c->status = CLB_OK;
    clb_strlcpy(c->kernel, kernel, sizeof c->kernel);
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->params, sizeof c->params, fmt, ap);
        va_end(ap);
    }
    return c;
}

void clb_case_skip(struct clb_case *c, const char *fmt, ...)
{
    c->status = CLB_SKIP;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->detail, sizeof c->detail, fmt, ap);
    va_end(ap);
}

void clb_case_note(struct clb_case *c, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    clb_appendf(c->detail, sizeof c->detail, "%s%s", c->detail[0] ? "; " : "", buf);
}

static const struct clb_param_def *param_def(const struct clb_workload *wl, const char *key)
{
    for (const struct clb_param_def *p = wl->params; p && p->key; p++)
        if (strcmp(p->key, key) == 0)
            return p;
    return NULL;
}

const char *clb_param(const struct clb_env *env, const char *key)
{
    const char *v = env->opts ? clb_kvlist_get(&env->opts->params, key) : NULL;
    if (v)
        return v;
    v = clb_profile_tuning(env->profile, env->wl->name, key);
    if (v)
        return v;
    const struct clb_param_def *d = param_def(env->wl, key);
    return d ? d->def : "";
}

const char *clb_param_origin(const struct clb_env *env, const char *key)
{
    if (env->opts && clb_kvlist_get(&env->opts->params, key))
        return "param";
    if (clb_profile_tuning(env->profile, env->wl->name, key))
        return "profile";
    return "default";
}

int clb_param_ints(const struct clb_env *env, const char *key, long lo, long hi, long *out,
                   int max, int *n)
{
    const char *v = clb_param(env, key);
    char err[256];
    int k = clb_parse_int_list(v, lo, hi, out, max, err, sizeof err);
    if (k < 0) {
        clb_seterr("%s: parameter %s: %s%s", env->wl->name, key, err,
                   strcmp(clb_param_origin(env, key), "profile") == 0 ? " (from the profile)" : "");
        return CLB_EUSAGE;
    }
    *n = k;
    return CLB_OK;
}

static const struct { const char *name; size_t size; } dtypes[] = {
    {"float", 4},   {"double", 8},   {"float2", 8},          {"float3", 12},
    {"float3_aligned", 16}, {"float4", 16}, {"float8", 32},  {"double2", 16},
    {"double3", 24}, {"double4", 32}, {"int", 4},           {"uint", 4},
};

size_t clb_dtype_size(const char *dtype)
{
    for (size_t i = 0; i < sizeof dtypes / sizeof *dtypes; i++)
        if (strcmp(dtypes[i].name, dtype) == 0)
            return dtypes[i].size;
    return 0;
}

void clb_dtype_defines(const char *dtype, char *out, size_t n)
{
    int dbl = strncmp(dtype, "double", 6) == 0;
    snprintf(out, n, "-DT=%s -DT_SIZE=%zu%s", dbl ? "double" : "float", clb_dtype_size(dtype),
             dbl ? " -DUSE_FP64=1" : "");
}

const char *clb_dtype_unsupported(const struct clb_env *env, const char *dtype)
{
    if (strncmp(dtype, "double", 6) == 0 && !env->info->fp64)
        return "device has no fp64 (cl_khr_fp64)";
    return NULL;
}

size_t clb_max_buffer(const struct clb_env *env, int count)
{
    size_t by_global = (size_t)(env->info->global_mem / (cl_ulong)(count + 1));
    size_t by_alloc = (size_t)env->info->max_alloc;
    return by_global < by_alloc ? by_global : by_alloc;
}

size_t clb_llc_bytes(const struct clb_env *env)
{
    size_t q = (size_t)env->info->cache_size;
    if (env->profile && !isnan(env->profile->l2_kb) && env->profile->l2_kb * 1024.0 > (double)q)
        q = (size_t)(env->profile->l2_kb * 1024.0);
    return q;
}

size_t clb_beyond_cache(const struct clb_env *env, size_t floor_bytes)
{
    size_t want = 8 * clb_llc_bytes(env);
    return want > floor_bytes ? want : floor_bytes;
}

long clb_mismatches(const unsigned char *got, const unsigned char *want, size_t n, size_t stride,
                    size_t cmp, long *first)
{
    long bad = 0, lo = -1;
#pragma omp parallel for reduction(+ : bad) schedule(static)
    for (long i = 0; i < (long)n; i++) {
        if (memcmp(got + (size_t)i * stride, want + (size_t)i * stride, cmp) != 0) {
            bad++;
#pragma omp critical(clb_mismatches_first)
            if (lo < 0 || i < lo)
                lo = i;
        }
    }
    *first = lo;
    return bad;
}

int clb_inout_setup(struct clb_env *env, size_t in_bytes, size_t out_bytes, int dbl,
                    unsigned long long seed, cl_mem_flags out_flags, struct clb_inout *io)
{
    memset(io, 0, sizeof *io);
    size_t largest = in_bytes > out_bytes ? in_bytes : out_bytes;
    int rc = clb_fits(env->dev, largest, in_bytes + out_bytes);
    if (rc)
        return rc;
    io->in = clb_xmalloc(in_bytes);
    io->out = clb_xmalloc(out_bytes);
    if (!io->in || !io->out)
        return CLB_ESYS;
    if (dbl)
        clb_fill_f64(io->in, in_bytes / 8, seed);
    else
        clb_fill_f32(io->in, in_bytes / 4, seed);
    if ((rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, in_bytes, &io->din)) ||
        (rc = clb_buffer(env->dev, out_flags, out_bytes, &io->dout)))
        return rc;
    return clb_write(env->dev, io->din, io->in, in_bytes);
}

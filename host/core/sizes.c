/* Default sizes: one rule for every workload (struct clb_size_rule). The
 * working set must leave the caches behind, or the run measures a cache:
 * the first size of the workload's ladder whose footprint reaches
 * max(llc_times x last-level cache, floor) is taken, capped by the
 * workload's cap, the allocation limit and half the device memory. The
 * footprint is the workload's own count of its group, so the rule and the
 * allocation can never disagree. */
#include "core.h"

#include <stdlib.h>
#include <string.h>

int clb_count_group(const struct clb_workload *wl, const char *dtype, const struct clb_size *size,
                    const struct clb_kvlist *params, struct clb_counts *out)
{
    memset(out, 0, sizeof *out);
    struct clb_query q = {NULL, dtype, size, params};
    int rc = wl->count(&q, out);
    if (out->footprint <= 0)
        out->footprint = out->bytes;
    if (out->largest <= 0)
        out->largest = out->footprint;
    return rc;
}

/* The default ladder: 2^i in every extent, from 2^6 on. */
static int pow2_ladder(int i, int dims, char *out, size_t n)
{
    int e = 6 + i;
    if (e > 40 / dims + 2)
        return 0;
    out[0] = 0;
    for (int d = 0; d < dims; d++)
        clb_appendf(out, n, "%s%llu", d ? "x" : "", 1ULL << e);
    return 1;
}

static int ladder_at(const struct clb_workload *wl, int i, char *out, size_t n)
{
    return wl->sizes.ladder ? wl->sizes.ladder(i, out, n) : pow2_ladder(i, wl->size_dims, out, n);
}

/* Does a candidate fit this device? Its footprint and the limits. */
static int fits(const struct clb_env *env, const struct clb_counts *c, double cap)
{
    return c->largest <= (double)env->info->max_alloc &&
           c->footprint <= 0.5 * (double)env->info->global_mem && (cap <= 0 || c->footprint <= cap);
}

static void add_size(struct clb_buf *b, const char *s)
{
    if (!clb_list_has(clb_buf_str(b), s))
        clb_buf_printf(b, "%s%s", b->len ? "," : "", s);
}

char *clb_default_sizes(const struct clb_env *env, const char *dtype)
{
    const struct clb_workload *wl = env->wl;
    const struct clb_size_rule *r = &wl->sizes;
    struct clb_buf out = {0};
    if (env->quick) {
        clb_buf_printf(&out, "%s", r->quick);
        return out.s ? out.s : clb_strdup(r->quick);
    }
    /* A profile may set a device's default sizes from measurements
     * ([tuning] <workload>.sizes, e.g. a larger array where it was faster). */
    const char *tuned = clb_profile_tuning(env->profile, wl->name, CLB_TUNING_SIZES, dtype);
    if (tuned && tuned[0])
        return clb_strdup(tuned);
    int gpu = strcmp(env->info->type_name, "cpu") != 0; /* [1]: GPUs and accelerators */
    double floor = r->floor_mib[gpu] * 1048576.0;
    double want = r->llc_times * (double)clb_llc_bytes(env);
    if (want < floor)
        want = floor;
    double cap = r->cap_mib[gpu] * 1048576.0;
    if (cap > 0 && want > cap)
        want = cap;
    char prev[160] = "", cand[160];
    int chosen = 0;
    for (int i = 0; !chosen && ladder_at(wl, i, cand, sizeof cand); i++) {
        struct clb_size sz;
        char err[256];
        struct clb_counts c;
        if (clb_parse_dims(cand, wl->size_dims, &sz, err, sizeof err) ||
            clb_count_group(wl, dtype, &sz, env->params, &c) != CLB_OK) {
            /* Past what the counts can hold: the previous one is the largest. */
            break;
        }
        if (!fits(env, &c, cap))
            break;
        if (r->sweep && c.footprint >= floor)
            add_size(&out, cand);
        if (!r->sweep && c.footprint >= want) {
            add_size(&out, cand);
            chosen = 1;
        }
        clb_strlcpy(prev, cand, sizeof prev);
    }
    if (!chosen && !out.len) {
        /* Nothing reached the target within the limits: the largest that fits,
         * else the ladder's first. */
        if (!prev[0] && !ladder_at(wl, 0, prev, sizeof prev))
            clb_strlcpy(prev, r->quick, sizeof prev);
        add_size(&out, prev);
    }
    const char *extra = r->extra[gpu];
    if (extra && extra[0]) {
        /* the study's own sizes first, then the rule's */
        struct clb_buf both = {0};
        clb_buf_printf(&both, "%s", extra);
        int n;
        char **list = clb_split(clb_buf_str(&out), &n);
        for (int i = 0; list && i < n; i++)
            add_size(&both, list[i]);
        free(list);
        clb_buf_free(&out);
        out = both;
    }
    if (out.oom) {
        clb_buf_free(&out);
        return NULL;
    }
    return out.s;
}

const char *clb_size_from(const struct clb_env *env, const char *dtype, const char *size)
{
    const struct clb_size_rule *r = &env->wl->sizes;
    if (env->quick)
        return "quick";
    const char *tuned = clb_profile_tuning(env->profile, env->wl->name, CLB_TUNING_SIZES, dtype);
    if (tuned && tuned[0])
        return "profile";
    const char *extra = r->extra[strcmp(env->info->type_name, "cpu") != 0];
    if (extra && clb_list_has(extra, size))
        return "extra";
    return r->sweep ? "ladder" : "rule";
}

/* Default sizes: one rule for every workload (struct clb_size_rule). The
 * working set must leave the caches behind, or the run measures a cache:
 * the first size of the workload's ladder whose footprint reaches
 * max(llc_times x last-level cache, floor) is taken, capped by the
 * workload's cap, the allocation limit and half the device memory. The
 * footprint is the workload's own count of its group, so the rule and the
 * allocation can never disagree. */
#include "core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int clb_count_group(const struct clb_workload *wl, const char *dtype, const struct clb_size *size,
                    const struct clb_kvlist *params, struct clb_counts *out)
{
    memset(out, 0, sizeof *out);
    struct clb_query q = {NULL, dtype, size, params, wl->name};
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

/* The counts of ladder candidate cand: 0, or -1 past what the counts hold. */
static int count_at(const struct clb_env *env, const char *dtype, const char *cand,
                    struct clb_counts *c)
{
    struct clb_size sz;
    char err[256];
    if (clb_parse_dims(cand, env->wl->size_dims, &sz, err, sizeof err))
        return -1;
    return clb_count_group(env->wl, dtype, &sz, env->params, c) == CLB_OK ? 0 : -1;
}

/* "315 MB", "1.07 GB": a footprint in a note (decimal units, as the
 * cache_resident mark has them). */
static void mb_text(double bytes, char *out, size_t n)
{
    if (bytes >= 1e9)
        snprintf(out, n, "%.3g GB", bytes / 1e9);
    else
        snprintf(out, n, "%.3g MB", bytes / 1e6);
}

/* What stops the walk up the ladder at a candidate (the first that does
 * not fit). */
enum limit { FITS, OVER_CAP, OVER_ALLOC, OVER_MEMORY, LADDER_END, SMALLEST };

static enum limit limit_of(const struct clb_env *env, const struct clb_counts *c, double cap)
{
    if (c->largest > (double)env->info->max_alloc)
        return OVER_ALLOC;
    if (c->footprint > 0.5 * (double)env->info->global_mem)
        return OVER_MEMORY;
    if (cap > 0 && c->footprint > cap)
        return OVER_CAP;
    return FITS;
}

static void add_size(struct clb_buf *b, const char *s)
{
    if (!clb_list_has(clb_buf_str(b), s))
        clb_buf_printf(b, "%s%s", b->len ? "," : "", s);
}

/* The walk: the sizes taken (out), the last that fitted (prev, its
 * footprint) and what stopped the walk (the next size, its counts). */
struct walk {
    char prev[160], next[160];
    double prev_fp;
    struct clb_counts next_c;
    enum limit stop;
    int chosen;
};

/* Every candidate of the ladder in turn, until one reaches `want` (or, for
 * a sweep, until the limits). */
static void walk_ladder(const struct clb_env *env, const char *dtype, double want, double floor,
                        double cap, struct clb_buf *out, struct walk *w)
{
    const struct clb_workload *wl = env->wl;
    char cand[160];
    w->stop = LADDER_END;
    for (int i = 0; !w->chosen && ladder_at(wl, i, cand, sizeof cand); i++) {
        struct clb_counts c;
        if (count_at(env, dtype, cand, &c))
            break; /* past what the counts can hold: the previous one is the largest */
        if ((w->stop = limit_of(env, &c, cap)) != FITS) {
            clb_strlcpy(w->next, cand, sizeof w->next);
            w->next_c = c;
            return;
        }
        w->stop = LADDER_END;
        if (wl->sizes.sweep && c.footprint >= floor)
            add_size(out, cand);
        if (!wl->sizes.sweep && c.footprint >= want) {
            add_size(out, cand);
            w->chosen = 1;
        }
        clb_strlcpy(w->prev, cand, sizeof w->prev);
        w->prev_fp = c.footprint;
    }
}

/* Why the rule's size stays below the cache-resident threshold: one line
 * for the user (the rows will say cache_resident). */
static void why_below(const struct clb_env *env, const char *dtype, const struct walk *w,
                      double cap, double resident, struct clb_buf *why)
{
    char fp[32], llc[32], thr[32], nfp[32], lim[32];
    mb_text(w->prev_fp, fp, sizeof fp);
    mb_text((double)clb_llc_bytes(env), llc, sizeof llc);
    mb_text(resident, thr, sizeof thr);
    mb_text(w->next_c.footprint, nfp, sizeof nfp);
    clb_buf_printf(why, "note: %s%s%s: default size %s (%s in all) is below %g x the %s "
                        "last-level cache (%s), so its rows measure the cache (cache_resident): ",
                   env->wl->name, dtype[0] ? " " : "", dtype, w->prev, fp,
                   (double)CLB_RESIDENT_TIMES, llc, thr);
    if (w->chosen) {
        mb_text(cap, lim, sizeof lim);
        clb_buf_printf(why, "the rule caps it at %s for this device type (run time)", lim);
    } else if (w->stop == OVER_CAP) {
        mb_text(cap, lim, sizeof lim);
        clb_buf_printf(why, "the next size, %s (%s), is above the rule's %s cap for this device "
                            "type (run time)", w->next, nfp, lim);
    } else if (w->stop == OVER_ALLOC) {
        mb_text(w->next_c.largest, nfp, sizeof nfp);
        mb_text((double)env->info->max_alloc, lim, sizeof lim);
        clb_buf_printf(why, "the next size, %s, needs a %s buffer, above the device's largest "
                            "(CL_DEVICE_MAX_MEM_ALLOC_SIZE %s)", w->next, nfp, lim);
    } else if (w->stop == OVER_MEMORY) {
        mb_text(0.5 * (double)env->info->global_mem, lim, sizeof lim);
        clb_buf_printf(why, "the next size, %s (%s), is above half the device's memory (%s)",
                       w->next, nfp, lim);
    } else if (w->stop == SMALLEST) {
        clb_buf_printf(why, "it is the smallest size of the workload's ladder, taken although "
                            "it is above the rule's limits for this device");
    } else {
        clb_buf_printf(why, "the workload's size ladder ends there");
    }
    clb_buf_printf(why, "; -s sets another size\n");
}

/* Does the rule aim past the caches (a floor or a multiple of the LLC)? A
 * sweep, a launch or a compute peak does not. */
static int memory_rule(const struct clb_size_rule *r)
{
    return !r->sweep && (r->llc_times > 0 || r->floor_mib[0] > 0 || r->floor_mib[1] > 0);
}

/* The study's own sizes first, then the rule's. */
static void prepend_extra(const char *extra, struct clb_buf *out)
{
    struct clb_buf both = {0};
    clb_buf_printf(&both, "%s", extra);
    int n;
    char **list = clb_split(clb_buf_str(out), &n);
    for (int i = 0; list && i < n; i++)
        add_size(&both, list[i]);
    free(list);
    clb_buf_free(out);
    *out = both;
}

char *clb_default_sizes(const struct clb_env *env, const char *dtype, struct clb_buf *why)
{
    const struct clb_workload *wl = env->wl;
    const struct clb_size_rule *r = &wl->sizes;
    struct clb_buf out = {0};
    if (env->quick)
        return clb_strdup(r->quick);
    /* A profile may set a device's default sizes from measurements
     * ([tuning] <workload>.sizes, e.g. a larger array where it was faster). */
    const char *tuned = clb_profile_tuning(env->profile, wl->name, CLB_TUNING_SIZES, dtype);
    if (tuned && tuned[0])
        return clb_strdup(tuned);
    int gpu = strcmp(env->info->type_name, "cpu") != 0; /* [1]: GPUs and accelerators */
    double floor = r->floor_mib[gpu] * 1048576.0;
    double resident = CLB_RESIDENT_TIMES * (double)clb_llc_bytes(env);
    double want = fmax(r->llc_times * (double)clb_llc_bytes(env), floor);
    if (memory_rule(r) && want < resident) /* never aim at a cache-resident size */
        want = resident;
    double cap = r->cap_mib[gpu] * 1048576.0;
    if (cap > 0 && want > cap)
        want = cap;
    struct walk w = {0};
    walk_ladder(env, dtype, want, floor, cap, &out, &w);
    if (!w.chosen && !out.len) {
        /* Nothing reached the target within the limits: the largest that fits,
         * else the ladder's first (the one that stopped the walk, if any). */
        if (!w.prev[0] && w.next[0]) {
            clb_strlcpy(w.prev, w.next, sizeof w.prev);
            w.prev_fp = w.next_c.footprint;
            w.stop = SMALLEST;
        } else if (!w.prev[0] && !ladder_at(wl, 0, w.prev, sizeof w.prev)) {
            clb_strlcpy(w.prev, r->quick, sizeof w.prev);
        }
        add_size(&out, w.prev);
    }
    if (why && memory_rule(r) && w.prev[0] && w.prev_fp < resident)
        why_below(env, dtype, &w, cap, resident, why);
    const char *extra = r->extra[gpu];
    if (extra && extra[0])
        prepend_extra(extra, &out);
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

/* ---- the run's estimate, before the first case (--budget) ------------------ */

/* Rough on purpose: minutes or an hour, not how many seconds (docs/
 * MEASURING.md, "A budget"). EST_UNIT_GBS per compute unit where the profile
 * has no peak (PoCL on 2 cores of a Xeon: stream 4-6 GB/s, camping 0.2); the
 * host checks the output at EST_HOST_GBS; a group's set-up EST_GROUP_S. */
#define EST_UNIT_GBS 3.0
#define EST_HOST_GBS 2.0
#define EST_GROUP_S 0.5

double clb_estimate_group(const struct clb_env *env, const struct clb_counts *c, long cases,
                          const struct clb_run_opts *o)
{
    double peak = env->profile ? env->profile->peak_bandwidth_gbs : NAN;
    double units = env->info->compute_units ? (double)env->info->compute_units : 1;
    double rate = (!isnan(peak) && peak > 0 ? 0.5 * peak : EST_UNIT_GBS * units) * 1e9;
    double t = (c->bytes > 0 ? c->bytes : c->footprint) / rate; /* one run */
    double timed = fmax(fmin(o->max_time, o->reps * t), o->min_reps * t);
    double warm = o->warmup * t < o->max_time / 4 ? o->warmup * t : o->max_time / 4 + t;
    double check = c->footprint / (EST_HOST_GBS * 1e9);
    return EST_GROUP_S + check + (double)(cases > 0 ? cases : 1) * (timed + warm + check);
}

int clb_size_below(const struct clb_env *env, const char *dtype, const struct clb_size *size,
                   char *out, size_t n)
{
    const struct clb_workload *wl = env->wl;
    struct clb_counts now;
    if (wl->sizes.sweep || clb_count_group(wl, dtype, size, env->params, &now) != CLB_OK)
        return 0;
    char cand[160];
    out[0] = 0;
    for (int i = 0; ladder_at(wl, i, cand, sizeof cand); i++) {
        struct clb_counts c;
        if (count_at(env, dtype, cand, &c) || c.footprint >= now.footprint)
            break;
        clb_strlcpy(out, cand, n);
    }
    return out[0] != 0;
}

/* The models' services: the context of `clbench model MODEL` and what a
 * model's run() reads through it. Every model parameter comes from --param
 * KEY=VALUE, else the profile's [model] section ("<prefix>.<key>"), else a
 * figure of its [device] section where one applies, else the model's
 * default; each printed with where it came from. */
#include "model_ctx.h"

#include <stdlib.h>
#include <string.h>

/* ---- services for models ----------------------------------------------- */

const struct clb_profile *clb_model_profile(const struct clb_model_ctx *m) { return m->p; }
const char *clb_model_size(const struct clb_model_ctx *m) { return m->req->size; }
const char *clb_model_type(const struct clb_model_ctx *m) { return m->req->type; }
int clb_model_given(const struct clb_model_ctx *m, const char *key)
{
    return clb_kvlist_get(&m->req->params, key) != NULL;
}

static const char *prefix_of(const struct clb_model_ctx *m)
{
    return m->def->prefix ? m->def->prefix : m->def->name;
}

/* A figure of the profile's [device] section standing in for a parameter. */
static double device_figure(const struct clb_model_ctx *m, const char *key)
{
    const struct clb_profile *p = m->p;
    if (!p)
        return NAN;
    if (strcmp(key, "sms") == 0)
        return p->compute_units;
    if (strcmp(key, "clock_mhz") == 0)
        return p->core_clock_mhz;
    if (strcmp(key, "bus_bytes") == 0)
        return p->bus_width_bits / 8.0;
    if (strcmp(key, "transfer_cycles") == 0) /* one word per memory data cycle */
        return p->core_clock_mhz / (2.0 * p->memory_clock_mhz);
    if (strcmp(key, "peak_bw") == 0)
        return p->peak_bandwidth_gbs;
    if (strcmp(key, "peak_gflops") == 0)
        return clb_profile_peak_gflops(p, m->req->type ? m->req->type : "float");
    return NAN;
}

/* A parameter that a measured ceiling stands for (--ceilings): its slot in
 * ctext and its kind, or -1. clock_mhz is the clock the latency's cycles
 * were counted at. */
static const struct { const char *key; int kind; } ceiling_keys[6] = {
    {"peak_bw", CLB_CEIL_BW},   {"triad_bw", CLB_CEIL_TRIAD},         {"peak_gflops", CLB_CEIL_SP},
    {"peak_gflops", CLB_CEIL_DP}, {"latency_cycles", CLB_CEIL_LATENCY}, {"clock_mhz", CLB_CEIL_LATENCY}};

static int ceiling_slot(const struct clb_model_ctx *m, const char *key)
{
    int dbl = m->req->type && clb_dtype_is_double(m->req->type);
    for (int i = 0; i < 6; i++)
        if (strcmp(key, ceiling_keys[i].key) == 0 &&
            (ceiling_keys[i].kind != CLB_CEIL_SP || !dbl) &&
            (ceiling_keys[i].kind != CLB_CEIL_DP || dbl))
            return i;
    return -1;
}

static const char *measured_text(struct clb_model_ctx *m, const char *key, const char **origin)
{
    int i = m->have_ceil ? ceiling_slot(m, key) : -1;
    if (i < 0 || !m->ctext[i][0] || !m->corigin[ceiling_keys[i].kind])
        return NULL;
    *origin = m->corigin[ceiling_keys[i].kind];
    return m->ctext[i];
}

const char *clb_model_text(struct clb_model_ctx *m, const char *key, const char **origin)
{
    const char *v = clb_kvlist_get(&m->req->params, key);
    if (v) {
        *origin = "--param";
        return v;
    }
    if ((v = measured_text(m, key, origin)))
        return v;
    char *full = clb_asprintf("%s.%s", prefix_of(m), key);
    v = full ? clb_profile_model(m->p, full) : NULL;
    free(full);
    if (v) {
        *origin = "profile [model]";
        return v;
    }
    double d = device_figure(m, key);
    if (!isnan(d) && d > 0) {
        clb_buf_free(&m->scratch);
        clb_buf_printf(&m->scratch, "%.6g", d);
        *origin = "profile [device]";
        return clb_buf_str(&m->scratch);
    }
    for (const struct clb_model_param *p = m->def->params; p->key; p++)
        if (strcmp(p->key, key) == 0 && p->def) {
            *origin = "the study's value";
            return p->def;
        }
    return NULL;
}

char *clb_model_ceiling_missing(struct clb_model_ctx *m, const char *key)
{
    int i = m->have_ceil ? ceiling_slot(m, key) : -1;
    if (i < 0 || m->ctext[i][0])
        return NULL;
    return clb_ceiling_missing(&m->ceil, (enum clb_ceiling_kind)ceiling_keys[i].kind);
}

static int missing(struct clb_model_ctx *m, const char *key)
{
    char *why = clb_model_ceiling_missing(m, key);
    if (why)
        clb_seterr("model %s: %s (or give --param %s=VALUE)", m->req->model, why, key);
    else
        clb_seterr("model %s: parameter '%s' is not set (give --param %s=VALUE, or a profile "
                   "whose [model] has %s.%s)", m->req->model, key, key, prefix_of(m), key);
    free(why);
    return CLB_EUSAGE;
}

int clb_model_num(struct clb_model_ctx *m, const char *key, double *out, int required)
{
    const char *origin;
    const char *v = clb_model_text(m, key, &origin);
    *out = NAN;
    if (!v)
        return required ? missing(m, key) : CLB_OK;
    char *end;
    double d = strtod(v, &end);
    while (*end == ' ')
        end++;
    if (end == v || *end || !isfinite(d) || d < 0) {
        int prof = m->p && strncmp(origin, "profile", 7) == 0;
        return clb_eusage("model %s: parameter %s = '%s' is not a non-negative number (from "
                          "%s%s%s)", m->req->model, key, v, origin, prof ? " in " : "",
                          prof ? m->p->path : "");
    }
    *out = d;
    return CLB_OK;
}

void clb_model_show(struct clb_model_ctx *m, const char *key)
{
    const char *origin;
    const char *v = clb_model_text(m, key, &origin);
    printf("  %-18s %-14s (%s)\n", key, v ? v : "-", v ? origin : "not set");
}

/* ---- running a model ----------------------------------------------------- */

static int load_profile(struct clb_model_ctx *m)
{
    if (!m->req->profile)
        return CLB_OK;
    int rc = clb_load_profiles_for(m->req->platforms_dir, &m->ps);
    if (rc)
        return rc;
    if (!(m->p = clb_profiles_find(&m->ps, m->req->profile))) {
        struct clb_buf known = {0};
        for (size_t i = 0; i < m->ps.n; i++)
            clb_buf_printf(&known, "%s%s", i ? ", " : "", m->ps.v[i].id);
        clb_seterr("model: unknown profile '%s' (known: %s)", m->req->profile, clb_buf_str(&known));
        clb_buf_free(&known);
        return CLB_EUSAGE;
    }
    return CLB_OK;
}

static int known_key(const struct clb_model_def *d, const char *key)
{
    for (const struct clb_model_param *p = d->params; p->key; p++)
        if (strcmp(p->key, key) == 0)
            return 1;
    return 0;
}

static char *known_keys(const struct clb_model_def *d)
{
    struct clb_buf b = {0};
    for (const struct clb_model_param *p = d->params; p->key; p++)
        clb_buf_printf(&b, "%s%s", b.len ? ", " : "", p->key);
    return b.s ? b.s : clb_strdup("none");
}

/* Unknown --param keys (roofline: they describe the workload's case) and
 * unknown "<prefix>." keys of the profile are typos. */
static int check_keys(const struct clb_model_ctx *m)
{
    int rc = CLB_OK;
    char *known = known_keys(m->def);
    for (size_t i = 0; i < m->req->params.n && !rc && m->def != &clb_model_roofline_def; i++)
        if (!known_key(m->def, m->req->params.v[i].key))
            rc = clb_eusage("model %s%s%s: unknown parameter '%s' (known: %s)", m->req->model,
                            m->req->variant ? " --" : "", m->req->variant ? m->req->variant : "",
                            m->req->params.v[i].key, known ? known : "");
    const char *pre = prefix_of(m);
    size_t pl = strlen(pre);
    for (size_t i = 0; m->p && i < m->p->nmodel && !rc; i++) {
        const char *k = m->p->model[i].key;
        if (strncmp(k, pre, pl) || k[pl] != '.')
            continue;
        if (!known_key(m->def, k + pl + 1))
            rc = clb_eusage("%s:%d: [model] unknown key '%s' (known %s.* keys: %s)", m->p->path,
                            m->p->model[i].line, k, pre, known ? known : "");
    }
    free(known);
    return rc;
}

/* --ceilings: the device is --device's, else the profile's, else the only
 * one in the file; the figures replace the profile's (docs/MODELS.md). */
static int load_ceilings(struct clb_model_ctx *m)
{
    if (!m->req->ceilings)
        return CLB_OK;
    struct clb_ceil_pick pick = {NULL, m->req->device, NULL, NULL};
    if (!m->req->device && m->p && m->p->match) {
        pick.match = m->p->match;
        pick.profile = m->p->id;
    }
    int rc = clb_ceilings_load(m->req->ceilings, &pick, &m->ceil);
    if (rc)
        return rc;
    m->have_ceil = 1;
    for (int k = 0; k < CLB_NCEILINGS; k++)
        m->corigin[k] = clb_ceiling_origin(&m->ceil, (enum clb_ceiling_kind)k);
    for (int i = 0; i < 6; i++) {
        const struct clb_ceiling *c = &m->ceil.c[ceiling_keys[i].kind];
        double v = strcmp(ceiling_keys[i].key, "latency_cycles") == 0 ? c->cycles
                   : strcmp(ceiling_keys[i].key, "clock_mhz") == 0    ? c->clock_mhz
                                                                      : c->value;
        if (m->ceil.have[ceiling_keys[i].kind] && v > 0 && isfinite(v))
            snprintf(m->ctext[i], sizeof m->ctext[i], "%.6g", v);
    }
    printf("ceilings measured on '%s' (%s)\n", m->ceil.device, m->req->ceilings);
    return CLB_OK;
}

static void ctx_free(struct clb_model_ctx *m)
{
    clb_profiles_free(&m->ps);
    clb_buf_free(&m->scratch);
    clb_ceilings_free(&m->ceil);
    for (int k = 0; k < CLB_NCEILINGS; k++)
        free(m->corigin[k]);
}

int clb_model_run(const struct clb_model_req *r)
{
    struct clb_model_ctx m = {.req = r, .def = clb_model_find(r->model, r->variant)};
    int rc = CLB_OK;
    if (!m.def)
        rc = clb_eusage("model: unknown model '%s'", r->model);
    if (!rc && !(rc = load_profile(&m)) && !(rc = check_keys(&m)) && !(rc = load_ceilings(&m)))
        rc = m.def->run(&m);
    ctx_free(&m);
    return rc;
}

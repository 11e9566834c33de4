/* `clbench model MODEL [options]`: analytic predictions, no device needed.
 * The roofline is the core's and counts any workload through the workload's
 * own count(); the other models belong to workloads (struct clb_model_def).
 * Every model parameter comes from --param KEY=VALUE, else the profile's
 * [model] section ("<prefix>.<key>"), else a figure of its [device] section
 * where one applies, else the model's default; each printed with where it
 * came from. */
#include "cli.h"
#include "clb_model.h"
#include "clb_scaling.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

struct clb_model_ctx {
    const char *model, *profile, *size, *type, *workload, *kernel, *platforms_dir;
    const char *variant;      /* --sim -> "sim" */
    struct clb_kvlist params;
    struct clb_profiles ps;
    const struct clb_profile *p;
    const struct clb_model_def *def;
    struct clb_buf scratch;   /* a [device] figure as text */
    const char *ceilings_path, *device;  /* --ceilings FILE, --device NAME */
    const char *results, *plot;          /* --results FILE[,FILE], --plot OUT */
    struct clb_ceilings ceil;
    int have_ceil;
    /* the measured figures as text, by ceiling_slot(), and where each kind came
     * from: made once, so that the pointers handed out stay valid */
    char ctext[6][32];
    char *corigin[CLB_NCEILINGS];
};

/* ---- the core's model: a roofline for any workload --------------------- */

static const struct clb_model_param roofline_params[] = {
    {"peak_bw", NULL, "GB/s [peak_bandwidth_gbs]"},
    {"peak_gflops", NULL, "GFlop/s [peak_gflops_sp or _dp by type]"},
    {NULL, NULL, NULL},
};

static int run_roofline(struct clb_model_ctx *m);

/* The core's own model. A workload of the same name (the empirical
 * roofline) is another thing: `clbench model roofline` is this model, and
 * the interface test exempts this one line from its "the core names no
 * workload" check. */
static const char core_model_name[] = "roofline";

static const struct clb_model_def roofline_def = {
    core_model_name, NULL, NULL, "time and rate of any workload/kernel/type/size on a profile",
    roofline_params, run_roofline};

/* ---- services for models ----------------------------------------------- */

const struct clb_profile *clb_model_profile(const struct clb_model_ctx *m) { return m->p; }
const char *clb_model_size(const struct clb_model_ctx *m) { return m->size; }
const char *clb_model_type(const struct clb_model_ctx *m) { return m->type; }
int clb_model_given(const struct clb_model_ctx *m, const char *key)
{
    return clb_kvlist_get(&m->params, key) != NULL;
}
const char *clb_model_workload(const struct clb_model_ctx *m) { return m->workload; }
const char *clb_model_kernel(const struct clb_model_ctx *m) { return m->kernel; }
const char *clb_model_results(const struct clb_model_ctx *m) { return m->results; }
const char *clb_model_device(const struct clb_model_ctx *m) { return m->device; }
const char *clb_model_plot(const struct clb_model_ctx *m) { return m->plot; }

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
        return clb_profile_peak_gflops(p, m->type ? m->type : "float");
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
    int dbl = m->type && clb_dtype_is_double(m->type);
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
    const char *v = clb_kvlist_get(&m->params, key);
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

/* With --ceilings, a parameter that a measured ceiling stands for and that
 * the file lacks: what is missing there (malloc'd), else NULL. */
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
        clb_seterr("model %s: %s (or give --param %s=VALUE)", m->model, why, key);
    else
        clb_seterr("model %s: parameter '%s' is not set (give --param %s=VALUE, or a profile "
                   "whose [model] has %s.%s)", m->model, key, key, prefix_of(m), key);
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
        clb_seterr("model %s: parameter %s = '%s' is not a non-negative number (from %s%s%s)",
                   m->model, key, v, origin, prof ? " in " : "", prof ? m->p->path : "");
        return CLB_EUSAGE;
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

/* ---- roofline ---------------------------------------------------------- */

static int run_roofline(struct clb_model_ctx *m)
{
    if (!m->workload || !m->size) {
        clb_seterr("model roofline: give --workload NAME and --size SIZE (and --kernel, "
                   "--type, --param, --profile)");
        return CLB_EUSAGE;
    }
    const struct clb_workload *wl = clb_workload_find(m->workload);
    if (!wl) {
        char *known = clb_workload_names();
        clb_seterr("model roofline: unknown workload '%s' (known: %s)", m->workload,
                   known ? known : "");
        free(known);
        return CLB_EUSAGE;
    }
    const char *type = m->type ? m->type : (wl->dtypes ? "float" : "");
    if (wl->dtypes && !clb_list_has(wl->dtypes, type)) {
        clb_seterr("model roofline: %s types are %s, not '%s'", wl->name, wl->dtypes, type);
        return CLB_EUSAGE;
    }
    struct clb_size sz;
    char err[512];
    if (clb_parse_dims(m->size, wl->size_dims, &sz, err, sizeof err)) {
        clb_seterr("model roofline: %s: %s", wl->name, err);
        return CLB_EUSAGE;
    }
    if (wl->check_size && wl->check_size(&sz))
        return CLB_EUSAGE;
    /* Workload parameters (not the model's own) describe the case. */
    struct clb_kvlist wp = {0};
    int rc = CLB_OK;
    for (size_t i = 0; i < m->params.n && !rc; i++)
        if (strcmp(m->params.v[i].key, "peak_bw") && strcmp(m->params.v[i].key, "peak_gflops"))
            rc = clb_kvlist_add_pair(&wp, m->params.v[i].key, m->params.v[i].value);
    struct clb_counts c;
    memset(&c, 0, sizeof c);
    const char *kernel = m->kernel ? m->kernel : "";
    if (!rc) {
        struct clb_query q = {kernel, type, &sz, &wp};
        rc = wl->count(&q, &c);
        if (rc == CLB_EUSAGE) {
            char *why = clb_strdup(clb_lasterr());
            clb_seterr("model roofline: %s %s %s %s: %s", wl->name, kernel, type, m->size,
                       why ? why : "");
            free(why);
        }
    }
    clb_kvlist_free(&wp);
    if (rc)
        return rc;
    if (c.host_bound) {
        clb_seterr("model roofline: %s %s runs on the host or over the host link: the "
                   "device-memory roofline does not apply", wl->name, kernel);
        return CLB_EUSAGE;
    }
    double bw, fl;
    if ((rc = clb_model_num(m, "peak_bw", &bw, 1)) || (rc = clb_model_num(m, "peak_gflops", &fl, 0)))
        return rc;
    if (!(bw > 0)) {
        clb_seterr("model roofline: peak_bw must be > 0");
        return CLB_EUSAGE;
    }
    struct clb_roofline r;
    clb_roofline_predict(c.bytes, c.flops, bw, fl, &r);
    printf("roofline: %s %s %s %s on %s\n", wl->name, kernel, type, m->size,
           m->p ? m->p->id : "(no profile)");
    clb_model_show(m, "peak_bw");
    clb_model_show(m, "peak_gflops");
    printf("bytes      %.6g (counted by the %s workload)\nflops      %.6g\nflop/byte  %.4g\n",
           c.bytes, wl->name, c.flops, c.bytes > 0 ? c.flops / c.bytes : 0.0);
    printf("bound      %s\n", r.compute_bound ? "compute" : "memory");
    printf("time       %.6g s\nGB/s       %.6g\nGFlop/s    %.6g\n", r.time_s, r.gbps, r.gflops);
    int gf = c.unit == CLB_UNIT_GFLOPS;
    printf("model      %.6g %s (the row's main unit)\n", gf ? r.gflops : r.gbps,
           gf ? "GFlop/s" : "GB/s");
    return CLB_OK;
}

/* ---- the command ------------------------------------------------------- */

/* Every model: the core's roofline, then each workload's. */
static const struct clb_model_def *find_model(const char *name, const char *variant)
{
    if (strcmp(name, roofline_def.name) == 0)
        return variant ? NULL : &roofline_def;
    if (strcmp(name, clb_model_scaling_def.name) == 0)
        return variant ? NULL : &clb_model_scaling_def;
    for (const struct clb_workload *const *w = clb_workload_list(); *w; w++)
        for (const struct clb_model_def *d = (*w)->models; d && d->name; d++)
            if (strcmp(d->name, name) == 0 &&
                ((!variant && !d->variant) || (variant && d->variant && !strcmp(variant, d->variant))))
                return d;
    return NULL;
}

static char *model_names(void)
{
    struct clb_buf b = {0};
    clb_buf_printf(&b, "%s, %s", roofline_def.name, clb_model_scaling_def.name);
    for (const struct clb_workload *const *w = clb_workload_list(); *w; w++)
        for (const struct clb_model_def *d = (*w)->models; d && d->name; d++)
            if (!d->variant && !clb_list_has(clb_buf_str(&b), d->name))
                clb_buf_printf(&b, ", %s", d->name);
    return b.s;
}

static void show_params(FILE *f, const struct clb_model_def *d)
{
    fprintf(f, "  %s%s%s:  %s\n", d->name, d->variant ? " --" : "", d->variant ? d->variant : "",
            d->summary);
    for (const struct clb_model_param *p = d->params; p->key; p++)
        fprintf(f, "    %-18s %s%s%s%s\n", p->key, p->help, p->def ? " (default " : "",
                p->def ? p->def : "", p->def ? ")" : "");
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: clbench model MODEL [options]   (no device needed)\n"
            "options:\n"
            "  -p, --profile NAME    a profile of platforms/ (parameters from its [model] and\n"
            "                        [device] sections)\n"
            "  -s, --size SIZE       problem size (as the workload takes it)\n"
            "  -t, --type LIST       element type(s)\n"
            "  -w, --workload NAME   roofline: any workload\n"
            "  -k, --kernel NAME     roofline: the workload's kernel (as in the CSV)\n"
            "  --param KEY=VALUE     a model parameter, or for roofline a workload parameter\n"
            "                        (as in the CSV's params column); repeatable\n"
            "  --sim                 blockeq: the Gantt-chart simulation\n"
            "  --ceilings FILE       bandwidth, compute peaks, memory latency and clock measured\n"
            "                        on the device (its rows in a results file) instead of the\n"
            "                        profile's figures\n"
            "  --device NAME         the device of --ceilings or --results FILE (part of its\n"
            "                        name); default: the profile's device, else the only one\n"
            "  --results FILE[,FILE] scaling: the plain and 1-rank distributed rows of one\n"
            "                        device\n"
            "  --plot OUT.svg|.png   scaling: efficiency against the ranks, drawn by gnuplot\n"
            "  --platforms-dir DIR   where the profiles are\n"
            "models and their parameters (--param KEY=VALUE; else the profile's [model]\n"
            "<model>.KEY, a [device] figure in brackets, or the default):\n");
    show_params(f, &roofline_def);
    show_params(f, &clb_model_scaling_def);
    for (const struct clb_workload *const *w = clb_workload_list(); *w; w++)
        for (const struct clb_model_def *d = (*w)->models; d && d->name; d++)
            show_params(f, d);
    fprintf(f, "See docs/MODELS.md.\n");
}

static int parse(int argc, char **argv, struct clb_model_ctx *m)
{
    static const struct option opts[] = {
        {"profile", required_argument, 0, 'p'}, {"size", required_argument, 0, 's'},
        {"type", required_argument, 0, 't'},    {"workload", required_argument, 0, 'w'},
        {"kernel", required_argument, 0, 'k'},  {"param", required_argument, 0, 'P'},
        {"sim", no_argument, 0, 'S'},           {"platforms-dir", required_argument, 0, 'L'},
        {"ceilings", required_argument, 0, 'C'}, {"device", required_argument, 0, 'D'},
        {"results", required_argument, 0, 'R'}, {"plot", required_argument, 0, 'G'},
        {"help", no_argument, 0, 'h'},          {0, 0, 0, 0}};
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":p:s:t:w:k:h", opts, NULL)) != -1) {
        switch (c) {
        case 'p': m->profile = optarg; break;
        case 's': m->size = optarg; break;
        case 't': m->type = optarg; break;
        case 'w': m->workload = optarg; break;
        case 'k': m->kernel = optarg; break;
        case 'S': m->variant = "sim"; break;
        case 'L': m->platforms_dir = optarg; break;
        case 'C': m->ceilings_path = optarg; break;
        case 'D': m->device = optarg; break;
        case 'R': m->results = optarg; break;
        case 'G': m->plot = optarg; break;
        case 'h': usage(stdout); return -1;
        case 'P':
            if (clb_kvlist_add(&m->params, optarg)) {
                clb_seterr("model: --param '%s' is not KEY=VALUE", optarg);
                return CLB_EUSAGE;
            }
            break;
        case ':':
            clb_seterr("model: option '%s' needs a value", argv[optind - 1]);
            return CLB_EUSAGE;
        default:
            clb_seterr("model: unknown option '%s' (see clbench model --help)", argv[optind - 1]);
            return CLB_EUSAGE;
        }
    }
    char *known = model_names();
    int rc = CLB_OK;
    if (m->device && !m->ceilings_path && !m->results) {
        clb_seterr("model: --device picks the device of --ceilings or --results FILE; give one "
                   "too");
        rc = CLB_EUSAGE;
    } else if (optind >= argc) {
        clb_seterr("model: missing MODEL (known: %s)", known ? known : "");
        rc = CLB_EUSAGE;
    } else if (optind + 1 < argc) {
        clb_seterr("model: unexpected argument '%s'", argv[optind + 1]);
        rc = CLB_EUSAGE;
    } else {
        m->model = argv[optind];
        m->def = find_model(m->model, m->variant);
        if (!m->def && find_model(m->model, NULL)) {
            /* name the models that have this variant */
            struct clb_buf with = {0};
            for (const struct clb_workload *const *w = clb_workload_list(); *w; w++)
                for (const struct clb_model_def *d = (*w)->models; d && d->name; d++)
                    if (d->variant && !strcmp(d->variant, m->variant))
                        clb_buf_printf(&with, "%s%s", with.len ? ", " : "", d->name);
            clb_seterr("model: --%s applies to %s only", m->variant,
                       with.len ? clb_buf_str(&with) : "no model");
            clb_buf_free(&with);
            rc = CLB_EUSAGE;
        } else if (!m->def) {
            clb_seterr("model: unknown model '%s' (known: %s)", m->model, known ? known : "");
            rc = CLB_EUSAGE;
        }
    }
    free(known);
    return rc;
}

static int load_profile(struct clb_model_ctx *m)
{
    if (!m->profile)
        return CLB_OK;
    int rc = clb_load_profiles_for(m->platforms_dir, &m->ps);
    if (rc)
        return rc;
    if (!(m->p = clb_profiles_find(&m->ps, m->profile))) {
        struct clb_buf known = {0};
        for (size_t i = 0; i < m->ps.n; i++)
            clb_buf_printf(&known, "%s%s", i ? ", " : "", m->ps.v[i].id);
        clb_seterr("model: unknown profile '%s' (known: %s)", m->profile, clb_buf_str(&known));
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
    for (size_t i = 0; i < m->params.n && !rc && m->def != &roofline_def; i++)
        if (!known_key(m->def, m->params.v[i].key)) {
            clb_seterr("model %s%s%s: unknown parameter '%s' (known: %s)", m->model,
                       m->variant ? " --" : "", m->variant ? m->variant : "",
                       m->params.v[i].key, known ? known : "");
            rc = CLB_EUSAGE;
        }
    const char *pre = prefix_of(m);
    size_t pl = strlen(pre);
    for (size_t i = 0; m->p && i < m->p->nmodel && !rc; i++) {
        const char *k = m->p->model[i].key;
        if (strncmp(k, pre, pl) || k[pl] != '.')
            continue;
        if (!known_key(m->def, k + pl + 1)) {
            clb_seterr("%s:%d: [model] unknown key '%s' (known %s.* keys: %s)", m->p->path,
                       m->p->model[i].line, k, pre, known ? known : "");
            rc = CLB_EUSAGE;
        }
    }
    free(known);
    return rc;
}

/* --ceilings: the device is --device's, else the profile's, else the only
 * one in the file; the figures replace the profile's (docs/MODELS.md). */
static int load_ceilings(struct clb_model_ctx *m)
{
    if (!m->ceilings_path)
        return CLB_OK;
    struct clb_ceil_pick pick = {NULL, m->device, NULL, NULL};
    if (!m->device && m->p && m->p->match) {
        pick.match = m->p->match;
        pick.profile = m->p->id;
    }
    int rc = clb_ceilings_load(m->ceilings_path, &pick, &m->ceil);
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
    printf("ceilings measured on '%s' (%s)\n", m->ceil.device, m->ceilings_path);
    return CLB_OK;
}

int clb_cmd_model(int argc, char **argv)
{
    struct clb_model_ctx m;
    memset(&m, 0, sizeof m);
    int rc = parse(argc, argv, &m);
    if (rc == 0 && !(rc = load_profile(&m)) && !(rc = check_keys(&m)) && !(rc = load_ceilings(&m)))
        rc = m.def->run(&m);
    if (rc > 0)
        clb_die_msg("%s", clb_lasterr());
    clb_kvlist_free(&m.params);
    clb_profiles_free(&m.ps);
    clb_buf_free(&m.scratch);
    clb_ceilings_free(&m.ceil);
    for (int k = 0; k < CLB_NCEILINGS; k++)
        free(m.corigin[k]);
    return rc < 0 ? CLB_EXIT_OK : clb_exit_status(rc);
}

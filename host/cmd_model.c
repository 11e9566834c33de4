/* `clbench model MODEL [options]`: the analytic models, no device needed.
 * Every model parameter comes from an option (--param KEY=VALUE), else the
 * profile's [model] section ("<model>.<key>"), else a figure of its [device]
 * section where one applies, else the source study's constant; each printed
 * with where it came from. */
#include "clb_cli.h"
#include "clb_model.h"
#include "clb_profile.h"
#include "clbench.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct mopts {
    const char *model, *profile, *size, *type, *workload, *kernel, *platforms_dir;
    int sim;
    struct clb_kvlist params;
    struct clb_profiles ps;
    const struct clb_profile *p;
};

/* A model parameter: its key and the study's constant (NULL: none). */
struct mparam { const char *key, *def, *help; };

static const struct mparam blockeq_params[] = {
    {"halfwarps", "32", "half-warps per block"},
    {"overlap_halfwarps", "20", "the report's '(halfwarpPerBlock - 20)'"},
    {"index_cycles", NULL, "index computation per half-warp, core cycles"},
    {"transfer_cycles", NULL, "one bus word per SM, core cycles [core / memory data clock]"},
    {"bus_bytes", NULL, "bytes per bus word [bus_width_bits / 8]"},
    {"sms", NULL, "SMs [compute_units]"},
    {"clock_mhz", NULL, "core clock of the cycle counts [core_clock_mhz]"},
    {"tiles_per_block", "0", "tiles per block (0: size / tile / sms, rounded down)"},
    {"size", NULL, "matrix n1xn2 (or --size)"},
    {NULL, NULL, NULL},
};
static const struct mparam gantt_params[] = {
    {"halfwarps", "32", "half-warps per block"},
    {"blocks", "1", "work-groups P (a list: 1,2,4,8,16,30,32)"},
    {"sms", NULL, "SMs [compute_units]"},
    {"blocks_per_sm", "1", "resident blocks per SM"},
    {"index_cycles", NULL, "SM busy per index computation"},
    {"issue_cycles", "1", "SM busy per write command"},
    {"latency_cycles", NULL, "request to data at the bus"},
    {"transfer_cycles", NULL, "one bus word, core cycles [core / memory data clock]"},
    {"bus_bytes", NULL, "bytes per bus word [bus_width_bits / 8]"},
    {"clock_mhz", NULL, "core clock [core_clock_mhz]"},
    {"size", NULL, "matrix n1xn2 (or --size)"},
    {NULL, NULL, NULL},
};
static const struct mparam dslash_params[] = {
    {"rhs", "1..5", "right-hand sides (a list or range)"},
    {"hit", "0,15/16,3/16,5/16,7/16,9/16", "vector cache hit rates (1 rhs)"},
    {"links", "compressed", "long links: compressed (56 B) or full (72 B)"},
    {"peak_bw", NULL, "GB/s [peak_bandwidth_gbs]"},
    {"triad_bw", NULL, "STREAM triad GB/s [profile [model] stream_triad_gbs]"},
    {NULL, NULL, NULL},
};
static const struct mparam roofline_params[] = {
    {"peak_bw", NULL, "GB/s [peak_bandwidth_gbs]"},
    {"peak_gflops", NULL, "GFlop/s [peak_gflops_sp or _dp by type]"},
    {NULL, NULL, NULL},
};

static const char *prefix_of(const struct mopts *o)
{
    return strcmp(o->model, "blockeq") == 0 && o->sim ? "gantt" : o->model;
}

static const struct mparam *params_of(const struct mopts *o)
{
    if (strcmp(o->model, "blockeq") == 0)
        return o->sim ? gantt_params : blockeq_params;
    return strcmp(o->model, "dslash") == 0 ? dslash_params : roofline_params;
}

/* A figure of the profile's [device] section standing in for a parameter. */
static double device_figure(const struct mopts *o, const char *key)
{
    const struct clb_profile *p = o->p;
    if (!p)
        return NAN;
    if (strcmp(key, "sms") == 0)
        return p->compute_units;
    if (strcmp(key, "clock_mhz") == 0)
        return p->core_clock_mhz;
    if (strcmp(key, "bus_bytes") == 0)
        return p->bus_width_bits / 8.0;
    if (strcmp(key, "transfer_cycles") == 0)   /* one word per memory data cycle */
        return p->core_clock_mhz / (2.0 * p->memory_clock_mhz);
    if (strcmp(key, "peak_bw") == 0)
        return p->peak_bandwidth_gbs;
    if (strcmp(key, "peak_gflops") == 0)
        return clb_profile_peak_gflops(p, o->type ? o->type : "float");
    return NAN;
}

/* The value of a parameter as text and its origin; NULL when nobody gives it. */
static const char *param_text(const struct mopts *o, const char *key, const char **origin,
                              char *buf, size_t n)
{
    const char *v = clb_kvlist_get(&o->params, key);
    if (v) {
        *origin = "--param";
        return v;
    }
    char full[96];
    snprintf(full, sizeof full, "%s.%s", prefix_of(o), key);
    if ((v = clb_profile_model(o->p, full))) {
        *origin = "profile [model]";
        return v;
    }
    if (strcmp(key, "triad_bw") == 0 && (v = clb_profile_model(o->p, "stream_triad_gbs"))) {
        *origin = "profile [model] stream_triad_gbs";
        return v;
    }
    double d = device_figure(o, key);
    if (!isnan(d) && d > 0) {
        snprintf(buf, n, "%.6g", d);
        *origin = "profile [device]";
        return buf;
    }
    for (const struct mparam *m = params_of(o); m->key; m++)
        if (strcmp(m->key, key) == 0 && m->def) {
            *origin = "the study's value";
            return m->def;
        }
    return NULL;
}

static int missing(const struct mopts *o, const char *key)
{
    clb_seterr("model %s: parameter '%s' is not set (give --param %s=VALUE, or a profile "
               "whose [model] has %s.%s%s)", o->model, key, key, prefix_of(o), key,
               strcmp(o->model, "blockeq") == 0 ? ", e.g. --profile tesla_c1060" : "");
    return CLB_EUSAGE;
}

static int param_num(const struct mopts *o, const char *key, double *out, int required)
{
    char buf[64];
    const char *origin;
    const char *v = param_text(o, key, &origin, buf, sizeof buf);
    *out = NAN;
    if (!v)
        return required ? missing(o, key) : CLB_OK;
    char *end;
    double d = strtod(v, &end);
    while (*end == ' ')
        end++;
    if (end == v || *end || !isfinite(d) || d < 0) {
        int prof = o->p && strncmp(origin, "profile", 7) == 0;
        clb_seterr("model %s: parameter %s = '%s' is not a non-negative number (from %s%s%s)",
                   o->model, key, v, origin, prof ? " in " : "", prof ? o->p->path : "");
        return CLB_EUSAGE;
    }
    *out = d;
    return CLB_OK;
}

/* Unknown --param keys and unknown "<model>." keys of the profile are typos. */
static int check_keys(const struct mopts *o)
{
    const struct mparam *ps = params_of(o);
    char known[256] = "";
    for (const struct mparam *m = ps; m->key; m++)
        clb_appendf(known, sizeof known, "%s%s", m == ps ? "" : ", ", m->key);
    for (size_t i = 0; i < o->params.n; i++) {
        const struct mparam *m = ps;
        while (m->key && strcmp(m->key, o->params.v[i].key))
            m++;
        if (!m->key) {
            clb_seterr("model %s%s: unknown parameter '%s' (known: %s)", o->model,
                       o->sim ? " --sim" : "", o->params.v[i].key, known);
            return CLB_EUSAGE;
        }
    }
    size_t pl = strlen(prefix_of(o));
    for (size_t i = 0; o->p && i < o->p->nmodel; i++) {
        const char *k = o->p->model[i].key;
        if (strncmp(k, prefix_of(o), pl) || k[pl] != '.')
            continue;
        const struct mparam *m = ps;
        while (m->key && strcmp(m->key, k + pl + 1))
            m++;
        if (!m->key) {
            clb_seterr("%s: [model] unknown key '%s' (known %s.* keys: %s)", o->p->path, k,
                       prefix_of(o), known);
            return CLB_EUSAGE;
        }
    }
    return CLB_OK;
}

static void show_param(const struct mopts *o, const char *key)
{
    char buf[64];
    const char *origin;
    const char *v = param_text(o, key, &origin, buf, sizeof buf);
    printf("  %-18s %-14s (%s)\n", key, v ? v : "-", v ? origin : "not set");
}

static int get_size(const struct mopts *o, int dims, struct clb_size *s)
{
    char buf[64], err[256];
    const char *origin;
    const char *v = o->size ? o->size : param_text(o, "size", &origin, buf, sizeof buf);
    if (!v)
        return missing(o, "size");
    if (clb_parse_dims(v, dims, s, err, sizeof err)) {
        clb_seterr("model %s: %s", o->model, err);
        return CLB_EUSAGE;
    }
    return CLB_OK;
}

/* ---- blockeq ----------------------------------------------------------- */

/* blockeq models float and double only. */
static int check_types(const char *list)
{
    int n;
    char **tl = clb_split(list, &n);
    if (!tl)
        return CLB_ESYS;
    for (int i = 0; i < n; i++)
        if (strcmp(tl[i], "float") && strcmp(tl[i], "double")) {
            clb_seterr("model blockeq: unknown type '%s' (known: float, double)", tl[i]);
            free(tl);
            return CLB_EUSAGE;
        }
    free(tl);
    return CLB_OK;
}

static int run_blockeq_closed(struct mopts *o)
{
    struct clb_blockeq_params bp;
    struct clb_size s;
    int rc;
    if ((rc = get_size(o, 2, &s)) || (rc = param_num(o, "halfwarps", &bp.halfwarps, 1)) ||
        (rc = param_num(o, "overlap_halfwarps", &bp.overlap_halfwarps, 1)) ||
        (rc = param_num(o, "index_cycles", &bp.index_cycles, 1)) ||
        (rc = param_num(o, "transfer_cycles", &bp.transfer_cycles, 1)) ||
        (rc = param_num(o, "bus_bytes", &bp.bus_bytes, 1)) ||
        (rc = param_num(o, "sms", &bp.sms, 1)) ||
        (rc = param_num(o, "clock_mhz", &bp.clock_mhz, 1)) ||
        (rc = param_num(o, "tiles_per_block", &bp.tiles_per_block, 1)))
        return rc;
    if (o->type && (rc = check_types(o->type)))
        return rc;
    bp.n1 = (double)s.d[0];
    bp.n2 = (double)s.d[1];
    struct clb_blockeq_result rf, rd;
    if ((rc = clb_blockeq_closed(&bp, 4, &rf)) || (rc = clb_blockeq_closed(&bp, 8, &rd)))
        return rc;
    printf("blockeq closed form (C1060 report, PART III), profile %s, %zux%zu\n",
           o->p ? o->p->id : "(none)", s.d[0], s.d[1]);
    for (const struct mparam *m = blockeq_params; m->key; m++)
        if (strcmp(m->key, "size"))
            show_param(o, m->key);
    printf("  X = (halfwarps - overlap) x index_cycles = %.6g cycles\n", rf.x_cycles);
    printf("  Y = tiles x 2 x (transfer_cycles x words x sms) x sms, tiles per block %.6g\n",
           rf.tiles_per_block);
    int f = !o->type || clb_list_has(o->type, "float");
    int d = !o->type || clb_list_has(o->type, "double");
    if (f)
        printf("float   %.4f GB/s  (X + Y  = %.6g cycles)\n", rf.gbps, rf.cycles);
    if (d)
        printf("double  %.4f GB/s  (X + 2Y = %.6g cycles)\n", rd.gbps, rd.cycles);
    if (f && d)
        printf("double/float ratio %.6f  (1 + X/(X+2Y) = %.6f)\n", rd.gbps / rf.gbps,
               1.0 + rf.x_cycles / (rf.x_cycles + 2.0 * rf.y_cycles));
    return CLB_OK;
}

/* The report's own figures for the one-block float case (256x256). */
#define REPORT_MODEL_GBPS 3.22
#define REPORT_MEASURED_GBPS 3.1

static int run_blockeq_sim(struct mopts *o)
{
    struct clb_size s;
    double d[10];
    static const char *const keys[] = {"halfwarps", "sms", "blocks_per_sm", "index_cycles",
                                       "issue_cycles", "latency_cycles", "transfer_cycles",
                                       "bus_bytes", "clock_mhz"};
    int rc = get_size(o, 2, &s);
    for (int i = 0; !rc && i < 9; i++)
        rc = param_num(o, keys[i], &d[i], 1);
    if (rc)
        return rc;
    /* The first three are counts the simulation takes as ints. */
    for (int i = 0; i < 3; i++)
        if (d[i] < 1 || d[i] > 1e6 || d[i] != floor(d[i])) {
            clb_seterr("model blockeq --sim: parameter %s = %g is not a whole number in 1..1000000",
                       keys[i], d[i]);
            return CLB_EUSAGE;
        }
    char buf[64], err[256];
    const char *origin;
    long blocks[64];
    int nb = clb_parse_int_list(param_text(o, "blocks", &origin, buf, sizeof buf), 1, 100000,
                                blocks, 64, err, sizeof err);
    if (nb < 0) {
        clb_seterr("model blockeq --sim: parameter blocks: %s", err);
        return CLB_EUSAGE;
    }
    const char *types = o->type ? o->type : "float,double";
    if ((rc = check_types(types)))
        return rc;
    int nt;
    char **tl = clb_split(types, &nt);
    if (!tl)
        return CLB_ESYS;
    printf("blockeq Gantt-chart simulation (C1060 report, figures 29-31 and 28), profile %s, "
           "%zux%zu\n", o->p ? o->p->id : "(none)", s.d[0], s.d[1]);
    for (const struct mparam *m = gantt_params; m->key; m++)
        if (strcmp(m->key, "size"))
            show_param(o, m->key);
    printf("%-7s %7s %12s %10s %8s %8s %14s\n", "type", "blocks", "cycles", "GB/s", "bus%",
           "SM%", "tiles/SM(max)");
    for (int t = 0; t < nt && !rc; t++)
        for (int b = 0; b < nb && !rc; b++) {
            struct clb_gantt_params gp = {
                .n1 = s.d[0], .n2 = s.d[1], .halfwarps = (int)d[0], .blocks = (int)blocks[b],
                .sms = (int)d[1], .blocks_per_sm = (int)d[2], .index_cycles = d[3],
                .issue_cycles = d[4], .latency_cycles = d[5], .transfer_cycles = d[6],
                .bus_bytes = d[7], .clock_mhz = d[8], .esize = strcmp(tl[t], "float") ? 8 : 4};
            struct clb_gantt_result r;
            if ((rc = clb_gantt_simulate(&gp, &r)))
                break;
            printf("%-7s %7ld %12.0f %10.4f %7.1f%% %7.1f%% %14ld\n", tl[t], blocks[b], r.cycles,
                   r.gbps, 100 * r.bus_busy, 100 * r.sm_busy, r.max_tiles_per_sm);
        }
    free(tl);
    if (!rc)
        printf("report, one block of floats at 256x256: %.2f GB/s modelled (figure 31), "
               "%.1f GB/s measured\n", REPORT_MODEL_GBPS, REPORT_MEASURED_GBPS);
    return rc;
}

/* ---- dslash ------------------------------------------------------------ */

static int parse_fraction(const char *s, double *out)
{
    char *end;
    double a = strtod(s, &end), b = 1;
    if (end != s && *end == '/') {
        const char *q = end + 1;
        b = strtod(q, &end);
        if (end == q)
            return -1;
    }
    if (end == s || *end || !(b > 0) || !(a / b >= 0) || a / b > 1)
        return -1;
    *out = a / b;
    return 0;
}

static void rate_cell(char *buf, size_t n, double bw, double ai)
{
    if (isnan(bw))
        clb_strlcpy(buf, "-", n);
    else
        snprintf(buf, n, "%.1f", bw * ai);
}

static int run_dslash(struct mopts *o)
{
    const char *type = o->type ? o->type : "float";
    if (strcmp(type, "float") && strcmp(type, "double")) {
        clb_seterr("model dslash: unknown type '%s' (known: float, double)", type);
        return CLB_EUSAGE;
    }
    size_t real = strcmp(type, "float") ? 8 : 4;
    char buf[64], err[256];
    const char *origin;
    const char *links = param_text(o, "links", &origin, buf, sizeof buf);
    if (strcmp(links, "compressed") && strcmp(links, "full")) {
        clb_seterr("model dslash: links = '%s' (known: compressed, full)", links);
        return CLB_EUSAGE;
    }
    int comp = strcmp(links, "compressed") == 0;
    long rhs[64];
    int nr = clb_parse_int_list(param_text(o, "rhs", &origin, buf, sizeof buf), 1, 64, rhs, 64,
                                err, sizeof err);
    if (nr < 0) {
        clb_seterr("model dslash: parameter rhs: %s", err);
        return CLB_EUSAGE;
    }
    double peak, triad;
    int rc;
    if ((rc = param_num(o, "peak_bw", &peak, 0)) || (rc = param_num(o, "triad_bw", &triad, 0)))
        return rc;
    int nh;
    char **hits = clb_split(param_text(o, "hit", &origin, buf, sizeof buf), &nh);
    if (!hits)
        return CLB_ESYS;
    double hv[64];
    for (int i = 0; i < nh; i++)
        if (i >= 64 || parse_fraction(hits[i], &hv[i])) {
            clb_seterr("model dslash: hit rate '%s' (expected a fraction in [0,1], e.g. 0.5 or "
                       "7/16; at most 64)", hits[i]);
            free(hits);
            return CLB_EUSAGE;
        }
    double link_b = clb_dslash_bytes_site(0, 0, comp, real);
    printf("dslash model (HISQ talk): %s, %s long links; per even site %.0f flop x rhs, "
           "%.0f B links + %.0f B vectors x rhs\n", type, links, CLB_DSLASH_FLOPS_SITE, link_b,
           clb_dslash_bytes_site(1, 0, comp, real) - link_b);
    printf("profile %s\n", o->p ? o->p->id : "(none)");
    show_param(o, "peak_bw");
    show_param(o, "triad_bw");
    const char *src = clb_profile_model(o->p, "stream_source");
    if (src && !clb_kvlist_get(&o->params, "triad_bw") && !isnan(triad))
        printf("  triad source: %s\n", src);
    printf("%-6s %10s %10s %18s %19s\n", "rhs", "bytes/site", "flop/byte", "GFlop/s (peak bw)",
           "GFlop/s (triad bw)");
    for (int i = 0; i < nr; i++) {
        double ai = clb_dslash_intensity((int)rhs[i], 0, comp, real);
        char a[32], b[32];
        rate_cell(a, sizeof a, peak, ai);
        rate_cell(b, sizeof b, triad, ai);
        printf("%-6ld %10.0f %10.2f %18s %19s\n", rhs[i],
               clb_dslash_bytes_site((int)rhs[i], 0, comp, real), ai, a, b);
    }
    printf("vector cache hit rate, 1 rhs (cache hits free: an upper limit)\n");
    printf("%-8s %10s %10s %18s %19s\n", "hit", "bytes/site", "flop/byte", "GFlop/s (peak bw)",
           "GFlop/s (triad bw)");
    for (int i = 0; i < nh; i++) {
        double ai = clb_dslash_intensity(1, hv[i], comp, real);
        char a[32], b[32];
        rate_cell(a, sizeof a, peak, ai);
        rate_cell(b, sizeof b, triad, ai);
        printf("%-8s %10.0f %10.2f %18s %19s\n", hits[i], clb_dslash_bytes_site(1, hv[i], comp, real),
               ai, a, b);
    }
    free(hits);
    return CLB_OK;
}

/* ---- roofline ---------------------------------------------------------- */

static int run_roofline(struct mopts *o)
{
    if (!o->workload || !o->size) {
        clb_seterr("model roofline: give --workload NAME and --size SIZE (and --kernel, "
                   "--type, --profile)");
        return CLB_EUSAGE;
    }
    const char *type = o->type ? o->type : "float";
    double bytes, flops, bw, fl;
    int gf, rc;
    if ((rc = clb_roofline_work(o->workload, o->kernel, type, o->size, &bytes, &flops, &gf)))
        return rc;
    if ((rc = param_num(o, "peak_bw", &bw, 1)) || (rc = param_num(o, "peak_gflops", &fl, 0)))
        return rc;
    if (!(bw > 0)) {
        clb_seterr("model roofline: peak_bw must be > 0");
        return CLB_EUSAGE;
    }
    struct clb_roofline r;
    clb_roofline_predict(bytes, flops, bw, fl, &r);
    printf("roofline: %s %s %s %s on %s\n", o->workload, o->kernel ? o->kernel : "", type,
           o->size, o->p ? o->p->id : "(no profile)");
    show_param(o, "peak_bw");
    show_param(o, "peak_gflops");
    printf("bytes      %.6g\nflops      %.6g\nflop/byte  %.4g\n", bytes, flops,
           bytes > 0 ? flops / bytes : 0.0);
    printf("bound      %s\n", r.compute_bound ? "compute" : "memory");
    printf("time       %.6g s\nGB/s       %.6g\nGFlop/s    %.6g\n", r.time_s, r.gbps, r.gflops);
    printf("model      %.6g %s (the row's main unit)\n", gf ? r.gflops : r.gbps,
           gf ? "GFlop/s" : "GB/s");
    return CLB_OK;
}

/* ---- command ----------------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: clbench model MODEL [options]   (no device needed)\n"
            "models:\n"
            "  blockeq    the C1060 report's closed form: float and double GB/s and their ratio\n"
            "  blockeq --sim  discrete-event simulation of the report's half-warp Gantt chart\n"
            "  dslash     HISQ Dslash flop/byte and GFlop/s per rhs and cache hit rate\n"
            "  roofline   time and rate of a workload/kernel/type/size on a profile\n"
            "options:\n"
            "  -p, --profile NAME    a profile of platforms/ (parameters from its [model] and\n"
            "                        [device] sections)\n"
            "  -s, --size SIZE       problem size (blockeq n1xn2, roofline as in the CSV)\n"
            "  -t, --type LIST       float, double (blockeq --sim: a list)\n"
            "  -w, --workload NAME   roofline: stream, copy2d, transpose, blockeq, dot, matmul, "
            "dslash\n"
            "  -k, --kernel NAME     roofline: stream copy|scale|add|triad; dslash rhs=R\n"
            "  --param KEY=VALUE     any model parameter (repeatable); see docs/MODELS.md\n"
            "  --sim                 blockeq: the Gantt-chart simulation\n"
            "  --platforms-dir DIR   where the profiles are\n");
    static const struct { const char *name; const struct mparam *ps; } all[] = {
        {"blockeq", blockeq_params}, {"blockeq --sim", gantt_params},
        {"dslash", dslash_params},   {"roofline", roofline_params}};
    fprintf(f, "parameters (--param KEY=VALUE; else the profile's [model] <model>.KEY, "
               "[device] figure in brackets, or the study's value):\n");
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
        fprintf(f, "  %s:\n", all[i].name);
        for (const struct mparam *m = all[i].ps; m->key; m++)
            fprintf(f, "    %-18s %s%s%s%s\n", m->key, m->help, m->def ? " (default " : "",
                    m->def ? m->def : "", m->def ? ")" : "");
    }
}

static int parse(int argc, char **argv, struct mopts *o)
{
    static const struct option opts[] = {
        {"profile", required_argument, 0, 'p'}, {"size", required_argument, 0, 's'},
        {"type", required_argument, 0, 't'},    {"workload", required_argument, 0, 'w'},
        {"kernel", required_argument, 0, 'k'},  {"param", required_argument, 0, 'P'},
        {"sim", no_argument, 0, 'S'},           {"platforms-dir", required_argument, 0, 'L'},
        {"help", no_argument, 0, 'h'},          {0, 0, 0, 0}};
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":p:s:t:w:k:h", opts, NULL)) != -1) {
        switch (c) {
        case 'p': o->profile = optarg; break;
        case 's': o->size = optarg; break;
        case 't': o->type = optarg; break;
        case 'w': o->workload = optarg; break;
        case 'k': o->kernel = optarg; break;
        case 'S': o->sim = 1; break;
        case 'L': o->platforms_dir = optarg; break;
        case 'h': usage(stdout); return -1;
        case 'P':
            if (clb_kvlist_add(&o->params, optarg)) {
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
    if (optind >= argc) {
        clb_seterr("model: missing MODEL (known: blockeq, dslash, roofline)");
        return CLB_EUSAGE;
    }
    o->model = argv[optind];
    if (optind + 1 < argc) {
        clb_seterr("model: unexpected argument '%s'", argv[optind + 1]);
        return CLB_EUSAGE;
    }
    if (strcmp(o->model, "blockeq") && strcmp(o->model, "dslash") && strcmp(o->model, "roofline")) {
        clb_seterr("model: unknown model '%s' (known: blockeq, dslash, roofline)", o->model);
        return CLB_EUSAGE;
    }
    if (o->sim && strcmp(o->model, "blockeq")) {
        clb_seterr("model: --sim applies to blockeq only");
        return CLB_EUSAGE;
    }
    return CLB_OK;
}

static int load_profile(struct mopts *o)
{
    if (!o->profile)
        return CLB_OK;
    int rc = clb_load_profiles_for(o->platforms_dir, &o->ps);
    if (rc)
        return rc;
    if (!(o->p = clb_profiles_find(&o->ps, o->profile))) {
        char known[512] = "";
        for (size_t i = 0; i < o->ps.n; i++)
            clb_appendf(known, sizeof known, "%s%s", i ? ", " : "", o->ps.v[i].id);
        clb_seterr("model: unknown profile '%s' (known: %s)", o->profile, known);
        return CLB_EUSAGE;
    }
    return CLB_OK;
}

int clb_cmd_model(int argc, char **argv)
{
    struct mopts o;
    memset(&o, 0, sizeof o);
    int rc = parse(argc, argv, &o);
    if (rc == 0 && !(rc = load_profile(&o)) && !(rc = check_keys(&o))) {
        if (strcmp(o.model, "blockeq") == 0)
            rc = o.sim ? run_blockeq_sim(&o) : run_blockeq_closed(&o);
        else if (strcmp(o.model, "dslash") == 0)
            rc = run_dslash(&o);
        else
            rc = run_roofline(&o);
    }
    if (rc > 0)
        clb_die_msg("%s", clb_lasterr());
    clb_kvlist_free(&o.params);
    clb_profiles_free(&o.ps);
    return rc < 0 ? CLB_EXIT_OK : clb_exit_status(rc);
}

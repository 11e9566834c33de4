/* clbench compare FILE.csv...: measured runs and published figures side by
 * side, as a table (text, Markdown or JSON) and as gnuplot figures, or set
 * against a saved baseline run (docs/COMPARE.md). */
#include "cli.h"
#include "clb_compare.h"
#include "clbench.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: clbench compare FILE... [options]   (results files: CSV or JSON Lines)\n"
            "  -m, --metric M          the figure shown:\n");
    for (const struct cmp_metric *m = cmp_metric_list(); m->name; m++)
        fprintf(f, "                            %-10s %s\n", m->name, m->help);
    fprintf(f,
            "                            or any key of the rows' metrics with a number\n"
            "                            (latency_us, ns_per_load, of_stream_copy, ...)\n"
            "      --list-metrics      every metric -m takes: unit, which way is better\n"
            "      --headline          the table for slides: each device's triad and dot GB/s,\n"
            "                          fp32/fp64 peak, launch and memory latency, %% of the\n"
            "                          datasheet, each device over the first\n");
    fprintf(f,
            "  -r, --relative-to DEV   divide every column by the column whose name contains DEV\n"
            "  -w, --workload LIST     only these workloads (comma-separated, any case)\n"
            "  -k, --kernel LIST       only these kernels\n"
            "  -t, --dtype LIST        only these element types\n"
            "  -s, --size LIST         only these sizes (2^28, 256M and 268435456 are one size)\n"
            "      --sweep auto|none|KEYS  parameters whose values make lines of their own:\n"
            "                          found automatically (default), none (best over all\n"
            "                          values), or these keys (e.g. --sweep rhs)\n"
            "      --any-size          one line per kernel and type whatever the size: each\n"
            "                          column's best (devices and papers use their own sizes);\n"
            "                          rows whose detail says cache_resident are left out.\n"
            "                          The default where the rows name several devices and\n"
            "                          no --size is given; one device's rows go size by size\n"
            "      --by-size           lines size by size, also for several devices\n"
            "      --include-cache     with --any-size (or devices lined up): keep the\n"
            "                          cache_resident rows too\n"
            "      --markdown          print a Markdown table\n"
            "      --json              print the table (or the deltas) as one JSON document\n"
            "      --plot OUT.svg|OUT.png  one figure per workload (OUT-<workload>.svg when\n"
            "                          several), drawn by gnuplot ($CLBENCH_GNUPLOT: its path);\n"
            "                          roofline rows: a roofline per device (GFlop/s against\n"
            "                          flop/byte under the measured ceilings, every workload's\n"
            "                          rows with bytes and flops on it); latency rows: ns per\n"
            "                          load against the working set, a staircase per device\n"
            "      --ceilings FILE.csv the measured ceilings of pct_measured_peak and of the\n"
            "                          rooflines come from this file's rows (by device name)\n"
            "                          instead of the compared files'\n"
            "      --baseline OLD.csv  the regression gate: set the files against a saved run,\n"
            "                          line by line (workload, kernel, type, size and case\n"
            "                          parameters; tuning shown, not matched); exit 1 when a\n"
            "                          line regressed or a baseline line is missing or lost its\n"
            "                          figure, 2 when another device or nothing in common\n"
            "      --threshold PCT     a line regresses when worse by more than PCT percent\n"
            "                          (default 5) and outside both runs' measured spread\n"
            "      --strict            the threshold alone: the runs' spread does not count\n"
            "      --allow-missing     baseline lines missing from the new files (or skipped\n"
            "                          there) do not fail the gate\n"
            "      --cross-device      set another device against the baseline's, lines\n"
            "                          matched at each device's default size\n"
            "      --host-lines        judge the host-bound lines too (CPU baselines, host\n"
            "                          and hybrid paths, transfers, launches: they measure\n"
            "                          the host); left out by default, and counted\n"
            "Rows with status ok and reference are compared; failed, skipped and error rows show\n"
            "their status where nothing passed. Exit status: 0 ok, 1 the gate failed\n"
            "(--baseline: a line regressed, is missing or lost its figure), 2 bad usage or\n"
            "input (--baseline: another device, nothing in common), 3 a system error\n"
            "(gnuplot failed). See docs/COMPARE.md.\n");
}

struct cmp_args {
    struct cmp_filter flt;
    const char *plot, *relative, *baseline, *threshold, *ceilings;
    struct cmp_metric metric_v;      /* -m: its name points into argv */
    const struct cmp_metric *metric; /* &metric_v */
    int markdown, json, by_size, headline;
    struct cmp_gate gate;
};

enum {
    OPT_MARKDOWN = 256, OPT_PLOT, OPT_SWEEP, OPT_ANY_SIZE, OPT_INCLUDE_CACHE, OPT_JSON,
    OPT_BASELINE, OPT_THRESHOLD, OPT_CEILINGS, OPT_STRICT, OPT_ALLOW_MISSING, OPT_CROSS_DEVICE,
    OPT_BY_SIZE, OPT_LIST_METRICS, OPT_HOST_LINES, OPT_HEADLINE
};

static const struct option opts[] = {
    {"metric", required_argument, 0, 'm'},
    {"relative-to", required_argument, 0, 'r'},
    {"workload", required_argument, 0, 'w'},
    {"kernel", required_argument, 0, 'k'},
    {"dtype", required_argument, 0, 't'},
    {"type", required_argument, 0, 't'},
    {"size", required_argument, 0, 's'},
    {"markdown", no_argument, 0, OPT_MARKDOWN},
    {"json", no_argument, 0, OPT_JSON},
    {"plot", required_argument, 0, OPT_PLOT},
    {"help", no_argument, 0, 'h'},
    {"sweep", required_argument, 0, OPT_SWEEP},
    {"any-size", no_argument, 0, OPT_ANY_SIZE},
    {"by-size", no_argument, 0, OPT_BY_SIZE},
    {"include-cache", no_argument, 0, OPT_INCLUDE_CACHE},
    {"baseline", required_argument, 0, OPT_BASELINE},
    {"threshold", required_argument, 0, OPT_THRESHOLD},
    {"ceilings", required_argument, 0, OPT_CEILINGS},
    {"strict", no_argument, 0, OPT_STRICT},
    {"allow-missing", no_argument, 0, OPT_ALLOW_MISSING},
    {"cross-device", no_argument, 0, OPT_CROSS_DEVICE},
    {"list-metrics", no_argument, 0, OPT_LIST_METRICS},
    {"host-lines", no_argument, 0, OPT_HOST_LINES},
    {"headline", no_argument, 0, OPT_HEADLINE},
    {0, 0, 0, 0}};

/* --metric M: a metric of the list or a key of the rows' metrics; CLB_EUSAGE
 * with the known metrics when M is neither. */
static int set_metric(struct cmp_args *a, const char *name)
{
    if (cmp_metric_lookup(name, &a->metric_v) == CLB_OK)
        return 0;
    return clb_cli_eusage("compare: %s", clb_lasterr());
}

/* The options of the table's selection; 0 when c is not one of them. */
static int set_filter(struct cmp_filter *f, int c, const char *arg)
{
    switch (c) {
    case 'w': f->workload = arg; return 1;
    case 'k': f->kernel = arg; return 1;
    case 't': f->dtype = arg; return 1;
    case 's': f->size = arg; return 1;
    case OPT_SWEEP: f->sweep = arg; return 1;
    case OPT_ANY_SIZE: f->any_size = 1; return 1;
    case OPT_INCLUDE_CACHE: f->include_cache = 1; return 1;
    default: return 0;
    }
}

/* The options of the output and of the gate; 0 when c is not one of them. */
static int set_other(struct cmp_args *a, int c, const char *arg)
{
    switch (c) {
    case 'r': a->relative = arg; return 1;
    case OPT_MARKDOWN: a->markdown = 1; return 1;
    case OPT_JSON: a->json = 1; return 1;
    case OPT_BY_SIZE: a->by_size = 1; return 1;
    case OPT_PLOT: a->plot = arg; return 1;
    case OPT_BASELINE: a->baseline = arg; return 1;
    case OPT_THRESHOLD: a->threshold = arg; return 1;
    case OPT_CEILINGS: a->ceilings = arg; return 1;
    case OPT_STRICT: a->gate.strict = 1; return 1;
    case OPT_ALLOW_MISSING: a->gate.allow_missing = 1; return 1;
    case OPT_CROSS_DEVICE: a->gate.cross_device = 1; return 1;
    case OPT_HOST_LINES: a->gate.host_lines = 1; return 1;
    case OPT_HEADLINE: a->headline = 1; return 1;
    default: return 0;
    }
}

/* One option from getopt_long: 0, -1 for --help (printed), CLB_EUSAGE
 * with the message printed. */
static int set_option(struct cmp_args *a, int c, char **argv, struct clb_buf *e)
{
    if (c == 'm')
        return set_metric(a, optarg);
    if (c == OPT_LIST_METRICS) {
        cmp_metric_print_all(stdout);
        return -1;
    }
    if (set_filter(&a->flt, c, optarg) || set_other(a, c, optarg))
        return 0;
    if (c == 'h') {
        usage(stdout);
        return -1;
    }
    if (c == ':')
        clb_print_error("compare: option '%s' needs a value (clbench compare --help)",
                        cmp_esc_tmp(e, argv[optind - 1], 0));
    else
        clb_print_error("compare: unknown option '%s' (clbench compare --help)",
                        cmp_esc_tmp(e, argv[optind - 1], 0));
    return CLB_EUSAGE;
}

/* A gate option without --baseline: its message, else NULL. */
static const char *gate_alone(const struct cmp_args *a)
{
    if (a->baseline)
        return NULL;
    return a->threshold ? "--threshold goes with --baseline OLD.csv"
           : a->gate.strict ? "--strict goes with --baseline OLD.csv"
           : a->gate.allow_missing ? "--allow-missing goes with --baseline OLD.csv"
           : a->gate.cross_device ? "--cross-device goes with --baseline OLD.csv"
           : a->gate.host_lines ? "--host-lines goes with --baseline OLD.csv"
                                : NULL;
}

/* --baseline with an option of the table: its message, else NULL. */
static const char *gate_with_table(const struct cmp_args *a)
{
    if (!a->baseline)
        return NULL;
    return a->plot ? "--plot draws the table, not the deltas of --baseline: give one"
           : a->metric->measured ? "--metric pct_measured_peak sets rows against their device's "
                                   "ceilings: not with --baseline"
           : a->ceilings ? "--ceilings goes with --metric pct_measured_peak or --plot, not with "
                           "--baseline"
                         : NULL;
}

/* Options that do not go together (or no file): the message, else NULL. */
static const char *conflict(const struct cmp_args *a, int argc)
{
    const char *bad;
    if (optind >= argc)
        return "no results file given (usage: clbench compare FILE.csv... [--plot OUT.svg])";
    if (a->markdown && a->json)
        return "--markdown and --json are two formats of one output: give one";
    if (a->headline && (a->baseline || a->plot || a->relative || a->ceilings || a->by_size ||
                        a->metric->name != cmp_metric_find("auto")->name || a->flt.workload ||
                        a->flt.kernel || a->flt.dtype || a->flt.size || a->flt.sweep ||
                        a->flt.any_size || a->flt.include_cache))
        return "--headline is its own table of the files' rows: not with --metric, filters, "
               "--plot, --baseline, --relative-to or the table's options";
    if ((bad = gate_alone(a)) || (bad = gate_with_table(a)))
        return bad;
    if (a->ceilings && !a->metric->measured && !a->plot)
        return "--ceilings goes with --metric pct_measured_peak or --plot (the rooflines)";
    if (a->baseline && a->relative)
        return "--relative-to and --baseline compare with two different references: give one";
    if (a->by_size && a->flt.any_size)
        return "--by-size and --any-size ask for two kinds of lines: give one";
    if (a->by_size && a->baseline)
        return "--by-size goes with the table, not with --baseline (the gate matches lines by "
               "its own rules: --cross-device)";
    return NULL;
}

/* --threshold PCT ("5", "2.5%"): CLB_EUSAGE with the message printed. */
static int set_threshold(struct cmp_args *a, struct clb_buf *e)
{
    char *end;
    a->gate.threshold = strtod(a->threshold, &end);
    if (*end == '%')
        end++;
    if (end != a->threshold && !*end && isfinite(a->gate.threshold) && a->gate.threshold >= 0)
        return 0;
    return clb_cli_eusage("compare: --threshold '%s' is not a percentage >= 0 (e.g. 5 or 2.5)",
                          cmp_esc_tmp(e, a->threshold, 0));
}

/* After the options: their combinations, the threshold's value, the plot's
 * name; what the table's build takes from them. */
static int check(struct cmp_args *a, int argc, struct clb_buf *e)
{
    const char *bad = conflict(a, argc);
    /* the table lines devices up unless told; the gate keeps its own rules */
    a->flt.line_up = !a->by_size && !a->baseline;
    a->flt.plot = a->plot != NULL;
    a->flt.ceilings = a->ceilings;
    if (a->threshold && set_threshold(a, e))
        return CLB_EUSAGE;
    if (bad)
        return clb_cli_eusage("compare: %s", bad);
    int svg;
    if (a->plot && clb_chart_path_check(a->plot, &svg))
        return clb_cli_eusage("compare: %s", clb_lasterr());
    return 0;
}

/* 0 ok, -1 --help, else CLB_EUSAGE with the message printed. */
static int parse(int argc, char **argv, struct cmp_args *a)
{
    memset(a, 0, sizeof *a);
    a->metric = &a->metric_v;
    a->metric_v = *cmp_metric_find("auto");
    a->gate.threshold = 5;
    optind = 1;
    opterr = 0;
    int c, rc = 0;
    struct clb_buf e = {0};
    while (!rc && (c = getopt_long(argc, argv, ":m:r:w:k:t:s:h", opts, NULL)) != -1)
        rc = set_option(a, c, argv, &e);
    if (!rc)
        rc = check(a, argc, &e);
    clb_buf_free(&e);
    return rc;
}

static int run_baseline(const struct cmp_args *a, char **files, int nfiles)
{
    struct cmp_delta d;
    int rc = cmp_baseline(&d, files, nfiles, a->baseline, &a->flt, a->metric, &a->gate);
    if (rc) {
        clb_print_error("%s", clb_lasterr());
        return clb_exit_status(rc);
    }
    rc = a->json ? cmp_delta_print_json(&d, stdout)
         : a->markdown ? cmp_delta_print_markdown(&d, stdout)
                       : cmp_delta_print_text(&d, stdout);
    int status = rc ? clb_exit_status(rc) : d.failed ? CLB_EXIT_FAILED : CLB_EXIT_OK;
    if (rc) {
        clb_print_error("%s", clb_lasterr());
    } else if (d.failed) {
        struct clb_buf m = {0};
        cmp_delta_verdict(&d, &m);
        clb_print_error("%s", m.oom ? "the gate fails (out of memory for its message)"
                                    : clb_buf_str(&m));
        clb_buf_free(&m);
    }
    cmp_delta_free(&d);
    return status;
}

/* --headline: the table for slides (each device's triad, dot, peaks,
 * latencies, % of datasheet, ratios). */
static int run_headline(const struct cmp_args *a, char **files, int nfiles)
{
    struct cmp_headline h;
    int rc = cmp_headline_build(&h, files, nfiles, NULL);
    if (!rc)
        rc = a->json ? cmp_headline_print_json(&h, stdout)
             : a->markdown ? cmp_headline_print_markdown(&h, stdout)
                           : cmp_headline_print_text(&h, stdout);
    if (rc)
        clb_print_error("%s", clb_lasterr());
    if (rc != CLB_EUSAGE)
        cmp_headline_free(&h);
    return clb_exit_status(rc);
}

int clb_cmd_compare(int argc, char **argv)
{
    struct cmp_args a;
    int rc = parse(argc, argv, &a);
    if (rc)
        return rc < 0 ? CLB_EXIT_OK : CLB_EXIT_USAGE;
    if (a.baseline)
        return run_baseline(&a, argv + optind, argc - optind);
    if (a.headline)
        return run_headline(&a, argv + optind, argc - optind);
    struct cmp_table t;
    rc = cmp_build(&t, argv + optind, argc - optind, &a.flt, a.metric);
    if (!rc && a.relative)
        rc = cmp_set_relative(&t, a.relative);
    /* the table first: it is printed even when the plot cannot be drawn */
    if (!rc)
        rc = a.json ? cmp_print_json(&t, stdout)
             : a.markdown ? cmp_print_markdown(&t, stdout)
                          : cmp_print_text(&t, stdout);
    if (!rc && a.plot)
        rc = cmp_plot(&t, a.plot);
    if (rc)
        clb_print_error("%s", clb_lasterr());
    cmp_free(&t);
    return clb_exit_status(rc);
}

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
            "Rows with status ok and reference are compared; failed, skipped and error rows show\n"
            "their status where nothing passed. Exit status: 0 ok, 1 the gate failed\n"
            "(--baseline: a line regressed, is missing or lost its figure), 2 bad usage or\n"
            "input (--baseline: another device, nothing in common), 3 a system error\n"
            "(gnuplot failed). See docs/COMPARE.md.\n");
}

struct cmp_args {
    struct cmp_filter flt;
    const char *plot, *relative, *baseline, *threshold, *ceilings;
    const struct cmp_metric *metric;
    int markdown, json, by_size;
    struct cmp_gate gate;
};

enum {
    OPT_MARKDOWN = 256, OPT_PLOT, OPT_SWEEP, OPT_ANY_SIZE, OPT_INCLUDE_CACHE, OPT_JSON,
    OPT_BASELINE, OPT_THRESHOLD, OPT_CEILINGS, OPT_STRICT, OPT_ALLOW_MISSING, OPT_CROSS_DEVICE,
    OPT_BY_SIZE
};

/* 0 ok, -1 --help, else CLB_EUSAGE with the message printed. */
static int parse(int argc, char **argv, struct cmp_args *a)
{
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
        {0, 0, 0, 0}};
    memset(a, 0, sizeof *a);
    a->metric = cmp_metric_find("gbps");
    a->gate.threshold = 5;
    optind = 1;
    opterr = 0;
    int c;
    struct clb_buf e = {0};
    int rc = 0;
    while (!rc && (c = getopt_long(argc, argv, ":m:r:w:k:t:s:h", opts, NULL)) != -1) {
        switch (c) {
        case 'm':
            if (!(a->metric = cmp_metric_find(optarg))) {
                struct clb_buf names = {0};
                cmp_metric_names(&names);
                clb_die_msg("compare: unknown metric '%s' (known: %s)", cmp_esc_tmp(&e, optarg, 0),
                            clb_buf_str(&names));
                clb_buf_free(&names);
                rc = CLB_EUSAGE;
            }
            break;
        case 'r': a->relative = optarg; break;
        case 'w': a->flt.workload = optarg; break;
        case 'k': a->flt.kernel = optarg; break;
        case 't': a->flt.dtype = optarg; break;
        case 's': a->flt.size = optarg; break;
        case OPT_MARKDOWN: a->markdown = 1; break;
        case OPT_JSON: a->json = 1; break;
        case OPT_SWEEP: a->flt.sweep = optarg; break;
        case OPT_ANY_SIZE: a->flt.any_size = 1; break;
        case OPT_BY_SIZE: a->by_size = 1; break;
        case OPT_INCLUDE_CACHE: a->flt.include_cache = 1; break;
        case OPT_PLOT: a->plot = optarg; break;
        case OPT_BASELINE: a->baseline = optarg; break;
        case OPT_THRESHOLD: a->threshold = optarg; break;
        case OPT_CEILINGS: a->ceilings = optarg; break;
        case OPT_STRICT: a->gate.strict = 1; break;
        case OPT_ALLOW_MISSING: a->gate.allow_missing = 1; break;
        case OPT_CROSS_DEVICE: a->gate.cross_device = 1; break;
        case 'h': usage(stdout); clb_buf_free(&e); return -1;
        case ':':
            clb_die_msg("compare: option '%s' needs a value (clbench compare --help)",
                        cmp_esc_tmp(&e, argv[optind - 1], 0));
            rc = CLB_EUSAGE;
            break;
        default:
            clb_die_msg("compare: unknown option '%s' (clbench compare --help)",
                        cmp_esc_tmp(&e, argv[optind - 1], 0));
            rc = CLB_EUSAGE;
        }
    }
    const char *bad = NULL;
    if (rc) {
        /* reported above */
    } else if (optind >= argc) {
        bad = "no results file given (usage: clbench compare FILE.csv... [--plot OUT.svg])";
    } else if (a->markdown && a->json) {
        bad = "--markdown and --json are two formats of one output: give one";
    } else if (!a->baseline && (a->threshold || a->gate.strict || a->gate.allow_missing ||
                                a->gate.cross_device)) {
        bad = a->threshold ? "--threshold goes with --baseline OLD.csv"
              : a->gate.strict ? "--strict goes with --baseline OLD.csv"
              : a->gate.allow_missing ? "--allow-missing goes with --baseline OLD.csv"
                                      : "--cross-device goes with --baseline OLD.csv";
    } else if (a->baseline && a->plot) {
        bad = "--plot draws the table, not the deltas of --baseline: give one";
    } else if (a->baseline && a->metric->measured) {
        bad = "--metric pct_measured_peak sets rows against their device's ceilings: not with "
              "--baseline";
    } else if (a->ceilings && a->baseline) {
        bad = "--ceilings goes with --metric pct_measured_peak or --plot, not with --baseline";
    } else if (a->ceilings && !a->metric->measured && !a->plot) {
        bad = "--ceilings goes with --metric pct_measured_peak or --plot (the rooflines)";
    } else if (a->baseline && a->relative) {
        bad = "--relative-to and --baseline compare with two different references: give one";
    } else if (a->by_size && a->flt.any_size) {
        bad = "--by-size and --any-size ask for two kinds of lines: give one";
    } else if (a->by_size && a->baseline) {
        bad = "--by-size goes with the table, not with --baseline (the gate matches lines by "
              "its own rules: --cross-device)";
    }
    /* the table lines devices up unless told; the gate keeps its own rules */
    a->flt.line_up = !a->by_size && !a->baseline;
    if (!rc && a->threshold) {
        char *end;
        a->gate.threshold = strtod(a->threshold, &end);
        if (*end == '%')
            end++;
        if (end == a->threshold || *end || !isfinite(a->gate.threshold) || a->gate.threshold < 0) {
            clb_die_msg("compare: --threshold '%s' is not a percentage >= 0 (e.g. 5 or 2.5)",
                        cmp_esc_tmp(&e, a->threshold, 0));
            rc = CLB_EUSAGE;
        }
    }
    if (!rc && bad) {
        clb_die_msg("compare: %s", bad);
        rc = CLB_EUSAGE;
    }
    int svg;
    a->flt.plot = a->plot != NULL;
    a->flt.ceilings = a->ceilings;
    if (!rc && a->plot && cmp_plot_check(a->plot, &svg)) {
        clb_die_msg("compare: %s", clb_lasterr());
        rc = CLB_EUSAGE;
    }
    clb_buf_free(&e);
    return rc;
}

static int run_baseline(const struct cmp_args *a, char **files, int nfiles)
{
    struct cmp_delta d;
    int rc = cmp_baseline(&d, files, nfiles, a->baseline, &a->flt, a->metric, &a->gate);
    if (rc) {
        clb_die_msg("%s", clb_lasterr());
        return clb_exit_status(rc);
    }
    rc = a->json ? cmp_delta_print_json(&d, stdout)
         : a->markdown ? cmp_delta_print_markdown(&d, stdout)
                       : cmp_delta_print_text(&d, stdout);
    int status = rc ? clb_exit_status(rc) : d.failed ? CLB_EXIT_FAILED : CLB_EXIT_OK;
    if (rc) {
        clb_die_msg("%s", clb_lasterr());
    } else if (d.failed) {
        struct clb_buf m = {0};
        cmp_delta_verdict(&d, &m);
        clb_die_msg("%s", m.oom ? "the gate fails (out of memory for its message)" : clb_buf_str(&m));
        clb_buf_free(&m);
    }
    cmp_delta_free(&d);
    return status;
}

int clb_cmd_compare(int argc, char **argv)
{
    struct cmp_args a;
    int rc = parse(argc, argv, &a);
    if (rc)
        return rc < 0 ? CLB_EXIT_OK : CLB_EXIT_USAGE;
    if (a.baseline)
        return run_baseline(&a, argv + optind, argc - optind);
    struct cmp_table t;
    rc = cmp_build(&t, argv + optind, argc - optind, &a.flt, a.metric);
    if (!rc && a.relative)
        rc = cmp_set_relative(&t, a.relative);
    if (rc) {
        clb_die_msg("%s", clb_lasterr());
        cmp_free(&t);
        return clb_exit_status(rc);
    }
    /* the table first: it is printed even when the plot cannot be drawn */
    rc = a.json ? cmp_print_json(&t, stdout)
         : a.markdown ? cmp_print_markdown(&t, stdout)
                      : cmp_print_text(&t, stdout);
    if (!rc && a.plot)
        rc = cmp_plot(&t, a.plot);
    if (rc)
        clb_die_msg("%s", clb_lasterr());
    cmp_free(&t);
    return clb_exit_status(rc);
}

/* clbench compare FILE.csv...: measured runs and published figures side by
 * side, as a table (text or Markdown) and as gnuplot figures. */
#include "cli.h"
#include "clb_compare.h"
#include "clbench.h"

#include <getopt.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: clbench compare FILE.csv... [options]\n"
            "  -m, --metric M          gbps (median time, default), gbps_best, gflops, pct_peak\n"
            "  -r, --relative-to DEV   divide every column by the column whose name contains DEV\n"
            "  -w, --workload LIST     only these workloads (comma-separated)\n"
            "  -k, --kernel LIST       only these kernels\n"
            "  -t, --dtype LIST        only these element types\n"
            "  -s, --size LIST         only these sizes (as written in the CSV)\n"
            "      --sweep auto|none|KEYS  parameters whose values make lines of their own:\n"
            "                          found automatically (default), none (best over all\n"
            "                          values), or these keys (e.g. --sweep rhs)\n"
            "      --any-size          one line per kernel and type whatever the size: each\n"
            "                          column's best (devices and papers use their own sizes)\n"
            "      --markdown          print a Markdown table\n"
            "      --plot OUT.svg|OUT.png  one figure per workload (OUT-<workload>.svg when\n"
            "                          several), drawn by gnuplot ($CLBENCH_GNUPLOT: its path)\n"
            "Rows with status ok and reference are compared; failed, skipped and error rows show\n"
            "their status where nothing passed. See docs/COMPARE.md.\n");
}

struct cmp_args {
    struct cmp_filter flt;
    const char *plot, *relative;
    int metric, markdown;
};

/* 0 ok, -1 --help, else CLB_EUSAGE with the message printed. */
static int parse(int argc, char **argv, struct cmp_args *a)
{
    static const struct option opts[] = {
        {"metric", required_argument, 0, 'm'},   {"relative-to", required_argument, 0, 'r'},
        {"workload", required_argument, 0, 'w'}, {"kernel", required_argument, 0, 'k'},
        {"dtype", required_argument, 0, 't'},    {"type", required_argument, 0, 't'},
        {"size", required_argument, 0, 's'},     {"markdown", no_argument, 0, 'M'},
        {"plot", required_argument, 0, 'P'},     {"help", no_argument, 0, 'h'},
        {"sweep", required_argument, 0, 'S'},   {"any-size", no_argument, 0, 'A'},
        {0, 0, 0, 0}};
    memset(a, 0, sizeof *a);
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":m:r:w:k:t:s:h", opts, NULL)) != -1) {
        switch (c) {
        case 'm':
            if ((a->metric = cmp_metric_parse(optarg)) < 0) {
                clb_die_msg("compare: unknown metric '%s' (known: gbps, gbps_best, gflops, "
                            "pct_peak)", optarg);
                return CLB_EUSAGE;
            }
            break;
        case 'r': a->relative = optarg; break;
        case 'w': a->flt.workload = optarg; break;
        case 'k': a->flt.kernel = optarg; break;
        case 't': a->flt.dtype = optarg; break;
        case 's': a->flt.size = optarg; break;
        case 'M': a->markdown = 1; break;
        case 'S': a->flt.sweep = optarg; break;
        case 'A': a->flt.any_size = 1; break;
        case 'P': a->plot = optarg; break;
        case 'h': usage(stdout); return -1;
        case ':':
            clb_die_msg("compare: option '%s' needs a value (clbench compare --help)",
                        argv[optind - 1]);
            return CLB_EUSAGE;
        default:
            clb_die_msg("compare: unknown option '%s' (clbench compare --help)", argv[optind - 1]);
            return CLB_EUSAGE;
        }
    }
    if (optind >= argc) {
        clb_die_msg("compare: no results file given (usage: clbench compare FILE.csv... "
                    "[--plot OUT.svg])");
        return CLB_EUSAGE;
    }
    int svg;
    if (a->plot && cmp_plot_check(a->plot, &svg)) {
        clb_die_msg("compare: %s", clb_lasterr());
        return CLB_EUSAGE;
    }
    return 0;
}

int clb_cmd_compare(int argc, char **argv)
{
    struct cmp_args a;
    int rc = parse(argc, argv, &a);
    if (rc)
        return rc < 0 ? CLB_EXIT_OK : CLB_EXIT_USAGE;
    struct cmp_table t;
    rc = cmp_build(&t, argv + optind, argc - optind, &a.flt, (enum cmp_metric)a.metric);
    if (!rc && a.relative)
        rc = cmp_set_relative(&t, a.relative);
    if (rc) {
        clb_die_msg("%s", clb_lasterr());
        cmp_free(&t);
        return clb_exit_status(rc);
    }
    /* the table first: it is printed even when the plot cannot be drawn */
    if (a.markdown)
        cmp_print_markdown(&t, stdout);
    else
        cmp_print_text(&t, stdout);
    fflush(stdout);
    if (a.plot && (rc = cmp_plot(&t, a.plot)))
        clb_die_msg("%s", clb_lasterr());
    cmp_free(&t);
    return clb_exit_status(rc);
}

/* clbench report FILE... -o OUT.html: one self-contained page a person reads
 * from results files (host/report/; docs/REPORT.md). */
#include "cli.h"
#include "clb_report.h"
#include "clb_text.h"

#include <getopt.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: clbench report FILE... [-o OUT.html] [options]   (results files: CSV or JSON "
            "Lines)\n"
            "  -o, --output OUT.html   the page (default report.html): one file, inline SVG and CSS,\n"
            "                          no script, nothing loaded from the network\n"
            "  -n, --normalize HOW     the per-workload charts: absolute (GB/s, GFlop/s; default),\n"
            "                          datasheet (%% of each device's datasheet peak) or measured\n"
            "                          (%% of each device's measured ceiling)\n"
            "      --no-charts         tables only (the charts are drawn by gnuplot,\n"
            "                          $CLBENCH_GNUPLOT: its path; without it, tables only too)\n"
            "Measured runs and published figures (results/reference/*.csv) alike. Exit status: 0\n"
            "the page is written, 2 bad usage or input, 3 a system error. See docs/REPORT.md.\n");
}

enum { OPT_NO_CHARTS = 256 };

/* 0 ok, -1 --help, else CLB_EUSAGE with the message printed. */
static int parse(int argc, char **argv, struct clb_report_opts *o, const char **out)
{
    static const struct option opts[] = {{"output", required_argument, 0, 'o'},
                                         {"normalize", required_argument, 0, 'n'},
                                         {"no-charts", no_argument, 0, OPT_NO_CHARTS},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    *o = (struct clb_report_opts){CLB_NORM_ABSOLUTE, 1, NULL, NULL, NULL};
    *out = "report.html";
    optind = 1;
    opterr = 0;
    struct clb_buf e = {0};
    int c, rc = 0;
    while (!rc && (c = getopt_long(argc, argv, ":o:n:h", opts, NULL)) != -1) {
        int k;
        switch (c) {
        case 'o': *out = optarg; break;
        case 'n':
            if ((k = clb_report_norm_find(optarg)) < 0)
                rc = clb_cli_eusage("report: --normalize '%s' (known: absolute, datasheet, "
                                    "measured)", cmp_esc_tmp(&e, optarg, 0));
            o->norm = (enum clb_report_norm)k;
            break;
        case OPT_NO_CHARTS: o->charts = 0; break;
        case 'h': usage(stdout); clb_buf_free(&e); return -1;
        case ':':
            rc = clb_cli_eusage("report: option '%s' needs a value (clbench report --help)",
                                cmp_esc_tmp(&e, argv[optind - 1], 0));
            break;
        default:
            rc = clb_cli_eusage("report: unknown option '%s' (clbench report --help)",
                                cmp_esc_tmp(&e, argv[optind - 1], 0));
        }
    }
    if (!rc && optind >= argc)
        rc = clb_cli_eusage("report: no results file given (usage: clbench report FILE... -o "
                            "OUT.html)");
    if (!rc && !**out)
        rc = clb_cli_eusage("report: -o needs a file name");
    clb_buf_free(&e);
    return rc;
}

int clb_cmd_report(int argc, char **argv)
{
    struct clb_report_opts o;
    const char *out;
    int rc = parse(argc, argv, &o, &out);
    if (rc)
        return rc < 0 ? CLB_EXIT_OK : CLB_EXIT_USAGE;
    rc = clb_output_ok(out, "-o", "the page");
    if (!rc)
        rc = clb_report_write(argv + optind, argc - optind, &o, out);
    if (rc) {
        clb_print_error("%s", clb_lasterr());
        return clb_exit_status(rc);
    }
    struct clb_buf e = {0};
    clb_info("report: %s\n", cmp_esc_tmp(&e, out, 0));
    clb_buf_free(&e);
    return CLB_EXIT_OK;
}

/* `clbench results upgrade FILE...`: rewrite v1 and v2 results files as v3. */
#include "cli.h"

#include <string.h>

static void usage(FILE *f)
{
    fputs("usage: clbench results upgrade FILE...\n"
          "  rewrites each schema v1 or v2 results CSV as v3 (a temporary file, then rename):\n"
          "  every row kept, every field of the old schema unchanged; the columns it lacks\n"
          "  are added: clbench_version, ranks, rank, energy_j, avg_power_w, power_source\n"
          "  (v1 files) empty, and metrics with the figures each row's detail wrote as\n"
          "  key=number words (docs/RESULTS.md). v3 files are left alone.\n",
          f);
}

int clb_cmd_results(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return CLB_EXIT_OK;
    }
    if (argc < 3 || strcmp(argv[1], "upgrade") != 0) {
        clb_print_error("results: expected 'results upgrade FILE...' (see 'clbench results "
                        "--help')");
        return CLB_EXIT_USAGE;
    }
    clb_cleanup_guard();   /* a signal removes the temporary file of an upgrade */
    for (int i = 2; i < argc; i++) {
        int already, from;
        size_t rows;
        if (!strcmp(argv[i], "-")) {
            clb_print_error("results upgrade rewrites a file in place: give its name (standard "
                            "input cannot be rewritten)");
            return CLB_EXIT_USAGE;
        }
        int rc = clb_results_upgrade(argv[i], &already, &from, &rows);
        if (rc) {
            clb_print_error("%s", clb_lasterr());
            return clb_exit_status(rc);
        }
        if (already)
            printf("%s: already schema v%d, unchanged (%zu row%s)\n", argv[i], CLB_SCHEMA, rows,
                   rows == 1 ? "" : "s");
        else
            printf("%s: upgraded from schema v%d to v%d (%zu row%s)\n", argv[i], from,
                   CLB_SCHEMA, rows, rows == 1 ? "" : "s");
    }
    return CLB_EXIT_OK;
}

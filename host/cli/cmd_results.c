/* `clbench results upgrade FILE...`: rewrite schema v1 results files as v2. */
#include "cli.h"

#include <string.h>

static void usage(FILE *f)
{
    fputs("usage: clbench results upgrade FILE...\n"
          "  rewrites each schema v1 results CSV as v2 (a temporary file, then rename):\n"
          "  every row kept, every v1 field unchanged, the new columns clbench_version,\n"
          "  ranks, rank, energy_j, avg_power_w, power_source empty. v2 files are left alone.\n",
          f);
}

int clb_cmd_results(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return CLB_EXIT_OK;
    }
    if (argc < 3 || strcmp(argv[1], "upgrade") != 0) {
        clb_die_msg("results: expected 'results upgrade FILE...' (see 'clbench results --help')");
        return CLB_EXIT_USAGE;
    }
    for (int i = 2; i < argc; i++) {
        int already;
        size_t rows;
        int rc = clb_results_upgrade(argv[i], &already, &rows);
        if (rc) {
            clb_die_msg("%s", clb_lasterr());
            return clb_exit_status(rc);
        }
        printf("%s: %s (%zu row%s)\n", argv[i], already ? "already schema v2, unchanged"
                                                        : "upgraded to schema v2",
               rows, rows == 1 ? "" : "s");
    }
    return CLB_EXIT_OK;
}

/* clbench: entry point and subcommand dispatch. */
#include "cli.h"
#include "../core/comm.h"

#include <stdlib.h>
#include <string.h>

/* Subcommands, one line each. */
static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
} commands[] = {
    {"cache", clb_cmd_cache, "cache info|clear: the program-binary cache (compiled kernels kept between runs)"},
    {"compare", clb_cmd_compare, "compare FILE.csv... [--plot OUT.svg] [--relative-to DEV]: devices side by side"},
    {"list", clb_cmd_list, "platforms and devices, flat index, type, memory, matched profile"},
    {"profiles", clb_cmd_profiles, "the profiles found, with their peak figures"},
    {"run", clb_cmd_run, "run WORKLOAD[,WORKLOAD...]|all [options]"},
    {"model", clb_cmd_model, "model MODEL [options]: analytic predictions (no device needed)"},
    {"results", clb_cmd_results, "results upgrade FILE: rewrite a v1 or v2 results file as v3"},
    {"report", clb_cmd_report, "report FILE... -o OUT.html: one self-contained page a person reads"},
};
#define NCOMMANDS (sizeof commands / sizeof *commands)

static void usage(FILE *f)
{
    fprintf(f, "clbench %s: OpenCL memory and memory-bound kernel benchmarks\n\n"
               "usage: clbench COMMAND [options]\n",
            CLB_VERSION);
    for (size_t i = 0; i < NCOMMANDS; i++) {
        fprintf(f, "  clbench %-10s ", commands[i].name);
        clb_wrap(f, 21, 21, commands[i].help);
    }
    fprintf(f, "  clbench WORKLOAD --help  a workload's parameters and defaults\n"
               "  clbench --help | --version\n  ");
    clb_wrap(f, 2, 4, "--wide (any command): lines as long as they need (what a person reads fits "
                      "100 columns, or a wider terminal)");
    fprintf(f, "\nworkloads:\n");
    for (const struct clb_workload *const *w = clb_workload_list(); *w; w++) {
        fprintf(f, "  %-10s ", (*w)->name);
        clb_wrap(f, 13, 13, (*w)->summary);
    }
    fputc('\n', f);
    clb_wrap(f, 0, 0, "run options: clbench run --help. Exit status: 0 ok, 1 validation failed, "
                      "2 bad usage or input, 3 OpenCL or system error, 4 nothing measured (all "
                      "skipped), 5 results file lost while writing, 6 a step ran past "
                      "--case-timeout, 128+N signal N.");
}

/* --wide anywhere before a "--": taken out, for every command (clb_wide). */
static int take_wide(int argc, char **argv)
{
    int n = 0, i = 0;
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "--wide") == 0)
            clb_wide = 1;
        else
            argv[n++] = argv[i];
    }
    while (i < argc)
        argv[n++] = argv[i++];
    argv[n] = NULL;
    return n;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLB_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return CLB_EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
        printf("clbench %s\n", CLB_VERSION);
        return CLB_EXIT_OK;
    }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(cmd, commands[i].name) == 0)
            return commands[i].fn(argc - 1, argv + 1);
    const struct clb_workload *wl = clb_workload_find(cmd);
    if (wl) {
        if (argc == 3 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
            clb_workload_help(wl, stdout);
            return CLB_EXIT_OK;
        }
        clb_print_error("did you mean 'clbench run %s'? ('clbench %s --help' lists its parameters)",
                        cmd, cmd);
        return CLB_EXIT_USAGE;
    }
    struct clb_buf known = {0};
    for (size_t i = 0; i < NCOMMANDS; i++)
        clb_buf_printf(&known, "%s%s", i ? ", " : "", commands[i].name);
    clb_print_error("unknown command '%s' (known: %s; or a workload name with --help)", cmd,
                    clb_buf_str(&known));
    clb_buf_free(&known);
    return CLB_EXIT_USAGE;
}

/* Under mpirun/srun every rank runs this same main; MPI starts and ends
 * here, around whichever command runs. */
int main(int argc, char **argv)
{
    if (clb_comm_init(&argc, &argv) != CLB_OK) {
        clb_print_error("%s", clb_lasterr());
        return CLB_EXIT_ERROR;
    }
    argc = take_wide(argc, argv);
    int status = dispatch(argc, argv);
    clb_comm_finalize();
    return status;
}

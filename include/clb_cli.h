/* The command-line front end: options of `run` and the subcommands. */
#ifndef CLB_CLI_H
#define CLB_CLI_H

#include <stdio.h>
#include "clb_params.h"

struct clb_opts {
    const char *device;         /* -d */
    const char *profile;        /* -p */
    const char *types;          /* -t */
    const char *sizes;          /* -s */
    const char *output;         /* -o */
    const char *kernel_dir;     /* --kernel-dir or $CLBENCH_KERNEL_DIR */
    const char *platforms_dir;  /* --platforms-dir */
    int reps, warmup, quick;
    struct clb_kvlist params;   /* --param */
};

/* Subcommands: each takes argv from the subcommand's name on and returns the
 * process exit status. */
int clb_cmd_run(int argc, char **argv);
int clb_cmd_list(int argc, char **argv);
int clb_cmd_profiles(int argc, char **argv);
int clb_cmd_compare(int argc, char **argv);
int clb_cmd_model(int argc, char **argv);

/* Print the parameters of a workload (clbench WORKLOAD --help). */
int clb_workload_help(const char *name, FILE *out);

/* Exit statuses (SPEC section 3). */
enum { CLB_EXIT_OK = 0, CLB_EXIT_FAILED = 1, CLB_EXIT_USAGE = 2, CLB_EXIT_ERROR = 3 };
int clb_exit_status(int rc);

/* Shared by the subcommands that open a device: load profiles, enumerate
 * devices (host/list.c). */
struct clb_profiles;
struct clb_devinfo;
int clb_load_profiles_for(const char *platforms_dir, struct clb_profiles *ps);

#endif

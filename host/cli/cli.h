/* The command-line front end: one function per subcommand, each taking argv
 * from the subcommand's name on and returning the process exit status. */
#ifndef CLB_CLI_H
#define CLB_CLI_H

#include <stdio.h>
#include "../core/core.h"

int clb_cmd_run(int argc, char **argv);
int clb_cmd_list(int argc, char **argv);
int clb_cmd_profiles(int argc, char **argv);
int clb_cmd_compare(int argc, char **argv);
int clb_cmd_model(int argc, char **argv);
int clb_cmd_results(int argc, char **argv);
int clb_cmd_report(int argc, char **argv);
int clb_cmd_cache(int argc, char **argv);

/* Refuse: print the message (printf) as clb_print_error does and return
 * CLB_EUSAGE: `return clb_cli_eusage("bad --x '%s'", v);`. */
#define clb_cli_eusage(...) (clb_print_error(__VA_ARGS__), CLB_EUSAGE)

/* Print the parameters of a workload (clbench WORKLOAD --help). */
int clb_workload_help(const struct clb_workload *wl, FILE *out);

#endif

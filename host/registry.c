/* The workload registry: one line per workload, in the order `run all` uses. */
#include "clb_workload.h"

#include <string.h>

extern const struct clb_workload clb_wl_stream, clb_wl_stride, clb_wl_matmul, clb_wl_transpose,
    clb_wl_dslash;

const struct clb_workload *const clb_workloads[] = {
    &clb_wl_stream,
    &clb_wl_stride,
    &clb_wl_matmul,
    &clb_wl_transpose,
    &clb_wl_dslash,
    NULL};

const struct clb_workload *clb_workload_find(const char *name)
{
    for (int i = 0; clb_workloads[i]; i++)
        if (strcmp(clb_workloads[i]->name, name) == 0)
            return clb_workloads[i];
    return NULL;
}

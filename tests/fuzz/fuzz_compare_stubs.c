/* fuzz_plot links compare's script generators without the workload registry
 * and the ceilings service (which need OpenCL and every workload): no
 * workload is registered (a staircase gets the generic axis titles), and the
 * ceilings' names are the service's. */
#include "clb_ceilings.h"

const struct clb_workload *clb_workload_find(const char *name)
{
    (void)name;
    return NULL;
}

int cmp_size_varies(const struct clb_workload *wl)
{
    (void)wl;
    return 0;   /* no workload, no size axis of its own */
}

int clb_figure_pos(const struct clb_workload *wl, const char *kernel)
{
    (void)wl;
    (void)kernel;
    return 0;   /* no workload, no declared order */
}

const char *clb_ceiling_name(enum clb_ceiling_kind kind)
{
    static const char *const names[CLB_NCEILINGS] = {"memory bandwidth", "triad bandwidth",
                                                     "fp32 compute", "fp64 compute",
                                                     "memory latency"};
    return kind < CLB_NCEILINGS ? names[kind] : "?";
}

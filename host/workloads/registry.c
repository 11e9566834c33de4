/* The workload registry: one entry per workload, in the order `run all` uses.
 * Adding a workload is one entry here (plus its host and kernel files). */
#include "clb_workload.h"

#include <stdlib.h>
#include <string.h>

extern const struct clb_workload clb_wl_stream, clb_wl_copy2d, clb_wl_blockeq, clb_wl_camping,
    clb_wl_stride, clb_wl_matmul, clb_wl_transpose, clb_wl_bus, clb_wl_dot, clb_wl_dslash,
    clb_wl_cg, clb_wl_peak, clb_wl_launch, clb_wl_latency, clb_wl_roofline;

/* The built-in workloads, then the few registered at start-up (tests');
 * NULL-terminated. */
static const struct clb_workload *all[32] = {
    &clb_wl_stream, &clb_wl_copy2d, &clb_wl_blockeq, &clb_wl_camping, &clb_wl_stride,
    &clb_wl_matmul, &clb_wl_transpose, &clb_wl_bus, &clb_wl_dot, &clb_wl_dslash, &clb_wl_cg,
    &clb_wl_peak, &clb_wl_launch, &clb_wl_latency, &clb_wl_roofline,
};

const struct clb_workload *const *clb_workload_list(void) { return all; }

const struct clb_workload *clb_workload_find(const char *name)
{
    for (const struct clb_workload *const *w = clb_workload_list(); *w; w++)
        if (strcmp((*w)->name, name) == 0)
            return *w;
    return NULL;
}

int clb_workload_register(const struct clb_workload *wl)
{
    size_t n = 0;
    while (all[n])
        n++;
    if (clb_workload_find(wl->name) || n + 1 >= sizeof all / sizeof *all)
        return -1;
    all[n] = wl;
    return 0;
}

char *clb_workload_names(void)
{
    struct clb_buf b = {0};
    for (const struct clb_workload *const *w = clb_workload_list(); *w; w++)
        clb_buf_printf(&b, "%s%s", b.len ? ", " : "", (*w)->name);
    return b.s ? b.s : clb_strdup("");
}

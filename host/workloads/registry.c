/* The workload registry: one line per workload, in the order `run all` uses.
 * Adding a workload is one line here (plus its host and kernel files). */
#include "clb_workload.h"

#include <stdlib.h>
#include <string.h>

extern const struct clb_workload clb_wl_stream;
extern const struct clb_workload clb_wl_copy2d, clb_wl_blockeq, clb_wl_camping, clb_wl_stride,
    clb_wl_matmul, clb_wl_transpose, clb_wl_bus, clb_wl_dot, clb_wl_dslash, clb_wl_cg;
extern const struct clb_workload clb_wl_peak, clb_wl_launch, clb_wl_latency,
    clb_wl_roofline;

static const struct clb_workload *const builtin[] = {
    &clb_wl_stream,
    &clb_wl_copy2d,
    &clb_wl_blockeq,
    &clb_wl_camping,
    &clb_wl_stride,
    &clb_wl_matmul,
    &clb_wl_transpose,
    &clb_wl_bus,
    &clb_wl_dot,
    &clb_wl_dslash,
    &clb_wl_cg,
    &clb_wl_peak,
    &clb_wl_launch,
    &clb_wl_latency,
    &clb_wl_roofline,
};
#define NBUILTIN (sizeof builtin / sizeof *builtin)

/* The built-in workloads, then any registered at start-up; NULL-terminated. */
static const struct clb_workload **all;
static size_t nall;

static int ensure(void)
{
    if (all)
        return 0;
    all = calloc(NBUILTIN + 1, sizeof *all);
    if (!all)
        return -1;
    memcpy(all, builtin, sizeof builtin);
    nall = NBUILTIN;
    return 0;
}

const struct clb_workload *const *clb_workload_list(void)
{
    static const struct clb_workload *const none[] = {NULL};
    return ensure() ? none : (const struct clb_workload *const *)all;
}

const struct clb_workload *clb_workload_find(const char *name)
{
    for (const struct clb_workload *const *w = clb_workload_list(); *w; w++)
        if (strcmp((*w)->name, name) == 0)
            return *w;
    return NULL;
}

int clb_workload_register(const struct clb_workload *wl)
{
    if (ensure() || clb_workload_find(wl->name))
        return -1;
    void *nv = realloc(all, (nall + 2) * sizeof *all);
    if (!nv)
        return -1;
    all = nv;
    all[nall++] = wl;
    all[nall] = NULL;
    return 0;
}

char *clb_workload_names(void)
{
    struct clb_buf b = {0};
    for (const struct clb_workload *const *w = clb_workload_list(); *w; w++)
        clb_buf_printf(&b, "%s%s", b.len ? ", " : "", (*w)->name);
    return b.s ? b.s : clb_strdup("");
}

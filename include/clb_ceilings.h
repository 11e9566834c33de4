/* Measured ceilings (host/core/ceilings.c): the bandwidth, compute peaks and
 * memory latency that a device's own rows measured, found by asking every
 * workload that offers them (struct clb_workload's `ceilings`). Used by
 * `run|model --ceilings FILE` (through host/core/core.h) and by `compare`
 * (the pct_measured_peak metric and the roofline figures). */
#ifndef CLB_CEILINGS_H
#define CLB_CEILINGS_H

#include "clb_workload.h"

/* The best ceiling of each kind among the candidates of every workload. */
struct clb_ceiling_set {
    struct clb_ceiling c[CLB_NCEILINGS];
    int have[CLB_NCEILINGS];
    struct clb_row row[CLB_NCEILINGS];   /* the rows they came from (c[k].row points here) */
};

/* The ceilings that the rows of ONE device measured: rows[0..n) may hold any
 * workloads and statuses (only `ok` rows of workloads with a `ceilings`
 * hook count). The rows' strings must outlive *out. CLB_ESYS on OOM. */
int clb_ceilings_measure(const struct clb_row *const *rows, size_t n, struct clb_ceiling_set *out);

/* "memory bandwidth", "fp32 compute", ... */
const char *clb_ceiling_name(enum clb_ceiling_kind kind);

/* The names of the registered workloads that measure ceilings, "a, b, c"
 * (malloc'd; NULL on OOM). */
char *clb_ceiling_workloads(void);

#endif

/* The summary table `clbench run` prints at the end (host/core/summary.c). */
#ifndef CLB_SUMMARY_H
#define CLB_SUMMARY_H

#include <stdio.h>
#include "clb_workload.h"

/* A row's own figure and its unit, by compare's rule (cmp_own_metric): its
 * workload's declared metric (latency ns, launch us) in the unit the metrics
 * table declares for it, else the rate of its main unit (GB/s, GFlop/s, as
 * its count says); NAN when the row has none. */
double clb_row_figure(const struct clb_workload *wl, const struct clb_row *r, const char **unit);

/* One line per row, then each workload's own summary lines (its rows are
 * contiguous), for the device ctx describes. */
void clb_summary_print(const struct clb_summary_ctx *ctx, const struct clb_row *rows, size_t n,
                       const struct clb_workload **wls, int nwl, FILE *out);

#endif

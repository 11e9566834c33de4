/* The summary table `clbench run` prints at the end (host/core/summary.c). */
#ifndef CLB_SUMMARY_H
#define CLB_SUMMARY_H

#include <stdio.h>
#include "clb_workload.h"

/* One line per row, then each workload's own summary lines (its rows are
 * contiguous), for the device ctx describes. */
void clb_summary_print(const struct clb_summary_ctx *ctx, const struct clb_row *rows, size_t n,
                       const struct clb_workload **wls, int nwl, FILE *out);

#endif

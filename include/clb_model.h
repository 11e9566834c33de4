/* The core's model (`clbench model roofline`, the rows' model column): a
 * roofline for any workload row, from the bytes and flops the workload
 * counts (docs/MODELS.md). The study models belong to their workloads
 * (host/workloads/blockeq, host/workloads/dslash). */
#ifndef CLB_MODEL_H
#define CLB_MODEL_H

#include <stddef.h>

/* ---- roofline ---------------------------------------------------------- */

struct clb_roofline {
    double bytes, flops;       /* moved / computed by one run */
    double time_s;             /* predicted: max(bytes / bw, flops / peak flops) */
    double gbps, gflops;       /* bytes / time, flops / time */
    int compute_bound;
};

/* Predict with peak bandwidth (GB/s) and peak flops (GFlop/s, NAN: unbounded). */
void clb_roofline_predict(double bytes, double flops, double peak_gbs, double peak_gflops,
                          struct clb_roofline *r);

#endif

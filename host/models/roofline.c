/* The roofline: the time of a run is the longer of moving its bytes at the
 * peak bandwidth and doing its flops at the peak rate. The bytes and flops
 * are the workload's own count (its count() function); this file knows no
 * workload. */
#include "clb_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void clb_roofline_predict(double bytes, double flops, double peak_gbs, double peak_gflops,
                          struct clb_roofline *r)
{
    memset(r, 0, sizeof *r);
    r->bytes = bytes;
    r->flops = flops;
    double t_mem = bytes / (peak_gbs * 1e9);
    double t_fl = (flops > 0 && peak_gflops > 0 && !isnan(peak_gflops))
                      ? flops / (peak_gflops * 1e9) : 0;
    r->compute_bound = t_fl > t_mem;
    r->time_s = fmax(t_mem, t_fl);
    r->gbps = r->time_s > 0 ? bytes / r->time_s / 1e9 : NAN;
    r->gflops = r->time_s > 0 ? flops / r->time_s / 1e9 : NAN;
}

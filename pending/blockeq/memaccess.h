/* Pure host logic of the memory-access workloads (copy2d, blockeq, camping),
 * exposed for the unit tests. */
#ifndef CLB_MEMACCESS_H
#define CLB_MEMACCESS_H

#include "clb_cl.h"

/* blockeq: the report's (1 + 1e-6) / k2 rounded to float. */
float clb_blockeq_one_over(cl_uint k2);
/* The first tile number in 0..total-1 whose row the recip kernel's float
 * split gets wrong (differs from gbid / k2), or -1 when there is none;
 * 2^24 when total exceeds 2^24 (not checked). */
long clb_blockeq_recip_check(cl_uint k2, cl_uint total, float one_over_k2);

/* camping: the median of v[0..n) and the indices of its three lowest values
 * (ascending; -1 where n < 3). */
void clb_camping_stats(const double *v, int n, double *median, int worst[3]);

#endif

/* camping's pure host code, shared with its unit tests (camping.c). */
#ifndef CLB_WL_CAMPING_H
#define CLB_WL_CAMPING_H

/* The median of v[0..n) and the indices of its three lowest values
 * (ascending; -1 where n < 3). */
void clb_camping_stats(const double *v, int n, double *median, int worst[3]);

#endif

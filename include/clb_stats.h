/* Statistics of repeated timings. */
#ifndef CLB_STATS_H
#define CLB_STATS_H

#include <stddef.h>

struct clb_stats {
    double min, median, mean, max, stddev; /* seconds; stddev is the sample deviation */
};

/* Statistics of n >= 1 samples; the array is not modified. */
void clb_stats_compute(const double *t, size_t n, struct clb_stats *s);

/* v sorted in place, ascending; clb_median also returns its median (NAN
 * when n is 0). */
void clb_sort_doubles(double *v, size_t n);
double clb_median(double *v, size_t n);

/* Rate in units/s where a count and a time are known; NAN when undefined. */
double clb_rate(double count, double seconds);

#endif

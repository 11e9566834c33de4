/* Statistics of repeated timings. */
#ifndef CLB_STATS_H
#define CLB_STATS_H

#include <stddef.h>

struct clb_stats {
    double min, median, mean, max, stddev; /* seconds; stddev is the sample deviation */
};

/* Statistics of n >= 1 samples; the array is not modified. */
void clb_stats_compute(const double *t, size_t n, struct clb_stats *s);

/* Rate in units/s where a count and a time are known; NAN when undefined. */
double clb_rate(double count, double seconds);

#endif

/* Statistics of repeated timings. */
#include "clb_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void clb_sort_doubles(double *v, size_t n)
{
    if (n > 1)
        qsort(v, n, sizeof *v, cmp_double);
}

double clb_median(double *v, size_t n)
{
    clb_sort_doubles(v, n);
    return !n ? NAN : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void clb_stats_compute(const double *t, size_t n, struct clb_stats *s)
{
    if (n == 0) {
        s->min = s->median = s->mean = s->max = s->stddev = NAN;
        return;
    }
    double *v = malloc(n * sizeof *v);   /* without memory: the rest, no median */
    if (v)
        memcpy(v, t, n * sizeof *v);
    s->median = v ? clb_median(v, n) : NAN;
    free(v);
    double sum = 0;
    s->min = s->max = t[0];
    for (size_t i = 0; i < n; i++) {
        sum += t[i];
        s->min = t[i] < s->min ? t[i] : s->min;
        s->max = t[i] > s->max ? t[i] : s->max;
    }
    s->mean = sum / (double)n;
    double ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += (t[i] - s->mean) * (t[i] - s->mean);
    s->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0;
}

double clb_rate(double count, double seconds)
{
    if (!(seconds > 0) || !(count > 0))
        return NAN;
    return count / seconds;
}

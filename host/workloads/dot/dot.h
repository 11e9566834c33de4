/* Host-side pieces of the dot workload that need no device: the compensated
 * reference, the accuracy bound, the CPU dot products (cpu1, cpu and the CPU
 * share of hybrid), and how n elements are cut into chunks for the queues.
 * Kept apart from dot.c so the unit tests can call them (dot_host.c). */
#ifndef DOT_DOT_H
#define DOT_DOT_H

#include <stddef.h>

/* Reference of sum x_i*y_i (y == x: sum of squares), element type float
 * (dbl 0) or double (dbl 1). `sum` is accurate to about the double rounding
 * of the exact value: float products are exact in double and summed with
 * Neumaier's compensation; double products are split exactly (Veltkamp /
 * Dekker TwoProduct) and summed compensated (Ogita-Rump-Oishi Dot2).
 * `abs` is sum |x_i*y_i|, the scale of the rounding errors. */
struct clb_dotref {
    double sum, abs;
};
void clb_dot_reference(const void *x, const void *y, size_t n, int dbl, struct clb_dotref *r);

/* Largest absolute error a result may have: 8 * u * sqrt(depth) * abs, where
 * u is the unit roundoff of the type (2^-24 float, 2^-53 double) and depth
 * the most roundings any product goes through in the kernel's order of
 * summation (its longest sequential chain plus the tree levels; n for a plain
 * loop). This is the probabilistic bound of Higham and Mary (2019) with
 * lambda = 8: a correct result exceeds it with a probability far below 1e-9,
 * while the worst-case bound depth * u * abs would accept almost anything. */
double clb_dot_tolerance(size_t depth, int dbl, double abs);

/* x·y on the CPU: blocks of CLB_DOT_BLOCK elements summed with
 * `#pragma omp simd reduction` in the element type, block sums added in
 * double. threads 1: one thread (cpu1); 0: all OpenMP threads (cpu). */
#define CLB_DOT_BLOCK 2048
double clb_dot_cpu(const void *x, const void *y, size_t n, int dbl, int threads);

/* The largest power of two <= n (0 for n = 0): the device share of [DotArticle]. */
size_t clb_dot_pow2(size_t n);

/* Cut n elements into k = clamp(n / min_chunk, 1, queues) chunks whose
 * boundaries are multiples of 4 (the last ends at n); off[0..k] receives
 * them (off must hold queues + 1 values). Returns k (0 for n = 0). Chunks may
 * be empty only when n < 4k. */
int clb_dot_chunks(size_t n, long queues, long min_chunk, size_t *off);

/* Device share of a hybrid run so that both sides finish together, from the
 * two rates (elements per second): r_dev / (r_dev + r_cpu), in [0, 1]. */
double clb_dot_share(double r_dev, double r_cpu);

#endif

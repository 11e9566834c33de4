/* Pure host logic of the roofline workload (roofline_ref.c): the chain its
 * kernel runs on every element, recomputed with the C library's fma() in
 * the element's own precision, so that a result must match bit for bit. */
#ifndef CLB_ROOFLINE_H
#define CLB_ROOFLINE_H

#include <stddef.h>

/* x*x - 1.9 maps [-1.9, 1.71] into itself: chains seeded in (-1.5, 1.5)
 * never overflow, never reach a denormal, never settle on a fixed point. */
#define CLB_ROOFLINE_ADDEND (-1.9)

/* `fmas` steps of x <- fma(x, x, a) (or, with muladd, x <- x*x + a rounded
 * twice) from *x (float, or double when dbl), the result in *out. */
void clb_roofline_ref(int dbl, int muladd, const void *x, size_t fmas, const void *a, void *out);

#endif

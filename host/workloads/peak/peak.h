/* Pure host logic of the peak workload (peak_ref.c), apart from the OpenCL
 * code so the unit tests can check it: the chains the kernels run,
 * recomputed on the host in the device's own precision, so that a result
 * must match bit for bit:
 *   float, double, half  x <- fma(x, x, a): fma() of the C library, an exact
 *                        emulation for half
 *   int                  x <- x*m + a in wrap-around 32-bit arithmetic: with
 *                        a odd and m = 1 mod 4 a permutation of full period
 *                        (x*x + a would not do: its derivative 2x is even, so
 *                        it contracts 2-adically and settles within about 32
 *                        steps). */
#ifndef CLB_PEAK_H
#define CLB_PEAK_H

#include <stddef.h>
#include <stdint.h>

enum clb_peak_type { CLB_PEAK_FLOAT, CLB_PEAK_DOUBLE, CLB_PEAK_HALF, CLB_PEAK_INT };

/* The addend of the floating-point chains: x*x - 1.9 maps [-1.9, 1.71] into
 * itself (it holds c and c^2 + c, and its largest x^2 + c stays below the
 * map's repelling fixed point 1.966), so chains seeded in (-1.5, 1.5) never
 * overflow and never reach a denormal; the map is chaotic there (both fixed
 * points repel), so a chain does not converge: one step more or less
 * changes the result. */
#define CLB_PEAK_ADDEND (-1.9)

/* Element size of a type: 4, 8, 2, 4. */
size_t clb_peak_esize(enum clb_peak_type t);

/* IEEE binary16 from a double, rounded to nearest even (subnormals, overflow
 * to infinity, NaN kept); and back (exact). */
uint16_t clb_half_from_double(double d);
double clb_half_to_double(uint16_t h);
/* fma in half precision: x*y + a with one rounding. x*y is exact in double;
 * the sum is exact in double whenever the operands' exponents lie within 30
 * of each other (always in the chains here), so the one rounding to half is
 * the correct one. */
uint16_t clb_half_fma(uint16_t x, uint16_t y, uint16_t a);
uint16_t clb_half_add(uint16_t x, uint16_t y);

/* One step of a chain on an element of type t (in place). coef: the chain's
 * coefficients in the type, coef[0] = a, coef[1] = m (int only). */
void clb_peak_step(enum clb_peak_type t, void *x, const void *coef);

/* What one work-item of the peak kernel computes: acc x vec chains seeded by
 * seeds[j * vec + l] (accumulator j, lane l), `steps` steps each, then
 * s_l = 0 + x_0l + x_1l + ... (accumulator order), r = 0 + s_0 + s_1 + ...
 * (lane order). Writes r (one element) to *out. */
void clb_peak_ref(enum clb_peak_type t, const void *seeds, int acc, int vec, size_t steps,
                  const void *coef, void *out);

#endif

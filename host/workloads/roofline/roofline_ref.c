/* The roofline kernel's chain on the host (see roofline.h). The mul+add
 * chain stores the product in a volatile: no compiler may contract it into
 * an fma (one rounding where the device, contraction off, makes two). */
#include "roofline.h"

#include <math.h>

/* One chain function per precision, the C library's fma of that precision. */
#define CHAIN(name, T, FMA)                                                    \
    static T name(T v, T c, size_t n, int muladd)                             \
    {                                                                         \
        for (size_t k = 0; k < n; k++) {                                      \
            if (muladd) {                                                     \
                volatile T p = v * v;                                         \
                v = p + c;                                                    \
            } else {                                                          \
                v = FMA(v, v, c);                                             \
            }                                                                 \
        }                                                                     \
        return v;                                                             \
    }
CHAIN(chain_f64, double, fma)
CHAIN(chain_f32, float, fmaf)

void clb_roofline_ref(int dbl, int muladd, const void *x, size_t fmas, const void *a, void *out)
{
    if (dbl)
        *(double *)out = chain_f64(*(const double *)x, *(const double *)a, fmas, muladd);
    else
        *(float *)out = chain_f32(*(const float *)x, *(const float *)a, fmas, muladd);
}

/* Host chains of the peak kernel (see peak.h). */
#include "peak.h"

#include <math.h>
#include <string.h>

size_t clb_peak_esize(enum clb_peak_type t)
{
    return t == CLB_PEAK_DOUBLE ? 8 : t == CLB_PEAK_HALF ? 2 : 4;
}

uint16_t clb_half_from_double(double d)
{
    uint16_t sign = signbit(d) ? 0x8000 : 0;
    if (isnan(d))
        return 0x7e00;
    double a = fabs(d);
    if (isinf(a) || a >= 65520.0) /* 65520 is the tie between 65504 and 2^16: even is inf */
        return sign | 0x7c00;
    if (a < 0x1p-14) {           /* subnormal: a multiple of 2^-24 */
        double q = rint(ldexp(a, 24));
        return sign | (uint16_t)q; /* q = 1024 is the smallest normal: the same bits */
    }
    int e;
    double f = frexp(a, &e);     /* a = f 2^e, f in [0.5, 1) */
    double q = rint(ldexp(f, 11)); /* 11 significant bits: [1024, 2048] */
    if (q == 2048.0) {
        q = 1024.0;
        e++;
    }
    int field = e - 1 + 15;
    if (field >= 31)
        return sign | 0x7c00;
    return sign | (uint16_t)(field << 10) | (uint16_t)((int)q - 1024);
}

double clb_half_to_double(uint16_t h)
{
    int field = (h >> 10) & 0x1f, man = h & 0x3ff;
    double v;
    if (field == 0)
        v = ldexp(man, -24);
    else if (field == 31)
        v = man ? NAN : INFINITY;
    else
        v = ldexp(1024 + man, field - 25);
    return (h & 0x8000) ? -v : v;
}

uint16_t clb_half_fma(uint16_t x, uint16_t y, uint16_t a)
{
    return clb_half_from_double(clb_half_to_double(x) * clb_half_to_double(y) +
                                clb_half_to_double(a));
}

uint16_t clb_half_add(uint16_t x, uint16_t y)
{
    return clb_half_from_double(clb_half_to_double(x) + clb_half_to_double(y));
}

/* ---- the chains, one version per type ------------------------------------ */

static inline float step_f(float x, const float *c) { return fmaf(x, x, c[0]); }
static inline double step_d(double x, const double *c) { return fma(x, x, c[0]); }
static inline uint16_t step_h(uint16_t x, const uint16_t *c) { return clb_half_fma(x, x, c[0]); }
static inline uint32_t step_i(uint32_t x, const uint32_t *c) { return x * c[1] + c[0]; }
static inline float add_f(float x, float y) { return x + y; }
static inline double add_d(double x, double y) { return x + y; }
static inline uint16_t add_h(uint16_t x, uint16_t y) { return clb_half_add(x, y); }
static inline uint32_t add_i(uint32_t x, uint32_t y) { return x + y; }

void clb_peak_step(enum clb_peak_type t, void *x, const void *coef)
{
    switch (t) {
    case CLB_PEAK_FLOAT: *(float *)x = step_f(*(float *)x, coef); break;
    case CLB_PEAK_DOUBLE: *(double *)x = step_d(*(double *)x, coef); break;
    case CLB_PEAK_HALF: *(uint16_t *)x = step_h(*(uint16_t *)x, coef); break;
    case CLB_PEAK_INT: *(uint32_t *)x = step_i(*(uint32_t *)x, coef); break;
    }
}

/* acc x vec <= 16 x 16 chains. The zero of half is the bits 0. */
#define PEAK_REF(SUF, T)                                                                  \
    static void peak_ref_##SUF(const T *seeds, int acc, int vec, size_t steps, const T *a,  \
                               T *out)                                                    \
    {                                                                                     \
        T x[256], s[16];                                                                  \
        int n = acc * vec;                                                                \
        memcpy(x, seeds, (size_t)n * sizeof(T));                                          \
        for (size_t k = 0; k < steps; k++)                                                \
            for (int i = 0; i < n; i++)                                                   \
                x[i] = step_##SUF(x[i], a);                                               \
        for (int l = 0; l < vec; l++) {                                                   \
            s[l] = 0;                                                                     \
            for (int j = 0; j < acc; j++)                                                 \
                s[l] = add_##SUF(s[l], x[j * vec + l]);                                   \
        }                                                                                 \
        T r = 0;                                                                          \
        for (int l = 0; l < vec; l++)                                                     \
            r = add_##SUF(r, s[l]);                                                       \
        *out = r;                                                                         \
    }
PEAK_REF(f, float)
PEAK_REF(d, double)
PEAK_REF(h, uint16_t)
PEAK_REF(i, uint32_t)

void clb_peak_ref(enum clb_peak_type t, const void *seeds, int acc, int vec, size_t steps,
                  const void *coef, void *out)
{
    if (acc < 1 || vec < 1 || acc > 16 || vec > 16)
        return;
    switch (t) {
    case CLB_PEAK_FLOAT: peak_ref_f(seeds, acc, vec, steps, coef, out); break;
    case CLB_PEAK_DOUBLE: peak_ref_d(seeds, acc, vec, steps, coef, out); break;
    case CLB_PEAK_HALF: peak_ref_h(seeds, acc, vec, steps, coef, out); break;
    case CLB_PEAK_INT: peak_ref_i(seeds, acc, vec, steps, coef, out); break;
    }
}

/* The roofline kernel's chain on the host (see roofline.h). */
#include "roofline.h"

#include <math.h>

void clb_roofline_ref(int dbl, const void *x, size_t fmas, const void *a, void *out)
{
    if (dbl) {
        double v = *(const double *)x, c = *(const double *)a;
        for (size_t k = 0; k < fmas; k++)
            v = fma(v, v, c);
        *(double *)out = v;
    } else {
        float v = *(const float *)x, c = *(const float *)a;
        for (size_t k = 0; k < fmas; k++)
            v = fmaf(v, v, c);
        *(float *)out = v;
    }
}

/* stream: the BabelStream kernels, one vector of VEC elements per work-item.
 * Inputs a and b, output c, so that every repetition computes the same thing:
 *   copy  c = a          scale c = s*a
 *   add   c = a + b      triad c = a + s*b
 * Options: -DT=float|double -DVEC=1|2|4|8. The last work-item handles a tail
 * of n % VEC elements with scalar accesses. */
#if VEC == 1
#define VT T
#else
#define VT CLB_CAT(T, VEC)
#endif

#define BODY(expr_vec, expr_scalar)                                             \
    size_t i = get_global_id(0);                                                \
    size_t nv = n / VEC;                                                        \
    if (i < nv) {                                                               \
        expr_vec;                                                               \
    } else if (i == nv) {                                                       \
        for (size_t j = nv * VEC; j < n; j++) {                                 \
            expr_scalar;                                                        \
        }                                                                       \
    }

__kernel void copy(__global const T *restrict a, __global const T *restrict b,
                   __global T *restrict c, T s, ulong n)
{
    BODY(((__global VT *)c)[i] = ((__global const VT *)a)[i], c[j] = a[j])
}

__kernel void scale(__global const T *restrict a, __global const T *restrict b,
                    __global T *restrict c, T s, ulong n)
{
    BODY(((__global VT *)c)[i] = s * ((__global const VT *)a)[i], c[j] = s * a[j])
}

__kernel void add(__global const T *restrict a, __global const T *restrict b,
                  __global T *restrict c, T s, ulong n)
{
    BODY(((__global VT *)c)[i] = ((__global const VT *)a)[i] + ((__global const VT *)b)[i],
         c[j] = a[j] + b[j])
}

__kernel void triad(__global const T *restrict a, __global const T *restrict b,
                    __global T *restrict c, T s, ulong n)
{
    BODY(((__global VT *)c)[i] = ((__global const VT *)a)[i] + s * ((__global const VT *)b)[i],
         c[j] = a[j] + s * b[j])
}

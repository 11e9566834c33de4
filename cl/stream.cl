/* stream: the BabelStream kernels [Deakin16]. Inputs a and b, output c, so that every
 * repetition computes the same thing:
 *   copy  c = a          scale c = s*a
 *   add   c = a + b      triad c = a + s*b
 * Options: -DT=float|double -DVEC=1|2|4|8 (elements per load) -DILP=1|2|4|8
 * (vectors per work-item: all loads are issued before the first store, which
 * keeps more bytes in flight per work-item). Vector k of work-item i is
 * i + k*get_global_size(0), so each step is coalesced across the work-group.
 * Work-item 0 also handles the scalar tail of n % VEC elements.
 * -DNT=1: streaming (non-temporal) stores where the compiler has them
 * (clang's __builtin_nontemporal_store): c is not read into the caches
 * before it is written. */
#if VEC == 1
#define VT T
#else
#define VT CLB_CAT(T, VEC)
#endif

#if NT && defined(__has_builtin)
#if __has_builtin(__builtin_nontemporal_store)
#define STORE(v, p) __builtin_nontemporal_store((v), (p))
#define HAVE_NT 1
#endif
#endif
#ifndef STORE
#define STORE(v, p) (*(p) = (v))
#endif
#ifndef HAVE_NT
#define HAVE_NT 0
#endif

#define BODY(LOAD, SCALAR)                                                      \
    size_t gs = get_global_size(0), i0 = get_global_id(0);                      \
    size_t nv = n / VEC;                                                        \
    VT r[ILP];                                                                  \
    _Pragma("unroll") for (int k = 0; k < ILP; k++) {                           \
        size_t i = i0 + (size_t)k * gs;                                         \
        if (i < nv)                                                             \
            r[k] = LOAD;                                                        \
    }                                                                           \
    _Pragma("unroll") for (int k = 0; k < ILP; k++) {                           \
        size_t i = i0 + (size_t)k * gs;                                         \
        if (i < nv)                                                             \
            STORE(r[k], (__global VT *)c + i);                                  \
    }                                                                           \
    if (i0 == 0)                                                                \
        for (size_t j = nv * VEC; j < n; j++)                                   \
            c[j] = SCALAR;

#define VA(i) (((__global const VT *)a)[i])
#define VB(i) (((__global const VT *)b)[i])

__kernel void copy(__global const T *restrict a, __global const T *restrict b,
                   __global T *restrict c, T s, ulong n)
{
    BODY(VA(i), a[j])
}

__kernel void scale(__global const T *restrict a, __global const T *restrict b,
                    __global T *restrict c, T s, ulong n)
{
    BODY(s * VA(i), s * a[j])
}

__kernel void add(__global const T *restrict a, __global const T *restrict b,
                  __global T *restrict c, T s, ulong n)
{
    BODY(VA(i) + VB(i), a[j] + b[j])
}

__kernel void triad(__global const T *restrict a, __global const T *restrict b,
                    __global T *restrict c, T s, ulong n)
{
    BODY(VA(i) + s * VB(i), a[j] + s * b[j])
}

/* stream's init=device: the device's work-items write every element first
 * (BabelStream's init_arrays), so that its threads touch the pages first;
 * the host's data is written over it after. One element per work-item. */
__kernel void init(__global T *restrict a, __global T *restrict b, __global T *restrict c,
                   ulong n)
{
    size_t i = get_global_id(0);
    if (i < n) {
        a[i] = (T)0;
        b[i] = (T)0;
        c[i] = (T)0;
    }
}

#if HAVE_NT
/* Only where the stores are marked (-DNT=1 and the builtin): the host looks
 * for it among the program's kernel names (stream.c, probe_nt), so that a
 * row's nt=1 is a fact of the build, with no launch or read to go wrong. */
__kernel void nt_stores(void)
{
}
#endif

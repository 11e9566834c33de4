/* peak: arithmetic throughput. Every work-item runs ACC independent chains of
 * VEC-wide vectors (one FMA, or one 32-bit integer multiply-add, per lane and
 * step), so that the pipes see ACC x VEC independent operations per
 * work-item. The chains start from a seed buffer (class gid % P) and their
 * coefficients come as arguments: the compiler knows none of them, cannot
 * fold the work, and the host recomputes every class's chain exactly
 * (host/workloads/peak/peak.h).
 *   floats  x <- fma(x, x, a), a = -1.9: x stays inside [-1.9, 1.71] forever
 *           (the real quadratic map's invariant interval): no overflow, no
 *           denormals, no fixed point the work could converge to
 *   int     x <- x*m + a (a odd, m = 1 mod 4: a full-period permutation)
 * Options: -DT=float|double|half|uint -DVEC=1|2|4|8|16 -DACC=4|8|16, and
 * USE_FP64, USE_FP16 or USE_INT. The result of a work-item is the sum of its
 * chains, accumulator by accumulator, then lane by lane, in a fixed order. */
#ifdef USE_FP16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif
#if defined(__clang__)
/* 16-wide vectors on a CPU without AVX-512 (PoCL): clang's ABI note, once
 * per builtin call, is noise here. A clang that does not know -Wpsabi (the
 * NVIDIA driver's front end) would warn about the pragma itself, once per
 * build ("1 warning generated." on the H100): the first line silences that. */
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#pragma clang diagnostic ignored "-Wpsabi"
#endif

#if VEC == 1
#define TV T
#define LOAD(i) seeds[i]
#else
#define TV CLB_CAT(T, VEC)
#define LOAD(i) CLB_CAT(vload, VEC)(0, seeds + (i))
#endif

#ifdef USE_INT
#define STEP(x) x = x * mv + av;
#else
#define STEP(x) x = fma(x, x, av);
#endif

#define ACC_4(M) M(0) M(1) M(2) M(3)
#define ACC_8(M) ACC_4(M) M(4) M(5) M(6) M(7)
#define ACC_16(M) ACC_8(M) M(8) M(9) M(10) M(11) M(12) M(13) M(14) M(15)
#define FOR_ACC(M) CLB_CAT(ACC_, ACC)(M)

#define DECL(j) TV x##j = LOAD(base + (j) * VEC);
#define STEPJ(j) STEP(x##j)
#define SUMJ(j) s += x##j;

__kernel void peak(__global const T *seeds, __global T *out, T a, T m, uint classes, uint steps)
{
    size_t gid = get_global_id(0);
    size_t base = (size_t)(gid % classes) * (ACC * VEC);
    TV av = (TV)(a);
#ifdef USE_INT
    TV mv = (TV)(m);
#else
    (void)m;
#endif
    FOR_ACC(DECL)
    for (uint i = 0; i < steps / 8; i++) {
        FOR_ACC(STEPJ)
        FOR_ACC(STEPJ)
        FOR_ACC(STEPJ)
        FOR_ACC(STEPJ)
        FOR_ACC(STEPJ)
        FOR_ACC(STEPJ)
        FOR_ACC(STEPJ)
        FOR_ACC(STEPJ)
    }
    for (uint i = 0; i < steps % 8; i++) {
        FOR_ACC(STEPJ)
    }
    TV s = (TV)(0);
    FOR_ACC(SUMJ)
#if VEC == 1
    T r = (T)(0);
    r += s;
#else
    T lanes[VEC];
    CLB_CAT(vstore, VEC)(s, 0, lanes);
    T r = (T)(0);
    for (int l = 0; l < VEC; l++)
        r += lanes[l];
#endif
    out[gid] = r;
}

/* roofline (mixbench-style, [Konstantinidis17]): every element is read once, goes through NFMA
 * dependent steps x <- fma(x, x, a) (2 flops each), and is written once, so
 * one kernel spans memory-bound (NFMA = 0: a copy) to compute-bound rows by
 * its arithmetic intensity NFMA x 2 / (2 x sizeof(T)) flop/byte.
 * Options: -DT -DVEC=1|2|4|8 -DILP=1|2|4|8 -DNFMA=0..4095, and -DMULADD=1 for
 * x <- x*x + a with contraction off (two roundings: the same 2 flops) on a
 * device whose fma() is not a hardware operation (no CL_FP_FMA): Mesa's
 * llvmpipe emulates each fma() in software, and a straight chain of
 * thousands of them takes its compiler minutes (docs/PORTABILITY.md). */
#ifndef MULADD
#define MULADD 0
#endif
#if defined(__clang__)
/* as in peak.cl: the first line keeps a clang without -Wpsabi quiet */
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#pragma clang diagnostic ignored "-Wpsabi"
#endif

#if VEC == 1
#define TV T
#else
#define TV CLB_CAT(T, VEC)
#endif

/* NFMA steps as straight-line code (its binary digits), so that the chain is
 * one basic block: no loop overhead on GPUs, and CPU compilers (PoCL) can
 * vectorize across work-items. NFMA < 4096. */
#if MULADD
#pragma OPENCL FP_CONTRACT OFF
#define F(j) CLB_CAT(x, j) = CLB_CAT(x, j) * CLB_CAT(x, j) + av;
#else
#define F(j) CLB_CAT(x, j) = fma(CLB_CAT(x, j), CLB_CAT(x, j), av);
#endif
#if ILP == 1
#define S1 F(0)
#elif ILP == 2
#define S1 F(0) F(1)
#elif ILP == 4
#define S1 F(0) F(1) F(2) F(3)
#else
#define S1 F(0) F(1) F(2) F(3) F(4) F(5) F(6) F(7)
#endif
#define S2 S1 S1
#define S4 S2 S2
#define S8 S4 S4
#define S16 S8 S8
#define S32 S16 S16
#define S64 S32 S32
#define S128 S64 S64
#define S256 S128 S128
#define S512 S256 S256
#define S1024 S512 S512
#define S2048 S1024 S1024
#if NFMA & 1
#define C1 S1
#else
#define C1
#endif
#if NFMA & 2
#define C2 S2
#else
#define C2
#endif
#if NFMA & 4
#define C4 S4
#else
#define C4
#endif
#if NFMA & 8
#define C8 S8
#else
#define C8
#endif
#if NFMA & 16
#define C16 S16
#else
#define C16
#endif
#if NFMA & 32
#define C32 S32
#else
#define C32
#endif
#if NFMA & 64
#define C64 S64
#else
#define C64
#endif
#if NFMA & 128
#define C128 S128
#else
#define C128
#endif
#if NFMA & 256
#define C256 S256
#else
#define C256
#endif
#if NFMA & 512
#define C512 S512
#else
#define C512
#endif
#if NFMA & 1024
#define C1024 S1024
#else
#define C1024
#endif
#if NFMA & 2048
#define C2048 S2048
#else
#define C2048
#endif
#define CHAIN C2048 C1024 C512 C256 C128 C64 C32 C16 C8 C4 C2 C1

#if VEC == 1
#define LD(k) in[k]
#define ST(v, k) out[k] = v
#else
#define LD(k) CLB_CAT(vload, VEC)(k, in)
#define ST(v, k) CLB_CAT(vstore, VEC)(v, k, out)
#endif
#define LOADJ(j) TV CLB_CAT(x, j) = LD(i + (j) * s);
#define STOREJ(j) ST(CLB_CAT(x, j), i + (j) * s);
#if ILP == 1
#define EACH(M) M(0)
#elif ILP == 2
#define EACH(M) M(0) M(1)
#elif ILP == 4
#define EACH(M) M(0) M(1) M(2) M(3)
#else
#define EACH(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7)
#endif

/* Work-item i < s takes the ILP vectors i, i + s, i + 2s, ... (s = whole
 * vectors / ILP; neighbours read neighbouring vectors: coalesced), and
 * their chains run interleaved: ILP x VEC independent FMAs per step. Work-
 * item s takes what is left: the last vectors one by one, then the
 * elements past the last whole vector. */
__kernel void roofline(__global const T *in, __global T *out, T a, ulong n)
{
    size_t i = get_global_id(0);
    size_t nv = (size_t)(n / VEC), s = nv / ILP;
    if (i < s) {
        TV av = (TV)(a);
        (void)av; /* NFMA = 0: a copy */
        EACH(LOADJ)
        CHAIN
        EACH(STOREJ)
    } else if (i == s) {
        TV av = (TV)(a);
        (void)av;
        for (size_t v = s * ILP; v < nv; v++) {
            TV x0 = LD(v);
#undef S1
#define S1 F(0)
            CHAIN
            ST(x0, v);
        }
        T as = a;
        (void)as;
        for (size_t e = nv * VEC; e < n; e++) {
            T x0 = in[e];
#undef F
#if MULADD
#define F(j) CLB_CAT(x, j) = CLB_CAT(x, j) * CLB_CAT(x, j) + as;
#else
#define F(j) CLB_CAT(x, j) = fma(CLB_CAT(x, j), CLB_CAT(x, j), as);
#endif
            CHAIN
            out[e] = x0;
        }
    }
}

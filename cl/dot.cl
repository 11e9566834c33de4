/* dot: partial sums of x·y (or x·x) per work-group, then one work-group that
 * adds the partials. Options: -DT=float|double, -DBLOCKED=0|1.
 *
 * Each work-item accumulates T4 vectors (float4/double4) in a long loop, so a
 * few work-groups per compute unit cover any n:
 *   BLOCKED=0 (GPUs): grid-stride; neighbouring work-items read neighbouring
 *     vectors (coalesced), four independent loads in flight per iteration.
 *   BLOCKED=1 (CPUs): each work-item walks its own contiguous range. A CPU
 *     runs the work-items of a group one after the other, so a grid stride
 *     would touch a quarter of each cache line per pass over the array.
 * The n % 4 tail is added by work-item 0. The per-group sum is a tree in local
 * memory that works for any work-group size (not only powers of two). */
#define VT CLB_CAT(T, 4)

/* Sum scratch[0..L) into scratch[0]; every work-item of the group calls it. */
T group_sum(__local T *scratch, T v)
{
    size_t lid = get_local_id(0), L = get_local_size(0);
    scratch[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t step = 1;
    while (step < L)
        step <<= 1;
    for (step >>= 1; step > 0; step >>= 1) {
        if (lid < step && lid + step < L)
            scratch[lid] += scratch[lid + step];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return scratch[0];
}

#define HSUM(v) ((v).x + (v).y + (v).z + (v).w)

/* The loop over vectors for one work-item; PROD(i) is the product of vector i,
 * SPROD(j) the scalar product of element j. */
#if BLOCKED
#define ACCUMULATE(PROD)                                                        \
    {                                                                           \
        ulong per = (nv + W - 1) / W;                                           \
        ulong i = gid * per, end = min(i + per, nv);                            \
        for (; i + 1 < end; i += 2) {                                           \
            a0 += PROD(i);                                                      \
            a1 += PROD(i + 1);                                                  \
        }                                                                       \
        if (i < end)                                                            \
            a0 += PROD(i);                                                      \
    }
#else
#define ACCUMULATE(PROD)                                                        \
    {                                                                           \
        ulong i = gid;                                                          \
        for (; i + 3 * W < nv; i += 4 * W) {                                    \
            VT p0 = PROD(i), p1 = PROD(i + W);                                  \
            VT p2 = PROD(i + 2 * W), p3 = PROD(i + 3 * W);                      \
            a0 += p0 + p2;                                                      \
            a1 += p1 + p3;                                                      \
        }                                                                       \
        for (; i < nv; i += W)                                                  \
            a0 += PROD(i);                                                      \
    }
#endif

#define PARTIAL_BODY(PROD, SPROD)                                               \
    ulong gid = get_global_id(0), W = get_global_size(0);                       \
    ulong nv = n / 4;                                                           \
    VT a0 = (VT)(0), a1 = (VT)(0);                                              \
    ACCUMULATE(PROD)                                                            \
    a0 += a1;                                                                   \
    T s = HSUM(a0);                                                             \
    if (gid == 0)                                                               \
        for (ulong j = nv * 4; j < n; j++)                                      \
            s += SPROD(j);                                                      \
    T g = group_sum(scratch, s);                                                \
    if (get_local_id(0) == 0)                                                   \
        part[get_group_id(0)] = g;

__kernel void dot_partial(__global const T *restrict x, __global const T *restrict y,
                          __global T *restrict part, __local T *scratch, ulong n)
{
    __global const VT *x4 = (__global const VT *)x;
    __global const VT *y4 = (__global const VT *)y;
#define PROD_XY(i) (x4[i] * y4[i])
#define SPROD_XY(j) (x[j] * y[j])
    PARTIAL_BODY(PROD_XY, SPROD_XY)
}

__kernel void sumsq_partial(__global const T *restrict x, __global T *restrict part,
                            __local T *scratch, ulong n)
{
    __global const VT *x4 = (__global const VT *)x;
#define PROD_XX(i) (x4[i] * x4[i])
#define SPROD_XX(j) (x[j] * x[j])
    PARTIAL_BODY(PROD_XX, SPROD_XX)
}

/* Second pass: one work-group adds m partials into out[0]. */
__kernel void sum_partials(__global const T *restrict part, __global T *restrict out,
                           __local T *scratch, ulong m)
{
    T s = 0;
    for (ulong i = get_local_id(0); i < m; i += get_local_size(0))
        s += part[i];
    T g = group_sum(scratch, s);
    if (get_local_id(0) == 0)
        out[0] = g;
}

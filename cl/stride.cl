/* stride: how the address distance between neighbouring work-items changes
 * the bandwidth (coalescing). Options: -DT=float|double. One element per
 * work-item, so that neighbouring work-items handle neighbouring i:
 *
 *   gather:  out[i] = in[(i * stride) mod n]   neighbours read `stride` apart
 *   offset:  out[i] = in[i + off]              reads shifted by `off` elements
 *
 * gather finds (i * stride) mod n without a division: with i = g*L + l
 * (group g, local id l, L work-items per group) it is
 *   (gbase[g] + lbase[l]) mod n,  gbase[g] = (g*L*stride) mod n,
 *                                 lbase[l] = (l*stride) mod n,
 * both tables filled by the host, and the sum of two values below n needs
 * one conditional subtraction. A 64-bit division per element costs more than
 * the memory access on some devices (a library call on GPUs; no vector form
 * on CPUs). The tables add 4 bytes per work-group and L*4 bytes in all to the
 * traffic: 4 / (2 * L * sizeof(T)), 0.2% for floats at the default L = 256. */

__kernel void gather(__global const T *restrict in, __global T *restrict out, ulong n,
                     __global const uint *restrict gbase, __global const uint *restrict lbase)
{
    ulong i = get_global_id(0);
    if (i >= n)
        return;
    ulong j = (ulong)gbase[get_group_id(0)] + lbase[get_local_id(0)];
    if (j >= n)
        j -= n;
    out[i] = in[j];
}

__kernel void offset(__global const T *restrict in, __global T *restrict out, ulong n, ulong off)
{
    ulong i = get_global_id(0);
    if (i < n)
        out[i] = in[i + off];
}

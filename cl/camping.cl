/* camping: the partition-camping probe. Work-group g copies its own
 * contiguous chunk, which starts at element g * pitch (pitch = chunk + the
 * distance D being swept). A chunk is NROWS rows of ROW_ELEMS elements (a row
 * is 16 KiB, a power of two), walked one slice of M elements (the probe's base
 * width) at a time: at any moment the work-items of a group touch the same
 * slice of several rows, addresses that are equal modulo 16 KiB and so lie in
 * one partition of any power-of-two interleave up to 16 KiB. Groups advance
 * through the slices at about the same pace, so what separates the partitions
 * of concurrent groups is g * D: the distance is the only thing that changes.
 * A barrier after each slice keeps the work-items of a group on one slice.
 *
 * Options: -DT=float|double|float4 -DM (elements per slice) -DUNROLL
 * (rows in flight per work-item) -DIDX=uint|ulong. */
__kernel void copy(__global const T *restrict in, __global T *restrict out, ulong pitch,
                   uint row_elems, uint nrows)
{
    IDX base = (IDX)get_group_id(0) * (IDX)pitch;
    uint l = get_local_id(0);
    uint rstep = get_local_size(0) / M; /* rows covered at once */
    uint col = l % M, r0 = l / M;
    if (r0 >= rstep) /* the work-items beyond rstep * M only keep the barriers */
        r0 = nrows;
    for (uint s = 0; s < row_elems; s += M) {
        uint c = s + col;
        if (c < row_elems) { /* else a last, partial slice */
            for (uint r = r0; r < nrows; r += rstep * UNROLL) {
                T v[UNROLL];
#pragma unroll
                for (int u = 0; u < UNROLL; u++)
                    if (r + u * rstep < nrows)
                        v[u] = in[base + (IDX)(r + u * rstep) * row_elems + c];
#pragma unroll
                for (int u = 0; u < UNROLL; u++)
                    if (r + u * rstep < nrows)
                        out[base + (IDX)(r + u * rstep) * row_elems + c] = v[u];
            }
        }
        /* The group finishes a slice before the next: its footprint stays one
         * slice wide (and PoCL runs the work-items of a slice together). */
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* matmul: C = A * B for n x n row-major float matrices, the DRAM lecture's
 * corner-turning example [CSEE217]. Options: -DT=float -DTILE=t.
 *
 * naive: one output per work-item straight from global memory. Work-items
 * along dimension 0 take neighbouring columns: their B[k][col] reads are
 * coalesced, their A[row][k] reads are one address (a broadcast), and every
 * A and B element is fetched n times from global memory (or the caches).
 *
 * tiled: a TILE x TILE work-group loads a tile of A and a tile of B into local
 * memory with coalesced reads (work-item (tx, ty) loads A[row][t0+tx] and
 * B[t0+ty][col]: neighbours in dimension 0 read neighbouring addresses of both
 * matrices - the "corner turn" for A), then multiplies from local memory; each
 * global element is fetched n/TILE times. Elements outside the matrix load as
 * 0 so that n need not be a multiple of TILE (adding 0*x leaves the sum exact).
 * (The lecture's slide stores the tiles as Mds[tx][ty]; the indices used here
 * are the textbook's Mds[ty][tx].) */

__kernel void naive(__global const float *restrict a, __global const float *restrict b,
                    __global float *restrict c, uint n)
{
    uint col = get_global_id(0), row = get_global_id(1);
    if (row >= n || col >= n)
        return;
    __global const float *ar = a + (size_t)row * n;
    float acc = 0.0f;
    for (uint k = 0; k < n; k++)
        acc += ar[k] * b[(size_t)k * n + col];
    c[(size_t)row * n + col] = acc;
}

#ifdef TILE
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1))) void
tiled(__global const float *restrict a, __global const float *restrict b, __global float *restrict c,
      uint n)
{
    __local float as[TILE][TILE];
    __local float bs[TILE][TILE];
    uint tx = get_local_id(0), ty = get_local_id(1);
    uint col = get_group_id(0) * TILE + tx, row = get_group_id(1) * TILE + ty;
    float acc = 0.0f;
    for (uint t0 = 0; t0 < n; t0 += TILE) {
        as[ty][tx] = (row < n && t0 + tx < n) ? a[(size_t)row * n + t0 + tx] : 0.0f;
        bs[ty][tx] = (t0 + ty < n && col < n) ? b[(size_t)(t0 + ty) * n + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < TILE; k++)
            acc += as[ty][k] * bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < n && col < n)
        c[(size_t)row * n + col] = acc;
}
#endif

/* copy2d: the C1060 report's copy2D_Coalesced [C1060Report]. A height x width matrix (row-major,
 * width contiguous) is copied by TILE_DIM x TILE_DIM tiles; a work-group of
 * TILE_DIM x BLOCK_ROWS work-items covers one tile, each work-item copying
 * TILE_DIM / BLOCK_ROWS elements of one column, BLOCK_ROWS rows apart.
 * Consecutive work-items of a row touch consecutive elements (coalesced).
 *
 * Options: -DTILE_DIM -DBLOCK_ROWS -DIDX=uint|ulong (index type: uint when
 * every index fits) and the element:
 *   -DELEM=float|double|float4|float3   an OpenCL type (float3 is the 16-byte
 *                                       OpenCL float3: "float3_aligned")
 *   -DPACKED3                           the report's 12-byte float3, stored as
 *                                       a float array, vload3/vstore3
 *
 * The order of loads and stores is part of the kernel: the report names the
 * "execution order of index computation and global Read/Write operation" as
 * a factor of its figures. `coalesced` and `rows` keep the report's order
 * (each element stored right after it is loaded, pointers without restrict,
 * so the compiler may not hoist a later load above an earlier store: one
 * load in flight per work-item); `loads_first` is clbench's variant that
 * issues all TILE_DIM / BLOCK_ROWS loads of a work-item before its first
 * store (restrict pointers), and is never compared with the report. */
#define NPER (TILE_DIM / BLOCK_ROWS)

#ifdef PACKED3
#define ET float
#define VT float3
#define LOAD(p, i) vload3((i), (p))
#define STORE(v, p, i) vstore3((v), (i), (p))
#else
#define ET ELEM
#define VT ELEM
#define LOAD(p, i) ((p)[i])
#define STORE(v, p, i) ((p)[i] = (v))
#endif

/* The work-item's first element: column x, row y of the matrix. */
#define TILE_XY                                                                 \
    uint x = get_group_id(0) * TILE_DIM + get_local_id(0);                      \
    uint y = get_group_id(1) * TILE_DIM + get_local_id(1)

/* The report's kernel, in its order: odata[index + i*width] =
 * idata[index + i*width] for i = 0, BLOCK_ROWS, ... (one element, for
 * PACKED3 one vload3/vstore3, per row). The report's sizes are tile
 * multiples; here the rows past the matrix's last are not touched. */
__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void coalesced(__global const ET *in, __global ET *out, uint width, uint height)
{
    TILE_XY;
    if (x >= width)
        return;
    IDX idx = (IDX)y * width + x;
    IDX step = (IDX)BLOCK_ROWS * width;
    for (int i = 0; i < NPER && y + i * BLOCK_ROWS < height; i++)
        STORE(LOAD(in, idx + i * step), out, idx + i * step);
}

/* clbench's variant (not the report's): the same elements, but every load of
 * a work-item is issued before its first store, so that TILE_DIM /
 * BLOCK_ROWS loads are in flight per work-item. */
__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void loads_first(__global const ET *restrict in, __global ET *restrict out, uint width,
                 uint height)
{
    TILE_XY;
    if (x >= width)
        return;
    IDX idx = (IDX)y * width + x;
    IDX step = (IDX)BLOCK_ROWS * width;
    VT v[NPER];
    if (y + (NPER - 1) * BLOCK_ROWS < height) { /* the whole column of the tile */
#pragma unroll
        for (int i = 0; i < NPER; i++)
            v[i] = LOAD(in, idx + i * step);
#pragma unroll
        for (int i = 0; i < NPER; i++)
            STORE(v[i], out, idx + i * step);
    } else { /* the last row of tiles: bounds-checked */
        for (int i = 0; i < NPER && y + i * BLOCK_ROWS < height; i++)
            STORE(LOAD(in, idx + i * step), out, idx + i * step);
    }
}

#ifdef PACKED3
/* The packed float3 matrix seen as a height x (3 width) float matrix: a tile
 * row of TILE_DIM float3 is 3 TILE_DIM consecutive floats, copied by the
 * TILE_DIM work-items of that row in three coalesced float passes (floats
 * lx, lx + TILE_DIM, lx + 2 TILE_DIM of the row). The same elements and
 * bytes as `coalesced`, without the 12-byte stride between work-items, and
 * in the same order (each float stored right after it is loaded, no
 * restrict): the two differ only in the layout of the accesses. */
__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void rows(__global const float *in, __global float *out, uint width, uint height)
{
    uint fw = 3 * width;                                   /* row length in floats */
    uint x = get_group_id(0) * (3 * TILE_DIM) + get_local_id(0);
    uint y = get_group_id(1) * TILE_DIM + get_local_id(1);
    IDX idx = (IDX)y * fw + x;
    IDX step = (IDX)BLOCK_ROWS * fw;
    for (int i = 0; i < NPER && y + i * BLOCK_ROWS < height; i++)
        for (int c = 0; c < 3; c++)
            if (x + c * TILE_DIM < fw)
                out[idx + i * step + c * TILE_DIM] = in[idx + i * step + c * TILE_DIM];
}
#endif

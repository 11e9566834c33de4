/* transpose: out = in^T for an n x m row-major matrix (n rows, m columns).
 * The output of a transpose is m x n (row width n); copy, copy_local and
 * fine_grained write an n x m output (row width m), coarse_grained an m x n one.
 * Kernels of the transpose lecture [Udacity12] and of NVIDIA's whitepaper
 * [Ruetsch09].
 *
 * Options (besides -DT, see common.cl):
 *   -DIDX=uint|ulong      index type (uint when every index fits: cheaper math)
 *   -DTILE=32 -DBROWS=8   the whitepaper kernels: TILE x TILE tiles, work-groups
 *                         of TILE x BROWS, each work-item TILE/BROWS elements
 *   -DBT -DBV -DBR        the `best` kernel only (a separate build): BT x BT
 *                         tiles, BV-element vector loads and stores, work-groups
 *                         of (BT/BV) x BR
 *   -DBK                  with BT: also best_pipe, the loads-first form,
 *                         BK tiles per work-group
 *   -DBD=K | -DBP=1       with BT: best_seq, the loads-first form over a
 *                         sequence of tiles: K tiles down a tile column, or
 *                         persistent work-groups dealt tiles round-robin
 *   -DORD=0..3 [-DOSK=k]  with BT: work-groups of a 1-D grid take tiles in a
 *                         given order (rows, columns, diagonal, bands of k
 *                         tile rows; tile_at below); always set for best_seq
 *   -DNTS                 with BT: output vectors stored with PTX
 *                         st.global.cs (NVIDIA only: the host sets it only
 *                         on NVIDIA platforms)
 *   -DRT -DCT -DRV -DRWG  best_rect only: RT x CT tiles (input rows x columns),
 *                         RV-element vectors, flat work-groups of RWG
 * Kernels that move whole tiles guard every element against the matrix edges,
 * so any n x m works; a work-group whose tile is entirely inside skips them. */

/* ---- the lecture's kernels ------------------------------------------- */
#ifdef TILE

/* One work-item does everything: shows what a GPU is without parallelism. */
__kernel void serial(__global const T *restrict in, __global T *restrict out, IDX n, IDX m)
{
    if (get_global_id(0) != 0)
        return;
    for (IDX i = 0; i < n; i++)
        for (IDX j = 0; j < m; j++)
            out[j * n + i] = in[i * m + j];
}

/* The lecture's per-row kernel: work-item i writes output row i (input
 * column i), walking down the input's rows j. Neighbouring work-items read
 * neighbouring addresses of an input row, in[j*m + i] (the lecture's "J
 * times N plus I": coalesced), and write addresses n elements apart,
 * out[i*n + j] ("separated in memory by N": strided, uncoalesced). */
__kernel void per_row(__global const T *restrict in, __global T *restrict out, IDX n, IDX m)
{
    IDX i = get_global_id(0);
    if (i >= m)
        return;
    for (IDX j = 0; j < n; j++)
        out[i * n + j] = in[j * m + i];
}

/* ---- the whitepaper's kernels: tiles of TILE x TILE ------------------- */

#define WG_ATTR __attribute__((reqd_work_group_size(TILE, BROWS, 1)))

/* The tile of a work-group: first row and column in the input. */
#define TILE_ORIGIN                                                             \
    const IDX tx = get_local_id(0), ty = get_local_id(1);                       \
    const IDX row0 = (IDX)get_group_id(1) * TILE, col0 = (IDX)get_group_id(0) * TILE

/* Baseline: same index in and out, no local memory. The ceiling for a
 * kernel that moves the same tiles. */
__kernel WG_ATTR void copy(__global const T *restrict in, __global T *restrict out, IDX n, IDX m)
{
    TILE_ORIGIN;
    const IDX col = col0 + tx;
#pragma unroll
    for (int k = 0; k < TILE; k += BROWS) {
        IDX row = row0 + ty + k;
        if (row < n && col < m)
            out[row * m + col] = in[row * m + col];
    }
}

/* Baseline through local memory with a barrier: the cost of staging. */
__kernel WG_ATTR void copy_local(__global const T *restrict in, __global T *restrict out, IDX n,
                                 IDX m)
{
    __local T tile[TILE][TILE];
    TILE_ORIGIN;
    const IDX col = col0 + tx;
#pragma unroll
    for (int k = 0; k < TILE; k += BROWS) {
        IDX row = row0 + ty + k;
        if (row < n && col < m)
            tile[ty + k][tx] = in[row * m + col];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int k = 0; k < TILE; k += BROWS) {
        IDX row = row0 + ty + k;
        if (row < n && col < m)
            out[row * m + col] = tile[ty + k][tx];
    }
}

/* One element per (work-item, step): reads coalesced, writes n apart. */
__kernel WG_ATTR void naive(__global const T *restrict in, __global T *restrict out, IDX n, IDX m)
{
    TILE_ORIGIN;
    const IDX col = col0 + tx;
#pragma unroll
    for (int k = 0; k < TILE; k += BROWS) {
        IDX row = row0 + ty + k;
        if (row < n && col < m)
            out[col * n + row] = in[row * m + col];
    }
}

/* Read a tile row-wise into local memory; tile rows are input rows. */
#define LOAD_TILE(tile)                                                         \
    for (int k = 0; k < TILE; k += BROWS)                                       \
    {                                                                           \
        IDX row = row0 + ty + k, col = col0 + tx;                               \
        if (row < n && col < m)                                                 \
            tile[ty + k][tx] = in[row * m + col];                               \
    }

/* Write the tile's columns as rows of the output at the transposed tile
 * position: both global accesses coalesced, the local reads go down a column. */
#define STORE_TRANSPOSED(tile)                                                  \
    for (int k = 0; k < TILE; k += BROWS)                                       \
    {                                                                           \
        IDX orow = col0 + ty + k, ocol = row0 + tx;                             \
        if (orow < m && ocol < n)                                               \
            out[orow * n + ocol] = tile[tx][ty + k];                            \
    }

/* Local-memory tile: coalesced both ways, but the column reads of a
 * TILE-wide tile hit the same bank (TILE-way conflicts). */
__kernel WG_ATTR void coalesced(__global const T *restrict in, __global T *restrict out, IDX n,
                                IDX m)
{
    __local T tile[TILE][TILE];
    TILE_ORIGIN;
    LOAD_TILE(tile);
    barrier(CLK_LOCAL_MEM_FENCE);
    STORE_TRANSPOSED(tile);
}

/* One column of padding: a column's elements fall in different banks. */
__kernel WG_ATTR void nobankconflict(__global const T *restrict in, __global T *restrict out,
                                     IDX n, IDX m)
{
    __local T tile[TILE][TILE + 1];
    TILE_ORIGIN;
    LOAD_TILE(tile);
    barrier(CLK_LOCAL_MEM_FENCE);
    STORE_TRANSPOSED(tile);
}

/* The whitepaper's diagnostic half 1: transpose inside each tile (local
 * memory, padded), but write the tile back at its own position, row-wise.
 * Output n x m: element (r, c) of a tile receives the tile's (c, r). */
__kernel WG_ATTR void fine_grained(__global const T *restrict in, __global T *restrict out, IDX n,
                                   IDX m)
{
    __local T tile[TILE][TILE + 1];
    TILE_ORIGIN;
    LOAD_TILE(tile);
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int k = 0; k < TILE; k += BROWS) {
        IDX row = row0 + ty + k, col = col0 + tx;   /* destination */
        IDX srow = row0 + tx, scol = col0 + ty + k; /* where tile[tx][ty+k] came from */
        if (row < n && col < m && srow < n && scol < m)
            out[row * m + col] = tile[tx][ty + k];
    }
}

/* The diagnostic half 2: move each tile to its transposed position, but keep
 * its contents in place (no transpose within the tile). Output m x n. */
__kernel WG_ATTR void coarse_grained(__global const T *restrict in, __global T *restrict out,
                                     IDX n, IDX m)
{
    __local T tile[TILE][TILE + 1];
    TILE_ORIGIN;
    LOAD_TILE(tile);
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int k = 0; k < TILE; k += BROWS) {
        IDX orow = col0 + ty + k, ocol = row0 + tx; /* destination */
        IDX srow = row0 + ty + k, scol = col0 + tx; /* source of tile[ty+k][tx] */
        if (orow < m && ocol < n && srow < n && scol < m)
            out[orow * n + ocol] = tile[ty + k][tx];
    }
}

/* Diagonal block reordering: consecutive work-groups take tiles along
 * diagonals, so that concurrent groups spread over memory partitions instead
 * of writing one column of tiles. The remapping is a bijection for any grid
 * (x = (q + y) mod gx for a fixed y), so non-square grids work too. */
__kernel WG_ATTR void diagonal(__global const T *restrict in, __global T *restrict out, IDX n,
                               IDX m)
{
    __local T tile[TILE][TILE + 1];
    const IDX tx = get_local_id(0), ty = get_local_id(1);
    const IDX gx = get_num_groups(0), gy = get_num_groups(1);
    const IDX bid = (IDX)get_group_id(0) + gx * (IDX)get_group_id(1);
    const IDX by = bid % gy;
    const IDX bx = (bid / gy + by) % gx;
    const IDX row0 = by * TILE, col0 = bx * TILE;
    LOAD_TILE(tile);
    barrier(CLK_LOCAL_MEM_FENCE);
    STORE_TRANSPOSED(tile);
}

#endif /* TILE */

/* ---- best: wide elements, large tiles ---------------------------------
 * Each work-item loads BV consecutive elements as one vector (16-byte loads
 * for float4 and double2: a warp reads whole 256-512 B segments), BT/BR
 * vectors per work-item (many bytes in flight before the barrier), stores
 * them into a padded local tile, and writes BV-element vectors of the
 * transposed tile, gathered from a column of local memory. The host uses
 * BV > 1 only when n and m are multiples of BV, so every vector is aligned
 * and either wholly inside the matrix or wholly outside. */
#ifdef BT

#if BV == 1
#define VT T
#else
#define VT CLB_CAT(T, BV)
#endif

/* ---- tile orders (ORD), for the forms with an order suffix and best_seq ---
 * Work-group g of a 1-D grid (best_seq's persistent form: the g-th tile
 * dealt) takes tile column *x, tile row *y of a gx x gy grid of tiles:
 *   ORD 0 rows      x fastest: what the plain 2-D grid does (the control)
 *   ORD 1 columns   y fastest: consecutive work-groups take consecutive tiles
 *                   down one tile column of the input, so the groups running
 *                   at once write neighbouring segments of the same output
 *                   rows (and read scattered segments of many input rows)
 *   ORD 2 diagonal  y = g mod gy, x = (g div gy + y) mod gx: the `diagonal`
 *                   kernel's remapping
 *   ORD 3 bands     bands of OSK tile rows, column by column inside a band:
 *                   the groups running at once cover a block OSK tiles tall
 *                   instead of whole tile rows (OSK 1 = rows, >= gy = columns)
 * A bijection for any grid; the same arithmetic as clb_tr_order() on the host
 * (transpose_ref.c), whose unit test checks it. */
#ifdef ORD
inline void tile_at(IDX g, IDX gx, IDX gy, IDX *x, IDX *y)
{
#if ORD == 0
    *x = g % gx;
    *y = g / gx;
#elif ORD == 1
    *x = g / gy;
    *y = g % gy;
#elif ORD == 2
    *y = g % gy;
    *x = (g / gy + *y) % gx;
#else
    const IDX k = min((IDX)OSK, gy); /* k * gx <= the tile count: no overflow */
    const IDX band = g / (k * gx), y0 = band * k;
    const IDX h = min(k, gy - y0);   /* the last band may be lower */
    const IDX r = g - band * k * gx;
    *x = r / h;
    *y = y0 + r % h;
#endif
}
/* The tile (bx, by) of this work-group in a gx x gy grid. */
#define GROUP_TILE(bx, by, gx, gy)                                              \
    IDX bx, by;                                                                 \
    tile_at(get_group_id(0), (gx), (gy), &bx, &by)
#endif

/* Store one output vector. With NTS: PTX st.global.cs (cache streaming,
 * "evict first" in L2) as inline assembly, which NVIDIA's OpenCL compiler
 * accepts (its SDK's oclInlinePTX sample); the host defines NTS only on
 * NVIDIA platforms. PTX has no v4 of 64-bit elements: double4 is two v2. */
#ifdef NTS
inline void store_out(__global VT *p, VT v)
{
#if defined(USE_FP64) && BV == 1
    asm volatile("st.global.cs.f64 [%0], %1;" ::"l"((ulong)p), "d"(v) : "memory");
#elif defined(USE_FP64) && BV == 2
    asm volatile("st.global.cs.v2.f64 [%0], {%1, %2};" ::"l"((ulong)p), "d"(v.s0), "d"(v.s1)
                 : "memory");
#elif defined(USE_FP64)
    asm volatile("st.global.cs.v2.f64 [%0], {%1, %2};\n\t"
                 "st.global.cs.v2.f64 [%0+16], {%3, %4};" ::"l"((ulong)p),
                 "d"(v.s0), "d"(v.s1), "d"(v.s2), "d"(v.s3)
                 : "memory");
#elif BV == 1
    asm volatile("st.global.cs.f32 [%0], %1;" ::"l"((ulong)p), "f"(v) : "memory");
#elif BV == 2
    asm volatile("st.global.cs.v2.f32 [%0], {%1, %2};" ::"l"((ulong)p), "f"(v.s0), "f"(v.s1)
                 : "memory");
#else
    asm volatile("st.global.cs.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"((ulong)p), "f"(v.s0),
                 "f"(v.s1), "f"(v.s2), "f"(v.s3)
                 : "memory");
#endif
}
#define STORE_OUT(p, v) store_out((p), (v))
#else
#define STORE_OUT(p, v) (*(p) = (v))
#endif

__kernel __attribute__((reqd_work_group_size(BT / BV, BR, 1))) void
best(__global const T *restrict in, __global T *restrict out, IDX n, IDX m)
{
    __local T tile[BT][BT + 1];
    const int tx = get_local_id(0), ty = get_local_id(1);
#ifdef ORD
    GROUP_TILE(bx, by, (m + BT - 1) / BT, (n + BT - 1) / BT);
    const IDX row0 = by * BT, col0 = bx * BT;
#else
    const IDX row0 = (IDX)get_group_id(1) * BT, col0 = (IDX)get_group_id(0) * BT;
#endif
    const int full = row0 + BT <= n && col0 + BT <= m; /* uniform per work-group */
    __global const VT *restrict inv = (__global const VT *)in;
    __global VT *restrict outv = (__global VT *)out;
    const IDX mv = m / BV, nv = n / BV;

#pragma unroll
    for (int k = 0; k < BT; k += BR) {
        const IDX row = row0 + ty + k;
        if (full || (row < n && col0 + tx * BV < m)) {
            VT v = inv[row * mv + col0 / BV + tx];
#if BV == 1
            tile[ty + k][tx] = v;
#elif BV == 2
            tile[ty + k][2 * tx] = v.s0;
            tile[ty + k][2 * tx + 1] = v.s1;
#else
            tile[ty + k][4 * tx] = v.s0;
            tile[ty + k][4 * tx + 1] = v.s1;
            tile[ty + k][4 * tx + 2] = v.s2;
            tile[ty + k][4 * tx + 3] = v.s3;
#endif
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int k = 0; k < BT; k += BR) {
        const IDX orow = col0 + ty + k; /* output row = input column */
        if (full || (orow < m && row0 + tx * BV < n)) {
            VT v;
#if BV == 1
            v = tile[tx][ty + k];
#elif BV == 2
            v.s0 = tile[2 * tx][ty + k];
            v.s1 = tile[2 * tx + 1][ty + k];
#else
            v.s0 = tile[4 * tx][ty + k];
            v.s1 = tile[4 * tx + 1][ty + k];
            v.s2 = tile[4 * tx + 2][ty + k];
            v.s3 = tile[4 * tx + 3][ty + k];
#endif
            STORE_OUT(&outv[orow * nv + row0 / BV + tx], v);
        }
    }
}

/* ---- best, loads-first tile form (BK defined) -------------------------
 * Same tiles, work-groups and local layout as best, but a work-item first
 * loads all BT/BR vectors of its tile into registers (PIPE_LOAD: nothing
 * between the loads, so they are all in flight together) and only then
 * scatters them into local memory. With BK > 1 a work-group moves BK tiles
 * side by side in its tile row, and the next tile's loads are issued before
 * this tile's barrier and stores (two local tiles alternate, one barrier per
 * tile: the tile written at step j was last read at step j - 2, and the
 * barrier of step j - 1 lies between). Guards as in best. */
#ifdef BK

/* Is input row `row`'s vector tx of the tile at column c0 inside the matrix? */
#define PIPE_IN(full, row, c0) ((full) || ((row) < n && (c0) + tx * BV < m))

/* Load vector k of this work-item's part of the tile at column c0. */
#define PIPE_LOAD(c0, lfull, k)                                                 \
    do {                                                                        \
        const IDX lrow = row0 + ty + (k) * BR;                                  \
        if (PIPE_IN(lfull, lrow, c0))                                           \
            r[k] = inv[lrow * mv + (c0) / BV + tx];                             \
    } while (0)

__kernel __attribute__((reqd_work_group_size(BT / BV, BR, 1))) void
best_pipe(__global const T *restrict in, __global T *restrict out, IDX n, IDX m)
{
    __local T tile[BK > 1 ? 2 : 1][BT][BT + 1];
    const int tx = get_local_id(0), ty = get_local_id(1);
#ifdef ORD /* groups of BK tiles along a tile row */
    GROUP_TILE(bx, by, ((m + BT - 1) / BT + BK - 1) / BK, (n + BT - 1) / BT);
    const IDX row0 = by * BT, cfirst = bx * (BK * BT);
#else
    const IDX row0 = (IDX)get_group_id(1) * BT;
    const IDX cfirst = (IDX)get_group_id(0) * (BK * BT); /* column of the first tile */
#endif
    const int rows_full = row0 + BT <= n;                /* uniform per work-group */
    __global const VT *restrict inv = (__global const VT *)in;
    __global VT *restrict outv = (__global VT *)out;
    const IDX mv = m / BV, nv = n / BV;
    VT r[BT / BR];

    const int full0 = rows_full && cfirst + BT <= m;
#pragma unroll
    for (int k = 0; k < BT / BR; k++)
        PIPE_LOAD(cfirst, full0, k);
#pragma unroll
    for (int j = 0; j < BK; j++) {
        const IDX col0 = cfirst + (IDX)j * BT;
        const int full = rows_full && col0 + BT <= m;
        const int b = j & 1;
#pragma unroll
        for (int k = 0; k < BT / BR; k++) {
            const IDX row = row0 + ty + k * BR;
            const int lr = ty + k * BR;
            if (PIPE_IN(full, row, col0)) {
#if BV == 1
                tile[b][lr][tx] = r[k];
#elif BV == 2
                tile[b][lr][2 * tx] = r[k].s0;
                tile[b][lr][2 * tx + 1] = r[k].s1;
#else
                tile[b][lr][4 * tx] = r[k].s0;
                tile[b][lr][4 * tx + 1] = r[k].s1;
                tile[b][lr][4 * tx + 2] = r[k].s2;
                tile[b][lr][4 * tx + 3] = r[k].s3;
#endif
            }
        }
        if (j + 1 < BK) { /* the next tile's loads, in flight during this tile's stores */
            const IDX cnext = col0 + BT;
            const int fnext = rows_full && cnext + BT <= m;
#pragma unroll
            for (int k = 0; k < BT / BR; k++)
                PIPE_LOAD(cnext, fnext, k);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int k = 0; k < BT; k += BR) {
            const IDX orow = col0 + ty + k; /* output row = input column */
            if (full || (orow < m && row0 + tx * BV < n)) {
                VT v;
#if BV == 1
                v = tile[b][tx][ty + k];
#elif BV == 2
                v.s0 = tile[b][2 * tx][ty + k];
                v.s1 = tile[b][2 * tx + 1][ty + k];
#else
                v.s0 = tile[b][4 * tx][ty + k];
                v.s1 = tile[b][4 * tx + 1][ty + k];
                v.s2 = tile[b][4 * tx + 2][ty + k];
                v.s3 = tile[b][4 * tx + 3][ty + k];
#endif
                STORE_OUT(&outv[orow * nv + row0 / BV + tx], v);
            }
        }
    }
}
#endif /* BK */

/* ---- best, loads-first tile sequences (BD or BP defined) ----------------
 * best_pipe's pipeline (all loads of a tile into registers first; the next
 * tile's loads issued before this tile's barrier and stores; two local tiles
 * alternate, one barrier per tile) over a sequence of tiles per work-group,
 * in a 1-D grid of work-groups (ORD is always defined here; 0 without an
 * order suffix). One idea each:
 *   BD = K  K tiles DOWN one tile column: tiles (x, y0), (x, y0 + 1), ...
 *           Their transposes lie side by side in the same T output rows, so
 *           the work-group writes each of its output rows as one contiguous
 *           segment of K*T elements, tile after tile (best_pipe's kK goes
 *           along the row: K separate segments of T in K*T output rows, one
 *           contiguous K*T segment of each input row read). Work-group g
 *           takes tile column x and band y0 / K from tile_at over a grid of
 *           ceil(tiles down / K) bands.
 *   BP      persistent: the host launches a fixed number G of work-groups
 *           (P per compute unit, all resident at once) and work-group g takes
 *           tiles g, g + G, g + 2G, ... of the order tile_at gives, so each
 *           group moves the same number of tiles (or one fewer) and no tail
 *           of late work-groups runs at partial occupancy after the rest.
 * Guards as in best. */
#if defined(BD) || defined(BP)

/* Is input row `row`'s vector tx of the tile at column c0 inside the matrix? */
#define SEQ_IN(full, row, c0) ((full) || ((row) < n && (c0) + tx * BV < m))

/* The input origin (r0, c0) of the work-group's j-th tile. */
#ifdef BD
#define SEQ_TILE(j, r0, c0)                                                     \
    do {                                                                        \
        (r0) = (y0 + (j)) * BT;                                                 \
        (c0) = bx * BT;                                                         \
    } while (0)
#else
#define SEQ_TILE(j, r0, c0)                                                     \
    do {                                                                        \
        IDX x_, y_;                                                             \
        tile_at(g + (j) * G, gx, gy, &x_, &y_);                                 \
        (r0) = y_ * BT;                                                         \
        (c0) = x_ * BT;                                                         \
    } while (0)
#endif

/* Load vector k of this work-item's part of the tile at (r0, c0). */
#define SEQ_LOAD(r0, c0, f, k)                                                  \
    do {                                                                        \
        const IDX lrow = (r0) + ty + (k) * BR;                                  \
        if (SEQ_IN(f, lrow, c0))                                                \
            r[k] = inv[lrow * mv + (c0) / BV + tx];                             \
    } while (0)

__kernel __attribute__((reqd_work_group_size(BT / BV, BR, 1))) void
best_seq(__global const T *restrict in, __global T *restrict out, IDX n, IDX m)
{
    __local T tile[2][BT][BT + 1];
    const int tx = get_local_id(0), ty = get_local_id(1);
    const IDX gx = (m + BT - 1) / BT, gy = (n + BT - 1) / BT; /* tiles across, down */
    __global const VT *restrict inv = (__global const VT *)in;
    __global VT *restrict outv = (__global VT *)out;
    const IDX mv = m / BV, nv = n / BV;
    VT r[BT / BR];
#ifdef BD
    GROUP_TILE(bx, band, gx, (gy + BD - 1) / BD);
    const IDX y0 = band * BD;
    const IDX count = min((IDX)BD, gy - y0); /* the last band may be shorter */
#else
    const IDX g = get_group_id(0), G = get_num_groups(0), ntiles = gx * gy;
    const IDX count = g < ntiles ? (ntiles - g + G - 1) / G : 0;
#endif

    IDX row0 = 0, col0 = 0;
    SEQ_TILE(0, row0, col0);
    int full = row0 + BT <= n && col0 + BT <= m; /* uniform per work-group */
    if (count > 0) {
#pragma unroll
        for (int k = 0; k < BT / BR; k++)
            SEQ_LOAD(row0, col0, full, k);
    }
    for (IDX j = 0; j < count; j++) {
        const int b = (int)(j & 1);
#pragma unroll
        for (int k = 0; k < BT / BR; k++) {
            const IDX row = row0 + ty + k * BR;
            const int lr = ty + k * BR;
            if (SEQ_IN(full, row, col0)) {
#if BV == 1
                tile[b][lr][tx] = r[k];
#elif BV == 2
                tile[b][lr][2 * tx] = r[k].s0;
                tile[b][lr][2 * tx + 1] = r[k].s1;
#else
                tile[b][lr][4 * tx] = r[k].s0;
                tile[b][lr][4 * tx + 1] = r[k].s1;
                tile[b][lr][4 * tx + 2] = r[k].s2;
                tile[b][lr][4 * tx + 3] = r[k].s3;
#endif
            }
        }
        IDX nrow0 = 0, ncol0 = 0;
        int nfull = 0;
        if (j + 1 < count) { /* the next tile's loads, in flight during this tile's stores */
            SEQ_TILE(j + 1, nrow0, ncol0);
            nfull = nrow0 + BT <= n && ncol0 + BT <= m;
#pragma unroll
            for (int k = 0; k < BT / BR; k++)
                SEQ_LOAD(nrow0, ncol0, nfull, k);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int k = 0; k < BT; k += BR) {
            const IDX orow = col0 + ty + k; /* output row = input column */
            if (full || (orow < m && row0 + tx * BV < n)) {
                VT v;
#if BV == 1
                v = tile[b][tx][ty + k];
#elif BV == 2
                v.s0 = tile[b][2 * tx][ty + k];
                v.s1 = tile[b][2 * tx + 1][ty + k];
#else
                v.s0 = tile[b][4 * tx][ty + k];
                v.s1 = tile[b][4 * tx + 1][ty + k];
                v.s2 = tile[b][4 * tx + 2][ty + k];
                v.s3 = tile[b][4 * tx + 3][ty + k];
#endif
                STORE_OUT(&outv[orow * nv + row0 / BV + tx], v);
            }
        }
        row0 = nrow0;
        col0 = ncol0;
        full = nfull;
    }
}
#endif /* BD || BP */
#endif /* BT */

/* ---- best, register form: no local memory, no barrier -------------------
 * Each work-item loads an RB x RB block as RB vectors of RB elements (one per
 * input row), transposes it in registers and stores RB vectors (one per
 * output row). Work-groups RGX x RGY: with RGX = 8 a warp reads 8 x 16 B =
 * 128 B of each of its rows and writes 4 x 16 B = 64 B (two whole 32-byte
 * sectors) of each output row. The host uses it only when n and m are
 * multiples of RB. */
#ifdef RB

#if RB == 2
#define RVT CLB_CAT(T, 2)
#else
#define RVT CLB_CAT(T, 4)
#endif

__kernel __attribute__((reqd_work_group_size(RGX, RGY, 1))) void
best_reg(__global const T *restrict in, __global T *restrict out, IDX n, IDX m)
{
    const IDX bx = get_global_id(0), by = get_global_id(1); /* block column, block row */
    const IDX mv = m / RB, nv = n / RB;
    if (bx >= mv || by >= nv)
        return;
    __global const RVT *restrict inv = (__global const RVT *)in;
    __global RVT *restrict outv = (__global RVT *)out;
    const IDX row = by * RB, col = bx * RB;
#if RB == 2
    RVT a = inv[row * mv + bx], b = inv[(row + 1) * mv + bx];
    outv[col * nv + by] = (RVT)(a.s0, b.s0);
    outv[(col + 1) * nv + by] = (RVT)(a.s1, b.s1);
#else
    RVT a = inv[row * mv + bx], b = inv[(row + 1) * mv + bx];
    RVT c = inv[(row + 2) * mv + bx], d = inv[(row + 3) * mv + bx];
    outv[col * nv + by] = (RVT)(a.s0, b.s0, c.s0, d.s0);
    outv[(col + 1) * nv + by] = (RVT)(a.s1, b.s1, c.s1, d.s1);
    outv[(col + 2) * nv + by] = (RVT)(a.s2, b.s2, c.s2, d.s2);
    outv[(col + 3) * nv + by] = (RVT)(a.s3, b.s3, c.s3, d.s3);
#endif
}
#endif /* RB */

/* ---- best, rectangular tile form (RT defined) --------------------------
 * The square tiles above write output row segments of only BT elements
 * (256 B for 64 floats) per work-group; moving tiles, not transposing them,
 * is what costs (coarse_grained). Here a work-group of RWG work-items moves
 * a tile of RT input rows x CT input columns: it writes CT output rows of
 * RT elements each (512 B to 1 KB). Read phase: each work-item loads its
 * RT*CT/(RV*RWG) RV-element vectors of the tile's rows into a private array
 * (all loads in flight together), then stores them into local memory;
 * barrier; write phase: RV-element vectors of output rows, gathered from
 * columns of the local tile.
 *
 * Local layout: input row r, column c lives at tile[r][(c + r/RV) % CT],
 * rows of CT + 1. Why: in the gather a warp's 32 lanes read rows RV*i + e
 * (i = lane) of one column; with rows of CT + 1 alone the lanes are 4*(CT+1)
 * words apart for RV = 4, i.e. only 8 distinct banks (4-way conflicts). The
 * skew by r/RV = i moves lane i one more bank, so the lanes' banks are
 * 5*i + const: all 32 distinct for CT = 32 (and 2-way for CT = 16, where a
 * warp covers 2 lanes per bank of the 16 columns). The read phase stays
 * conflict-free for CT = 32 (lanes: 8 vectors x 4 rows, banks r + 4*j + e +
 * const) and 2-way for CT = 16. Counted for 4-byte elements.
 *
 * The host uses RV > 1 only when n and m are multiples of RV (every vector
 * aligned and wholly inside or outside the matrix) and checks RWG, RT, CT
 * divide as the loops below need. Partial tiles guard every vector. */
#ifdef RT

#if RV == 1
#define RVEC T
#else
#define RVEC CLB_CAT(T, RV)
#endif

#define RCV (CT / RV)         /* vectors per tile row read */
#define RRP (RWG / RCV)       /* tile rows read per pass */
#define ROV (RT / RV)         /* vectors per output row written */
#define RWP (RWG / ROV)       /* output rows written per pass */
#define RNL (RT / RRP)        /* vectors loaded per work-item */
#define RLOC(r, c) tile[r][((c) + (r) / RV) % CT]

__kernel __attribute__((reqd_work_group_size(RWG, 1, 1))) void
best_rect(__global const T *restrict in, __global T *restrict out, IDX n, IDX m)
{
    __local T tile[RT][CT + 1];
    const int t = get_local_id(0);
    const IDX row0 = (IDX)get_group_id(1) * RT, col0 = (IDX)get_group_id(0) * CT;
    const int full = row0 + RT <= n && col0 + CT <= m; /* uniform per work-group */
    __global const RVEC *restrict inv = (__global const RVEC *)in;
    __global RVEC *restrict outv = (__global RVEC *)out;
    const IDX mv = m / RV, nv = n / RV;
    RVEC r[RNL];

    const int j = t % RCV, rr = t / RCV; /* read phase: vector j of rows rr + k*RRP */
    const IDX col = col0 + (IDX)j * RV;
#pragma unroll
    for (int k = 0; k < RNL; k++) {
        const IDX row = row0 + rr + k * RRP;
        if (full || (row < n && col < m))
            r[k] = inv[row * mv + col / RV];
    }
#pragma unroll
    for (int k = 0; k < RNL; k++) {
        const int lr = rr + k * RRP;
        if (full || (row0 + lr < n && col < m)) {
#if RV == 1
            RLOC(lr, j) = r[k];
#elif RV == 2
            RLOC(lr, 2 * j) = r[k].s0;
            RLOC(lr, 2 * j + 1) = r[k].s1;
#else
            RLOC(lr, 4 * j) = r[k].s0;
            RLOC(lr, 4 * j + 1) = r[k].s1;
            RLOC(lr, 4 * j + 2) = r[k].s2;
            RLOC(lr, 4 * j + 3) = r[k].s3;
#endif
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    const int i = t % ROV, cc = t / ROV; /* write phase: vector i of output rows cc + p*RWP */
    const IDX ocol = row0 + (IDX)i * RV; /* output column = input row */
#pragma unroll
    for (int p = 0; p < CT / RWP; p++) {
        const int c = cc + p * RWP;
        const IDX orow = col0 + c; /* output row = input column */
        if (full || (orow < m && ocol < n)) {
            RVEC v;
#if RV == 1
            v = RLOC(i, c);
#elif RV == 2
            v.s0 = RLOC(2 * i, c);
            v.s1 = RLOC(2 * i + 1, c);
#else
            v.s0 = RLOC(4 * i, c);
            v.s1 = RLOC(4 * i + 1, c);
            v.s2 = RLOC(4 * i + 2, c);
            v.s3 = RLOC(4 * i + 3, c);
#endif
            outv[orow * nv + ocol / RV] = v;
        }
    }
}
#endif /* RT */

/* blockeq: the C1060 report's blockEqPartition [C1060Report]. A tile is TW x TH elements, TW
 * elements being exactly one memory partition wide; a work-group of TW x TH
 * work-items copies one tile (one element each) and a persistent grid of P
 * work-groups walks the k1 x k2 tiles in row-major order, group g taking
 * tiles g, g + P, g + 2P, ... (the report's gbid += NUM_PARTITION).
 *
 * Options: -DT=float|double -DTW -DTH -DIDX=uint|ulong.
 * The two kernels differ only in how a tile number is split into its tile
 * row and column: `recip` is the report's float reciprocal (the host checks,
 * for the size run, that it equals integer division for every tile number),
 * `divmod` uses integer division. */

#define COPY_TILE(bx, by)                                                       \
    do {                                                                        \
        uint x_ = (bx) * TW + get_local_id(0);                                  \
        uint y_ = (by) * TH + get_local_id(1);                                  \
        if (x_ < width && y_ < height) {                                        \
            IDX i_ = (IDX)y_ * width + x_;                                      \
            out[i_] = in[i_];                                                   \
        }                                                                       \
    } while (0)

__kernel __attribute__((reqd_work_group_size(TW, TH, 1)))
void recip(__global const T *restrict in, __global T *restrict out, uint width, uint height,
           float one_over_k2, uint k2, uint total)
{
    uint p = get_num_groups(0);
    for (uint gbid = get_group_id(0); gbid < total; gbid += p) {
        /* __uint2float_rz, multiply, __float2uint_rz as in the report */
        uint by = convert_uint_rtz(convert_float_rtz(gbid) * one_over_k2);
        uint bx = gbid - k2 * by;
        COPY_TILE(bx, by);
    }
}

__kernel __attribute__((reqd_work_group_size(TW, TH, 1)))
void divmod(__global const T *restrict in, __global T *restrict out, uint width, uint height,
            float one_over_k2, uint k2, uint total)
{
    uint p = get_num_groups(0);
    for (uint gbid = get_group_id(0); gbid < total; gbid += p) {
        uint by = gbid / k2;
        uint bx = gbid - k2 * by;
        COPY_TILE(bx, by);
    }
}

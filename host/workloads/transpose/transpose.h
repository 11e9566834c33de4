/* Host references of the transpose workload (transpose_ref.c): where each
 * output element of each kernel family comes from, and a full check of an
 * output against that. Pure functions, unit-tested in tests/unit. */
#ifndef CLB_TRANSPOSE_H
#define CLB_TRANSPOSE_H

#include <stddef.h>

/* What a kernel does to an n x m row-major input (tiles of tile x tile). */
enum clb_tr_map {
    CLB_TR_COPY,      /* out = in, n x m */
    CLB_TR_TRANSPOSE, /* out = in^T, m x n */
    CLB_TR_FINE,      /* n x m: each tile transposed where it stands */
    CLB_TR_COARSE     /* m x n: each tile moved to the transposed position, contents not transposed */
};

/* Row width of the output of a map (m for n x m outputs, n for m x n). */
size_t clb_tr_out_width(enum clb_tr_map map, size_t n, size_t m);

/* Which input element (*i, *j) lands at output position (p, q) (row p,
 * column q of the output). Returns 0 when the kernel writes nothing there
 * (fine and coarse at partial edge tiles), 1 otherwise. */
int clb_tr_source(enum clb_tr_map map, size_t n, size_t m, size_t tile, size_t p, size_t q,
                  size_t *i, size_t *j);

/* Check every element of out (n*m elements of esize bytes) bit for bit:
 * written positions against their source in `in`, unwritten ones against
 * the poison pattern (every byte 0xFF). Returns the number of wrong elements
 * and the flat index of the first in *first (-1 when none). */
size_t clb_tr_check(enum clb_tr_map map, size_t n, size_t m, size_t tile, size_t esize,
                    const void *in, const void *out, long long *first);

/* Tile orders of the `best` forms with an order suffix (oR, oC, oD, oS<k>):
 * the g-th work-group of a 1-D grid (in the persistent form the g-th tile
 * dealt) takes tile column *x, tile row *y of a gx x gy grid of tiles (a
 * "tile" there may be a group of K tiles). Each order is a bijection of
 * 0..gx*gy-1 onto the grid, for any gx, gy >= 1.
 *   ROWS:  x fastest: the order of the plain 2-D grid (the control)
 *   COLS:  y fastest: consecutive groups go down one tile column
 *   DIAG:  y = g mod gy, x = (g div gy + y) mod gx (the `diagonal` kernel's)
 *   BANDS: bands of k tile rows (the last may be lower), column by column
 *          inside a band: groups running at once cover a block k tiles tall
 * cl/transpose.cl's tile_at() is the same arithmetic. */
enum clb_tr_order { CLB_TR_ROWS, CLB_TR_COLS, CLB_TR_DIAG, CLB_TR_BANDS };
void clb_tr_order(enum clb_tr_order order, size_t k, size_t gx, size_t gy, size_t g, size_t *x,
                  size_t *y);

/* Work-groups of the persistent form for ntiles tiles and `slots` resident
 * groups (groups per compute unit x compute units): the fewest groups that
 * need no more rounds than `slots` would, ceil(ntiles / rounds) with rounds =
 * ceil(ntiles / slots), so that every group takes `rounds` or `rounds - 1`
 * tiles. At least 1; at most min(ntiles, slots). */
size_t clb_tr_persist_groups(size_t ntiles, size_t slots);

/* ---- the `best` variants (transpose_variant.c) ---- */

/* Limits of the variant syntax. */
#define CLB_TR_MAX_VARIANTS 24 /* variants of one --param best list */
#define CLB_TR_MAX_BK 8   /* tiles per work-group of the loads-first form, along a row */
#define CLB_TR_MAX_BD 16  /* ... down a column */
#define CLB_TR_MAX_BP 64  /* work-groups per compute unit of the persistent form */
#define CLB_TR_MAX_OSK 4096 /* tile rows per band of the band order */

/* A `best` variant. Tile form "TxRvV": BT x BT tiles in local memory,
 * BV-element vectors, BR rows of work-items. Suffix "l" (bk 1): all loads of
 * a tile into registers before any local store; "kK" (bk K): the same, with K
 * tiles per work-group, the next tile's loads issued before this tile's
 * stores; "dK" (bd K): the same with K tiles down a tile column; "pP" (bp P):
 * persistent, P work-groups per compute unit dealt the tiles round-robin.
 * Then optionally an order "oR", "oC", "oD", "oS<k>" (ord 1 + enum
 * clb_tr_order, osk k) and "nt" (NVIDIA streaming stores). Register form
 * "rVgXxY": BV x BV blocks transposed in registers, work-groups of GX x GY.
 * Rectangular form "rectRxCvVwW" (rect set): tiles of bt = R input rows x
 * bc = C input columns, flat work-groups of gx = W. */
struct clb_tr_variant {
    int reg, rect;
    long bt, bc, bv, br, bk, gx, gy;
    long bd, bp;   /* tiles down a column; persistent groups per compute unit */
    int ord;       /* 0: the plain 2-D grid; else 1 + enum clb_tr_order */
    long osk;      /* tile rows per band of the band order */
    int nt;        /* PTX streaming stores (NVIDIA only) */
};

/* Parse a variant string ("64x16v4", "64x8v4d4oC", "r4g8x32",
 * "rect128x32v4w256", ...: docs/workloads/transpose.md); 0, or -1 when it is not one.
 * Checks the syntax and the divisibility the kernels need, not the device. */
int clb_tr_parse_variant(const char *s, struct clb_tr_variant *v);

/* Is w a work-group the rectangular form v allows (W a multiple of C/V and
 * of R/V, R a multiple of W/(C/V), C of W/(R/V))? v's R, C, V are valid. */
int clb_tr_rect_ok(const struct clb_tr_variant *v, long w);

/* The canonical string of a variant (what clb_tr_parse_variant reads back). */
void clb_tr_variant_name(const struct clb_tr_variant *v, char *buf, size_t n);

/* Does the variant launch a 1-D grid of work-groups (tile_at in the kernel)? */
int clb_tr_linear_grid(const struct clb_tr_variant *v);

/* "AxB" with A, B in 1..4096, followed by the character `stop` (0: the end);
 * *rest (if given) points at the stop. 0, or -1 when not. */
int clb_tr_parse_pair(const char *s, long *a, long *b, char stop, const char **rest);

#endif

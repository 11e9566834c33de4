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

#endif

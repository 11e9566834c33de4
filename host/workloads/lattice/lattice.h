/* lattice: the geometry, field layout and U(3) links that the dslash and cg
 * workloads share, the float64 host reference of the HISQ staggered Dslash
 * operator (lattice.c), and the bytes and flops per site of [Wagner15] of the
 * operator and of the cg solver built on it (lattice_counts.c). Tested on its
 * own (tests/unit/test_lattice.c). The rank split is
 * lattice_split.h, the device halo exchange lattice_halo.h, the workloads'
 * shared hooks lattice_wl.h.
 *
 * Lattice Lx x Ly x Lz x Lt, periodic, every extent even and >= 4. Sites are
 * split by parity p = (x+y+z+t) & 1 and numbered within a parity by
 *   i = ((t*Lz + z)*Ly + y)*(Lx/2) + x/2          (0 <= i < vh = V/2).
 *
 * Storage: structure of arrays of complex numbers (re, im adjacent), so that
 * consecutive sites are consecutive complex numbers:
 *   link  (parity p, direction mu, entry e, site i): complex ((p*4 + mu)*ne + e)*vh + i
 *         ne = 9 (full 3x3, row-major e = 3*row + col) or 7 (compressed: rows
 *         0 and 1, then the complex determinant)
 *   vector (right-hand side r, colour c, site i):    complex (r*3 + c)*vh + i
 * Links on site x in direction mu connect x to x+mu; the fat link U is the
 * one-hop link, the long link N the three-hop link. */
#ifndef LATTICE_LATTICE_H
#define LATTICE_LATTICE_H

#include <stddef.h>
#include "clb_workload.h"

#define LAT_NE_FULL 9
#define LAT_NE_COMPRESSED 7

struct lat_geom {
    int L[4];      /* x, y, z, t */
    size_t vh;     /* sites of one parity */
    int po;        /* parity of the site (0,0,0,0): 0, but for a part of a larger lattice
                    * (scaling=, lattice_split.h) whose origin is odd; a site's parity is
                    * (x+y+z+t+po) & 1, that of its coordinates in the whole lattice */
};

/* Is L[0..3] a usable lattice (every extent even and >= 4)? 0 if so, else
 * the index of the first bad extent + 1. */
int lat_bad_extent(const size_t L[4]);
void lat_geom_init(struct lat_geom *g, const int L[4]);   /* po = 0 */
/* Coordinates of site i of parity p (x from the parity with po). */
void lat_coords(const struct lat_geom *g, int p, size_t i, int x[4]);
/* Index within its parity of the site at x (any integers: wrapped). */
size_t lat_index(const struct lat_geom *g, const int x[4]);

/* Complex-number offsets (in complex units) of the layout above. */
static inline size_t lat_link_at(const struct lat_geom *g, int ne, int p, int mu, int e,
                                 size_t i)
{
    return ((size_t)(p * 4 + mu) * (size_t)ne + (size_t)e) * g->vh + i;
}
static inline size_t lat_vec_at(const struct lat_geom *g, int r, int c, size_t i)
{
    return ((size_t)r * 3 + (size_t)c) * g->vh + i;
}

/* A random U(3) matrix (row-major, re/im interleaved, 18 doubles): rows 0 and
 * 1 by Gram-Schmidt from random complex vectors, row 2 = e^{i phi} conj(r0 x r1)
 * with a random phase, so det = e^{i phi}. *state is a clb_rand_next state. */
void lat_random_u3(unsigned long long *state, double m[18]);
/* Row 2 rebuilt from rows 0, 1 (m[0..11]) and det: det * conj(row0 x row1). */
void lat_rebuild_row2(const double m[12], const double det[2], double row2[6]);
/* Determinant of a 3x3 complex matrix (18 doubles). */
void lat_det3(const double m[18], double det[2]);
/* Random U(3) long links of both parities, full (ne = 9) and compressed
 * (ne = 7) in the layout above, element type float (dbl = 0) or double; the
 * seed of each link is its position, so the data do not depend on the thread
 * count (the dslash and cg workloads' long links). */
void lat_fill_long(const struct lat_geom *g, int dbl, void *full, void *comp);
/* One of them: the long link (p, mu) of site i seeded by the half-index k
 * (lat_fill_long's i; scaling=: the global one), into full and comp (either
 * may be NULL). */
void lat_put_long(const struct lat_geom *g, int dbl, void *full, void *comp, int p, int mu,
                  size_t i, unsigned long long k);
/* Complex number k of p (float: dbl = 0, or double) = re + i im. */
void lat_put(int dbl, void *p, size_t k, double re, double im);

/* The fields the reference reads: element type float (dbl = 0) or double,
 * full links (ne = 9) for both fat and long links; v holds rhs vectors on the
 * sites of the other parity than the output's (the odd sites for
 * lat_dslash_ref). v64, when set, replaces v: float64 vectors whatever the
 * links' type (the cg workload's host operator). */
struct lat_fields {
    int dbl;
    const void *fat, *lng, *v;
    int rhs;
    const double *v64;
};

/* w (complex doubles, vector layout, rhs vectors on the even sites) =
 *   sum_mu U(x,mu) v(x+mu) - U^dag(x-mu,mu) v(x-mu) + N(x,mu) v(x+3mu) - N^dag(x-3mu,mu) v(x-3mu)
 * in float64, OpenMP over sites. */
void lat_dslash_ref(const struct lat_geom *g, const struct lat_fields *f, double *w);
/* The same on the sites of parity p (0: even from odd, D_eo; 1: odd from
 * even, D_oe): the links of x (parity p) forward, those of x - mu and
 * x - 3mu (parity 1 - p) backward. With the staggered phases folded into the
 * links, D_oe = -D_eo^dagger. */
void lat_dslash_ref_parity(const struct lat_geom *g, const struct lat_fields *f, int p,
                             double *w);
/* The same on the sites of parity p of a box of the lattice g: the sites of
 * the lattice b placed at offset off in g (b's x + off = g's x; b->po must
 * agree), the fields f on g (a rank's part with its halos: lattice_split.h).
 * Written in b's layout (out_g = 0: w holds rhs vectors on b) or in g's
 * (out_g = 1: only the box's sites of w are written). */
void lat_dslash_ref_box(const struct lat_geom *g, const struct lat_fields *f, int p,
                          const struct lat_geom *b, const int off[4], int out_g, double *w);

/* Largest |stored row 2 - rebuilt row 2| over all long links, where full has
 * ne = 9 and comp ne = 7 entries in the layout above (element type per dbl). */
double lat_rebuild_error(const struct lat_geom *g, int dbl, const void *full,
                         const void *comp);

/* ---- the HISQ talk's bytes and flops per even site (lattice_counts.c) ----
 * The one count of the operator and of the solver built on it: the dslash
 * and cg workloads' rows (count()) and `clbench model dslash` use these. */

#define CLB_DSLASH_FLOPS_SITE 1146.0   /* 16 mat-vec (66) + 15 vector adds (6) */
#define CLB_DSLASH_LINK_BYTES_COMPRESSED 1024.0  /* 8 x 72 fat + 8 x 56 long (fp32) */
#define CLB_DSLASH_LINK_BYTES_FULL 1152.0        /* 16 x 72 (fp32) */
#define CLB_DSLASH_VECTOR_BYTES 24.0             /* complex 3-vector, fp32 */
#define CLB_DSLASH_NEIGHBORS 16

/* Bytes per even site for `rhs` right-hand sides, a vector cache hit rate in
 * [0,1] (hits are free: the talk's upper limit), compressed (56 B) or full
 * (72 B) long links and real size 4 (fp32) or 8 (fp64, all bytes doubled):
 * links + rhs (16 (1 - hit) 24 + 24). fp32, compressed: 1024 + 384 (1-hit) + 24
 * for one rhs, 1024 + 408 rhs without cache. */
double clb_dslash_bytes_site(int rhs, double hit, int compressed, size_t real_size);
double clb_dslash_flops_site(int rhs);
/* flop/byte: 0.80, 1.25, 1.53, 1.73, 1.87 for rhs 1..5 (fp32, compressed). */
double clb_dslash_intensity(int rhs, double hit, int compressed, size_t real_size);

/* ---- the cg workload's counts (lattice_counts.c), from the same figures ----
 * One CG iteration per even site and right-hand side still iterating: 2364
 * flop and 43 vectors of 24 B (fp32; the kernel by kernel table:
 * docs/workloads/cg.md); the links are loaded once per operator application
 * for all right-hand sides, twice per iteration while any rhs iterates. The
 * start costs 12 flop and 4 vectors per rhs; fp64 doubles every byte; the
 * scalars and partial sums (a few bytes per work-group) are not counted. */
#define CLB_CG_LINALG_FLOPS_SITE 72.0   /* the six 12-flop vector operations above */
#define CLB_CG_VECTORS_ITER 43.0        /* vectors moved per rhs and iteration */
#define CLB_CG_INIT_FLOPS_SITE 12.0     /* |b|^2 */
#define CLB_CG_INIT_VECTORS 4.0         /* read b; write x, r, p */

/* flop per even site of a solve in which the rhs right-hand sides iterate
 * rhs_iters iterations together (the sum of their counts). */
double clb_cg_flops_site(double rhs_iters, int rhs);
/* bytes per even site of that solve, with `iters` operator applications
 * (the largest count: the links are loaded while any rhs iterates). */
double clb_cg_bytes_site(double iters, double rhs_iters, int rhs, int compressed,
                         size_t real_size);
/* flop/byte of one iteration with every rhs iterating (the start left out):
 * 0.77, 1.53 and 1.84 at 1, 4 and 8 rhs (fp32, compressed). */
double clb_cg_intensity(int rhs, int compressed, size_t real_size);
/* The same where a fraction `hit` of the two applications' neighbour vectors
 * hits in a cache (the talk's limit for one rhs: 15/16). */
double clb_cg_intensity_hit(int rhs, double hit, int compressed, size_t real_size);

#endif

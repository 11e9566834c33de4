/* dslash, cg: the lattice split over the ranks of a job (scaling=strong|weak,
 * docs/SCALING.md "Distributed Dslash and CG": the grid 1 x Py x Pz x Pt,
 * uneven splits, rank numbering, parity). Pure host code, unit-tested
 * (tests/unit/test_lattice_split.c): the grid, each rank's part, the boxes the
 * kernels run over, fields generated from the global site index, and the
 * float64 host halo exchange of the references. The device side of the
 * exchange is lattice_halo.h.
 *
 * Halos: in each direction mu with halos (dec[mu]: y, z when split; t when
 * split or when nothing is) three slices on each side (the long links reach
 * x +- 3 mu). A slab of three slices is numbered as a lattice of its own:
 * extents (Lx, Ly, Lz, 3) along t, (Lx, Ly, 3, Lt) along z, (Lx, 3, Lz, Lt)
 * along y, its sites of one parity by the half-index of lattice.h. */
#ifndef LATTICE_LATTICE_SPLIT_H
#define LATTICE_LATTICE_SPLIT_H

#include "clb_scaling.h"
#include "clb_comm.h"
#include "lattice.h"

#define LAT_HALO CLB_SC_HALO

enum { LAT_EVERY = 0, LAT_STRONG = 1, LAT_WEAK = 2 };

/* "" (every-rank mode, each rank its own whole lattice), "strong" (-s is the
 * whole lattice) or "weak" (-s is each rank's part); -1 for anything else. */
int lat_scaling_of(const char *text);
const char *lat_scaling_name(int scaling);

/* The part c of an extent G split P ways: first site *lo, *len sites. */
void lat_split(int G, int P, int c, int *lo, int *len);

/* The grid for n ranks: grid text "1xAxBxC" (A x B x C = n) when given,
 * else the grid with the fewest halo sites per rank among those whose parts
 * are >= 3 slices along each direction with halos (clb_sc_grid_auto; e.g. a
 * strong 64x64x64x32 over 2 ranks -> 1x1x2x1). size is -s (the whole
 * lattice for strong, each rank's part for weak). CLB_EUSAGE with one line
 * naming the local extents when no grid works (wl: the workload's name in
 * front of the message, or NULL). */
int lat_grid(const char *wl, const size_t size[4], int scaling, int n, const char *grid,
             int P[4]);

/* The part a row counts (count()): scaling= of the query's params; in
 * every-rank mode L = -s; else part= of the params where given (set-up puts
 * the rank's part there), else the part of this rank (clb_comm()) of grid=
 * or of the grid chosen for the job. Le: L grown by the halos (the extended
 * geometry: the group's memory). CLB_EUSAGE with a message when bad (the
 * core puts the workload and size in front). */
int lat_query_part(const struct clb_query *q, int *scaling, size_t L[4], size_t Le[4]);

/* One rank's part. */
struct lat_decomp {
    int scaling;
    int G[4];       /* the whole lattice */
    int P[4];       /* the grid */
    int c[4];       /* this rank's place in it */
    int L[4], O[4]; /* its part: extents and the global coordinates of its (0,0,0,0) */
    int dec[4];     /* directions with halos */
    int nb[4][2];   /* neighbour ranks along mu: [0] backward, [1] forward (itself when P = 1) */
    int rank, size;
    int po;         /* parity of O */
};
void lat_decomp_init(struct lat_decomp *d, const size_t size[4], int scaling, const int P[4],
                     int rank);
/* The local geometry (po set), and the extended one: the part grown by
 * LAT_HALO slices on each side of each direction with halos (its origin
 * O - 3 there), on which the host holds the fields with their halos; off: the
 * local lattice's place in it (3 or 0 per direction). */
void lat_decomp_geoms(const struct lat_decomp *d, struct lat_geom *local,
                      struct lat_geom *ext, int off[4]);
/* Global parity of the site at local coordinates x. */
int lat_global_parity(const struct lat_decomp *d, const int x[4]);

/* A box of sites: all of x, y in [b[0], b[0]+b[1]), z in [b[2], b[2]+b[3]),
 * t in [b[4], b[4]+b[5]). */
#define LAT_MAXBOX 6
/* Sites a kernel launch runs over: up to LAT_MAXBOX boxes, their site counts
 * of one parity summed in ends[] (ends[k]: the sites of boxes 0..k; the
 * unused ones repeat the total). */
struct lat_boxes {
    int n;
    int b[LAT_MAXBOX][6];
    unsigned long ends[LAT_MAXBOX];
    size_t sites;
};
/* The interior (sites whose neighbours up to 3 hops away are all local: one
 * box, empty when a local extent along a direction with halos is <= 6) and
 * the boundary (the rest: the first and last 3 slices along t, then along z
 * within the interior t range, then along y within the interior z and t
 * ranges); together every site once. */
void lat_boxes_init(const struct lat_decomp *d, struct lat_boxes *in,
                    struct lat_boxes *bd);
/* Every site of the part in one box. */
void lat_boxes_all(const struct lat_decomp *d, struct lat_boxes *all);

/* Sites of one parity in a slab of three slices along mu (0: no halo along mu). */
size_t lat_slab_sites(const struct lat_decomp *d, int mu);
/* Complex numbers of the vector halos of rhs vectors: slabs t backward, t
 * forward, z backward, z forward, y backward, y forward (the directions
 * with halos), each (r*3 + c) * slab + j. offset(mu, side) where the slab
 * (side 0: backward, coordinates -3..-1; 1: forward, L..L+2) starts. */
size_t lat_halo_len(const struct lat_decomp *d, int rhs);
size_t lat_halo_offset(const struct lat_decomp *d, int rhs, int mu, int side);

/* Copy ncomp components of a field on g (component k at k * g->vh) to or from
 * a packed box (b as in struct lat_boxes; all x; component k at k * box
 * sites, sites numbered as a lattice of the box's extents): unpack = 0
 * packs, 1 unpacks. cplx: bytes of one complex number. */
void lat_box_copy(const struct lat_geom *g, const int b[6], size_t ncomp, size_t cplx,
                  void *field, void *packed, int unpack);
/* The box of LAT_HALO slices along mu (1..3) from slice `first`, over
 * [lo[nu], lo[nu] + len[nu]) of the other directions y, z, t. */
void lat_slab_box(int mu, int first, const int lo[4], const int len[4], int b[6]);

/* Fields from the global site index, the same on every rank and for every
 * split: on a geometry g (g->po set) at global origin O of the lattice G
 * (coordinates wrap), fat links (8 x 9 complex per site index), full and
 * compressed long links (the U(3) links of lat_fill_long, seeded by the
 * global half-index), and rhs vectors on the sites of parity vpar from seed
 * vseed; any pointer may be NULL. Element type float or double (dbl). */
void lat_fill_global(const struct lat_geom *g, const int G[4], const int O[4], int dbl,
                     void *fat, void *full, void *comp, int vpar, int rhs,
                     unsigned long long vseed, void *v);
#define LAT_SEED_FAT 11ULL
#define LAT_SEED_V 12ULL
#define LAT_SEED_B 13ULL

/* The float64 halo exchange of the host references: ncomp components of a
 * field of one parity on the extended geometry ext (lat_decomp_geoms) get
 * their halos from the neighbours (MPI through clb_comm_isend/irecv; from
 * itself by a copy). Every rank must call it; on failure CLB_ESYS with the
 * MPI message. */
int lat_host_exchange(const struct lat_decomp *d, const struct lat_geom *ext,
                      size_t ncomp, double *field);

/* Sums of n values over the ranks, the same bits on every rank (each rank's
 * values in a slot of its own, added in rank order: a plain allreduce may
 * round differently per rank), and the count of ranks that passed err != 0
 * in *nerr. CLB_OK or CLB_ESYS. */
int lat_sum_ranks(const double *mine, int n, int err, double *out, int *nerr);

#endif

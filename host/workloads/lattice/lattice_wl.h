/* dslash, cg: the pieces of the two workloads' hooks that they share
 * (lattice_wl.c). cg runs the dslash operator on the same lattices, fields
 * and rank split, so its size checks, counts, set-up of the lattice and
 * halo figures are the dslash workload's; wl names the workload in
 * messages ("dslash" or "cg"). */
#ifndef LATTICE_LATTICE_WL_H
#define LATTICE_LATTICE_WL_H

#include "clb_workload.h"
#include "lattice.h"
#include "lattice_halo.h"

/* scaling=strong|weak: the rank's part of the lattice. The host links live
 * on ge, the part with its halos (the part sits at off in it). */
struct lat_part {
    int scaling;              /* 0: every rank its own whole lattice */
    struct lat_decomp dc;
    struct lat_geom ge;
    int off[4];
    struct lat_halo halo;
    int halo_open;
    double bus[2];            /* GB/s device -> host, host -> device; NAN: measured per case */
};

/* ---- sizes and counts ---------------------------------------------------- */

/* check_size: every extent even (the even/odd split) and >= 4 (three-hop links). */
int lat_check_size(const struct clb_size *s);
/* ladder: the talk's lattices, smallest first. */
int lat_ladder(int i, char *out, size_t n);

/* Complex numbers per even site of each field: fat links, full and
 * compressed long links, and one rhs of a vector. */
enum { LAT_FAT_C = 8 * 9, LAT_FULL_C = 8 * LAT_NE_FULL,
       LAT_COMP_C = 8 * LAT_NE_COMPRESSED, LAT_VEC_C = 3 };

/* What count() works from: the element size, the even sites of the rank's
 * part (a case) or of the part with its halos (the group), the bytes of one
 * complex number per site and of the fat links; ovf collects overflows. */
struct lat_qsize {
    size_t es, vh, site, fat;
    int ovf;
};
/* Element size (float or double only) and sizes of the query; CLB_EUSAGE
 * with a message naming wl otherwise. */
int lat_count_start(const struct clb_query *q, const char *wl, struct lat_qsize *z);
/* The group's counts: all links and nvec vector fields of the largest rhs
 * of --param rhs (max when it gives none). */
int lat_count_group(const struct clb_query *q, struct lat_qsize *z, long max, size_t nvec,
                    struct clb_counts *out);
/* A case's rhs= (one count in 1..max) and links= (full or compressed). */
int lat_query_rhs(const struct clb_query *q, long max, long *rhs);
int lat_query_links(const struct clb_query *q, int *comp);
/* A case's counts from its bytes and flops per even site (whole numbers);
 * its footprint: fat links, its long links and nvec vector fields of rhs. */
int lat_count_case(const struct clb_query *q, struct lat_qsize *z, int comp, size_t nvec,
                   long rhs, double bytes_site, double flops_site, struct clb_counts *out);

/* ---- parameters and set-up ------------------------------------------------- */

/* rhs= into rhs (at most 16 counts in 1..max), def (ndef counts) when absent. */
int lat_param_rhs(struct clb_env *env, long max, const long *def, int ndef, long rhs[16],
                  int *nrhs);
/* scaling= is absent, strong or weak. */
int lat_param_scaling(struct clb_env *env, const char *wl);
/* The group's lattice: geom, or under scaling= the rank's part (pt, split by
 * grid=; ge is geom without it); maxrhs the largest of rhs[0..nrhs). The
 * kernels index with 32-bit integers: CLB_EUSAGE when a field is larger. */
int lat_setup_lattice(struct clb_env *env, struct clb_group *g, const char *wl, const long *rhs,
                      int nrhs, struct lat_geom *geom, int *maxrhs, struct lat_part *pt);
/* After set-up's own work (*rc): 1 when the cases may be added. Under
 * scaling= every rank set up or none goes on to the cases (which may be
 * collective): 0 with *rc this rank's error, or CLB_OK (no cases: another
 * rank failed, and the job's agreement names it). */
int lat_agree_setup(struct clb_env *env, int *rc);
/* scaling=: the outcome of adding one case, agreed by every rank before the
 * next (whose set-up may be collective): a rank that failed returns its
 * error, the others CLB_SKIP, so every rank stops adding cases and the
 * job's agreement names the rank that failed. */
int lat_agree_case(const char *wl, int scaling, int rc);

/* ---- cases ----------------------------------------------------------------- */

/* The params a case adds under scaling= (",scaling=...,grid=...,part=..."), "" without. */
void lat_part_params(const struct lat_part *pt, char *out, size_t n);
/* The keys lat_part_params writes that --param does not take (part=): the
 * row_keys of dslash and cg. */
extern const struct clb_param_def lat_row_keys[];
/* The talk's model of a case, bandwidth x intensity (no flop cap), where the
 * profile knows the bandwidth; the intensity. */
double lat_case_model(struct clb_env *env, struct clb_case *c);
/* scaling=: the halo model of one exchange of rhs vectors: its bytes and
 * seconds at the bus's GB/s (bus_gbps, or measured); the part noted. */
struct lat_hmodel {
    double gbps[2];
    int measured;
    size_t bytes;
    double seconds;
};
int lat_halo_model(struct clb_env *env, struct lat_part *pt, struct clb_case *c, int rhs,
                   struct lat_hmodel *m);
/* verify: the compressed long links rebuild the stored ones (noted); 1 when not. */
int lat_check_rebuild(struct clb_case *c, int dbl, double err);

/* ---- scaling=: the halo figures of the case being timed --------------------- */

/* One series per figure, one entry per timed application (dslash) or solve
 * (cg): halo seconds, waiting seconds, the waiting's share of the time and
 * (cg) seconds of the reductions. */
enum { LAT_LOG_HAL, LAT_LOG_GAP, LAT_LOG_FRAC, LAT_LOG_RED, LAT_LOG_N };
struct lat_log {
    double *v[LAT_LOG_N];
    int n, cap;
};
/* Appends x[0..nv) to the first nv series (a workload always the same nv);
 * CLB_ESYS with a message when out of host memory. */
int lat_log_add(struct lat_log *l, const double *x, int nv, const char *wl);
/* The median of series k (NAN when empty). */
double lat_log_median(const struct lat_log *l, int k);
void lat_log_free(struct lat_log *l);

#endif

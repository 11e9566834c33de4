/* dslash, cg: the pieces of the two workloads' hooks that they share
 * (dslash_wl.c). cg runs the dslash operator on the same lattices, fields
 * and rank split, so its size checks, counts, set-up of the lattice and
 * halo figures are the dslash workload's; wl names the workload in
 * messages ("dslash" or "cg"). */
#ifndef DSLASH_DSLASH_WL_H
#define DSLASH_DSLASH_WL_H

#include "clb_workload.h"
#include "dslash.h"
#include "dslash_halo.h"

/* scaling=strong|weak: the rank's part of the lattice. The host links live
 * on ge, the part with its halos (the part sits at off in it). */
struct dslash_part {
    int scaling;              /* 0: every rank its own whole lattice */
    struct dslash_decomp dc;
    struct dslash_geom ge;
    int off[4];
    struct dslash_halo halo;
    int halo_open;
    double bus[2];            /* GB/s device -> host, host -> device; NAN: measured per case */
};

/* ---- sizes and counts ---------------------------------------------------- */

/* check_size: every extent even (the even/odd split) and >= 4 (three-hop links). */
int dslash_check_size(const struct clb_size *s);
/* ladder: the talk's lattices, smallest first. */
int dslash_ladder(int i, char *out, size_t n);

/* Complex numbers per even site of each field: fat links, full and
 * compressed long links, and one rhs of a vector. */
enum { DSLASH_FAT_C = 8 * 9, DSLASH_FULL_C = 8 * DSLASH_NE_FULL,
       DSLASH_COMP_C = 8 * DSLASH_NE_COMPRESSED, DSLASH_VEC_C = 3 };

/* What count() works from: the element size, the even sites of the rank's
 * part (a case) or of the part with its halos (the group), the bytes of one
 * complex number per site and of the fat links; ovf collects overflows. */
struct dslash_qsize {
    size_t es, vh, site, fat;
    int ovf;
};
/* Element size (float or double only) and sizes of the query; CLB_EUSAGE
 * with a message naming wl otherwise. */
int dslash_count_start(const struct clb_query *q, const char *wl, struct dslash_qsize *z);
/* The group's counts: all links and nvec vector fields of the largest rhs
 * of --param rhs (max when it gives none). */
int dslash_count_group(const struct clb_query *q, struct dslash_qsize *z, long max, size_t nvec,
                       struct clb_counts *out);
/* A case's rhs= (one count in 1..max) and links= (full or compressed). */
int dslash_query_rhs(const struct clb_query *q, long max, long *rhs);
int dslash_query_links(const struct clb_query *q, int *comp);
/* A case's counts from its bytes and flops per even site (whole numbers);
 * its footprint: fat links, its long links and nvec vector fields of rhs. */
int dslash_count_case(const struct clb_query *q, struct dslash_qsize *z, int comp, size_t nvec,
                      long rhs, double bytes_site, double flops_site, struct clb_counts *out);

/* ---- parameters and set-up ------------------------------------------------- */

/* rhs= into rhs (at most 16 counts in 1..max), def (ndef counts) when absent. */
int dslash_param_rhs(struct clb_env *env, long max, const long *def, int ndef, long rhs[16],
                     int *nrhs);
/* scaling= is absent, strong or weak. */
int dslash_param_scaling(struct clb_env *env, const char *wl);
/* The group's lattice: geom, or under scaling= the rank's part (pt, split by
 * grid=; ge is geom without it); maxrhs the largest of rhs[0..nrhs). The
 * kernels index with 32-bit integers: CLB_EUSAGE when a field is larger. */
int dslash_setup_lattice(struct clb_env *env, struct clb_group *g, const char *wl, const long *rhs,
                         int nrhs, struct dslash_geom *geom, int *maxrhs, struct dslash_part *pt);
/* After set-up's own work (*rc): 1 when the cases may be added. Under
 * scaling= every rank set up or none goes on to the cases (which may be
 * collective): 0 with *rc this rank's error, or CLB_OK (no cases: another
 * rank failed, and the job's agreement names it). */
int dslash_agree_setup(struct clb_env *env, int *rc);
/* scaling=: the outcome of adding one case, agreed by every rank before the
 * next (whose set-up may be collective): a rank that failed returns its
 * error, the others CLB_SKIP, so every rank stops adding cases and the
 * job's agreement names the rank that failed. */
int dslash_agree_case(const char *wl, int scaling, int rc);

/* ---- cases ----------------------------------------------------------------- */

/* The options of the dslash program for rhs right-hand sides per work-item
 * (the cache kernel: 1) and a link layout (dslash's and cg's builds). */
void dslash_program_options(const char *dtype, int rhs, int comp, char *opts, size_t n);
/* Name for building ahead (clb_plan_program) the programs of every link
 * layout in `links` (bit 0 full, bit 1 compressed): the reg kernel's per rhs
 * when reg is set, the cache kernel's when cache is. */
void dslash_plan_programs(struct clb_env *env, const char *dtype, unsigned links,
                          const long *rhs, int nrhs, int reg, int cache);

/* The params a case adds under scaling= (",scaling=...,grid=...,part=..."), "" without. */
void dslash_part_params(const struct dslash_part *pt, char *out, size_t n);
/* The talk's model of a case, bandwidth x intensity (no flop cap), where the
 * profile knows the bandwidth; the intensity. */
double dslash_case_model(struct clb_env *env, struct clb_case *c);
/* scaling=: the halo model of one exchange of rhs vectors: its bytes and
 * seconds at the bus's GB/s (bus_gbps, or measured); the part noted. */
struct dslash_hmodel {
    double gbps[2];
    int measured;
    size_t bytes;
    double seconds;
};
int dslash_halo_model(struct clb_env *env, struct dslash_part *pt, struct clb_case *c, int rhs,
                      struct dslash_hmodel *m);
/* verify: the compressed long links rebuild the stored ones (noted); 1 when not. */
int dslash_check_rebuild(struct clb_case *c, int dbl, double err);

/* ---- scaling=: the halo figures of the case being timed --------------------- */

/* One series per figure, one entry per timed application (dslash) or solve
 * (cg): halo seconds, waiting seconds, the waiting's share of the time and
 * (cg) seconds of the reductions. */
enum { DSLASH_LOG_HAL, DSLASH_LOG_GAP, DSLASH_LOG_FRAC, DSLASH_LOG_RED, DSLASH_LOG_N };
struct dslash_log {
    double *v[DSLASH_LOG_N];
    int n, cap;
};
/* Appends x[0..nv) to the first nv series (a workload always the same nv);
 * CLB_ESYS with a message when out of host memory. */
int dslash_log_add(struct dslash_log *l, const double *x, int nv, const char *wl);
/* The median of series k (NAN when empty). */
double dslash_log_median(const struct dslash_log *l, int k);
void dslash_log_free(struct dslash_log *l);

#endif

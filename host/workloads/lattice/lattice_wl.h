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
    int policy;               /* exchange= (LAT_XC_*) */
    size_t chunk;             /* chunk= in bytes */
    double mid_s;             /* the current case's message step on its own (NAN: none) */
    double node[2];           /* the bus both ways at once, every device of the job together
                               * (the node path's rates; NAN: one device a process) */
};

/* The fat and long links of a group, the same fields for dslash and cg:
 * host copies on pt->ge (the lattice, or the rank's part with its halos),
 * the device's of the lattice or part. */
struct lat_links {
    void *fat, *full, *comp;      /* fat, full and compressed long links */
    cl_mem dfat, dfull, dcomp;
    double rebuild_err;           /* max |stored row 2 - rebuilt row 2| of the long links */
};
/* The links generated (seeded by the site index, scaling=: the global one),
 * uploaded and their rebuild checked; under scaling= also the halo buffers
 * for maxrhs vectors opened and the link halos uploaded. */
int lat_links_open(struct clb_env *env, struct lat_part *pt, int dbl, int maxrhs,
                   struct lat_links *lk);
/* Closes the halos (collective) and releases the links. */
void lat_links_close(struct clb_env *env, struct lat_part *pt, struct lat_links *lk);

/* The parameters of the split every distributed lattice workload declares
 * (in its params table; lat_param_part reads them). */
/* exchange='s default chunk in KiB (a row names another) */
#define LAT_DEFAULT_CHUNK_KIB 2048
#define LAT_STR2(x) #x
#define LAT_STR(x) LAT_STR2(x)
#define LAT_PART_PARAMS                                                                          \
    {"scaling", "", "strong (-s is the whole lattice, split over the job's ranks) or weak (-s " \
                    "is each rank's part); halos exchanged through pinned host buffers and MPI. " \
                    "Absent: every rank its own whole lattice (docs/SCALING.md)", CLB_ROLE_CASE}, \
    {"grid", "", "scaling=: the split 1xAxBxC over y, z and t, A x B x C = ranks (default: the " \
                 "grid with the fewest halo bytes per rank; one rank exchanges t with itself)",   \
     CLB_ROLE_CASE},                                                                              \
    {"bus_gbps", "", "scaling=: the host<->device GB/s of the halo model (default: one transfer " \
                     "of the halo size each way, measured in set-up)", CLB_ROLE_TUNING},          \
    {"exchange", "pipe", "scaling=: the halo chain: pipe (receives posted first, chunks read, " \
                         "sent and written as they complete), bulk (all read, then the "         \
                         "messages, then one write) or shm (MPI-3 shared-memory window: a "      \
                         "neighbour on the node writes its chunks from our segment)",            \
     CLB_ROLE_CASE},                                                                              \
    {"chunk", LAT_STR(LAT_DEFAULT_CHUNK_KIB), "scaling=: KiB per chunk of the pipelined halo chain (pipe, shm)",         \
     CLB_ROLE_TUNING}

/* ---- sizes and counts ---------------------------------------------------- */

/* check_size: every extent even (the even/odd split) and >= 4 (three-hop links). */
int lat_check_size(const struct clb_size *s);
/* ladder: the lattices of [Wagner15], smallest first. */
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
/* The group's lattice: geom, or under scaling= the rank's part (pt, split by
 * grid=; ge is geom without it); maxrhs the largest of rhs[0..nrhs). The
 * kernels index with 32-bit integers: CLB_EUSAGE when a field is larger. */
int lat_setup_lattice(struct clb_env *env, struct clb_group *g, const char *wl, const long *rhs,
                      int nrhs, struct lat_geom *geom, int *maxrhs, struct lat_part *pt);
/* scaling=: the outcome of adding one case, agreed by every rank before the
 * next (whose set-up may be collective): a rank that failed returns its
 * error, the others CLB_SKIP, so every rank stops adding cases and the
 * job's agreement names the rank that failed. */
int lat_agree_case(const char *wl, int scaling, int rc);

/* ---- cases ----------------------------------------------------------------- */

/* The base options of the dslash program with per right-hand sides in
 * each work-item's accumulators (-DRHS) and a link layout (dslash's and
 * cg's builds, and their plans). */
void lat_program_options(const char *dtype, int per, int comp, char *opts, size_t n);
/* The kernel shape regcache (the talk's Dslashregcache) of dslash and cg: k
 * rhs per work-item, rhs/k work-items per site. Its k values at rhs: those
 * of ks[0..nk) that divide rhs and lie in (1, rhs) (k = 1 is cache, k = rhs
 * reg), or with nk = 0 every such divisor; into out (ascending), their
 * number. */
#define LAT_MAX_RHS 8
int lat_regcache_ks(const long *ks, int nk, int rhs, int out[LAT_MAX_RHS]);

/* The params a case adds under scaling= (",scaling=...,grid=...,part=..."), "" without. */
void lat_part_params(const struct lat_part *pt, char *out, size_t n);
/* The keys lat_part_params writes that --param does not take (part=): the
 * row_keys of dslash and cg. */
extern const struct clb_param_def lat_row_keys[];
/* The talk's model of a case, bandwidth x intensity (no flop cap): the
 * profile's measured STREAM triad ([model] stream_triad_gbs) where it has
 * one, else its peak bandwidth, noted in detail; none where the profile
 * knows neither. Returns the intensity. */
double lat_case_model(struct clb_env *env, struct clb_case *c);
/* ---- scaling=: the halo chain and its model (lattice_part.c) ---------------- */

/* scaling=, bus_gbps=, exchange=, chunk= into pt; CLB_EUSAGE with a message. */
int lat_param_part(struct clb_env *env, const char *wl, struct lat_part *pt);
/* After set-up's own work (*rc): 1 when the cases may be added. Under
 * scaling= every rank set up or none goes on to the cases (which may be
 * collective): 0 with *rc this rank's error, or CLB_OK (no cases: another
 * rank failed, and the job's agreement names it). exchange=shm: then every
 * rank opens its shared segments (collective) and agrees again. */
int lat_agree_setup(struct lat_part *pt, int *rc);
/* Every rank of the job, for each case, whatever its set-up found (rc): an
 * agreement, then (all ok) the message step of one exchange of rhs vectors
 * measured on its own (lat_halo_probe) into pt->mid_s and, where a process
 * drives several devices, the bus both ways at once on every device together
 * (lat_halo_bus_both) into pt->node. rc, else CLB_SKIP when another rank
 * failed, else the probes' outcome. */
int lat_probe_case(struct lat_part *pt, int rhs, int rc);
/* The model of one exchange of rhs vectors (this rank): its bytes, the
 * bus's GB/s (bus_gbps, or measured), the message step (pt->mid_s) as a
 * rate or a latency, and the chain's seconds after the pack kernel
 * (clb_sc_chain_seconds: pipelined in chunks, or not for bulk); noted and
 * recorded as metrics with the part; the chain's seconds in *chain. */
int lat_halo_model(struct lat_part *pt, struct clb_case *c, int rhs, double *chain);
/* The figure's model lines of a dslash (cg = 0) or cg (cg = 1) row, from its
 * rhs=, links= and type (struct clb_figure's `models`): the talk's flop/byte
 * without any cache, and with every neighbour vector but one of sixteen
 * hitting in a cache (its upper limit). 0 lines for a row that says
 * neither. */
int lat_figure_models(const struct clb_row *r, int cg, struct clb_figure_model *out, int max);
/* verify: the compressed long links rebuild the stored ones (noted); 1 when not. */
int lat_check_rebuild(struct clb_case *c, int dbl, double err);

/* ---- scaling=: the halo figures of the case being timed --------------------- */

/* One series per figure, one entry per timed application (dslash) or solve
 * (cg, each the sum over its exchanges): halo chain seconds, the boundary
 * kernels' wait, the wait's share of the time, seconds of the reductions
 * (cg), of the pack kernels, of the interior and boundary kernels, the
 * repetition's time, and its exchanges. */
enum { LAT_LOG_HAL, LAT_LOG_GAP, LAT_LOG_FRAC, LAT_LOG_RED, LAT_LOG_PACK, LAT_LOG_IN,
       LAT_LOG_BD, LAT_LOG_T, LAT_LOG_NX, LAT_LOG_N };
struct lat_log {
    double *v[LAT_LOG_N];
    int n, cap;
};
/* Appends one repetition: the sums of its exchanges' times x (lat_overlap_times),
 * red (cg: its reductions), t (its time) and nx (its exchanges); CLB_ESYS
 * with a message when out of host memory. */
int lat_log_add(struct lat_log *l, const struct lat_xtimes *x, double red, double t, double nx,
                const char *wl);
void lat_log_free(struct lat_log *l);
/* verify, every rank together whatever its check found (rc): the medians of
 * the log and the job's slowest as notes and metrics (halo_ms, _exposed_,
 * pack_ms, interior_ms, boundary_ms, exchanges, reduce_ms_max), beside the
 * model: halo_model_ms = pack + exchanges x chain, halo_exposed_model_ms =
 * exchanges x max(0, chain - interior per exchange), and the share of the
 * time not spent on halos, eff = (t - pack - exposed) / t, and eff_model (the
 * same rest over rest + pack + exposed by the model). chain: the model's
 * seconds per exchange (lat_halo_model). rc, else the allreduce's error. */
int lat_verify_halo(struct clb_case *c, const struct lat_log *l, double chain, int rc);

#endif

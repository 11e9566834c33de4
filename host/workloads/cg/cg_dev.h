/* cg: the device side (cg_dev.c): the fields on the device, the solver's
 * kernels (built from cl/dslash.cl beside the dslash kernel), their launch
 * shapes and one solve; used by the workload (cg.c). */
#ifndef CG_CG_DEV_H
#define CG_CG_DEV_H

#include "cg.h"
#include "lattice_wl.h"

#define CG_MAX_RHS 8
enum { CG_REG, CG_CACHE, CG_REGCACHE };   /* the operator's kernel shapes (the dslash workload's) */

/* The kernels of one build of cl/dslash.cl (links kind, RHS). */
enum { KD_PAR, KD_APPLY, KD_INIT, KD_UPD_R, KD_UPD_XP, KD_RED_ALPHA, KD_RED_BETA, KD_RED_INIT,
       KD_N };

struct cg_state {
    int dbl;
    size_t es;                    /* bytes of one real */
    struct lat_geom geom;
    int maxrhs;
    double mass, tol;
    long maxiter;
    int nfixed;                   /* iters= given: 1 (every rhs) or one count per rhs; 0: none */
    long fixed[CG_MAX_RHS];       /* ... its counts (solve to tol when none) */
    size_t local;                 /* work-group size along the sites (a power of two) */
    struct lat_links lk;
    void *b, *x;                  /* right-hand sides; the read-back solution */
    double bb[CG_MAX_RHS];        /* |b_r|^2 in float64 */
    double ref_res[CG_MAX_RHS];   /* fixed mode: the host float64 CG's |r|/|b| after as many */
    int have_ref;
    cl_mem db, dx, dr, dp, dap, dt, dscal, dpartial;
    size_t partial_elems;
    cl_kernel k[2][CG_MAX_RHS + 1][KD_N];   /* [compressed][RHS of the build] */
    /* scaling=strong|weak: geom is this rank's part; the host links live
     * on ge, the part with its halos; b and x on the part */
    struct lat_part part;      /* bus: GB/s of the halo model (bus_gbps) */
    struct lat_xtimes solve_x;    /* the last solve: its exchanges' times, summed */
    double solve_reduce;          /* ... and its reductions (read back, allreduce, write) */
    int solve_exchanges;
    struct lat_log hlog;       /* the current case's solves (lat_log_add) */
};

/* One case: a (kernel shape, links, rhs) with its iteration counts. */
struct cg_case {
    int rhs, comp, kind;
    int per;                      /* rhs per work-item (the build's RHS): reg rhs, cache 1,
                                   * regcache k; rhs / per work-items per site */
    int iters[CG_MAX_RHS];        /* iterations of each rhs in a timed solve */
    int niter;                    /* the largest: operator applications per solve */
    int unconverged;              /* rhs that reached maxiter in the set-up solve */
    double rec_res[CG_MAX_RHS];   /* the device's recursive |r|/|b| after the set-up solve */
    size_t gop[2], lop[2];        /* dslash_par and cg_apply */
    size_t gvec[2], lvec[2];      /* cg_init, cg_update_r, cg_update_xp */
    size_t gred[2], lred[2];      /* cg_reduce */
    size_t gin, gbd;              /* scaling=: the operator's interior and boundary launches */
    double halo_model;            /* scaling=: seconds per exchange by the model */
};

/* Seconds per kind of kernel in one profiled solve. */
enum { CGP_DOE, CGP_APPLY, CGP_REDUCE, CGP_UPD_R, CGP_UPD_XP, CGP_INIT, CGP_N };
struct cg_profile {
    double t[CGP_N];
    double halo, gap;   /* scaling=: seconds of halo exchanges (host clock), of waiting for them */
    double wall;        /* start of the first launch to the end of the last */
    double doe_flops;   /* the Dslash flop of the D_oe launches: 1146 x V/2 x iterating rhs */
};

/* Host and device fields for maxrhs right-hand sides: random links (full and
 * compressed long links) and right-hand sides, uploaded. scaling=: the
 * rank's part, its link halos and the halo buffers; s->bb is the part's
 * |b|^2 until cg_dev_sum_bb (every rank together) adds the ranks'. */
int cg_dev_alloc(struct clb_env *env, struct cg_state *s);
int cg_dev_sum_bb(struct cg_state *s);
/* Build the case's kernels (once per build) and set its launch shapes. */
int cg_dev_shape(struct clb_env *env, struct cg_state *s, const char *dtype, struct cg_case *cc);
/* One solve from x = 0 on the device. converge: iterate each rhs until its
 * recursive residual reaches s->tol or s->maxiter iterations (reads the
 * per-rhs scalars back after every iteration), filling cc->iters, niter and
 * rec_res. Else the schedule of cc->iters (rhs r iterates iters[r] times),
 * with nothing read back. prof: time every launch. first, last: the events
 * of the first and the last launch (NULL: not wanted).
 * scaling=: every rank together; each operator application exchanges the
 * halos of its input while the interior runs; the inner products are read
 * back (a few bytes) and summed over the ranks, the scalars set by the host;
 * the iteration counts are the same on every rank. first and last unused:
 * the caller times the solve by the host clock; s->solve_* are set. */
int cg_dev_solve(struct clb_env *env, struct cg_state *s, struct cg_case *cc, int converge,
                 struct cg_profile *prof, cl_event *first, cl_event *last);
void cg_dev_free(struct clb_env *env, struct cg_state *s);

#endif

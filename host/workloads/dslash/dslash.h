/* dslash: `clbench model dslash` (dslash_model.c), the workload's .models;
 * the kernel variants' rules (dslash_variant.c). The workload (dslash.c)
 * runs the operator of lattice/ (lattice.h) on its geometry, fields,
 * counts, rank split and halo exchange. */
#ifndef DSLASH_DSLASH_H
#define DSLASH_DSLASH_H

#include "clb_workload.h"
#include "clb_model.h"
#include "lattice.h"
#include "lattice_wl.h"

extern const struct clb_model_def dslash_models[];

/* ---- the kernel variants (dslash_variant.c) --------------------------------
 * Every variant is cl/dslash.cl's dslash kernel built with RHS accumulators
 * (rhs per pass) and PASSES passes, launched with rhs / (RHS x PASSES)
 * work-items per site (dimension 1):
 *   reg       every rhs in one work-item: RHS = rhs (Dslashreg of [Wagner15]),
 *             or passes of fewer (pass=)
 *   cache     one work-item per (site, rhs): RHS = 1 (the talk's Dslashcache)
 *   regcache  k rhs per work-item, rhs/k work-items per site: RHS = k (the
 *             talk's Dslashregcache)
 *   best      one of these: best= names it, else the fastest of a probe */
enum { DSL_REG, DSL_CACHE, DSL_REGCACHE, DSL_BEST, DSL_NK };
extern const char *const dsl_kernel_names[DSL_NK];
#define DSL_MAX_RHS 8

/* The largest divisor of rhs that is at most cap (cap >= 1). */
int dsl_divisor_upto(int rhs, int cap);
/* reg's cases at rhs from the pass= values (0: automatic, one pass unless
 * the build spills; N: passes of dsl_divisor_upto(rhs, N) rhs): into out
 * the automatic ones as 0 and the others as their rhs per pass, without
 * repeats, in the order given; their number. */
int dsl_reg_passes(const long *passes, int np, int rhs, int out[DSL_MAX_RHS + 1]);
/* What best= says for rhs: entries "VARIANT" (every rhs) or "R:VARIANT",
 * comma-separated, VARIANT reg, cache or regcacheK; the entry for rhs, else
 * the one without R. *kind DSL_REG, DSL_CACHE or DSL_REGCACHE (*k its k),
 * or -1 when none applies (probe). CLB_EUSAGE with a message naming the
 * bad entry. */
int dsl_best_for(const char *spec, int rhs, int *kind, int *k);

#endif

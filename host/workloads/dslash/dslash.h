/* dslash: `clbench model dslash` (dslash_model.c), the workload's .models.
 * The workload (dslash.c) runs the operator of lattice/ (lattice.h) on its
 * geometry, fields, counts, rank split and halo exchange. */
#ifndef DSLASH_DSLASH_H
#define DSLASH_DSLASH_H

#include "clb_workload.h"
#include "lattice.h"

extern const struct clb_model_def dslash_models[];

#endif

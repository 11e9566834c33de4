/* `clbench model scaling` (host/models/scaling): the rows of one device it
 * starts from (scaling_rows.c), the prediction per number of ranks
 * (scaling_pred.c, include/clb_scaling.h) and the command's table and plot
 * (scaling_model.c). docs/SCALING.md "The scaling model". */
#ifndef CLB_MODELS_SCALING_H
#define CLB_MODELS_SCALING_H

#include "clb_model.h"
#include "clb_results.h"
#include "clb_scaling.h"
#include "clb_workload.h"

/* Which rows: NULL (or "") fields match anything. device: part of the name. */
struct sc_pick {
    const char *device, *workload, *kernel, *dtype, *rhs, *links;
};
/* The rows picked: the 1-rank distributed row (its lattice the one asked
 * for, else the largest), the plain row of the same case (the same lattice,
 * else the largest), and the medians of the message rates (mpi_gbps) and of
 * the node path's bus rates (node_d2h_gbps, node_h2d_gbps) that N-rank rows
 * of the case measured (NAN: none). */
struct sc_rows {
    const struct clb_row *dist, *plain;
    double shm_gbps;
    int shm_rows;
    double node[2];   /* the median node_d2h_gbps, node_h2d_gbps of N-device rows (NAN: none) */
    int node_rows;
};
int sc_rows_pick(const struct clb_rowset *set, const struct sc_pick *p, const int *L,
                 struct sc_rows *out);
/* A lattice "LxxLyxLzxLt" of even extents 4..1000000 into L: 0, else -1. */
int sc_lattice(const char *text, int L[4]);
/* The device figures of the rows (per application). */
int sc_rows_device(const struct sc_rows *rows, struct clb_sc_dev *d);

/* --plot OUT: efficiency against the ranks of n points, both paths (OUT
 * NULL: nothing). */
int sc_plot(const char *out, const struct clb_sc_point *p, int n, int weak);

#endif

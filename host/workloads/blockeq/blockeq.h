/* blockeq's pure host code, shared with its unit tests: the recip kernel's
 * float split, the C1060 report's [C1060Report] closed form and the Gantt-chart simulation
 * (blockeq.c, blockeq_model.c). */
#ifndef CLB_WL_BLOCKEQ_H
#define CLB_WL_BLOCKEQ_H

#include <stddef.h>
#include "clb_workload.h"
#include "clb_model.h"

/* ---- the recip kernel --------------------------------------------------- */

/* The report's (1 + 1e-6) / k2 rounded to float. */
float clb_blockeq_one_over(cl_uint k2);
/* The first tile number in 0..total-1 whose row the recip kernel's float
 * split gets wrong (differs from gbid / k2), or -1 when there is none;
 * 2^24 when total exceeds 2^24 (not checked). */
long clb_blockeq_recip_check(cl_uint k2, cl_uint total, float one_over_k2);

/* ---- the report's closed form (PART III) ------------------------------- */

struct clb_blockeq_params {
    double n1, n2;             /* matrix extents (512 x 512) */
    double halfwarps;          /* half-warps per block (32) */
    double overlap_halfwarps;  /* the "- 20" of the report */
    double index_cycles;       /* index computation per half-warp (36) */
    double transfer_cycles;    /* one bus word per SM, core cycles (1.625) */
    double bus_bytes;          /* bytes per bus word (64: 512 bit) */
    double sms;                /* SMs transferring back to back (30) */
    double tiles_per_block;    /* tiles each block walks (17); <= 0: derived */
    double clock_mhz;          /* core clock the cycles are counted in (1300) */
};

struct clb_blockeq_result {
    double x_cycles;           /* X = (halfwarps - overlap) x index */
    double y_cycles;           /* Y for this element size */
    double cycles;             /* X + Y */
    double bytes;              /* n1 n2 esize 2 (read + write) */
    double gbps;
    double tiles_per_block;    /* as used */
};

/* The closed form for elements of esize bytes: X = (h - o) i,
 * Y = tiles 2 (t w s) s with w = ceil(16 esize / bus_bytes) bus words per
 * half-warp; GB/s = n1 n2 esize 2 / ((X + Y) / clock). Float then double give
 * the report's X+Y and X+2Y. CLB_EUSAGE (message set) on a bad parameter. */
int clb_blockeq_closed(const struct clb_blockeq_params *p, size_t esize,
                       struct clb_blockeq_result *r);

/* ---- discrete-event Gantt chart ----------------------------------------- */

struct clb_gantt_params {
    size_t n1, n2;             /* matrix; one tile = halfwarps x 16 elements */
    int halfwarps;             /* per block (32) */
    int blocks;                /* P work-groups, block b walks tiles b, b+P, ... */
    int sms;                   /* SMs; block b runs on SM b mod sms */
    int blocks_per_sm;         /* residency limit (2 on the C1060 at 512 threads) */
    double index_cycles;       /* SM busy computing a half-warp's index (36) */
    double issue_cycles;       /* SM busy issuing a write (1) */
    double latency_cycles;     /* request to data at the bus (400) */
    double transfer_cycles;    /* one bus word over the shared I/O bus (2) */
    double bus_bytes;          /* 64 */
    double clock_mhz;          /* 1300 */
    size_t esize;              /* element size: 4 float, 8 double */
};

struct clb_gantt_result {
    double cycles;             /* until the last write completes */
    double gbps;               /* 2 n1 n2 esize / time */
    double bus_busy;           /* fraction of the time the bus transferred */
    double sm_busy;            /* busiest SM's fraction of the time computing */
    long tiles;                /* tiles in the matrix */
    long max_tiles_per_sm;     /* the critical path of the report's P=30/32 answer */
};

/* Simulate: each half-warp loops over its block's tiles: compute the index
 * (SM busy), issue the read, wait latency + its turn on the bus, queue for
 * the SM to issue the write, wait latency + bus again, next tile. Each SM
 * serves its ready half-warps round robin (FIFO). CLB_EUSAGE on bad input. */
int clb_gantt_simulate(const struct clb_gantt_params *p, struct clb_gantt_result *r);

/* ---- `clbench model blockeq` and `model blockeq --sim` ------------------ */

/* The two model definitions (blockeq_model.c), for the workload's .models. */
extern const struct clb_model_def clb_blockeq_models[];

#endif

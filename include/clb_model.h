/* Analytic models of the source studies (`clbench model`, docs/MODELS.md):
 * the C1060 report's blockEqPartition closed form and its half-warp Gantt
 * chart as a discrete-event simulation, the HISQ talk's Dslash intensity, and
 * a roofline for any workload. Pure host code: no device needed. */
#ifndef CLB_MODEL_H
#define CLB_MODEL_H

#include <stddef.h>

/* ---- blockeq: the report's closed form (PART III) ---------------------- */

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

/* ---- blockeq: discrete-event Gantt chart ------------------------------ */

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

/* ---- dslash: the HISQ talk's bytes and flops per even site ------------ */

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

/* ---- roofline ---------------------------------------------------------- */

struct clb_roofline {
    double bytes, flops;       /* moved / computed by one run */
    int main_gflops;           /* the row's main unit: 1 GFlop/s, 0 GB/s */
    double time_s;             /* predicted: max(bytes / bw, flops / peak flops) */
    double gbps, gflops;       /* bytes / time, flops / time */
    int compute_bound;
};

/* Bytes and flops of a workload/kernel/type/size as clbench counts them
 * (SPEC 7): stream copy/scale 2N, add/triad 3N elements; copy2d, transpose,
 * blockeq, camping 2nm; dot 2N (flops 2N); matmul 3n^2 elements, 2n^3 flops;
 * dslash per even site as above (kernel = "rhs=R" or empty for 1). size as
 * the CSV writes it. CLB_EUSAGE with a message naming what is accepted. */
int clb_roofline_work(const char *workload, const char *kernel, const char *dtype,
                      const char *size, double *bytes, double *flops, int *main_gflops);
/* Predict with peak bandwidth (GB/s) and peak flops (GFlop/s, NAN: unbounded). */
void clb_roofline_predict(double bytes, double flops, double peak_gbs, double peak_gflops,
                          struct clb_roofline *r);

#endif

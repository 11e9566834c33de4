/* Results CSV (SPEC section 5), written and read through libcsv. */
#ifndef CLB_RESULTS_H
#define CLB_RESULTS_H

#include <stdio.h>

#define CLB_CSV_HEADER                                                          \
    "run_id,timestamp,host,platform,device,device_type,driver,profile,"        \
    "workload,kernel,dtype,size,params,local_size,global_size,warmup,reps,"    \
    "bytes,flops,t_min_s,t_median_s,t_mean_s,t_max_s,t_stddev_s,"              \
    "gbps,gbps_best,gflops,pct_peak_bw,model,status,detail"
#define CLB_CSV_NCOLS 31

/* One row. Numbers are NAN when empty; warmup/reps -1 when empty. */
struct clb_row {
    char run_id[40], timestamp[32], host[64];
    char platform[128], device[128], device_type[16], driver[64], profile[48];
    char workload[32], kernel[48], dtype[24], size[48], params[192];
    char local_size[32], global_size[48];
    int warmup, reps;
    double bytes, flops;
    double t_min, t_median, t_mean, t_max, t_stddev;
    double gbps, gbps_best, gflops, pct_peak_bw, model;
    char status[16];
    char detail[512];
};

void clb_row_init(struct clb_row *r);   /* empty strings, NAN numbers */

struct clb_writer {
    FILE *f;
    char *path;
    int fd;
};

/* Open `path` for appending rows. An existing file must have exactly our
 * header (else CLB_EUSAGE, the file untouched); a new file is created under a
 * temporary name with its header and renamed into place, so that no reader
 * ever sees a file without a header. Missing directories are created. */
int clb_writer_open(struct clb_writer *w, const char *path);
/* Append one row under an advisory lock and flush it to the file. */
int clb_writer_put(struct clb_writer *w, const struct clb_row *r);
void clb_writer_close(struct clb_writer *w);

/* Format one row as a CSV line (with newline) into a malloc'd string. */
char *clb_row_format(const struct clb_row *r);

/* Read every row of a clbench CSV. Errors (missing file, another header,
 * a non-numeric figure) are CLB_EUSAGE with "file:line: reason". */
int clb_results_read(const char *path, struct clb_row **rows, size_t *n);

#endif

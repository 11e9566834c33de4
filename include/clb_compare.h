/* clbench compare: results of several files (measured runs and published
 * reference figures) gathered into one table of configurations x devices,
 * printed as text or Markdown and drawn with gnuplot. */
#ifndef CLB_COMPARE_H
#define CLB_COMPARE_H

#include <stdio.h>
#include "clb_results.h"

enum cmp_metric { CMP_GBPS, CMP_GBPS_BEST, CMP_GFLOPS, CMP_PCT_PEAK };

/* Comma-separated lists; NULL selects everything. sweep: NULL or "auto"
 * detects the swept parameters, "none" takes the best over every parameter
 * value, a list names the keys that make lines of their own. */
struct cmp_filter {
    const char *workload, *kernel, *dtype, *size;
    const char *sweep;
    int any_size;      /* lines ignore the size: each column's best at any size */
};

/* A column: one measured device (device + host), or one published source
 * (device + host + driver + the first words of detail). */
struct cmp_col {
    char label[384];
    char device[128], host[64], driver[64], source[96], file[256];
    int reference;
    double peak_gbs;      /* NAN when neither the rows nor a profile know it */
};

/* The rows of one configuration on one column. */
struct cmp_cell {
    int n;                /* ok/reference rows with a figure */
    double best, min;
    int nbad;             /* failed, skipped or error rows */
    char bad[16];         /* the worst of their statuses */
};

/* A line of the table: (workload, kernel, dtype, size) plus the values of the
 * parameters that the workload sweeps (a key with several values for one
 * configuration on one device, e.g. stride=1..32 or rhs=1..5). */
struct cmp_line {
    char workload[32], kernel[48], dtype[24], size[48], sweep[192];
    double size_num;      /* product of the numbers in size ("64x64" -> 4096), NAN */
    char sweep_key[32];   /* the first swept key, "" when none */
    double sweep_num;     /* its value, NAN when not numeric */
    int order[3];         /* first appearance of workload, kernel, dtype */
    int first;            /* first appearance of the line */
};

struct cmp_table {
    enum cmp_metric metric;
    struct cmp_col *cols;
    int ncols;
    struct cmp_line *lines;
    int nlines;
    struct cmp_cell *cells;   /* nlines x ncols, row-major */
    int ref;                  /* --relative-to column, -1 when none */
};

static inline struct cmp_cell *cmp_cell_at(const struct cmp_table *t, int line, int col)
{
    return &t->cells[(size_t)line * (size_t)t->ncols + (size_t)col];
}

/* "gbps" etc. -> metric; -1 when unknown. */
int cmp_metric_parse(const char *s);
const char *cmp_metric_name(enum cmp_metric m);
const char *cmp_metric_unit(enum cmp_metric m);   /* "GB/s", "GFlop/s", "% of peak" */

/* Read every file (clb_results_read) and build the table. CLB_EUSAGE with a
 * one-line message for bad files and an empty selection. */
int cmp_build(struct cmp_table *t, char **files, int nfiles, const struct cmp_filter *flt,
              enum cmp_metric metric);
/* Select the --relative-to column by case-insensitive substring of its label. */
int cmp_set_relative(struct cmp_table *t, const char *device);
void cmp_free(struct cmp_table *t);

/* The figure a cell shows: the best, divided by the reference column's best
 * in relative mode. NAN when there is none. */
double cmp_value(const struct cmp_table *t, int line, int col);
/* The spread of repeated runs: (best - min) / 2 / best in percent; NAN for one run. */
double cmp_spread_pct(const struct cmp_cell *c);

void cmp_print_text(const struct cmp_table *t, FILE *f);
void cmp_print_markdown(const struct cmp_table *t, FILE *f);

/* Draw one figure per workload with gnuplot (compare_plot.c). CLB_EUSAGE for a
 * bad output name, CLB_ESYS when gnuplot is missing or fails; no output file
 * is left behind unless every figure was drawn. */
int cmp_plot(const struct cmp_table *t, const char *out);
/* Check the --plot name (.svg or .png, a writable directory) before any work. */
int cmp_plot_check(const char *out, int *svg);

#endif

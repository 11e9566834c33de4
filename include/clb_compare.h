/* clbench compare: results of several files (measured runs and published
 * reference figures) gathered into one table of configurations x devices,
 * printed as text, Markdown or JSON, drawn with gnuplot, or set against a
 * saved baseline run (docs/COMPARE.md).
 *
 * Every string of a table points into the table's arena: text from a file or
 * the command line is never held in a fixed-size buffer. */
#ifndef CLB_COMPARE_H
#define CLB_COMPARE_H

#include <stdio.h>
#include "clb_ceilings.h"
#include "clb_results.h"
#include "clb_text.h"
#include "clb_chart.h"
#include "clbench.h"

/* ---- metrics ---------------------------------------------------------- */

/* The dashed line that belongs to a metric's unit in a figure. */
enum cmp_peak {
    CMP_PEAK_NONE,        /* no peak known for this unit */
    CMP_PEAK_BANDWIDTH,   /* the device's peak memory bandwidth (GB/s) */
    CMP_PEAK_HUNDRED      /* 100 % (a percentage of the peak bandwidth) */
};

/* One figure a table can show. Adding a metric is one entry in the table of
 * compare_table.c. */
struct cmp_metric {
    const char *name;        /* --metric NAME */
    const char *unit;        /* "GB/s" */
    const char *axis;        /* the y axis label of a figure */
    const char *help;        /* one line for --help */
    double (*get)(const struct clb_row *r);   /* NAN when the row has none; NULL: measured */
    int higher_is_better;    /* the best of repeated runs: max (1) or min (0) */
    enum cmp_peak peak;
    int measured;            /* a % of the column's measured ceiling (pct_measured_peak), from
                              * the row's unit (count()) and its column's ceilings */
    int time_col;            /* a rate from this time column (CLB_C_t_median_s): its runs'
                              * spread is the figure's; -1: none (power, per watt) */
    const char *key;         /* a key of the rows' metrics (docs/RESULTS.md): the figure is
                              * clb_row_metric(row, key); NULL for the columns' metrics */
    int per_workload;        /* "auto": each row in the figure its workload is about
                              * (cmp_own_metric): GB/s, GFlop/s, a launch's µs, a load's ns */
    int no_direction;        /* neither more nor less is better (a count, a size): shown in
                              * the table, never judged by the gate */
};

/* Every metric but the keys of the rows' metrics, terminated by an entry
 * with a NULL name; the first is "auto", the default. */
const struct cmp_metric *cmp_metric_list(void);
/* The metric called name (exact) of that list, or NULL. */
const struct cmp_metric *cmp_metric_find(const char *name);
/* --metric NAME: a metric of the list, or a key of the rows' metrics that
 * holds a number (docs/RESULTS.md; "of_stream_copy", "latency_us"): *out
 * filled, its name and key pointing at name (which must outlive it).
 * CLB_EUSAGE with a message for an unknown name or a token key. */
int cmp_metric_lookup(const char *name, struct cmp_metric *out);
/* The figure of row r in metric m (a column's, or a key of its metrics):
 * NAN where it has none. Not for the measured metric (pct_measured_peak). */
double cmp_metric_value(const struct cmp_metric *m, const struct clb_row *r);
/* The y axis of a figure in metric m ("bandwidth, median time (GB/s)",
 * "latency_us (µs)") into b. */
void cmp_metric_axis(const struct cmp_metric *m, struct clb_buf *b);
/* "gbps, gbps_best, gflops, pct_peak" into b. */
void cmp_metric_names(struct clb_buf *b);
/* Print every metric -m takes, the list's and the metrics column's keys with
 * a number: name, unit, which way is better (clbench compare --list-metrics). */
void cmp_metric_print_all(FILE *f);

/* ---- the table -------------------------------------------------------- */

/* Comma-separated lists, matched case-insensitively; NULL selects all. Sizes
 * are compared in their canonical form (2^28 = 256M = 268435456). sweep:
 * NULL or "auto" detects the swept parameters, "none" takes the best over
 * every parameter value, a list names the keys that make lines of their own. */
struct cmp_filter {
    const char *workload, *kernel, *dtype, *size;
    const char *run_id;  /* the rows of these runs only (`clbench run --report`) */
    const char *sweep;
    int any_size;        /* lines ignore the size: each column's best at any size */
    int include_cache;   /* with any_size: keep rows whose metrics say cache_resident */
    int line_up;         /* any_size when the rows name several devices and neither size
                          * nor any_size is set (compare's default, docs/COMPARE.md), but
                          * not for a workload that varies its size (cmp_size_varies);
                          * the gate leaves it 0 */
    /* Not filters: what else the build gathers. */
    int plot;            /* the points of roofline and stairs figures (struct cmp_point),
                          * and the measured ceilings of every column */
    const char *ceilings;   /* --ceilings FILE: the measured ceilings come from its rows (by
                             * device name) instead of the compared files' */
    int headline;        /* the measured ceilings of every column (the headline's figures) */
    int keep_rows;       /* the table keeps every row with its column, line and what the
                          * registry says of it (struct cmp_rowinfo): `clbench report` */
};

/* A column: one measured device (device + host), or one published source
 * (device + host + driver + the first words of detail). */
struct cmp_col {
    const char *label;       /* as shown (raw text; printers escape it) */
    const char *device, *host, *driver;
    const char *source;      /* published: "BabelStream 1.0"; measured: "" */
    const char **files;      /* the files its rows come from, in order */
    int nfiles;
    int reference;
    double peak_gbs;         /* NAN when neither the rows nor a profile know it */
    double llc_bytes;        /* the last-level cache its rows used (metric llc_bytes), NAN */
    double l2_bytes;         /* its profile's L2 (datasheet), NAN */
    double peak_sp, peak_dp; /* its profile's fp32 and fp64 peaks (datasheet, GFlop/s), NAN */
    const char *profile;     /* the profile its rows name, "" */
    /* Measured ceilings (a measured metric, a plot): the best of each kind the ok
     * rows of this device (and host), or of its name in --ceilings FILE, measured. */
    double ceil[CLB_NCEILINGS];        /* NAN: not measured */
    const char *ceil_src[CLB_NCEILINGS];   /* "stream triad (double vec=2)", "" */
    const char *ceil_what[CLB_NCEILINGS];  /* "stream triad", "" */
    unsigned ceil_marks[CLB_NCEILINGS];    /* clb_row_marks of the row it comes from */
    unsigned lacks;          /* bit k: a row of this column needed ceiling k, which it lacks */
};

/* A point of a roofline or stairs figure: the best of the rows of one
 * configuration (workload, kernel, dtype, size, params) on one column. */
struct cmp_point {
    int col;
    enum clb_figure_kind kind;   /* ROOFLINE: a device row with bytes and flops (any workload);
                                  * STAIRS: a row of a workload whose figure is a staircase */
    const char *workload, *kernel, *dtype;
    const char *rest;        /* STAIRS: the params but the x key ("stride=128"), "" */
    double x, y;             /* ROOFLINE: flop/byte and GFlop/s (the best); STAIRS: the
                              * workload's x and y (the lowest y) */
    int own;                 /* ROOFLINE: a row of a workload whose figure is the roofline */
    int first;               /* order of appearance */
};

/* What the registry's count() says of a row (struct cmp_rowinfo's kind). */
enum {
    CMP_RK_COUNTED = 1,  /* the registry knows the workload and its count() took the row */
    CMP_RK_HOST = 2,     /* host_bound: transfers, CPU baselines */
    CMP_RK_COMPUTE = 4,  /* compute_bound: a compute ceiling */
    CMP_RK_GFLOPS = 8    /* its main unit is GFlop/s */
};

/* A row kept by the table (flt->keep_rows). */
struct cmp_rowinfo {
    int col;             /* its column; -1 when the filters left it out */
    int line;            /* its line (an index of t->lines); -1 when it has none */
    int kind;            /* CMP_RK_* */
    int file;            /* the index of its file */
    const char *size;    /* canonical */
    double size_num;     /* elements (the product of the extents), NAN */
};

/* The rows of one configuration on one column. */
struct cmp_cell {
    int col;
    int n;                   /* ok/reference rows with a figure */
    double best, worst;      /* by the metric's direction */
    int nbad;                /* failed, skipped or error rows */
    const char *bad;         /* the worst of their statuses ("" when none) */
    int ncache;              /* of the n, rows whose working set fits the caches (metric
                              * cache_resident): the cell is marked C */
};

/* A line of the table: (workload, kernel, dtype, size) plus the values of the
 * parameters that the workload sweeps (a key with several values for one
 * configuration on one device, e.g. stride=1..32 or rhs=1..5). */
struct cmp_line {
    const char *workload, *kernel, *dtype;
    const char *size;        /* canonical ("268435456", "8192x8192"), "any" with any_size */
    const char *sweep;       /* "rhs=2 vec=4" or "" */
    const char *sweep_rest;  /* sweep without its first item ("vec=4"), "" */
    double size_num;         /* elements (product of the extents), NAN */
    const char *sweep_key;   /* the first swept key, "" when none */
    double sweep_num;        /* its value, NAN when not numeric */
    int order[3];            /* first appearance of workload, kernel, dtype */
    int first;               /* first appearance of the line */
    int device_bound;        /* count() of every row says device work: the peak applies */
    int metric;              /* its figure: an index of t->metrics */
    size_t cell0;            /* its cells: cells[cell0 .. cell0 + ncells), by column */
    int ncells;
};

struct cmp_table {
    const struct cmp_metric *metric;   /* as asked: a metric, or "auto" (per_workload) */
    struct cmp_metric *metrics;        /* the lines' figures: the asked one alone, or with
                                        * "auto" each one a workload is about */
    int nmetrics;
    struct cmp_col *cols;
    int ncols;
    struct cmp_line *lines;
    int nlines;
    struct cmp_cell *cells;
    size_t ncells;
    int ref;                 /* --relative-to column, -1 when none */
    int have_ceilings;       /* the columns' ceil[] were looked for */
    int lined_up;            /* flt->line_up made the lines ignore the size (several
                              * devices): 1, 2 with the cache-resident rows kept; 0 */
    const char *ceilings_file;   /* --ceilings FILE, NULL: the compared files */
    const char *untyped;     /* the types of GFlop/s rows no ceiling covers ("int,half"), "" */
    struct cmp_point *points;    /* figures other than the table's (with flt->plot) */
    size_t npoints;
    int cache_out;               /* the cache filter was on (cmp_in_cache_out) */
    struct cmp_unshown {         /* a measured device of the files with no row selected */
        const char *device, *host, *file;   /* its first file */
        const char *workloads;   /* the workloads of its rows, "stream, dot" */
    } *unshown;
    int nunshown;
    struct clb_row *rows;        /* with flt->keep_rows: every row of the files, in order */
    struct cmp_rowinfo *ri;      /* and what the table made of each */
    size_t nrows;
    struct clb_arena arena;  /* every string above */
};

/* The cell of a line and column; an empty cell (n = 0, nbad = 0) when the
 * column has no row there. */
const struct cmp_cell *cmp_cell_at(const struct cmp_table *t, int line, int col);

/* Read every file (clb_results_read) and build the table. CLB_EUSAGE with a
 * one-line message for bad files and an empty selection, CLB_ESYS on OOM. */
int cmp_build(struct cmp_table *t, char **files, int nfiles, const struct cmp_filter *flt,
              const struct cmp_metric *metric);
/* Select the --relative-to column by case-insensitive substring of its label. */
int cmp_set_relative(struct cmp_table *t, const char *device);
void cmp_free(struct cmp_table *t);

/* The figure a cell shows: the best, divided by the reference column's best
 * in relative mode. NAN when there is none. */
double cmp_value(const struct cmp_table *t, int line, int col);
/* The spread of repeated runs: |best - worst| / 2 / best in percent; NAN for one run. */
double cmp_spread_pct(const struct cmp_cell *c);

/* Printers. They return CLB_OK, or CLB_ESYS (message set) when memory or the
 * stream fails. */
int cmp_print_text(const struct cmp_table *t, FILE *f);
int cmp_print_markdown(const struct cmp_table *t, FILE *f);
int cmp_print_json(const struct cmp_table *t, FILE *f);

/* ---- the headline (--headline; docs/COMPARE.md, "The headline") ---------- */

/* One figure of the headline: a workload's declaration (struct clb_headline),
 * or its % of the datasheet (datasheet set). */
struct cmp_hl_row {
    const char *label;       /* "stream triad", "% of datasheet" */
    const char *unit;        /* "GB/s", "GFlop/s", "µs", "ns", "%" */
    int lower_is_better;
    int datasheet;           /* a % of the datasheet row (no ratio) */
    double *v;               /* one per column of t, NAN where none */
};
struct cmp_headline {
    struct cmp_table t;      /* every column: measured devices and published figures */
    struct cmp_hl_row *rows;
    int nrows;
    int ncols;               /* the columns with a figure (of t->cols, in order) */
    int *cols;
};
/* The headline of the files (run_ids: their rows of these runs only, or
 * NULL): CLB_EUSAGE with a message when no device has any of its figures. */
int cmp_headline_build(struct cmp_headline *h, char **files, int nfiles, const char *run_ids);
/* Print it as text (100 columns), Markdown or JSON. */
int cmp_headline_print_text(const struct cmp_headline *h, FILE *f);
int cmp_headline_print_markdown(const struct cmp_headline *h, FILE *f);
int cmp_headline_print_json(const struct cmp_headline *h, FILE *f);
/* A figure formatted as the headline shows it ("3103", "92.6"). */
void cmp_headline_fmt(const struct cmp_hl_row *r, double v, char *out, size_t n);
/* The ratio of the headline's k-th column (k >= 1) to its first, formatted
 * ("1.41", "0.0489"); "-" where either has no figure, "" for a row of % of
 * the datasheet. */
void cmp_headline_ratio(const struct cmp_headline *h, const struct cmp_hl_row *r, int k,
                        char *out, size_t n);
void cmp_headline_free(struct cmp_headline *h);

/* ---- the regression gate (--baseline OLD.csv; docs/COMPARE.md, "The gate") */

/* How the gate decides. */
struct cmp_gate {
    double threshold;      /* percent: a line moves when its figure moved by more */
    int strict;            /* --strict: the threshold alone decides, not the runs' spread */
    int allow_missing;     /* --allow-missing: a line missing (or skipped) passes */
    int cross_device;      /* --cross-device: lines matched at each device's default size */
    int host_lines;        /* --host-lines: judge the host-bound lines too (count()'s
                            * host_bound), otherwise left out and counted */
};

enum cmp_dstate {
    CMP_D_SAME,        /* within the threshold */
    CMP_D_IMPROVED,    /* better by more than the threshold, outside the spread */
    CMP_D_REGRESSED,   /* worse by more than the threshold, outside the two runs' spread: exit 1 */
    CMP_D_NOISE,       /* beyond the threshold, but inside the two runs' measured spread */
    CMP_D_LOST,        /* the new rows failed or errored: exit 1, even with --allow-missing */
    CMP_D_MISSING,     /* no new row of the line, or only skipped: exit 1 unless allowed */
    CMP_D_NOFIGURE,    /* the baseline has no figure (its rows skipped or failed) */
    CMP_D_NEW,         /* no such line in the baseline */
    CMP_D_CHANGED,     /* another kernel ran (fingerprint or declared revision, docs/
                        * COMPARE.md "Changed kernels"): exit 1 only with --strict */
    CMP_D_NSTATES
};

/* One side of a line: the best of its rows. */
struct cmp_dside {
    int present;              /* the side has rows of the line */
    double best;              /* the best figure, NAN when none */
    double lo, hi;            /* its measured spread over the rows of its best tuning
                               * (row_spread); lo = hi = best where no row has one */
    int runs;                 /* rows with a figure */
    const char *status;       /* "ok", else the worst status of its rows ("failed"); "" absent */
    const char *tuning;       /* the tuning of the best row (else the first), "" */
    const char *size;         /* the canonical size of the best row (else the first), "" */
    const char *device;       /* of the best row (else the first), "" */
    const char *fp;           /* the best row's fingerprint (metric fp), "" where it has none */
    const char *timestamp;    /* the best row's time */
};

struct cmp_dline {
    const char *workload, *kernel, *dtype;
    const char *size;         /* as matched: canonical, "default" (--cross-device) or "any" */
    const char *cases;        /* the case parameters, sorted "k=v,k=v", "" */
    const char *device;       /* "" unless the lines are per device (by_device) */
    struct cmp_dside old, cur;
    double delta_pct;         /* (cur - old) / old * 100, NAN when not both */
    double worse_pct;         /* the delta in the worse direction of its metric, NAN */
    int metric;               /* its figure: an index of d->metrics */
    const char *tuned;        /* the tuning that changed between the two sides' best rows:
                               * "local 128→1024, vec 2→4", "" */
    const char *changed;      /* what changed in the kernel that ran (CHANGED), "" */
    int group_failed;         /* no new row: its group (type, size) stopped in set-up (a
                               * `kernel=*` row errored or failed), so the line is LOST */
    enum cmp_dstate state;
};

struct cmp_delta {
    const struct cmp_metric *metric;   /* as asked: a metric, or "auto" (per_workload) */
    struct cmp_metric *metrics;        /* the lines' figures (auto: each workload's own) */
    int nmetrics;
    struct cmp_gate gate;
    const char *baseline;     /* its file name */
    const char *old_devices, *new_devices;   /* the device names of each side, "A, B" */
    int by_device;            /* several devices: the device is part of a line */
    struct cmp_dline *v;
    int n;
    int count[CMP_D_NSTATES]; /* lines per state */
    int compared;             /* lines with a figure on both sides */
    int failed;               /* regressed + lost + missing (unless allow_missing): exit 1 */
    int worst;                /* the line with the largest regression, -1 */
    size_t host_out;          /* host-bound lines left out (without gate.host_lines) */
    size_t refused;           /* rows of the new files of a baseline's run id: left out */
    const char *refused_ids;  /* their run ids, "a, b"; "" */
    size_t unmarked[2];       /* --cross-device: rows (new [0], baseline [1]) that do not say
                               * whether their size was the default: matched as given */
    struct clb_arena arena;
};

/* Set the files' rows against the baseline's, line by line (cmp_ident; see
 * docs/COMPARE.md for the rules). CLB_OK with the verdicts (failed says
 * whether the gate fails); CLB_EUSAGE with a one-line message when the
 * inputs cannot be judged: bad files or selections, another device without
 * gate->cross_device, nothing in common ("nothing in common: ..."), no line
 * with a figure on both sides; CLB_ESYS. */
int cmp_baseline(struct cmp_delta *d, char **files, int nfiles, const char *baseline,
                 const struct cmp_filter *flt, const struct cmp_metric *metric,
                 const struct cmp_gate *gate);
int cmp_delta_print_text(const struct cmp_delta *d, FILE *f);
int cmp_delta_print_markdown(const struct cmp_delta *d, FILE *f);
int cmp_delta_print_json(const struct cmp_delta *d, FILE *f);
/* "regressed", "noise", ... (JSON). */
const char *cmp_dstate_name(enum cmp_dstate s);
/* The verdict's one line for stderr when the gate fails ("1 line regressed,
 * 2 missing against 'base.csv' ..."), into b. */
void cmp_delta_verdict(const struct cmp_delta *d, struct clb_buf *b);
void cmp_delta_free(struct cmp_delta *d);

/* ---- figures (--plot) -------------------------------------------------- */

/* One figure: the lines of one workload that have a figure somewhere, and
 * the columns with a figure in them. */
enum cmp_fig_kind { CMP_FIG_TABLE, CMP_FIG_ROOFLINE, CMP_FIG_STAIRS };
struct cmp_fig {
    const struct cmp_table *t;
    enum cmp_fig_kind kind;  /* TABLE: lines and cols below; ROOFLINE: the points of column
                              * `col`; STAIRS: the points of `workload` */
    int col;
    const char *workload;
    int *lines, nlines;
    int *cols, ncols;
    const struct cmp_metric *metric;   /* TABLE: the figure its lines show (a workload's
                                        * lines of another metric are left out) */
};

/* The lines and columns of one workload's figure (g->lines, g->cols: room
 * for t->nlines / t->ncols entries), among the lines cand[0..ncand) (the
 * workload's, found by the caller; NULL: every line). CLB_EUSAGE when
 * nothing can be drawn. */
int cmp_fig_collect(struct cmp_fig *g, const struct cmp_table *t, const char *workload,
                    const int *cand, int ncand);
/* The figure of kind ROOFLINE (column col) or STAIRS (workload): CLB_EUSAGE
 * when it has no point. */
int cmp_fig_points(struct cmp_fig *g, const struct cmp_table *t, enum cmp_fig_kind kind,
                   const char *workload, int col);
/* The figure as a chart (include/clb_chart.h): what `compare --plot` and
 * `clbench report` draw. *c is initialised here; the caller frees it
 * (clb_chart_free), also on an error. CLB_ESYS on OOM, CLB_EUSAGE when
 * nothing to plot. */
int cmp_fig_chart(const struct cmp_fig *g, struct clb_chart *c);

/* Draw one figure per workload (compare_plan.c: the chart layer draws them,
 * clb_chart_files). CLB_EUSAGE for a bad output name, CLB_ESYS when gnuplot
 * is missing or fails; no output file is left behind unless every figure
 * was drawn. */
int cmp_plot(const struct cmp_table *t, const char *out);
/* The charts cmp_plot would draw, made in memory only (no file, no gnuplot):
 * fn gets each one's destination name and its chart, which it may take over
 * (zeroed: freed no more here); a figure with nothing to draw is left out.
 * The fuzz harness of the readers uses it. */
int cmp_plot_each(const struct cmp_table *t, const char *out,
                  int (*fn)(const char *final, struct clb_chart *c, void *ctx), void *ctx);

#endif

/* clbench report: one self-contained HTML page (inline SVG and CSS, no
 * script, no network) from one or more results files (host/report/;
 * docs/REPORT.md). */
#ifndef CLB_REPORT_H
#define CLB_REPORT_H

#include "clbench.h"

/* How the per-workload charts set devices side by side. */
enum clb_report_norm {
    CLB_NORM_ABSOLUTE,   /* GB/s, GFlop/s */
    CLB_NORM_DATASHEET,  /* % of the device's datasheet peak (its profile) */
    CLB_NORM_MEASURED    /* % of the device's measured ceiling (its own rows) */
};

struct clb_chart;
struct clb_report_opts {
    enum clb_report_norm norm;
    int charts;          /* draw the charts with gnuplot; 0: tables only */
    const char *run_ids; /* only the rows of these runs (comma list; `run --report`); NULL: all */
    /* The fuzzer and tests: each chart is handed to this instead of gnuplot
     * (the page then has no figures); NULL: gnuplot as `charts` says. */
    int (*chart_hook)(const struct clb_chart *c, void *ctx);
    void *hook_ctx;
};

/* The page of the files into *html (appended). CLB_EUSAGE with a message for
 * a file that cannot be read or holds no row, CLB_ESYS on OOM. When gnuplot
 * is missing or fails, the page is made without those charts and says so;
 * *notes (may be NULL) then holds one line for the user. */
int clb_report_html(char **files, int nfiles, const struct clb_report_opts *o,
                    struct clb_buf *html, struct clb_buf *notes);

/* The page written to `out` (a temporary file beside it, renamed when whole;
 * removed by a signal). Messages as clb_report_html, and CLB_ESYS when the
 * file cannot be written. */
int clb_report_write(char **files, int nfiles, const struct clb_report_opts *o, const char *out);

/* How the report (and compare --plot) draws a workload's rows, in one line
 * from its `figure` declaration ("bars by kernel, in the order copy, scale,
 * add, triad"): `clbench WORKLOAD --help` prints it, docs/REPORT.md lists it. */
struct clb_workload;
void clb_report_figure_text(const struct clb_workload *wl, struct clb_buf *b);

/* The normalisation a name gives (-1: none). */
int clb_report_norm_find(const char *name);

#endif

/* Private to host/report: the page being made (report.c says how). Every
 * text of the files goes into the HTML through rpt_text, the only way. */
#ifndef CLB_REPORT_PRIV_H
#define CLB_REPORT_PRIV_H

#include "clb_chart.h"
#include "clb_compare.h"
#include "clb_profile.h"
#include "clb_report.h"
#include "clb_text.h"
#include "clb_workload.h"

/* What a reader must know before trusting a figure (per row, and per cell:
 * the union of its rows'). */
enum {
    RF_CACHE = 1,     /* cache-resident working set */
    RF_ABOVE = 2,     /* above the datasheet peak */
    RF_NOISY = 4,     /* slowest repetition > 1.25 x the fastest */
    RF_FAILED = 8,    /* failed validation */
    RF_SKIPPED = 16,  /* skipped (its reason in detail) */
    RF_ERROR = 32,    /* an OpenCL or system error */
    RF_HOST = 64,     /* timed on the host clock: the device's events were not trusted */
    RF_IMPOSSIBLE = 128,  /* above the profile's peak GFlop/s: a timer or counting fault */
    RF_BYTES = 256    /* a GFlop/s row whose counted bytes move faster than the peak
                       * bandwidth: a qualifier of its byte count, never set beside the
                       * rate as `!` (a cache served part of the counted bytes) */
};
#define RF_NBITS 9
#define RF_BAD (RF_FAILED | RF_SKIPPED | RF_ERROR | RF_IMPOSSIBLE)

/* A chart of the page and where its figure goes. */
struct rpt_chart {
    struct clb_chart c;
    size_t at;        /* an offset of the page's text */
};

struct rpt {
    const struct clb_report_opts *o;
    char **files;
    int nfiles;
    struct cmp_table t;
    struct clb_profiles profs;
    const struct clb_profile **prof;   /* per column: its profile, NULL */
    int *colour;                       /* per column: its colour on the chart being made */
    int *dev, ndev;                    /* the measured columns */
    int *ref, nref;                    /* the published columns */
    unsigned *rf;                      /* per row: RF_* */
    int *order;                        /* the rows sorted by workload and column (rpt_group) */
    struct clb_buf page;
    struct rpt_chart *ch;
    size_t nch, capch;
    int sections;                      /* ids of sections: s1, s2, ... */
    struct clb_buf toc;                /* the contents (markup) */
    unsigned seen;                     /* the flags shown in the section being written */
    size_t seen_row[RF_NBITS];         /* per flag bit: the first row shown with it */
    int oom;
};

/* ---- the page (report_html.c) ------------------------------------------------ */

/* Text of the files (or any text) as HTML: the one way it reaches the page. */
void rpt_text(struct rpt *r, const char *s);
/* Markup made here (tags, numbers): never text of a file. */
void rpt_tag(struct rpt *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* *b emptied, then printed into by fmt: its text (a chart's title, a caption). */
const char *rpt_fmt(struct clb_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A figure with about four significant digits, "–" for NAN. */
void rpt_num(struct rpt *r, double v);
/* Text (rpt_text) between two pieces of markup. */
void rpt_wrap(struct rpt *r, const char *open, const char *s, const char *close);
/* A table cell of text (rpt_text), and one of a figure (rpt_num, right-aligned). */
void rpt_td(struct rpt *r, const char *s);
void rpt_td_num(struct rpt *r, double v);
/* The labels of columns cols[0..n) (rpt_text), sep between them. */
void rpt_labels(struct rpt *r, const int *cols, int n, const char *sep);
/* Start a section with a heading (its text escaped) and an entry in the
 * contents; end it. */
void rpt_section(struct rpt *r, const char *title, const char *lead);
void rpt_section_end(struct rpt *r);
/* The page's head (title, CSS) and foot. */
void rpt_head(struct rpt *r);
void rpt_foot(struct rpt *r);
/* Flags as words ("cache-resident, noisy") and as the letters a chart
 * writes beside a point ("C~"). */
void rpt_flag_words(struct clb_buf *b, unsigned f);
void rpt_flag_letters(struct clb_buf *b, unsigned f);
/* Add a chart (taken over) and mark its place in the page, with a caption. */
void rpt_chart(struct rpt *r, struct clb_chart *c, const char *caption);

/* ---- rows (report_rows.c) ----------------------------------------------------- */

/* A row the per-workload sections use: of a selected column, and one
 * process's (not an MPI job's rank or aggregate; those are the scaling
 * section's). */
int rpt_single(const struct rpt *r, size_t i);
/* A row's figure in its main unit (its workload's y_metric where declared),
 * NAN when none; and that unit. */
double rpt_value(const struct rpt *r, size_t i);
const char *rpt_unit(const struct rpt *r, size_t i);
/* The figure set against the page's normalisation: NAN where the column
 * lacks the peak or ceiling it needs. */
double rpt_norm(const struct rpt *r, size_t i, double v);
/* The unit of the normalised figure of rows of this unit. */
const char *rpt_norm_unit(const struct rpt *r, const char *unit);
/* The datasheet peak and the measured ceiling a row is set against (GB/s or
 * GFlop/s of its type), NAN. */
double rpt_peak(const struct rpt *r, size_t i);
double rpt_ceiling(const struct rpt *r, size_t i);
/* The flags (RF_*) of a row's marks (clb_row_marks), and of the row. */
unsigned rpt_marks(unsigned m);
unsigned rpt_flags(const struct rpt *r, size_t i);

/* The rows of one workload, grouped: ids[0..n) of rows (rpt_single) */
struct rpt_rows {
    const char *workload;
    const struct clb_workload *wl;   /* NULL: the registry does not know it */
    size_t *ids, n;
};
/* Every workload of the files, in the registry's order then as they come. */
int rpt_workloads(struct rpt *r, struct rpt_rows **out, int *n);
void rpt_workloads_free(struct rpt_rows *w, int n);

/* A cell: the rows of one column in one category (of a bar chart) or at one
 * x (of a curve), at the size shown. */
struct rpt_cell {
    double v;          /* the best figure, normalised; NAN */
    double raw;        /* the same, absolute */
    size_t best;       /* the row that gives it (or a row without a figure) */
    unsigned flags;    /* of every row it stands for */
    size_t frow[RF_NBITS];   /* per flag bit: the first of its rows with it */
    int nrows;
};
/* The cell of rows ids[0..n) (one column): at the size the column shows
 * (the largest size of its ok rows that are not cache-resident, else the
 * largest), the best figure of the rows there. */
void rpt_cell(const struct rpt *r, const size_t *ids, size_t n, struct rpt_cell *c);
/* The size a column shows rows ids[0..n) at: see rpt_cell. */
const char *rpt_shown_size(const struct rpt *r, const size_t *ids, size_t n);

/* The flags a section shows, with a row of each: rpt_section_end explains
 * every one in a sentence from that row's own figures (report_marks.c). */
void rpt_seen_row(struct rpt *r, size_t i, unsigned flags);
void rpt_explain_marks(struct rpt *r);
/* A cell of a table: its figure, its ratio to base (> 0), its flags, the
 * size it was shown at (size) -- the flags noted as seen. */
void rpt_cell_td(struct rpt *r, const struct rpt_cell *c, double base, int size);

/* The registry's position of a workload (past the last when unknown). */
long rpt_workload_rank(const char *name);
/* The params of a row without key `skip` ("" when none), interned. */
const char *rpt_params_without(struct rpt *r, size_t i, const char *skip);
/* The measured devices of columns cols[0..n) for a chart's title: "on A",
 * "on A and B", "on A, B and 3 more"; "" when none. */
void rpt_on_devices(const struct rpt *r, const int *cols, int n, struct clb_buf *b);
/* A number of an axis (a parameter, a size) in a table: whole numbers
 * exactly, sizes in bytes with binary prefixes where bytes. */
void rpt_x(struct rpt *r, double x, int bytes);
/* The column's label, and whether it is published. */
const char *rpt_label(const struct rpt *r, int col);
/* A column's order: the measured devices, then the published sources. */
int rpt_col_rank(const struct rpt *r, int col);
/* The chart colours of the columns of one chart (cols[0..n)): a measured
 * device keeps its own on every chart; the published sources take the next
 * ones in the order they come in this chart. rpt_colour reads them (1..). */
void rpt_colours_for(struct rpt *r, const int *cols, int n);
int rpt_colour(const struct rpt *r, int col);

/* ---- sections ----------------------------------------------------------------- */

void rpt_devices(struct rpt *r);                        /* report_devices.c */
void rpt_bars(struct rpt *r, const struct rpt_rows *w);   /* report_bars.c */
void rpt_overview(struct rpt *r, int col);              /* report_bars.c */
void rpt_lines(struct rpt *r, const struct rpt_rows *w);  /* report_lines.c */
void rpt_rooflines(struct rpt *r, const struct rpt_rows *w);  /* report_extra.c */
void rpt_stairs(struct rpt *r, const struct rpt_rows *w);
void rpt_energy(struct rpt *r);
void rpt_scaling(struct rpt *r);
void rpt_distrust(struct rpt *r);

/* ---- the charts (report_render.c) ---------------------------------------------- */

/* Draw every chart and put the figures in their places in body: appended to
 * *out.
 * Without gnuplot (or with charts off) each place says why; *notes says it
 * once. */
int rpt_render(struct rpt *r, const struct clb_buf *body, struct clb_buf *out,
               struct clb_buf *notes);

#endif

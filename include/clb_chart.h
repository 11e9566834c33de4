/* The chart layer (host/chart/; docs/REPORT.md, "How the charts are drawn"):
 * what a figure shows, apart from how it is drawn. `compare --plot`,
 * `clbench report` and `model scaling --plot` only describe their figures
 * with it; the layer owns the rules of the axes and the peak levels
 * (chart.c), the renderer (chart_gnuplot.c), the runner (chart_run.c) and
 * the SVG put inline (chart_svg.c). It knows nothing of compare, the report
 * or a workload (tests/layers.sh checks its includes and calls). Every text
 * of a chart may come from a results file and is never gnuplot code; a
 * chart's texts are copies in its arena. */
#ifndef CLB_CHART_H
#define CLB_CHART_H

#include <stddef.h>
#include "clbench.h"

enum clb_chart_style {
    CLB_CS_BARS,         /* a bar per point; x = a category index (clb_chart_cat) */
    CLB_CS_LINESPOINTS,  /* a measured curve */
    CLB_CS_POINTS,       /* measured points, unjoined */
    CLB_CS_LINES         /* a guide: a peak, a ceiling, a model (no markers) */
};

enum clb_chart_scale { CLB_AXIS_LINEAR, CLB_AXIS_LOG2, CLB_AXIS_LOG10 };

enum clb_chart_ticks {
    CLB_TICKS_AUTO,
    CLB_TICKS_INTEGERS,  /* one tick per whole number (rhs 1..8, partitions) */
    CLB_TICKS_POW2,      /* 2^22 rather than 4.1943e+06 */
    CLB_TICKS_SI,        /* 268.4M */
    CLB_TICKS_BYTES      /* 1 KiB, 256 MiB (gnuplot writes kiB) */
};

struct clb_chart_point {
    double x, y;
    const char *label;   /* written beside the point, or above the bar (a flag, a ratio);
                          * NULL: none */
    int brk;             /* the line is not drawn to this point (a new segment) */
};

struct clb_chart_series {
    const char *title;   /* the legend entry */
    enum clb_chart_style style;
    int guide;           /* a reference line (peak, ceiling, model): drawn apart from
                          * the measured series, dashed */
    int colour;          /* 1.. gnuplot's line colours (a device's); 0: black; -1: grey */
    int dash;            /* 1 solid, 2.. dashed; 0: by the series' position */
    int marker;          /* gnuplot point type; 0: by the series' position */
    int stack;           /* BARS: stacked on the BARS series just before it */
    struct clb_chart_point *p;
    size_t n, cap;
};

struct clb_chart_axis {
    const char *label;
    enum clb_chart_scale scale;
    enum clb_chart_ticks ticks;
    double lo, hi;       /* the range; NAN: from the points */
    double every;        /* a log axis: a tick every this factor from a power of 2 below
                          * the smallest point (0: gnuplot's choice) */
};

/* A vertical line across the graph (a cache size on a working-set axis). */
struct clb_chart_vline {
    double x;
    const char *title;
    int colour, dash;
};

struct clb_chart {
    const char *title;   /* what is measured, the unit, the device(s) */
    struct clb_chart_axis x, y;
    const char **cats;   /* bar charts: the name under x = i */
    int ncats;
    size_t capcats;
    struct clb_chart_series **s;   /* each apart: a series stays where it is as more are added */
    int ns;
    size_t caps;
    struct clb_chart_vline *v;
    int nv;
    size_t capv;
    int oom;             /* an allocation failed: the chart is incomplete */
    struct clb_arena arena;
};

/* An empty chart titled `title` (copied), linear axes labelled xl and yl. */
void clb_chart_init(struct clb_chart *c, const char *title, const char *xl, const char *yl);
void clb_chart_free(struct clb_chart *c);
/* A copy of text in the chart's arena ("" for NULL; "" on OOM, with c->oom set). */
const char *clb_chart_str(struct clb_chart *c, const char *text);
/* Add a category (bar charts): its index. */
int clb_chart_cat(struct clb_chart *c, const char *name);
/* Add a series (the title copied); NULL on OOM (c->oom set). */
struct clb_chart_series *clb_chart_series(struct clb_chart *c, const char *title,
                                          enum clb_chart_style style, int colour);
/* Add a point (label copied, may be NULL). */
void clb_chart_point(struct clb_chart *c, struct clb_chart_series *s, double x, double y,
                     const char *label);
/* Add a vertical line (title copied). */
void clb_chart_vline(struct clb_chart *c, double x, const char *title, int colour, int dash);
/* Points of the measured series (not guides), and their y range over
 * positive values (*lo = INFINITY when none). */
size_t clb_chart_measured(const struct clb_chart *c, double *lo, double *hi);

/* ---- the rules every figure follows (chart.c) ---------------------------------- */

/* The axes of a chart whose measured series are in, by one rule for every
 * figure of compare and the report. y: logarithmic where the positive
 * figures span a factor 100 or more (a linear axis shows them all
 * otherwise), from the power of ten below the smallest, its label saying so
 * ("GB/s (log scale: the figures span 420x)"). x (curves; a bar chart's x
 * is its categories): log2 where the points span a factor 16, or 4 of
 * powers of two; else a tick per whole number where every x is whole within
 * 16; a linear axis from 0 starts there; ticks in bytes (x_bytes), as 2^22
 * where every x is a power of two up to 65536 or more on a log axis, else
 * as 268.4M from 1e5 on. */
void clb_chart_axes(struct clb_chart *c, int x_bytes);
/* A guide over a bar chart's categories at a level per category (lv[k],
 * NAN: none over k): a segment per run of categories at one level. */
void clb_chart_levels(struct clb_chart *c, const char *title, int colour, int dash,
                      const double *lv, int n);
/* A guide at level y across the x range of the measured points so far (a
 * peak over curves), or across every category of a bar chart. */
void clb_chart_level(struct clb_chart *c, const char *title, int colour, int dash, double y);

/* ---- gnuplot (chart_gnuplot.c) ---------------------------------------------- */

/* gnuplot's input for one chart, made in memory: the script, the measured
 * series (figN.dat) and the guides (figN.peak.dat). */
struct clb_chart_text {
    struct clb_buf script, data, peaks;
};
void clb_chart_text_free(struct clb_chart_text *t);

struct clb_chart_out {
    int svg;             /* SVG, else PNG */
    int index;           /* names the files: fig<index>.gp, .dat, .peak.dat, .svg|.png */
};

/* The script and data of a chart. CLB_EUSAGE ("nothing to plot: ...") when
 * no measured series has a point, CLB_ESYS on OOM (the message set; *t empty). */
int clb_chart_gnuplot(const struct clb_chart *c, const struct clb_chart_out *o,
                      struct clb_chart_text *t);

/* ---- drawing (chart_run.c) -------------------------------------------------- */

/* The gnuplot to run (malloc'd): $CLBENCH_GNUPLOT, else gnuplot on PATH;
 * NULL with a message saying how to install it. */
char *clb_gnuplot_find(void);

/* A chart to draw and what came of it. Every drawing runs gnuplot in a
 * private directory under $TMPDIR (or /tmp) on files named by the chart's
 * number only (fig1.gp, fig1.dat, fig1.peak.dat, fig1.svg): no path is made
 * of a chart's text. One gnuplot process draws all the charts; when it
 * fails, each is drawn alone, so that a bad chart costs only itself, and
 * the message of a failure carries gnuplot's own error lines ("gnuplot
 * failed to draw '<name>': ..."). A signal removes the directory and ends
 * gnuplot (host/core/cleanup.c). */
struct clb_drawn {
    const struct clb_chart *c;
    const char *name;    /* what a message calls it: clb_chart_files, its file (.svg or
                          * .png); clb_chart_svgs, NULL ("fig<N>.gp") */
    char *svg;           /* clb_chart_svgs: gnuplot's SVG (malloc'd), NULL */
    size_t len;
    char *why;           /* why it was not drawn (malloc'd), NULL */
    int rc;              /* with why: CLB_EUSAGE (nothing to plot) or CLB_ESYS */
};
/* Draw d[0..n) as SVG in memory with gnuplot gp: d[i].svg, or d[i].why.
 * CLB_ESYS with the message when the files cannot be written. */
int clb_chart_svgs(const char *gp, struct clb_drawn *d, size_t n);
/* Draw d[0..n) into their files d[i].name, all or none: each is written to
 * a temporary file beside its destination and renamed into place only when
 * every one was drawn. CLB_OK; CLB_EUSAGE when one is empty; CLB_ESYS when
 * gnuplot is missing ("...; no plot written") or fails, with the message of
 * the first that was not drawn. */
int clb_chart_files(struct clb_drawn *d, size_t n);
void clb_drawn_free(struct clb_drawn *d, size_t n);
/* Check a --plot name (OUT.svg or OUT.png, an output that may replace what
 * is there, in a writable directory) before any work: *svg whether SVG.
 * CLB_EUSAGE with the message. */
int clb_chart_path_check(const char *out, int *svg);

/* ---- SVG inline in HTML (chart_svg.c) ----------------------------------------- */

/* Append gnuplot's SVG to an HTML page: the XML prolog and DOCTYPE dropped,
 * every id and reference to one prefixed with `prefix` (ids stay unique in a
 * page of many figures), only the elements and attributes gnuplot's SVG
 * terminal writes kept (no script, no event handler, no external
 * reference). CLB_EUSAGE with the reason when the SVG holds anything else;
 * nothing is appended then. */
int clb_svg_inline(struct clb_buf *out, const char *svg, size_t len, const char *prefix);

#endif

/* A chart: what a figure shows, apart from how it is drawn (host/chart/).
 * `compare --plot` and `clbench report` describe every figure with it — the
 * series and their points, the axes and their units, the guide lines (peaks,
 * ceilings, models, cache sizes), the flags written beside points — and one
 * renderer turns a description into gnuplot's input (chart_gnuplot.c), which
 * one runner draws (chart_run.c). There is no other plotting path.
 *
 * Every text of a chart may come from a results file: the renderer writes
 * the titles, legend entries, category names and point labels into gnuplot's
 * data files (escaped by cmp_esc, CMP_ESC_DATA) and the few texts of the
 * script as string expressions (CMP_ESC_GP), both with CMP_ESC_SVG for an
 * SVG; nothing of a chart's text is gnuplot code, and gnuplot shows it as
 * its display form.
 * A chart's texts are copies in its arena. */
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

/* ---- gnuplot (chart_gnuplot.c, chart_run.c) ---------------------------------- */

/* gnuplot's input for one chart, made in memory: the script, the measured
 * series (figN.dat) and the guides (figN.peak.dat). */
struct clb_chart_text {
    struct clb_buf script, data, peaks;
};
void clb_chart_text_free(struct clb_chart_text *t);

struct clb_chart_out {
    int svg;             /* SVG, else PNG */
    int index;           /* names the files: fig<index>.gp, .dat, .peak.dat, .svg|.png */
    int width;           /* canvas width in pixels; 0: 960 (it grows for a long legend) */
};

/* The script and data of a chart. CLB_EUSAGE ("nothing to plot") when no
 * series has a point, CLB_ESYS on OOM (the message set; *t empty). */
int clb_chart_gnuplot(const struct clb_chart *c, const struct clb_chart_out *o,
                      struct clb_chart_text *t);

/* The gnuplot to run (malloc'd): $CLBENCH_GNUPLOT, else gnuplot on PATH;
 * NULL with a message saying how to install it. */
char *clb_gnuplot_find(void);
/* The install hint of that message. */
#define CLB_GNUPLOT_HINT "install it with 'apt-get install gnuplot-nox'"

/* A private directory for gnuplot's files under $TMPDIR (or /tmp), removed
 * with what it holds by clb_plotdir_close, and by a signal (host/core/cleanup.c)
 * until then. */
struct clb_plotdir {
    char *path;
    int *ids;            /* cleanup registrations */
    size_t nids, capids;
    int maxfig;          /* the highest figure number written */
};
int clb_plotdir_open(struct clb_plotdir *d);
/* Remove the files of figures 1..maxfig and the directory. */
void clb_plotdir_close(struct clb_plotdir *d);
/* Register a path a signal must remove (dropped by clb_plotdir_close). */
void clb_plotdir_guard(struct clb_plotdir *d, const char *path);
/* Write a chart's script and data as fig<index>.gp, .dat and .peak.dat. */
int clb_plotdir_write(struct clb_plotdir *d, int index, const struct clb_chart_text *t);
/* The path of fig<index>.<ext> in the directory (malloc'd). */
char *clb_plotdir_path(const struct clb_plotdir *d, int index, const char *ext);
/* Run gnuplot on the script `script` (a file name in the directory, its
 * working directory). CLB_OK when it exits 0; else CLB_ESYS with "gnuplot
 * failed to draw '<what>': <its error lines>" (escaped, one line). The
 * child is killed and reaped by a signal. */
int clb_gnuplot_run(const char *gp, const struct clb_plotdir *d, const char *script,
                    const char *what);
/* Read a drawn file of the directory (malloc'd, NUL-terminated); NULL with a
 * message when it is missing, empty or larger than max bytes. */
char *clb_plotdir_read(const struct clb_plotdir *d, int index, const char *ext, size_t max,
                       size_t *len);

/* ---- SVG inline in HTML (chart_svg.c) ----------------------------------------- */

/* Append gnuplot's SVG to an HTML page: the XML prolog and DOCTYPE dropped,
 * every id and reference to one prefixed with `prefix` (ids stay unique in a
 * page of many figures), only the elements and attributes gnuplot's SVG
 * terminal writes kept (no script, no event handler, no external
 * reference). CLB_EUSAGE with the reason when the SVG holds anything else;
 * nothing is appended then. */
int clb_svg_inline(struct clb_buf *out, const char *svg, size_t len, const char *prefix);

#endif

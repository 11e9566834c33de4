/* clbench compare --plot: the figures that are not drawn from the table's
 * metric but from the rows' own quantities (struct cmp_point), for the
 * workloads whose `figure` says so (include/clb_workload.h):
 *
 *   - a roofline per device: GFlop/s against arithmetic intensity (flops /
 *     bytes of each row), log-log, under the device's measured bandwidth and
 *     compute ceilings (the roof, its ridge point marked), the roofline
 *     workload's own rows as lines and every other workload's device rows
 *     with bytes and flops as points, one series per workload and type;
 *   - a staircase per workload: its y (latency: ns per load) against its x
 *     (the working set) on a log2 axis, one line per device.
 *
 * The rules of compare_plot.c hold here too: every text of a results file
 * (device names, workloads, kernels, types, params, the ceilings' sources)
 * goes into the data files as a field (cmp_plot_field) and reaches the
 * legend through `columnheader`; the few texts of the script go through
 * cmp_gp_string; the files are named by the figure's number only. */
#include "compare_priv.h"
#include "clb_workload.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int cmp_fig_points(struct cmp_fig *g, const struct cmp_table *t, enum cmp_fig_kind kind,
                   const char *workload, int col)
{
    g->t = t;
    g->kind = kind;
    g->workload = workload;
    g->col = col;
    g->nlines = g->ncols = 0;
    for (size_t i = 0; i < t->npoints; i++) {
        const struct cmp_point *p = &t->points[i];
        /* a roofline is drawn for a column with rows of a workload whose figure it is */
        if (kind == CMP_FIG_ROOFLINE
                ? p->kind == CLB_FIGURE_ROOFLINE && p->own && p->col == col &&
                      !strcmp(p->workload, workload)
                : p->kind == CLB_FIGURE_STAIRS && !strcmp(p->workload, workload))
            return CLB_OK;
    }
    struct clb_buf e = {0};
    clb_seterr("%s: no point to plot", cmp_esc_tmp(&e, workload, 0));
    clb_buf_free(&e);
    return CLB_EUSAGE;
}

/* ---- points in series ---------------------------------------------------- */

struct item {
    uint64_t key[4];  /* the series: interned texts (and the column) */
    size_t series;    /* its first point: series in order of first appearance */
    int own;          /* roofline: drawn first, as lines */
    double x, y;
    size_t point;
};

static int key_order(const void *pa, const void *pb)
{
    const struct item *a = pa, *b = pb;
    for (int k = 0; k < 4; k++)
        if (a->key[k] != b->key[k])
            return a->key[k] < b->key[k] ? -1 : 1;
    return (a->point > b->point) - (a->point < b->point);
}

static int item_order(const void *pa, const void *pb)
{
    const struct item *a = pa, *b = pb;
    if (a->own != b->own)
        return b->own - a->own;
    if (a->series != b->series)
        return a->series < b->series ? -1 : 1;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    return (a->point > b->point) - (a->point < b->point);
}

/* The figure's points as items sorted into series (a series: the points of
 * one key: roofline, workload and type; staircase, column, kernel, type and
 * the other params). *out (malloc'd), *n items; CLB_ESYS on OOM. */
static int series_items(const struct cmp_fig *g, struct item **out, size_t *n)
{
    const struct cmp_table *t = g->t;
    struct clb_arena names = {0};   /* the key's texts interned: equal texts, equal keys */
    struct item *v = malloc((t->npoints + 1) * sizeof *v);
    size_t k = 0;
    int rc = v ? CLB_OK : CLB_ESYS;
    for (size_t i = 0; i < t->npoints && rc == CLB_OK; i++) {
        const struct cmp_point *p = &t->points[i];
        int roof = g->kind == CMP_FIG_ROOFLINE;
        if (roof ? p->kind != CLB_FIGURE_ROOFLINE || p->col != g->col
                 : p->kind != CLB_FIGURE_STAIRS || strcmp(p->workload, g->workload))
            continue;
        struct item *it = &v[k++];
        *it = (struct item){{roof ? 0 : (uint64_t)p->col + 1, 0, 0, 0}, 0, roof && p->own, p->x,
                            p->y, i};
        const char *part[3] = {roof ? p->workload : p->kernel, p->dtype, roof ? "" : p->rest};
        for (int j = 0; j < 3 && rc == CLB_OK; j++) {
            const char *s = clb_arena_intern(&names, part[j], strlen(part[j]));
            it->key[j + 1] = CMP_KEY(s);
            rc = s ? CLB_OK : CLB_ESYS;
        }
    }
    clb_arena_free(&names);   /* the keys compare as numbers from here on */
    if (rc) {
        free(v);
        clb_seterr("out of host memory");
        return CLB_ESYS;
    }
    qsort(v, k, sizeof *v, key_order);
    for (size_t i = 0, first = 0; i < k; i++) {
        if (i && memcmp(v[i].key, v[i - 1].key, sizeof v[i].key))
            first = i;
        v[i].series = v[first].point;
    }
    qsort(v, k, sizeof *v, item_order);
    *out = v;
    *n = k;
    return CLB_OK;
}

static void preamble(struct clb_buf *s, const char *title, const char *xlabel, const char *ylabel)
{
    clb_buf_printf(s, "set encoding utf8\nset datafile separator tab\n"
                      "set datafile commentschars ''\nset title ");
    cmp_gp_string(s, title);
    clb_buf_printf(s, "\nset xlabel ");
    cmp_gp_string(s, xlabel);
    clb_buf_printf(s, "\nset ylabel ");
    cmp_gp_string(s, ylabel);
    clb_buf_printf(s, "\nset grid xtics ytics\nset key outside below left Left reverse maxcols 1\n");
}

/* Both figures end alike: the terminal for their legend of `entries` lines,
 * the plot command, then one check that no text ran out of memory (a buffer
 * a figure does not write stays empty, never out of memory). */
static int plot_command(const struct cmp_fig *g, struct cmp_plot_text *o,
                        const struct clb_buf *plots, const struct clb_buf *txt, int entries)
{
    cmp_plot_terminal(g, &o->script, entries);
    clb_buf_printf(&o->script, "plot %s\n", clb_buf_str(plots));
    if (plots->oom || txt->oom || o->script.oom || o->data.oom || o->peaks.oom) {
        clb_seterr("out of host memory writing the plot script");
        return CLB_ESYS;
    }
    return CLB_OK;
}

/* Free what a figure was built with, and on an error the figure's texts too
 * (the caller gets nothing half written); returns rc. */
static int script_done(int rc, struct cmp_plot_text *o, struct item *v, struct clb_buf *plots,
                       struct clb_buf *txt)
{
    free(v);
    clb_buf_free(plots);
    clb_buf_free(txt);
    if (rc)
        cmp_plot_text_free(o);
    return rc;
}

/* ---- the roofline -------------------------------------------------------- */

/* The compute ceilings a roof is drawn for, and their names. */
static const enum clb_ceiling_kind roof_kind[2] = {CLB_CEIL_SP, CLB_CEIL_DP};
static const char *const roof_name[2] = {"fp32", "fp64"};
static const char *const roof_style[2] = {"dt 2 lw 2 lc rgb 'black'", "dt 4 lw 2 lc rgb 'gray40'"};

static void fmt(double v, char *out, size_t n) { cmp_fmt_num(v, 0, out, n); }

int cmp_roofline_script(const struct cmp_fig *g, struct cmp_plot_text *o)
{
    memset(o, 0, sizeof *o);
    const struct cmp_table *t = g->t;
    const struct cmp_col *col = &t->cols[g->col];
    struct item *v = NULL;
    size_t n = 0;
    if (series_items(g, &v, &n))
        return CLB_ESYS;
    struct clb_buf *s = &o->script, *d = &o->data, *p = &o->peaks, plots = {0}, txt = {0};
    int rc = CLB_OK, entries = 0, block = 0;
    char a[32], b[32], c[32];
    if (!n) {
        clb_seterr("%s: no point to plot", cmp_esc_tmp(&txt, col->label, 0));
        rc = CLB_EUSAGE;
        goto out;
    }
    /* the x range: the points and the ridges, a factor 2 beyond */
    double bw = t->have_ceilings ? col->ceil[CLB_CEIL_BW] : NAN, xmin = INFINITY, xmax = 0;
    double comp[2], ridge[2];
    for (size_t i = 0; i < n; i++) {
        xmin = fmin(xmin, v[i].x);
        xmax = fmax(xmax, v[i].x);
    }
    for (int k = 0; k < 2; k++) {
        comp[k] = t->have_ceilings ? col->ceil[roof_kind[k]] : NAN;
        ridge[k] = comp[k] / bw;
        if (ridge[k] > 0 && isfinite(ridge[k])) {
            xmin = fmin(xmin, ridge[k]);
            xmax = fmax(xmax, ridge[k]);
        }
    }
    double lo = xmin / 2, hi = xmax * 2;
    /* the roofs: the bandwidth line (slope 1) up to the ridge, then the compute
     * ceiling; a bandwidth without a compute ceiling is a line of its own */
    int nroof = 0;
    for (int k = 0; k < 2; k++) {
        if (isnan(comp[k]))
            continue;
        txt.len = 0;
        fmt(comp[k], a, sizeof a);
        clb_buf_printf(&txt, "measured %s roof: ", roof_name[k]);
        if (!isnan(bw)) {
            fmt(bw, b, sizeof b);
            clb_buf_printf(&txt, "%s GB/s (%s), ", b, col->ceil_what[CLB_CEIL_BW]);
        }
        clb_buf_printf(&txt, "%s GFlop/s (%s)", a, col->ceil_what[roof_kind[k]]);
        cmp_plot_block(p, clb_buf_str(&txt));
        if (isnan(bw) || ridge[k] <= lo)
            clb_buf_printf(p, "%.10g\t%.10g\n", lo, comp[k]);
        else if (ridge[k] >= hi)
            clb_buf_printf(p, "%.10g\t%.10g\n", lo, bw * lo);
        else
            clb_buf_printf(p, "%.10g\t%.10g\n%.10g\t%.10g\n", lo, bw * lo, ridge[k], comp[k]);
        clb_buf_printf(p, "%.10g\t%.10g\n", hi, ridge[k] >= hi ? bw * hi : comp[k]);
        clb_buf_printf(&plots, "%s'fig%d.peak.dat' index %d using 1:2 with lines %s title "
                               "columnheader(2)", entries ? ", " : "", g->index, block++,
                       roof_style[k]);
        entries++;
        nroof++;
    }
    if (!isnan(bw) && !nroof) {
        fmt(bw, b, sizeof b);
        txt.len = 0;
        clb_buf_printf(&txt, "measured bandwidth: %s GB/s (%s)", b, col->ceil_what[CLB_CEIL_BW]);
        cmp_plot_block(p, clb_buf_str(&txt));
        clb_buf_printf(p, "%.10g\t%.10g\n%.10g\t%.10g\n", lo, bw * lo, hi, bw * hi);
        clb_buf_printf(&plots, "%s'fig%d.peak.dat' index %d using 1:2 with lines %s title "
                               "columnheader(2)", entries ? ", " : "", g->index, block++,
                       roof_style[0]);
        entries++;
    }
    /* the ridge points */
    for (int k = 0; k < 2; k++) {
        if (!(ridge[k] > 0) || !isfinite(ridge[k]))
            continue;
        fmt(ridge[k], a, sizeof a);
        fmt(comp[k], b, sizeof b);
        fmt(bw, c, sizeof c);
        txt.len = 0;
        clb_buf_printf(&txt, "%s ridge point: %s flop/byte (%s GFlop/s / %s GB/s)", roof_name[k], a,
                       b, c);
        cmp_plot_block(p, clb_buf_str(&txt));
        clb_buf_printf(p, "%.10g\t%.10g\n", ridge[k], comp[k]);
        clb_buf_printf(&plots, "%s'fig%d.peak.dat' index %d using 1:2 with points pt %d ps 2 "
                               "lc rgb 'black' title columnheader(2)", entries ? ", " : "",
                       g->index, block++, k ? 12 : 6);
        entries++;
    }
    /* the rows: one series per workload and type; the roofline's own as lines */
    int nseries = 0;
    for (size_t i = 0; i < n; i++) {
        const struct cmp_point *pt = &t->points[v[i].point];
        if (i == 0 || v[i].series != v[i - 1].series || v[i].own != v[i - 1].own) {
            txt.len = 0;
            clb_buf_printf(&txt, "%s%s%s", pt->workload, pt->dtype[0] ? " " : "", pt->dtype);
            cmp_plot_block(d, clb_buf_str(&txt));
            clb_buf_printf(&plots, "%s'fig%d.dat' index %d using 1:2 with %s lc %d pt %d title "
                                   "columnheader(2)", entries ? ", " : "", g->index, nseries,
                           v[i].own ? "linespoints lw 2 ps 1" : "points ps 1.5", nseries + 1,
                           v[i].own ? 7 : 1 + (nseries + 1) % 13);
            nseries++;
            entries++;
        }
        clb_buf_printf(d, "%.10g\t%.10g\n", v[i].x, v[i].y);
    }
    txt.len = 0;
    clb_buf_printf(&txt, "%s: %s, GFlop/s by arithmetic intensity", g->workload, col->label);
    preamble(s, clb_buf_str(&txt), "arithmetic intensity (flop/byte)", "GFlop/s");
    clb_buf_printf(s, "set logscale x 2\nset logscale y 10\nset xrange [%.10g:%.10g]\n", lo, hi);
    rc = plot_command(g, o, &plots, &txt, entries);
out:
    return script_done(rc, o, v, &plots, &txt);
}

/* ---- the staircase ------------------------------------------------------- */

int cmp_stairs_script(const struct cmp_fig *g, struct cmp_plot_text *o)
{
    memset(o, 0, sizeof *o);
    const struct cmp_table *t = g->t;
    const struct clb_workload *wl = clb_workload_find(g->workload);
    const char *xl = wl && wl->figure.x_label ? wl->figure.x_label : "x";
    const char *yl = wl && wl->figure.y_label ? wl->figure.y_label : "y";
    struct item *v = NULL;
    size_t n = 0;
    if (series_items(g, &v, &n))
        return CLB_ESYS;
    struct clb_buf *s = &o->script, *d = &o->data, plots = {0}, txt = {0};
    int rc = CLB_OK, nseries = 0, multi = 0;
    if (!n) {
        clb_seterr("%s: no point to plot", cmp_esc_tmp(&txt, g->workload, 0));
        rc = CLB_EUSAGE;
        goto out;
    }
    double xmin = INFINITY, xmax = 0, ymin = INFINITY, ymax = 0;
    for (size_t i = 0; i < n; i++) {
        xmin = fmin(xmin, v[i].x);
        xmax = fmax(xmax, v[i].x);
        ymin = fmin(ymin, v[i].y);
        ymax = fmax(ymax, v[i].y);
        multi |= t->points[v[i].point].col != t->points[v[0].point].col;
    }
    for (size_t i = 0; i < n; i++) {
        const struct cmp_point *pt = &t->points[v[i].point];
        if (i == 0 || v[i].series != v[i - 1].series) {
            txt.len = 0;
            clb_buf_printf(&txt, "%s: %s", t->cols[pt->col].label, pt->kernel);
            if (pt->dtype[0])
                clb_buf_printf(&txt, " %s", pt->dtype);
            if (pt->rest[0])
                clb_buf_printf(&txt, " %s", pt->rest);
            cmp_plot_block(d, clb_buf_str(&txt));
            /* colour: the device's with several devices, else the series' */
            clb_buf_printf(&plots, "%s'fig%d.dat' index %d using 1:2 with linespoints lw 2 lc %d "
                                   "dt %d pt %d title columnheader(2)", nseries ? ", " : "",
                           g->index, nseries, multi ? pt->col + 1 : nseries + 1, 1 + nseries % 5,
                           1 + nseries % 13);
            nseries++;
        }
        clb_buf_printf(d, "%.10g\t%.10g\n", v[i].x, v[i].y);
    }
    txt.len = 0;
    clb_buf_printf(&txt, "%s: %s by %s", g->workload, yl, xl);
    preamble(s, clb_buf_str(&txt), xl, yl);
    clb_buf_printf(s, "set logscale x 2\nset offsets graph 0.03, graph 0.03, 0, 0\n");
    if (wl && wl->figure.x_bytes)
        clb_buf_printf(s, "set format x '%%.0b %%BB'\n");   /* 1 kiB, 256 MiB */
    if (xmax >= 4096 * xmin)   /* a label every factor 4, from a power of 2 */
        clb_buf_printf(s, "set xtics %.10g, 4\n", pow(2, floor(log2(xmin))));
    if (ymax >= 20 * ymin)
        clb_buf_printf(s, "set logscale y 10\n");
    else
        clb_buf_printf(s, "set yrange [0:*]\n");
    rc = plot_command(g, o, &plots, &txt, nseries);
out:
    return script_done(rc, o, v, &plots, &txt);
}

/* clbench compare --plot: the figures drawn from the rows' own quantities
 * (struct cmp_point) for the workloads whose `figure` says so
 * (docs/COMPARE.md, "Figures"): a roofline per device (GFlop/s against
 * arithmetic intensity under its measured ceilings, every other workload's
 * device rows as points) and a staircase per workload (its y against its x
 * on a log2 axis, one line per device). Both are charts (include/clb_chart.h)
 * that `clbench report` draws too; the renderer escapes every text of a
 * results file on its way to gnuplot. */
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
    int series;       /* its first point: series in order of first appearance */
    int own;          /* roofline: drawn first, as lines */
    double x, y;
    size_t point;
};

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
    struct cmp_map seen = {.nk = 4};
    struct clb_arena names = {0};
    struct item *v = malloc((t->npoints + 1) * sizeof *v);
    size_t k = 0;
    int roof = g->kind == CMP_FIG_ROOFLINE, first = v ? 0 : -2;
    for (size_t i = 0; i < t->npoints && first >= 0; i++) {
        const struct cmp_point *p = &t->points[i];
        if (roof ? p->kind != CLB_FIGURE_ROOFLINE || p->col != g->col
                 : p->kind != CLB_FIGURE_STAIRS || strcmp(p->workload, g->workload))
            continue;
        const char *part[3] = {roof ? p->workload : p->kernel, p->dtype, roof ? "" : p->rest};
        uint64_t key[4] = {roof ? 0 : (uint64_t)p->col + 1};
        first = cmp_text_keys(&names, part, 3, key + 1) ? -2 : cmp_map_add(&seen, key, (int)i);
        v[k++] = (struct item){first, roof && p->own, p->x, p->y, i};
    }
    cmp_map_free(&seen);
    clb_arena_free(&names);
    if (first < -1) {
        free(v);
        return clb_oom();
    }
    qsort(v, k, sizeof *v, item_order);
    *out = v;
    *n = k;
    return CLB_OK;
}

/* ---- the roofline -------------------------------------------------------- */

/* The compute ceilings a roof is drawn for, and their names. */
static const enum clb_ceiling_kind roof_kind[2] = {CLB_CEIL_SP, CLB_CEIL_DP};
static const char *const roof_name[2] = {"fp32", "fp64"};

struct roof {
    double bw, comp[2], ridge[2], lo, hi;
};

/* The x range: the points and the ridges, a factor 2 beyond. */
static void roof_range(const struct cmp_fig *g, const struct item *v, size_t n, struct roof *r)
{
    const struct cmp_table *t = g->t;
    const struct cmp_col *col = &t->cols[g->col];
    double xmin = INFINITY, xmax = 0;
    r->bw = t->have_ceilings ? col->ceil[CLB_CEIL_BW] : NAN;
    for (size_t i = 0; i < n; i++) {
        xmin = fmin(xmin, v[i].x);
        xmax = fmax(xmax, v[i].x);
    }
    for (int k = 0; k < 2; k++) {
        r->comp[k] = t->have_ceilings ? col->ceil[roof_kind[k]] : NAN;
        r->ridge[k] = r->comp[k] / r->bw;
        if (r->ridge[k] > 0 && isfinite(r->ridge[k])) {
            xmin = fmin(xmin, r->ridge[k]);
            xmax = fmax(xmax, r->ridge[k]);
        }
    }
    r->lo = xmin / 2;
    r->hi = xmax * 2;
}

/* The roofs: the bandwidth line (slope 1) up to the ridge, then the compute
 * ceiling; a bandwidth without a compute ceiling is a line of its own. */
static void roofs(const struct cmp_fig *g, struct clb_chart *c, const struct roof *r,
                  struct clb_buf *txt)
{
    const struct cmp_col *col = &g->t->cols[g->col];
    char a[32], b[32];
    int nroof = 0;
    for (int k = 0; k < 2; k++) {
        if (isnan(r->comp[k]))
            continue;
        txt->len = 0;
        cmp_fmt_num(r->comp[k], 0, a, sizeof a);
        clb_buf_printf(txt, "measured %s roof: ", roof_name[k]);
        if (!isnan(r->bw)) {
            cmp_fmt_num(r->bw, 0, b, sizeof b);
            clb_buf_printf(txt, "%s GB/s (%s), ", b, col->ceil_what[CLB_CEIL_BW]);
        }
        clb_buf_printf(txt, "%s GFlop/s (%s)", a, col->ceil_what[roof_kind[k]]);
        struct clb_chart_series *s =
            clb_chart_series(c, clb_buf_str(txt), CLB_CS_LINES, k ? -1 : 0);
        if (!s)
            return;
        s->dash = k ? 4 : 2;
        int slope = !isnan(r->bw) && r->ridge[k] > r->lo;   /* it starts on the bandwidth */
        clb_chart_point(c, s, r->lo, slope ? r->bw * r->lo : r->comp[k], NULL);
        if (slope && r->ridge[k] < r->hi)
            clb_chart_point(c, s, r->ridge[k], r->comp[k], NULL);
        clb_chart_point(c, s, r->hi, r->ridge[k] >= r->hi ? r->bw * r->hi : r->comp[k], NULL);
        nroof++;
    }
    if (!isnan(r->bw) && !nroof) {
        cmp_fmt_num(r->bw, 0, b, sizeof b);
        txt->len = 0;
        clb_buf_printf(txt, "measured bandwidth: %s GB/s (%s)", b, col->ceil_what[CLB_CEIL_BW]);
        struct clb_chart_series *s = clb_chart_series(c, clb_buf_str(txt), CLB_CS_LINES, 0);
        clb_chart_point(c, s, r->lo, r->bw * r->lo, NULL);
        clb_chart_point(c, s, r->hi, r->bw * r->hi, NULL);
    }
}

/* The ridge points, marked and named in the legend. */
static void ridges(struct clb_chart *c, const struct roof *r, struct clb_buf *txt)
{
    char a[32], b[32], d[32];
    for (int k = 0; k < 2; k++) {
        if (!(r->ridge[k] > 0) || !isfinite(r->ridge[k]))
            continue;
        cmp_fmt_num(r->ridge[k], 0, a, sizeof a);
        cmp_fmt_num(r->comp[k], 0, b, sizeof b);
        cmp_fmt_num(r->bw, 0, d, sizeof d);
        txt->len = 0;
        clb_buf_printf(txt, "%s ridge point: %s flop/byte (%s GFlop/s / %s GB/s)", roof_name[k],
                       a, b, d);
        struct clb_chart_series *s = clb_chart_series(c, clb_buf_str(txt), CLB_CS_POINTS, 0);
        if (!s)
            return;
        s->guide = 1;
        s->marker = k ? 12 : 6;
        clb_chart_point(c, s, r->ridge[k], r->comp[k], NULL);
    }
}

static void roofline_chart(const struct cmp_fig *g, struct clb_chart *c, const struct item *v,
                           size_t n, struct clb_buf *txt)
{
    const struct cmp_table *t = g->t;
    struct roof r;
    roof_range(g, v, n, &r);
    clb_buf_printf(txt, "%s: %s, GFlop/s by arithmetic intensity", g->workload,
                   t->cols[g->col].label);
    c->title = clb_chart_str(c, clb_buf_str(txt));
    c->x.label = clb_chart_str(c, "arithmetic intensity (flop/byte)");
    c->y.label = clb_chart_str(c, "GFlop/s");
    c->x.scale = CLB_AXIS_LOG2;
    c->y.scale = CLB_AXIS_LOG10;
    c->x.lo = r.lo;
    c->x.hi = r.hi;
    roofs(g, c, &r, txt);
    ridges(c, &r, txt);
    /* the rows: one series per workload and type; the roofline's own as lines */
    struct clb_chart_series *s = NULL;
    int nseries = 0;
    for (size_t i = 0; i < n; i++) {
        const struct cmp_point *pt = &t->points[v[i].point];
        if (i == 0 || v[i].series != v[i - 1].series || v[i].own != v[i - 1].own) {
            txt->len = 0;
            clb_buf_printf(txt, "%s%s%s", pt->workload, pt->dtype[0] ? " " : "", pt->dtype);
            s = clb_chart_series(c, clb_buf_str(txt),
                                 v[i].own ? CLB_CS_LINESPOINTS : CLB_CS_POINTS, nseries + 1);
            if (s) {
                s->marker = v[i].own ? 7 : 1 + (nseries + 1) % 13;
                s->dash = 1;
            }
            nseries++;
        }
        clb_chart_point(c, s, v[i].x, v[i].y, NULL);
    }
}

/* ---- the staircase ------------------------------------------------------- */

/* The cache sizes of the staircase's devices as vertical lines: the last-level
 * cache the rows used (their llc_bytes) and the profile's L2 where it differs. */
static void cache_lines(const struct cmp_fig *g, struct clb_chart *c, const struct item *v,
                        size_t n, int multi, struct clb_buf *txt)
{
    const struct cmp_table *t = g->t;
    for (int col = 0; col < t->ncols; col++) {
        int here = 0;
        for (size_t i = 0; i < n && !here; i++)
            here = t->points[v[i].point].col == col;
        const struct cmp_col *cc = &t->cols[col];
        if (!here)
            continue;
        double sz[2] = {cc->llc_bytes, cc->l2_bytes};
        const char *what[2] = {"last-level cache (the rows' llc_bytes)", "L2 (datasheet profile)"};
        for (int k = 0; k < 2; k++) {
            if (!(sz[k] > 0) || (k == 1 && sz[1] == sz[0]))
                continue;
            txt->len = 0;
            clb_buf_printf(txt, "%s%s%s %.4g MiB", multi ? cc->label : "", multi ? ": " : "",
                           what[k], sz[k] / 1048576.0);
            clb_chart_vline(c, sz[k], clb_buf_str(txt), multi ? col + 1 : 0, k ? 4 : 3);
        }
    }
}

/* The staircases: a series per column, kernel, type and other params. */
static void stairs_series(const struct cmp_fig *g, struct clb_chart *c, const struct item *v,
                          size_t n, int multi, struct clb_buf *txt)
{
    const struct cmp_table *t = g->t;
    struct clb_chart_series *s = NULL;
    int nseries = 0;
    for (size_t i = 0; i < n; i++) {
        const struct cmp_point *pt = &t->points[v[i].point];
        if (i == 0 || v[i].series != v[i - 1].series) {
            txt->len = 0;
            clb_buf_printf(txt, "%s: %s", t->cols[pt->col].label, pt->kernel);
            if (pt->dtype[0])
                clb_buf_printf(txt, " %s", pt->dtype);
            if (pt->rest[0])
                clb_buf_printf(txt, " %s", pt->rest);
            /* colour: the device's with several devices, else the series' */
            s = clb_chart_series(c, clb_buf_str(txt), CLB_CS_LINESPOINTS,
                                 multi ? pt->col + 1 : nseries + 1);
            nseries++;
        }
        clb_chart_point(c, s, v[i].x, v[i].y, NULL);
    }
}

static void stairs_chart(const struct cmp_fig *g, struct clb_chart *c, const struct item *v,
                         size_t n, struct clb_buf *txt)
{
    const struct cmp_table *t = g->t;
    const struct clb_workload *wl = clb_workload_find(g->workload);
    const char *xl = wl && wl->figure.x_label ? wl->figure.x_label : "x";
    const char *yl = wl && wl->figure.y_label ? wl->figure.y_label : "y";
    double xmin = INFINITY, xmax = 0;
    int multi = 0;
    for (size_t i = 0; i < n; i++) {
        xmin = fmin(xmin, v[i].x);
        xmax = fmax(xmax, v[i].x);
        multi |= t->points[v[i].point].col != t->points[v[0].point].col;
    }
    stairs_series(g, c, v, n, multi, txt);
    txt->len = 0;
    clb_buf_printf(txt, "%s: %s by %s", g->workload, yl, xl);
    c->title = clb_chart_str(c, clb_buf_str(txt));
    c->x.label = clb_chart_str(c, xl);
    c->y.label = clb_chart_str(c, yl);
    clb_chart_axes(c, wl && wl->figure.x_bytes);   /* 1 kiB, 256 MiB */
    if (xmax >= 4096 * xmin)
        c->x.every = 4;   /* a label every factor 4 */
    cache_lines(g, c, v, n, multi, txt);
}

int cmp_points_chart(const struct cmp_fig *g, struct clb_chart *c)
{
    struct item *v = NULL;
    size_t n = 0;
    if (series_items(g, &v, &n))
        return CLB_ESYS;
    struct clb_buf txt = {0};   /* n > 0: cmp_fig_points found the figure's point */
    if (g->kind == CMP_FIG_ROOFLINE)
        roofline_chart(g, c, v, n, &txt);
    else
        stairs_chart(g, c, v, n, &txt);
    int rc = txt.oom ? CLB_ESYS : CLB_OK;
    clb_buf_free(&txt);
    free(v);
    return rc;
}

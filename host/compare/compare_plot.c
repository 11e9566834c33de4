/* clbench compare --plot: one figure of the table described as a chart
 * (include/clb_chart.h), which the chart layer draws (compare_plan.c hands
 * it over; tests/fuzz/fuzz_plot.c checks its gnuplot input): bars by kernel
 * in the order the workload's `figure` declares, one per device; lines where
 * a parameter is swept, or against the problem size where the workload
 * declares it (bus). Every text of the files stays text: the renderer
 * escapes it on its way to gnuplot. */
#include "compare_priv.h"
#include "clb_workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int cmp_fig_collect(struct cmp_fig *g, const struct cmp_table *t, const char *workload,
                    const int *cand, int ncand)
{
    g->t = t;
    g->workload = workload;
    g->nlines = g->ncols = 0;
    int n = cand ? ncand : t->nlines;
    char *has = calloc((size_t)t->ncols + 1, 1);   /* the columns with a figure */
    if (!has)
        return clb_oom();
    int metric = -1;   /* the metric of the workload's first line with a figure: its unit */
    for (int k = 0; k < n; k++) {
        int i = cand ? cand[k] : k;
        const struct cmp_line *l = &t->lines[i];
        if ((l->workload != workload && strcmp(l->workload, workload)) ||
            (metric >= 0 && l->metric != metric))
            continue;
        int any = 0;   /* a line of failed or skipped rows only has nothing to draw */
        for (int j = 0; j < l->ncells; j++) {
            int c = t->cells[l->cell0 + (size_t)j].col;
            if (!isnan(cmp_value(t, i, c))) {
                has[c] = 1;
                any = 1;
            }
        }
        if (any) {
            g->lines[g->nlines++] = i;
            metric = l->metric;
        }
    }
    g->metric = metric >= 0 ? &t->metrics[metric] : t->metric;
    for (int c = 0; c < t->ncols; c++)
        if (has[c])
            g->cols[g->ncols++] = c;
    free(has);
    if (!g->ncols) {
        struct clb_buf e = {0};
        clb_seterr("%s: no figure to plot for %s", cmp_esc_tmp(&e, workload, 0),
                   t->ref >= 0 ? "--relative-to's column" : "any device");
        clb_buf_free(&e);
        return CLB_EUSAGE;
    }
    return CLB_OK;
}

/* ---- helpers ---------------------------------------------------------- */

static const struct cmp_line *L(const struct cmp_fig *g, int i) { return &g->t->lines[g->lines[i]]; }

static int strp_order(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* How many different sizes the figure's lines have. */
static int ncat_sizes(const struct cmp_fig *g)
{
    const char **v = malloc(((size_t)g->nlines + 1) * sizeof *v);
    if (!v)
        return 2;   /* only decides whether labels show the size */
    for (int i = 0; i < g->nlines; i++)
        v[i] = L(g, i)->size;
    qsort(v, (size_t)g->nlines, sizeof *v, strp_order);
    int n = 0;
    for (int i = 0; i < g->nlines; i++)
        n += !i || strcmp(v[i], v[i - 1]);
    free(v);
    return n;
}

/* The x axis: 1 = a swept parameter, 2 = the size (where the workload
 * declares a figure against its size: transfers by size; sizes elsewhere
 * are each device's own defaults, not a sweep), 0 = bars by kernel. */
static int sweep_kind(const struct cmp_fig *g, const struct clb_workload *wl)
{
    int param = 0, allnum = 1;
    for (int i = 0; i < g->nlines; i++) {
        const struct cmp_line *l = L(g, i);
        param |= l->sweep_key[0] && !isnan(l->sweep_num);
        allnum &= !isnan(l->size_num);
    }
    return param ? 1 : allnum && wl && wl->figure.x_size ? 2 : 0;
}

static const char *sweep_key(const struct cmp_fig *g)
{
    for (int i = 0; i < g->nlines; i++)
        if (L(g, i)->sweep_key[0])
            return L(g, i)->sweep_key;
    return "parameter";
}

/* Whether the peak of the metric's unit can be drawn at all. */
static int peak_kind(const struct cmp_fig *g)
{
    return g->t->ref >= 0 ? CMP_PEAK_NONE : (int)g->metric->peak;
}

static void peak_title(struct clb_buf *b, const struct cmp_table *t, int col)
{
    b->len = 0;
    if (col < 0)
        clb_buf_printf(b, "peak bandwidth");
    else
        clb_buf_printf(b, "%s peak %.0f GB/s", t->cols[col].label, t->cols[col].peak_gbs);
}

/* ---- bars ------------------------------------------------------------- */

struct order_ctx {
    const struct cmp_fig *g;
    const struct clb_workload *wl;
};
static int bar_order(const void *pa, const void *pb, void *ctx)
{
    const struct order_ctx *octx = ctx;
    int a = *(const int *)pa, b = *(const int *)pb;
    int da = clb_figure_pos(octx->wl, L(octx->g, a)->kernel);
    int db = clb_figure_pos(octx->wl, L(octx->g, b)->kernel);
    if (da != db)
        return da - db;
    return (a > b) - (a < b);   /* the table's order otherwise */
}

/* The figure's lines in the declared order of their kernels (malloc'd). */
static int *bars_in_order(const struct cmp_fig *g, const struct clb_workload *wl)
{
    int *pos = malloc(((size_t)g->nlines + 1) * sizeof *pos);
    if (!pos)
        return NULL;
    for (int i = 0; i < g->nlines; i++)
        pos[i] = i;
    struct order_ctx ctx = {g, wl};
    clb_sort(pos, (size_t)g->nlines, sizeof *pos, bar_order, &ctx);
    return pos;
}

/* A column's peak (or the 100 % line, col -1) over the groups of device work. */
static void bar_peak(const struct cmp_fig *g, struct clb_chart *c, const int *pos, int k,
                     double *lv, struct clb_buf *lab)
{
    int col = k < 0 ? -1 : g->cols[k];
    double y = col < 0 ? 100 : g->t->cols[col].peak_gbs;
    for (int i = 0; i < g->nlines; i++)
        lv[i] = L(g, pos[i])->device_bound ? y : NAN;
    peak_title(lab, g->t, col);
    clb_chart_levels(c, clb_buf_str(lab), k < 0 ? 0 : k + 1, 2, lv, g->nlines);
}

/* Grouped bars: one group per line (kernel, type, ...), one bar per device;
 * a column's peak is drawn over the groups whose rows are device work only. */
static int chart_bars(const struct cmp_fig *g, struct clb_chart *c, int nsizes,
                      const struct clb_workload *wl)
{
    const struct cmp_table *t = g->t;
    int *pos = bars_in_order(g, wl);
    double *lv = malloc(((size_t)g->nlines + 1) * sizeof *lv);
    struct clb_buf lab = {0};
    int oom = !pos || !lv;
    for (int i = 0; !oom && i < g->nlines; i++) {
        const struct cmp_line *l = L(g, pos[i]);
        lab.len = 0;
        clb_buf_printf(&lab, "%s %s", l->kernel, l->dtype);
        if (nsizes > 1)
            clb_buf_printf(&lab, " %s", l->size);
        if (l->sweep[0])
            clb_buf_printf(&lab, " %s", l->sweep);
        clb_chart_cat(c, clb_buf_str(&lab));
    }
    for (int k = 0; !oom && k < g->ncols; k++) {
        struct clb_chart_series *s = clb_chart_series(c, t->cols[g->cols[k]].label, CLB_CS_BARS,
                                                      k + 1);
        for (int i = 0; s && i < g->nlines; i++)
            clb_chart_point(c, s, i, cmp_value(t, g->lines[pos[i]], g->cols[k]), NULL);
    }
    int pk = oom ? CMP_PEAK_NONE : peak_kind(g);
    if (pk == CMP_PEAK_HUNDRED)
        bar_peak(g, c, pos, -1, lv, &lab);
    for (int k = 0; pk == CMP_PEAK_BANDWIDTH && k < g->ncols; k++)
        bar_peak(g, c, pos, k, lv, &lab);
    oom |= lab.oom;
    clb_buf_free(&lab);
    free(pos);
    free(lv);
    return oom ? CLB_ESYS : CLB_OK;
}

/* ---- lines -------------------------------------------------------------- */

/* A device's series: its lines of one kernel, type, size (unless the size is
 * the x axis) and other swept values, in the order of their first line. */
static int column_series(const struct cmp_fig *g, struct clb_chart *c, int k, int kind,
                         int nsizes, struct clb_chart_series **sv, char *allbound)
{
    const struct cmp_table *t = g->t;
    struct cmp_map seen = {.nk = 4};
    struct clb_arena names = {0};
    struct clb_buf title = {0};
    int ns = 0, rc = CLB_OK;
    allbound[k] = 1;
    for (int i = 0; i < g->nlines && !rc; i++) {
        const struct cmp_line *b = L(g, i);
        double x = kind == 1 ? b->sweep_num : b->size_num;
        double y = cmp_value(t, g->lines[i], g->cols[k]);
        const char *rest = kind == 1 ? b->sweep_rest : b->sweep;
        const char *part[4] = {b->kernel, b->dtype, kind == 1 ? b->size : "", rest};
        uint64_t key[4];
        if (isnan(x) || isnan(y))
            continue;
        int q = cmp_text_keys(&names, part, 4, key) ? -2 : cmp_map_add(&seen, key, ns);
        if (q == ns) {   /* a new series: its colour the device's, with one device its own */
            title.len = 0;
            clb_buf_printf(&title, "%s: %s %s", t->cols[g->cols[k]].label, b->kernel, b->dtype);
            if (kind == 1 && nsizes > 1)
                clb_buf_printf(&title, " %s", b->size);
            if (*rest)
                clb_buf_printf(&title, " %s", rest);
            sv[ns++] = clb_chart_series(c, clb_buf_str(&title), CLB_CS_LINESPOINTS,
                                        g->ncols > 1 ? k + 1 : c->ns + 1);
        }
        rc = q < -1 || title.oom ? CLB_ESYS : CLB_OK;
        if (q >= 0) {
            allbound[k] &= b->device_bound != 0;
            clb_chart_point(c, sv[q], x, y, NULL);
        }
    }
    cmp_map_free(&seen);
    clb_arena_free(&names);
    clb_buf_free(&title);
    return rc;
}

static int chart_lines(const struct cmp_fig *g, struct clb_chart *c, int kind, int nsizes)
{
    struct clb_chart_series **sv = malloc(((size_t)g->nlines + 1) * sizeof *sv);
    char *allbound = calloc((size_t)g->ncols + 1, 1);
    struct clb_buf title = {0};
    int rc = sv && allbound ? CLB_OK : CLB_ESYS;
    for (int k = 0; !rc && k < g->ncols; k++)
        rc = column_series(g, c, k, kind, nsizes, sv, allbound);
    /* peaks over the whole x range: a column's where every point of it is
     * device work; 100 % where every point of the figure is */
    int pk = peak_kind(g), every = 1;
    for (int k = 0; !rc && k < g->ncols; k++)
        every &= allbound[k];
    for (int k = pk == CMP_PEAK_HUNDRED ? -1 : 0; !rc && pk != CMP_PEAK_NONE && k < g->ncols; k++) {
        int col = k < 0 ? -1 : g->cols[k];
        peak_title(&title, g->t, col);
        if (k < 0 ? every : allbound[k])
            clb_chart_level(c, clb_buf_str(&title), k < 0 ? 0 : k + 1, 2,
                            col < 0 ? 100 : g->t->cols[col].peak_gbs);
        if (k < 0)
            break;
    }
    c->x.label = clb_chart_str(c, kind == 1 ? sweep_key(g) : "problem size (elements)");
    rc = rc ? rc : title.oom ? CLB_ESYS : CLB_OK;
    free(sv);
    free(allbound);
    clb_buf_free(&title);
    return rc;
}

static int chart_table(const struct cmp_fig *g, struct clb_chart *c)
{
    const struct cmp_table *t = g->t;
    const struct clb_workload *wl = clb_workload_find(g->workload);
    int nsizes = ncat_sizes(g);
    int kind = sweep_kind(g, wl);
    struct clb_buf what = {0}, yl = {0};
    clb_buf_printf(&what, "%s: %s by %s", g->workload,
                   t->ref >= 0 ? "relative performance" : g->metric->unit,
                   kind == 1 ? sweep_key(g) : kind == 2 ? "problem size" : "kernel");
    if (t->ref >= 0)
        clb_buf_printf(&yl, "%s relative to %s", g->metric->name, t->cols[t->ref].label);
    else
        cmp_metric_axis(g->metric, &yl);
    c->title = clb_chart_str(c, clb_buf_str(&what));
    c->x.label = clb_chart_str(c, kind ? "" : "kernel");
    c->y.label = clb_chart_str(c, clb_buf_str(&yl));
    int oom = what.oom || yl.oom;
    clb_buf_free(&what);
    clb_buf_free(&yl);
    if (oom)
        return CLB_ESYS;
    int rc = kind ? chart_lines(g, c, kind, nsizes) : chart_bars(g, c, nsizes, wl);
    if (!rc && kind == 2 && wl && wl->figure.x_label)
        c->x.label = clb_chart_str(c, wl->figure.x_label);
    clb_chart_axes(c, kind == 2 && wl && wl->figure.x_bytes);
    return rc;
}

int cmp_fig_chart(const struct cmp_fig *g, struct clb_chart *c)
{
    clb_chart_init(c, "", "", "");
    int rc = g->kind == CMP_FIG_TABLE ? chart_table(g, c) : cmp_points_chart(g, c);
    if (!rc && c->oom)
        rc = CLB_ESYS;
    if (rc == CLB_ESYS)
        clb_seterr(CLB_OOM " writing the plot script");
    return rc;
}

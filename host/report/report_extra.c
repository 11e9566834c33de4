/* clbench report: the figures drawn from compare's points (each device's
 * roofline, the latency staircase), and energy. */
#include "report_priv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- rooflines and staircases: compare's charts ------------------------------------ */

/* The chart of compare's figure g (of kind and column), added with a caption. */
static void cmp_figure(struct rpt *r, enum cmp_fig_kind kind, const char *workload, int col,
                       const char *caption)
{
    struct cmp_fig g = {0};
    struct clb_chart ch;
    if (cmp_fig_points(&g, &r->t, kind, workload, col) != CLB_OK)
        return;
    int rc = cmp_fig_chart(&g, &ch);
    if (rc == CLB_OK)
        rpt_chart(r, &ch, caption);
    else
        clb_chart_free(&ch);
    r->oom |= rc == CLB_ESYS;
}

/* The flags of the figures column col (-1: every device) draws on a chart of
 * compare's -- its ok rows of workload (NULL: with bytes and flops, any
 * workload) -- appended to a caption in words: the chart itself marks none. */
static void flags_note(const struct rpt *r, struct clb_buf *cap, int col, const char *workload)
{
    for (int d = 0; d < r->ndev; d++) {
        unsigned f = 0;
        if (col >= 0 && r->dev[d] != col)
            continue;
        for (size_t i = 0; i < r->t.nrows; i++) {
            const struct clb_row *x = &r->t.rows[i];
            if (r->t.ri[i].col == r->dev[d] && !strcmp(x->status, "ok") && rpt_single(r, i) &&
                (workload ? !strcmp(x->workload, workload) : x->flops > 0 && x->bytes > 0))
                f |= r->rf[i] & ~(unsigned)RF_BAD;
        }
        if (!f)
            continue;
        clb_buf_printf(cap, "; flags of the figures of %s: ", rpt_label(r, r->dev[d]));
        rpt_flag_words(cap, f);
    }
}

/* One device and type: the best GB/s (the low-intensity rows) and GFlop/s
 * (the high) of its ok rows, and their flags. */
static void roof_line(struct rpt *r, const struct rpt_rows *w, int col, const char *dtype)
{
    double bw = NAN, fl = NAN;
    unsigned f = 0;
    int n = 0;
    for (size_t k = 0; k < w->n; k++) {
        size_t i = w->ids[k];
        const struct clb_row *x = &r->t.rows[i];
        if (r->t.ri[i].col != col || x->dtype != dtype || strcmp(x->status, "ok"))
            continue;
        n++;
        f |= r->rf[i] & ~(unsigned)RF_BAD;
        rpt_seen_row(r, i, r->rf[i] & ~(unsigned)RF_BAD);
        bw = !(x->gbps <= bw) ? x->gbps : bw;
        fl = !(x->gflops <= fl) ? x->gflops : fl;
    }
    rpt_wrap(r, "<tr><td>", rpt_label(r, col), "</td>");
    rpt_td(r, dtype);
    const double v[3] = {bw, fl, fl / bw};
    for (int k = 0; k < 3; k++)
        rpt_td_num(r, v[k]);
    struct clb_buf t = {0};
    rpt_flag_letters(&t, f);
    rpt_tag(r, "<td class=\"n\">%d</td>", n);
    rpt_td(r, clb_buf_str(&t));
    rpt_tag(r, "</tr>\n");
    clb_buf_free(&t);
}

static void roofline_table(struct rpt *r, const struct rpt_rows *w)
{
    const char **types = malloc((w->n + 1) * sizeof *types);
    if (!types)
        return;
    rpt_tag(r, "<div class=\"wide\"><table>\n<tr><th>device</th><th>type</th><th>best GB/s</th>"
               "<th>best GFlop/s</th><th>ridge (flop/byte)</th><th>ok rows</th><th>flags</th></tr>\n");
    for (int d = 0; d < r->ndev; d++) {
        size_t nt = 0;
        for (size_t k = 0; k < w->n; k++) {
            size_t i = w->ids[k];
            const char *t = r->t.rows[i].dtype;
            int seen = r->t.ri[i].col != r->dev[d];
            for (size_t j = 0; j < nt && !seen; j++)
                seen = types[j] == t;
            if (!seen)
                types[nt++] = t;
        }
        for (size_t j = 0; j < nt; j++)
            roof_line(r, w, r->dev[d], types[j]);
    }
    rpt_tag(r, "</table></div>\n");
    free(types);
}

void rpt_rooflines(struct rpt *r, const struct rpt_rows *w)
{
    struct clb_buf t = {0};
    for (int k = 0; k < r->ndev; k++) {
        rpt_fmt(&t, "%s: GFlop/s against flop/byte under its measured ceilings (the roof, its "
                    "ridge points marked); the roofline's own rows as lines, every other "
                    "workload's device rows as points", rpt_label(r, r->dev[k]));
        flags_note(r, &t, r->dev[k], NULL);
        cmp_figure(r, CMP_FIG_ROOFLINE, w->workload, r->dev[k], clb_buf_str(&t));
    }
    clb_buf_free(&t);
    roofline_table(r, w);
}

static int point_order(const void *pa, const void *pb)
{
    const struct cmp_point *a = *(const struct cmp_point *const *)pa;
    const struct cmp_point *b = *(const struct cmp_point *const *)pb;
    int c = a->col - b->col;
    c = c ? c : strcmp(a->kernel, b->kernel);
    c = c ? c : strcmp(a->rest, b->rest);
    return c ? c : (a->x > b->x) - (a->x < b->x);
}

/* The flags of the ok rows of a staircase's series (point p's), as letters. */
static void series_letters(struct rpt *r, const struct rpt_rows *w, const struct cmp_point *p,
                           struct clb_buf *b)
{
    const char *xkey = w->wl ? w->wl->figure.x_param : NULL;
    unsigned f = 0;
    for (size_t k = 0; k < w->n; k++) {
        size_t i = w->ids[k];
        const struct clb_row *x = &r->t.rows[i];
        if (r->t.ri[i].col == p->col && !strcmp(x->status, "ok") && !strcmp(x->kernel, p->kernel) &&
            !strcmp(rpt_params_without(r, i, xkey), p->rest)) {
            f |= r->rf[i] & ~(unsigned)RF_BAD;
            rpt_seen_row(r, i, r->rf[i] & ~(unsigned)RF_BAD);
        }
    }
    b->len = 0;
    rpt_flag_letters(b, f);
}

/* Per device and series: the first and last steps of the staircase. */
static void stairs_table(struct rpt *r, const struct rpt_rows *w)
{
    const struct cmp_point **v = malloc((r->t.npoints + 1) * sizeof *v);
    size_t n = 0;
    for (size_t i = 0; v && i < r->t.npoints; i++)
        if (r->t.points[i].kind == CLB_FIGURE_STAIRS && !strcmp(r->t.points[i].workload, w->workload))
            v[n++] = &r->t.points[i];
    if (!v)
        return;
    qsort(v, n, sizeof *v, point_order);
    const char *xl = w->wl && w->wl->figure.x_label ? w->wl->figure.x_label : "x";
    const char *yl = w->wl && w->wl->figure.y_label ? w->wl->figure.y_label : "y";
    rpt_wrap(r, "<div class=\"wide\"><table>\n<tr><th>device</th><th>kernel, params</th>"
                "<th>smallest ", xl, " (bytes)</th><th>");
    rpt_wrap(r, "", yl, "</th><th>largest</th><th>");
    rpt_wrap(r, "", yl, "</th><th>last-level cache (bytes)</th><th>flags</th></tr>\n");
    struct clb_buf t = {0};
    for (size_t a = 0; a < n;) {
        size_t b = a;
        while (b < n && v[b]->col == v[a]->col && !strcmp(v[b]->kernel, v[a]->kernel) &&
               !strcmp(v[b]->rest, v[a]->rest))
            b++;
        rpt_wrap(r, "<tr><td>", rpt_label(r, v[a]->col), "</td>");
        rpt_wrap(r, "<td>", v[a]->kernel, " ");
        rpt_wrap(r, "", v[a]->rest, "</td>");
        const double cells[5] = {v[a]->x, v[a]->y, v[b - 1]->x, v[b - 1]->y,
                                 r->t.cols[v[a]->col].llc_bytes};
        for (int k = 0; k < 5; k++)
            rpt_td_num(r, cells[k]);
        series_letters(r, w, v[a], &t);
        rpt_td(r, clb_buf_str(&t));
        rpt_tag(r, "</tr>\n");
        a = b;
    }
    rpt_tag(r, "</table></div>\n");
    clb_buf_free(&t);
    free(v);
}

void rpt_stairs(struct rpt *r, const struct rpt_rows *w)
{
    struct clb_buf t = {0};
    clb_buf_printf(&t, "each device's staircase (the lowest time per load of each working set), "
                       "its last-level cache and datasheet L2 marked where they are known");
    flags_note(r, &t, -1, w->workload);
    cmp_figure(r, CMP_FIG_STAIRS, w->workload, -1, clb_buf_str(&t));
    clb_buf_free(&t);
    stairs_table(r, w);
}

/* ---- energy ----------------------------------------------------------------------- */

/* The energy of one workload on one column: median and highest power, the
 * best figure per watt (unit 0: GB/s, 1: GFlop/s). 0 rows: nothing. */
struct watts {
    int n, unit;
    double median, max, idle, per_w;
    size_t best;
};

/* The median of v[0..n) (sorted in place), NAN for none: for an even n the
 * upper middle value, as the page always showed (clb_median averages). */
static double median(double *v, size_t n)
{
    if (!n)
        return NAN;
    clb_sort_doubles(v, n);
    return v[n / 2];
}

static void watts_of(const struct rpt *r, const struct rpt_rows *w, int col, struct watts *o)
{
    double *p = malloc((w->n + 1) * sizeof *p), *idle = malloc((w->n + 1) * sizeof *idle);
    int ni = 0;
    *o = (struct watts){0, 0, NAN, NAN, NAN, NAN, 0};
    for (size_t k = 0; p && idle && k < w->n; k++) {
        size_t i = w->ids[k];
        const struct clb_row *x = &r->t.rows[i];
        if (r->t.ri[i].col != col || strcmp(x->status, "ok") || !(x->avg_power_w > 0))
            continue;
        p[o->n++] = x->avg_power_w;
        double id = clb_row_metric(x, "idle_power_w");
        if (id > 0)
            idle[ni++] = id;
        int gf = (r->t.ri[i].kind & CMP_RK_GFLOPS) != 0;
        double v = rpt_value(r, i) / x->avg_power_w;
        if (!strcmp(rpt_unit(r, i), gf ? "GFlop/s" : "GB/s") && v > 0 && !(v <= o->per_w)) {
            o->per_w = v;
            o->best = i;
            o->unit = gf;
        }
    }
    o->median = median(p, (size_t)o->n);
    o->max = o->n ? p[o->n - 1] : NAN;   /* sorted by median */
    o->idle = median(idle, (size_t)ni);
    free(p);
    free(idle);
}

static void energy_chart(struct rpt *r, const struct rpt_rows *w, int nw, int what)
{
    static const char *const title[3] = {"average board power while each workload ran (W)",
                                         "GB/s per W (the best row of each memory workload)",
                                         "GFlop/s per W (the best row of each compute workload)"};
    static const char *const unit[3] = {"W", "GB/s per W", "GFlop/s per W"};
    struct clb_chart ch;
    clb_chart_init(&ch, title[what], "workload", unit[what]);
    int any = 0;
    int *cat = malloc(((size_t)nw + 1) * sizeof *cat);
    for (int k = 0; cat && k < nw; k++)
        cat[k] = -1;
    for (int d = 0; cat && d < r->ndev; d++) {
        struct clb_chart_series *s = clb_chart_series(&ch, rpt_label(r, r->dev[d]), CLB_CS_BARS,
                                                      rpt_colour(r, r->dev[d]));
        for (int k = 0; k < nw; k++) {
            struct watts o;
            watts_of(r, &w[k], r->dev[d], &o);
            double v = what == 0 ? o.median : o.unit == what - 1 ? o.per_w : NAN;
            if (isnan(v))
                continue;
            if (cat[k] < 0)
                cat[k] = clb_chart_cat(&ch, w[k].workload);
            clb_chart_point(&ch, s, cat[k], v, NULL);
            any = 1;
        }
    }
    free(cat);
    if (any)
        rpt_chart(r, &ch, what ? "the best figure per watt of each workload, from the rows that "
                                 "have energy columns"
                               : "the median of the rows' average power (energy / time) of each "
                                 "workload; the table gives the idle power beside it");
    else
        clb_chart_free(&ch);
}

/* A device's idle power (the median of its rows' idle_power_w) against the
 * lowest median power of its workloads: an idle figure above what a workload
 * drew while it ran was not read at rest (the board was still busy, e.g. a
 * run that had just ended: docs/ENERGY.md) and cannot be subtracted. */
struct idle_check {
    double idle, low;
    int low_wl;   /* the workload of the lowest median, -1 */
};

static void idle_of(const struct rpt *r, const struct rpt_rows *w, int nw, int col,
                    struct idle_check *c)
{
    *c = (struct idle_check){NAN, NAN, -1};
    double *v = malloc((r->t.nrows + 1) * sizeof *v);
    size_t n = 0;
    for (size_t i = 0; v && i < r->t.nrows; i++) {
        double id = r->t.ri[i].col == col ? clb_row_metric(&r->t.rows[i], "idle_power_w") : NAN;
        if (id > 0)
            v[n++] = id;
    }
    c->idle = median(v, n);
    free(v);
    for (int k = 0; k < nw; k++) {
        struct watts o;
        watts_of(r, &w[k], col, &o);
        if (o.n && !(o.median >= c->low)) {
            c->low = o.median;
            c->low_wl = k;
        }
    }
}

static int idle_contradicted(const struct idle_check *c)
{
    return c->idle > 0 && c->low_wl >= 0 && c->idle > c->low;
}

static void idle_notes(struct rpt *r, const struct rpt_rows *w, int nw)
{
    for (int d = 0; d < r->ndev; d++) {
        struct idle_check c;
        idle_of(r, w, nw, r->dev[d], &c);
        if (!idle_contradicted(&c))
            continue;
        struct clb_buf b = {0};
        clb_buf_printf(&b, "%s: its idle power, %.1f W, is above the median power of %s "
                           "while it ran (%.1f W): the board was not at rest when it was read "
                           "(busy, or still drawing power after earlier work, such as a run "
                           "that had just ended), so it is not this device's idle power and "
                           "cannot be subtracted.", rpt_label(r, r->dev[d]), c.idle,
                       w[c.low_wl].workload, c.low);
        rpt_wrap(r, "<p class=\"note\"><span class=\"flag bad\">idle?</span> ", clb_buf_str(&b),
                 "</p>\n");
        r->oom |= b.oom;
        clb_buf_free(&b);
    }
}

static void energy_table(struct rpt *r, const struct rpt_rows *w, int nw)
{
    rpt_tag(r, "<div class=\"wide\"><table>\n<tr><th>device</th><th>workload</th><th>rows</th>"
               "<th>median W</th><th>highest W</th><th>idle W</th><th>best per W</th>"
               "<th>unit</th><th>of</th></tr>\n");
    for (int d = 0; d < r->ndev; d++) {
        struct idle_check ic;
        idle_of(r, w, nw, r->dev[d], &ic);
        for (int k = 0; k < nw; k++) {
            struct watts o;
            watts_of(r, &w[k], r->dev[d], &o);
            if (!o.n)
                continue;
            const struct clb_row *x = &r->t.rows[o.best];
            rpt_wrap(r, "<tr><td>", rpt_label(r, r->dev[d]), "</td>");
            rpt_td(r, w[k].workload);
            rpt_tag(r, "<td class=\"n\">%d</td>", o.n);
            rpt_td_num(r, o.median);
            rpt_td_num(r, o.max);
            rpt_tag(r, "<td class=\"n\">");
            rpt_num(r, o.idle);
            if (idle_contradicted(&ic) && !isnan(o.idle))
                rpt_tag(r, " <span class=\"flag bad\">idle?</span>");
            rpt_tag(r, "</td><td class=\"n\">");
            rpt_num(r, o.per_w);
            rpt_tag(r, "</td><td>%s</td><td>", isnan(o.per_w) ? "" : o.unit ? "GFlop/s per W"
                                                                              : "GB/s per W");
            if (!isnan(o.per_w)) {
                rpt_text(r, x->kernel);
                rpt_wrap(r, " ", x->dtype, " ");
                rpt_text(r, x->params);
            }
            rpt_tag(r, "</td></tr>\n");
        }
    }
    rpt_tag(r, "</table></div>\n");
    idle_notes(r, w, nw);
}

void rpt_energy(struct rpt *r)
{
    struct rpt_rows *w;
    int nw, any = 0;
    if (rpt_workloads(r, &w, &nw)) {
        r->oom = 1;
        return;
    }
    for (int k = 0; k < nw && !any; k++)
        for (size_t j = 0; j < w[k].n && !any; j++)
            any = r->t.rows[w[k].ids[j]].avg_power_w > 0;
    if (any) {
        rpt_section(r, "Energy", "Board (NVML) or package (RAPL) power over the timed "
                                 "repetitions, where the rows have it; never estimated.");
        for (int what = 0; what < 3; what++)
            energy_chart(r, w, nw, what);
        energy_table(r, w, nw);
        rpt_section_end(r);
    }
    rpt_workloads_free(w, nw);
}

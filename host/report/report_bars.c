/* clbench report: the bar charts -- a workload's kernels (one bar per device
 * and published source, each at the size its device shows them), and each
 * device's bandwidth overview (every memory workload as % of its measured
 * ceiling and of its datasheet peak). */
#include "report_priv.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A category: kernel, type and the swept params (compare's lines). */
struct cat {
    const char *workload, *kernel, *dtype, *sweep;
    long wrank;    /* the workload's registry position */
    int pos;       /* the kernel's declared position */
    int first;     /* the first table line of its rows */
    int unit;      /* 1: GFlop/s or its own metric, 0: GB/s */
    int id;        /* its index before the categories are ordered */
};

struct bars {
    struct rpt *r;
    const struct clb_workload *wl;
    struct cat *cat;
    int ncat;
    size_t *ids;   /* the rows, sorted by category then column */
    int *catof;    /* per position in ids: its category */
    size_t n;
    int nosweep;   /* categories ignore the swept params (the overview: the best of them) */
};

/* A row's swept params ("rhs=2"); one pointer for none, whoever made the
 * empty text (categories compare it as a pointer). */
static const char no_sweep[] = "";

static const char *sweep_of(const struct bars *b, size_t i)
{
    int l = b->r->t.ri[i].line;
    const char *s = l >= 0 && !b->nosweep ? b->r->t.lines[l].sweep : no_sweep;
    return s[0] ? s : no_sweep;
}

static int cat_order(const void *pa, const void *pb)
{
    const struct cat *a = pa, *b = pb;
    if (a->wrank != b->wrank)
        return a->wrank < b->wrank ? -1 : 1;
    if (a->pos != b->pos)
        return a->pos - b->pos;
    if (a->first != b->first)
        return (a->first > b->first) - (a->first < b->first);
    /* categories without a table line (rows without a figure): by name, not by
     * where their texts happen to lie in memory */
    int c = strcmp(a->kernel, b->kernel);
    c = c ? c : strcmp(a->dtype, b->dtype);
    c = c ? c : strcmp(a->sweep, b->sweep);
    return c ? c : strcmp(a->workload, b->workload);
}

/* A row's category key: texts interned, so compared as pointers. */
static int key_order(const struct bars *sort_b, size_t a, size_t b)
{
    const struct clb_row *x = &sort_b->r->t.rows[a], *y = &sort_b->r->t.rows[b];
    const void *ka[4] = {x->workload, x->kernel, x->dtype, sweep_of(sort_b, a)};
    const void *kb[4] = {y->workload, y->kernel, y->dtype, sweep_of(sort_b, b)};
    for (int k = 0; k < 4; k++)
        if (ka[k] != kb[k])
            return (uintptr_t)ka[k] < (uintptr_t)kb[k] ? -1 : 1;
    return 0;
}

static int by_key(const void *pa, const void *pb, void *ctx)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    int c = key_order(ctx, a, b);
    return c ? c : (a > b) - (a < b);
}

static int by_cat_col(const void *pa, const void *pb, void *ctx)
{
    const struct bars *sort_b = ctx;
    const size_t *a = pa, *b = pb;   /* pairs: (category, row) */
    if (a[0] != b[0])
        return a[0] < b[0] ? -1 : 1;
    int la = rpt_col_rank(sort_b->r, sort_b->r->t.ri[a[1]].col);
    int lb = rpt_col_rank(sort_b->r, sort_b->r->t.ri[b[1]].col);
    return la != lb ? la - lb : (a[1] > b[1]) - (a[1] < b[1]);
}

/* A new category for row i (the first of its key in b->ids). */
static struct cat new_cat(const struct bars *b, size_t i)
{
    const struct rpt *r = b->r;
    const struct clb_row *x = &r->t.rows[i];
    const struct clb_workload *wl = clb_workload_find(x->workload);
    return (struct cat){x->workload, x->kernel, x->dtype, sweep_of(b, i),
                        rpt_workload_rank(x->workload), clb_figure_pos(wl, x->kernel), 1 << 30,
                        strcmp(rpt_unit(r, i), "GB/s") != 0, b->ncat};
}

/* Rows of one key together (b->ids sorted by key), a category per key;
 * pair[2k] = the category of b->ids[k] (in key order), pair[2k+1] = the row. */
static void group_keys(struct bars *b, size_t *pair)
{
    const struct rpt *r = b->r;
    clb_sort(b->ids, b->n, sizeof *b->ids, by_key, b);
    for (size_t k = 0; k < b->n; k++) {
        if (!k || key_order(b, b->ids[k], b->ids[k - 1])) {
            b->cat[b->ncat] = new_cat(b, b->ids[k]);   /* its id: b->ncat */
            b->ncat++;
        }
        int l = r->t.ri[b->ids[k]].line;
        struct cat *c = &b->cat[b->ncat - 1];
        c->first = l >= 0 && l < c->first ? l : c->first;   /* its first table line */
        pair[2 * k] = (size_t)b->ncat - 1;
        pair[2 * k + 1] = b->ids[k];
    }
}

/* The categories in their declared order (a total order: no two are
 * equal), the rows by category then column. */
static void order_cats(struct bars *b, size_t *pair, int *rank)
{
    qsort(b->cat, (size_t)b->ncat, sizeof *b->cat, cat_order);
    for (int k = 0; k < b->ncat; k++)
        rank[b->cat[k].id] = k;
    for (size_t k = 0; k < b->n; k++)
        pair[2 * k] = (size_t)rank[pair[2 * k]];
    clb_sort(pair, b->n, 2 * sizeof *pair, by_cat_col, b);
    for (size_t k = 0; k < b->n; k++) {
        b->catof[k] = (int)pair[2 * k];
        b->ids[k] = pair[2 * k + 1];
    }
}

/* The categories of rows ids[0..n) in their declared order, and the rows
 * sorted by category and column (sorts, no search: any number of rows). */
static int make_cats(struct bars *b, const size_t *ids, size_t n)
{
    size_t *pair = malloc(2 * (n + 1) * sizeof *pair);
    int *rank = malloc((n + 1) * sizeof *rank);
    b->ids = malloc((n + 1) * sizeof *b->ids);
    b->catof = malloc((n + 1) * sizeof *b->catof);
    b->cat = malloc((n + 1) * sizeof *b->cat);
    int ok = pair && rank && b->ids && b->catof && b->cat;
    if (ok) {
        memcpy(b->ids, ids, n * sizeof *ids);
        b->n = n;
        group_keys(b, pair);
        order_cats(b, pair, rank);
    }
    free(pair);
    free(rank);
    return ok ? CLB_OK : CLB_ESYS;
}

static void bars_free(struct bars *b)
{
    free(b->cat);
    free(b->ids);
    free(b->catof);
}

/* The rows of category k on column col: a run of b->ids (sorted by category,
 * then column). */
static size_t run_of(const struct bars *b, int k, int col, size_t *start)
{
    size_t lo = 0, hi = b->n, n = 0;
    while (lo < hi) {   /* the category's first row */
        size_t mid = lo + (hi - lo) / 2;
        if (b->catof[mid] < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t p = lo; p < b->n && b->catof[p] == k; p++)
        if (b->r->t.ri[b->ids[p]].col == col) {
            if (!n)
                *start = p;
            n++;
        }
    return n;
}

static void cat_name(struct clb_buf *s, const struct cat *c, int with_workload)
{
    s->len = 0;
    if (with_workload)
        clb_buf_printf(s, "%s ", c->workload);
    clb_buf_printf(s, "%s", c->kernel);
    if (c->dtype[0])
        clb_buf_printf(s, " %s", c->dtype);
    if (c->sweep[0])
        clb_buf_printf(s, " %s", c->sweep);
}

/* The columns with rows here: devices, then published sources. */
static int cols_here(const struct bars *b, int *cols)
{
    int n = 0;
    for (int pass = 0; pass < 2; pass++) {
        const int *v = pass ? b->r->ref : b->r->dev;
        int nv = pass ? b->r->nref : b->r->ndev;
        for (int k = 0; k < nv; k++)
            for (size_t p = 0; p < b->n; p++)
                if (b->r->t.ri[b->ids[p]].col == v[k]) {
                    cols[n++] = v[k];
                    break;
                }
    }
    return n;
}

/* ---- the baseline: the declared kernel at the same size and type ------------------ */

/* The baseline's figure for the cell c of category k on column col (its
 * rows at the cell's size), NAN. */
static double baseline(const struct bars *b, int k, int col, const struct rpt_cell *c)
{
    const char *base = b->wl ? b->wl->figure.baseline : NULL;
    if (!base || isnan(c->raw))
        return NAN;
    const struct rpt *r = b->r;
    double best = NAN;
    for (size_t p = 0; p < b->n; p++) {
        size_t i = b->ids[p];
        const struct clb_row *x = &r->t.rows[i];
        if (r->t.ri[i].col != col || strcmp(x->kernel, base) || x->dtype != b->cat[k].dtype ||
            r->t.ri[i].size != r->t.ri[c->best].size || strcmp(x->status, "ok"))
            continue;
        double v = rpt_value(r, i);
        if (!(v <= best))
            best = v;
    }
    return best;
}

/* ---- the chart ------------------------------------------------------------------ */

/* One column's bars: its cells' figures, the split part stacked where the
 * workload declares one, flags and baseline ratios written above. */
static void column_bars(const struct bars *b, struct clb_chart *ch, int col, int unit, double *lv)
{
    const struct rpt *r = b->r;
    double *peak = lv, *ceil = lv + b->ncat, *base = lv + 2 * b->ncat;
    const char *split = b->wl ? b->wl->figure.split : NULL;
    struct clb_chart_series *s = clb_chart_series(ch, rpt_label(r, col), CLB_CS_BARS,
                                                  rpt_colour(r, col));
    struct clb_chart_series *rest = NULL;
    struct clb_buf lab = {0};
    for (int k = 0; k < b->ncat; k++) {
        size_t start = 0, n = run_of(b, k, col, &start);
        peak[k] = ceil[k] = base[k] = NAN;
        if (!n || b->cat[k].unit != unit)
            continue;
        struct rpt_cell c;
        rpt_cell(r, b->ids + start, n, &c);
        double share = split ? clb_row_metric(&r->t.rows[c.best], split) : NAN;
        share = share >= 0 && share <= 1 ? share : NAN;
        peak[k] = r->o->norm == CLB_NORM_ABSOLUTE ? rpt_peak(r, c.best) : NAN;
        ceil[k] = r->o->norm == CLB_NORM_ABSOLUTE ? rpt_ceiling(r, c.best) : NAN;
        base[k] = baseline(b, k, col, &c);
        lab.len = 0;
        if (base[k] > 0 && !isnan(c.raw) && strcmp(b->cat[k].kernel, b->wl->figure.baseline))
            clb_buf_printf(&lab, "%.2f\xc3\x97 ", c.raw / base[k]);   /* 0.95x of copy */
        rpt_flag_letters(&lab, c.flags & ~(unsigned)RF_BYTES);   /* B: the table's, by its bytes */
        double v = isnan(share) ? c.v : c.v * share;
        clb_chart_point(ch, s, k, v, lab.len ? clb_buf_str(&lab) : NULL);
        if (!isnan(share) && !rest) {
            rest = clb_chart_series(ch, rpt_fmt(&lab, "%s: the CPU's part of the split",
                                                rpt_label(r, col)), CLB_CS_BARS, -1);
            if (rest)
                rest->stack = 1;
        }
        if (!isnan(share))
            clb_chart_point(ch, rest, k, c.v * (1 - share), NULL);
    }
    if (rest && ch->s[ch->ns - 1] != rest)
        rest->stack = 0;   /* only stacked when it follows its own bars */
    clb_buf_free(&lab);
}

/* The unit of most categories (1: not GB/s). */
static int main_unit(const struct bars *b)
{
    int n1 = 0;
    for (int k = 0; k < b->ncat; k++)
        n1 += b->cat[k].unit;
    return 2 * n1 > b->ncat;
}

static void bar_chart(struct rpt *r, const struct bars *b, const int *cols, int ncols,
                      const char *title)
{
    int unit = main_unit(b);
    const char *u = unit ? (b->wl && b->wl->figure.y_metric ? b->wl->figure.y_unit : "GFlop/s")
                         : "GB/s";
    struct clb_chart ch;
    struct clb_buf t = {0}, lab = {0};
    clb_buf_printf(&t, "%s: %s by kernel", title, rpt_norm_unit(r, u ? u : ""));
    rpt_on_devices(r, cols, ncols, &t);
    clb_chart_init(&ch, clb_buf_str(&t), "kernel, type",
                   b->wl && b->wl->figure.y_label ? b->wl->figure.y_label : rpt_norm_unit(r, u));
    for (int k = 0; k < b->ncat; k++) {
        cat_name(&lab, &b->cat[k], 0);
        clb_chart_cat(&ch, clb_buf_str(&lab));
    }
    rpt_colours_for(r, cols, ncols);
    double *lv = malloc(3 * ((size_t)b->ncat + 1) * sizeof *lv);
    const char *base = b->wl && b->wl->figure.baseline ? b->wl->figure.baseline : "";
    const char *const what[3] = {"datasheet peak", "measured ceiling", base};
    for (int c = 0; lv && c < ncols; c++) {
        column_bars(b, &ch, cols[c], unit, lv);
        if (r->t.cols[cols[c]].reference)
            continue;   /* published sources: their bars (the table names their sizes) */
        for (int j = 0; j < 3; j++)
            clb_chart_levels(&ch, rpt_fmt(&lab, "%s: %s%s", rpt_label(r, cols[c]), what[j],
                                          j == 2 ? " at the same size and type" : ""),
                             rpt_colour(r, cols[c]), 2 + j, lv + j * b->ncat, b->ncat);
    }
    free(lv);
    if (r->o->norm != CLB_NORM_ABSOLUTE && !(b->wl && b->wl->figure.y_metric))
        clb_chart_level(&ch, "100 %", 0, 2, 100);
    clb_chart_axes(&ch, 0);
    rpt_fmt(&t, "%s, each device at its default size (the largest outside its caches); letters "
                "above a bar are its flags", title);
    if (b->wl && b->wl->figure.baseline)
        clb_buf_printf(&t, "; the ratio is to %s of the same size and type",
                       b->wl->figure.baseline);
    if (b->wl && b->wl->figure.split)
        clb_buf_printf(&t, "; a grey part is the CPU's share of a hybrid run (%s)",
                       b->wl->figure.split);
    rpt_chart(r, &ch, clb_buf_str(&t));
    clb_buf_free(&t);
    clb_buf_free(&lab);
}

/* ---- the table ------------------------------------------------------------------ */

static void bar_table(struct rpt *r, const struct bars *b, const int *cols, int ncols)
{
    struct clb_buf lab = {0};
    rpt_tag(r, "<div class=\"wide\"><table>\n<tr><th>kernel, type</th><th>unit</th>");
    for (int c = 0; c < ncols; c++)
        rpt_wrap(r, "<th>", rpt_label(r, cols[c]), "</th>");
    rpt_tag(r, "</tr>\n");
    for (int k = 0; k < b->ncat; k++) {
        cat_name(&lab, &b->cat[k], 0);
        rpt_wrap(r, "<tr><td>", clb_buf_str(&lab), "</td><td>");
        size_t start = 0, n = 0;
        for (int c = 0; c < ncols && !n; c++)
            n = run_of(b, k, cols[c], &start);
        rpt_wrap(r, "", rpt_norm_unit(r, rpt_unit(r, b->ids[start])), "</td>");
        for (int c = 0; c < ncols; c++) {
            struct rpt_cell cell;
            n = run_of(b, k, cols[c], &start);
            rpt_cell(r, n ? b->ids + start : NULL, n, &cell);
            rpt_cell_td(r, &cell, baseline(b, k, cols[c], &cell), 1);
        }
        rpt_tag(r, "</tr>\n");
    }
    rpt_tag(r, "</table></div>\n");
    clb_buf_free(&lab);
}

void rpt_bars(struct rpt *r, const struct rpt_rows *w)
{
    struct bars b = {.r = r, .wl = w->wl};
    int *cols = malloc(((size_t)r->t.ncols + 1) * sizeof *cols);
    if (!cols || make_cats(&b, w->ids, w->n)) {
        r->oom = 1;
    } else {
        int ncols = cols_here(&b, cols);
        bar_chart(r, &b, cols, ncols, w->workload);
        bar_table(r, &b, cols, ncols);
    }
    free(cols);
    bars_free(&b);
}

/* ---- a device's bandwidth overview --------------------------------------------------- */

/* Rows of device work in GB/s of the table workloads, on column col. */
static int overview_row(const struct rpt *r, size_t i, int col)
{
    const struct cmp_rowinfo *ri = &r->t.ri[i];
    const struct clb_workload *wl = clb_workload_find(r->t.rows[i].workload);
    int k = ri->kind;
    return ri->col == col && rpt_single(r, i) && wl && wl->figure.kind == CLB_FIGURE_TABLE &&
           !wl->figure.y_metric && (k & CMP_RK_COUNTED) &&
           !(k & (CMP_RK_HOST | CMP_RK_COMPUTE | CMP_RK_GFLOPS));
}

/* The overview's chart of the categories of b on column col: two bars each. */
static void overview_chart(struct rpt *r, const struct bars *b, int col)
{
    double ceil = r->t.cols[col].ceil[CLB_CEIL_BW], peak = r->t.cols[col].peak_gbs;
    struct clb_chart ch;
    struct clb_buf lab = {0};
    clb_buf_printf(&lab, "%s: bandwidth of each memory workload", rpt_label(r, col));
    clb_chart_init(&ch, clb_buf_str(&lab), "workload, kernel, type", "% of the limit");
    struct clb_chart_series *s[2] = {
        clb_chart_series(&ch, "% of the measured bandwidth ceiling", CLB_CS_BARS,
                         rpt_colour(r, col)),
        clb_chart_series(&ch, "% of the datasheet peak bandwidth", CLB_CS_BARS, -1)};
    for (int k = 0; k < b->ncat; k++) {
        size_t start = 0, m = run_of(b, k, col, &start);
        struct rpt_cell c;
        rpt_cell(r, b->ids + start, m, &c);
        cat_name(&lab, &b->cat[k], 1);
        clb_chart_cat(&ch, clb_buf_str(&lab));
        lab.len = 0;
        rpt_flag_letters(&lab, c.flags);
        clb_chart_point(&ch, s[0], k, ceil > 0 ? 100 * c.raw / ceil : NAN,
                        lab.len ? clb_buf_str(&lab) : NULL);
        clb_chart_point(&ch, s[1], k, peak > 0 ? 100 * c.raw / peak : NAN, NULL);
    }
    clb_chart_level(&ch, "100 %", 0, 2, 100);
    const char *src = r->t.cols[col].ceil_src[CLB_CEIL_BW];
    rpt_chart(r, &ch, rpt_fmt(&lab, "%s: each memory workload's best GB/s per kernel and type "
                                    "at its default size, as %% of the measured ceiling (%s) and "
                                    "of the datasheet peak", rpt_label(r, col),
                              src[0] ? src : "not measured"));
    clb_buf_free(&lab);
}

void rpt_overview(struct rpt *r, int col)
{
    size_t *ids = malloc((r->t.nrows + 1) * sizeof *ids), n = 0;
    struct bars b = {.r = r, .nosweep = 1};
    for (size_t i = 0; ids && i < r->t.nrows; i++)
        if (overview_row(r, i, col))
            ids[n++] = i;
    double ceil = r->t.cols[col].ceil[CLB_CEIL_BW], peak = r->t.cols[col].peak_gbs;
    if (ids && n && !(ceil > 0) && !(peak > 0)) {
        rpt_wrap(r, "<p class=\"note\">No bandwidth overview: ", rpt_label(r, col),
                 " has no measured bandwidth ceiling in these files (stream or roofline rows "
                 "outside the caches) and no datasheet peak.</p>\n");
    } else if (!ids || (n && make_cats(&b, ids, n))) {
        r->oom = 1;
    } else if (n) {   /* the categories across workloads: the registry's order first */
        overview_chart(r, &b, col);
    }
    bars_free(&b);
    free(ids);
}

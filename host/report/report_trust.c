/* clbench report: MPI jobs (each rank's figure and the job's aggregate) and
 * the rows to distrust (the ones without a figure, with their reason; the
 * figures a flag qualifies, grouped). */
#include "report_priv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- MPI jobs ----------------------------------------------------------------------- */

/* A job's configuration: column, workload, kernel, type, size, params, ranks. */
static int same_config(const struct rpt *r, size_t a, size_t b)
{
    const struct clb_row *x = &r->t.rows[a], *y = &r->t.rows[b];
    return r->t.ri[a].col == r->t.ri[b].col && x->workload == y->workload &&
           x->kernel == y->kernel && x->dtype == y->dtype && x->size == y->size &&
           x->params == y->params && x->ranks == y->ranks && x->run_id == y->run_id;
}

/* A job's rows are written together: by column, then in file order. */
static int by_config(const void *pa, const void *pb, void *ctx)
{
    const struct rpt *sort_r = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    int ca = sort_r->t.ri[a].col, cb = sort_r->t.ri[b].col;
    return ca != cb ? ca - cb : (a > b) - (a < b);
}

/* The rows of MPI jobs of more than one rank, grouped by configuration. */
static size_t job_rows(const struct rpt *r, size_t *ids)
{
    size_t n = 0;
    for (size_t i = 0; i < r->t.nrows; i++)
        if (r->t.ri[i].col >= 0 && r->t.rows[i].ranks > 1)
            ids[n++] = i;
    clb_sort(ids, n, sizeof *ids, by_config, (void *)r);
    return n;
}

struct job {
    size_t all;             /* the aggregate row, or (size_t)-1 */
    double lo, hi;          /* the slowest and fastest rank */
    int nrank;
};

static void job_of(const struct rpt *r, const size_t *ids, size_t n, struct job *j)
{
    *j = (struct job){(size_t)-1, NAN, NAN, 0};
    for (size_t k = 0; k < n; k++) {
        const struct clb_row *x = &r->t.rows[ids[k]];
        double v = strcmp(x->status, "ok") ? NAN : rpt_value(r, ids[k]);
        if (!strcmp(x->rank, "all")) {
            j->all = ids[k];
            continue;
        }
        j->nrank++;
        j->lo = !(v >= j->lo) ? v : j->lo;
        j->hi = !(v <= j->hi) ? v : j->hi;
    }
}

static const char *job_name(struct clb_buf *b, const struct clb_row *x)
{
    return rpt_fmt(b, "%s %s %s %s %s", x->workload, x->kernel, x->dtype, x->size, x->params);
}

static void scaling_table(struct rpt *r, const size_t *ids, size_t n)
{
    struct clb_buf t = {0};
    rpt_tag(r, "<div class=\"wide\"><table>\n<tr><th>device</th><th>configuration</th>"
               "<th>ranks</th><th>unit</th><th>aggregate</th><th>slowest rank</th>"
               "<th>fastest rank</th><th>spread %%</th></tr>\n");
    for (size_t a = 0; a < n;) {
        size_t b = a;
        while (b < n && same_config(r, ids[a], ids[b]))
            b++;
        struct job j;
        job_of(r, ids + a, b - a, &j);
        rpt_wrap(r, "<tr><td>", rpt_label(r, r->t.ri[ids[a]].col), "</td>");
        rpt_td(r, job_name(&t, &r->t.rows[ids[a]]));
        rpt_tag(r, "<td class=\"n\">%d</td>", j.nrank);
        rpt_td(r, rpt_unit(r, ids[a]));
        const double v[4] = {j.all != (size_t)-1 ? rpt_value(r, j.all) : NAN, j.lo, j.hi,
                             j.hi > 0 ? 100 * (j.hi - j.lo) / j.hi : NAN};
        for (int k = 0; k < 4; k++)
            rpt_td_num(r, v[k]);
        rpt_tag(r, "</tr>\n");
        a = b;
    }
    rpt_tag(r, "</table></div>\n");
    clb_buf_free(&t);
}

/* Bars of the aggregate, each rank's figure as a point over them. */
static void scaling_chart(struct rpt *r, const size_t *ids, size_t n)
{
    struct clb_chart ch;
    struct clb_buf t = {0};
    clb_chart_init(&ch, "MPI jobs: the aggregate and each rank", "configuration",
                   "the row's unit (GB/s or GFlop/s)");
    struct clb_chart_series *agg = clb_chart_series(&ch, "aggregate (rank=all)", CLB_CS_BARS, 1);
    struct clb_chart_series *rk = clb_chart_series(&ch, "one rank", CLB_CS_POINTS, 0);
    if (rk)
        rk->marker = 7;
    for (size_t a = 0; a < n;) {
        size_t b = a;
        while (b < n && same_config(r, ids[a], ids[b]))
            b++;
        int c = clb_chart_cat(&ch, job_name(&t, &r->t.rows[ids[a]]));
        for (size_t k = a; k < b; k++) {
            const struct clb_row *x = &r->t.rows[ids[k]];
            double v = strcmp(x->status, "ok") ? NAN : rpt_value(r, ids[k]);
            clb_chart_point(&ch, strcmp(x->rank, "all") ? rk : agg, c, v, NULL);
        }
        a = b;
    }
    clb_chart_axes(&ch, 0);
    rpt_chart(r, &ch, "each job's aggregate row (bars) and its ranks' own rows (points): the "
                      "spread between ranks is the table's");
    clb_buf_free(&t);
}

void rpt_scaling(struct rpt *r)
{
    size_t *ids = malloc((r->t.nrows + 1) * sizeof *ids);
    if (!ids) {
        r->oom = 1;
        return;
    }
    size_t n = job_rows(r, ids);
    if (n) {
        rpt_section(r, "MPI jobs", "Rows measured by jobs of several ranks, one device each: "
                                   "every rank's own row and the job's aggregate (rank=all).");
        scaling_chart(r, ids, n);
        scaling_table(r, ids, n);
        rpt_section_end(r);
    }
    free(ids);
}

/* ---- rows to distrust ----------------------------------------------------------------- */

/* The flagged rows with a figure, grouped by column, workload and flags. */
static int by_group(const void *pa, const void *pb, void *ctx)
{
    const struct rpt *sort_r = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const char *wa = sort_r->t.rows[a].workload, *wb = sort_r->t.rows[b].workload;
    long ra = rpt_workload_rank(wa), rb = rpt_workload_rank(wb);
    unsigned fa = sort_r->rf[a], fb = sort_r->rf[b];
    int c = sort_r->t.ri[a].col - sort_r->t.ri[b].col;
    c = c ? c : (ra > rb) - (ra < rb);
    c = c ? c : strcmp(wa, wb);
    c = c ? c : (fa > fb) - (fa < fb);
    return c ? c : (a > b) - (a < b);
}

static void flagged_group(struct rpt *r, const size_t *ids, size_t n)
{
    const struct clb_row *x = &r->t.rows[ids[0]];
    struct clb_buf t = {0};
    rpt_seen_row(r, ids[0], r->rf[ids[0]]);
    rpt_wrap(r, "<tr><td>", rpt_label(r, r->t.ri[ids[0]].col), "</td>");
    rpt_td(r, x->workload);
    rpt_flag_words(&t, r->rf[ids[0]]);
    rpt_td(r, clb_buf_str(&t));
    rpt_tag(r, "<td class=\"n\">%zu</td><td>", n);
    t.len = 0;
    for (size_t k = 0; k < n && k < 8; k++) {
        const struct clb_row *y = &r->t.rows[ids[k]];
        clb_buf_printf(&t, "%s%s %s %s%s%s", k ? "; " : "", y->kernel, y->dtype, y->size,
                       y->params[0] ? " " : "", y->params);
    }
    if (n > 8)
        clb_buf_printf(&t, "; +%zu more", n - 8);
    rpt_text(r, clb_buf_str(&t));
    rpt_tag(r, "</td></tr>\n");
    clb_buf_free(&t);
}

static void flagged_rows(struct rpt *r)
{
    size_t *ids = malloc((r->t.nrows + 1) * sizeof *ids), n = 0;
    for (size_t i = 0; ids && i < r->t.nrows; i++)
        if (r->t.ri[i].col >= 0 && r->rf[i] && !(r->rf[i] & RF_BAD))
            ids[n++] = i;
    if (!ids || !n) {
        free(ids);
        return;
    }
    clb_sort(ids, n, sizeof *ids, by_group, r);
    rpt_tag(r, "<h3>Figures to read with care</h3>\n<div class=\"wide\"><table>\n<tr><th>device"
               "</th><th>workload</th><th>flags</th><th>rows</th><th>which</th></tr>\n");
    for (size_t a = 0; a < n;) {
        size_t b = a;
        while (b < n && r->t.ri[ids[b]].col == r->t.ri[ids[a]].col &&
               r->t.rows[ids[b]].workload == r->t.rows[ids[a]].workload && r->rf[ids[b]] == r->rf[ids[a]])
            b++;
        flagged_group(r, ids + a, b - a);
        a = b;
    }
    rpt_tag(r, "</table></div>\n");
    free(ids);
}

static int reduced(const struct rpt *r, size_t i)
{
    return r->t.ri[i].col >= 0 && !r->t.cols[r->t.ri[i].col].reference &&
           clb_row_flag(&r->t.rows[i], "reduced");
}

/* The rows without a figure (bad), or the launches a set-up reduced to fit
 * the device (metric reduced=1: a tile or a work-group smaller than asked;
 * host/core/fit.c): not a flag, but a figure of another launch than the one
 * named, so listed here with the reason. */
static void row_list(struct rpt *r, int bad)
{
    int n = 0;
    for (size_t i = 0; i < r->t.nrows; i++) {
        if (bad ? r->t.ri[i].col < 0 || !(r->rf[i] & RF_BAD) : !reduced(r, i))
            continue;
        const struct clb_row *x = &r->t.rows[i];
        if (!n++ && bad)
            rpt_tag(r, "<h3>Rows without a figure</h3>\n<div class=\"wide\"><table>\n<tr><th>"
                       "device</th><th>workload</th><th>kernel</th><th>type</th><th>size</th>"
                       "<th>params</th><th>status</th><th>why (the row's detail)</th></tr>\n");
        else if (n == 1)
            rpt_tag(r, "<h3>Launches reduced to fit the device</h3>\n<p class=\"note\">A tile or "
                       "work-group smaller than asked (the metric reduced=1): the params name "
                       "what ran, the detail why.</p>\n<div class=\"wide\"><table>\n<tr><th>"
                       "device</th><th>workload</th><th>kernel</th><th>type</th><th>size</th>"
                       "<th>params (as run)</th><th>why (the row's detail)</th></tr>\n");
        const char *cells[8] = {rpt_label(r, r->t.ri[i].col), x->workload, x->kernel, x->dtype,
                                x->size, x->params, bad ? x->status : x->detail, x->detail};
        rpt_tag(r, "<tr>");
        for (int k = 0; k < 7 + bad; k++)
            rpt_td(r, cells[k]);
        rpt_tag(r, "</tr>\n");
    }
    if (n)
        rpt_tag(r, "</table></div>\n");
}

void rpt_distrust(struct rpt *r)
{
    int any = 0;
    for (size_t i = 0; i < r->t.nrows && !any; i++)
        any = (r->t.ri[i].col >= 0 && r->rf[i]) || reduced(r, i);
    rpt_section(r, "Rows to distrust", any ? "Rows that gave no figure, with their reason, and "
                                             "figures that a flag qualifies (the letters on the "
                                             "charts, explained below and in each section), "
                                             "and launches reduced to fit the device."
                                           : "No row failed, was skipped, is flagged or was "
                                             "reduced to fit the device.");
    row_list(r, 1);
    flagged_rows(r);
    row_list(r, 0);
    rpt_section_end(r);
}

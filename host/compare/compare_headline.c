/* clbench compare --headline: the table people paste into slides (docs/
 * COMPARE.md, "The headline"): one row per figure the workloads declare
 * (struct clb_headline: triad and dot GB/s, the fp32 and fp64 peaks, a
 * launch's µs, the memory latency), one column per device, each figure's %
 * of the datasheet where it has one, and the ratio of each device to the
 * first. ./bench.sh ends with it and the report opens with it. No workload
 * is named here: the registry's declarations are read. */
#include "compare_priv.h"
#include "clb_workload.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The device's best of the workload's lines of the item's kernel (and
 * type), in each line's own figure; a cache-resident figure (C) does not
 * count. NAN when none. */
static double best_line(const struct cmp_table *t, const struct clb_workload *wl,
                        const struct clb_headline *it, int col, int *lower)
{
    double best = NAN;
    for (int i = 0; i < t->nlines; i++) {
        const struct cmp_line *l = &t->lines[i];
        if (strcmp(l->workload, wl->name) || strcmp(l->kernel, it->kernel) ||
            (it->dtype && strcmp(l->dtype, it->dtype)))
            continue;
        const struct cmp_cell *c = cmp_cell_at(t, i, col);
        if (!c->n || c->ncache)
            continue;
        int hib = t->metrics[l->metric].higher_is_better;
        *lower = !hib;
        if (isnan(best) || (hib ? c->best > best : c->best < best))
            best = c->best;
    }
    return best;
}

/* The unit of the item's figure: its lines' (the workload's own), or the
 * ceiling's. */
static const char *unit_of(const struct cmp_table *t, const struct clb_workload *wl,
                           const struct clb_headline *it)
{
    for (int i = 0; i < t->nlines; i++)
        if (!strcmp(t->lines[i].workload, wl->name) && !strcmp(t->lines[i].kernel, it->kernel))
            return t->metrics[t->lines[i].metric].unit;
    return it->ceiling == CLB_CEIL_LATENCY ? "ns"
           : it->ceiling == CLB_CEIL_SP || it->ceiling == CLB_CEIL_DP ? "GFlop/s"
                                                                      : "GB/s";
}

/* The datasheet peak a figure in this unit is a share of, for a column. */
static double datasheet(const struct cmp_col *c, const struct clb_headline *it, const char *unit)
{
    if (!strcmp(unit, "GB/s"))
        return c->peak_gbs;
    if (strcmp(unit, "GFlop/s"))
        return NAN;
    return it->dtype && clb_dtype_is_double(it->dtype) ? c->peak_dp : c->peak_sp;
}

static struct cmp_hl_row *add_row(struct cmp_headline *h, const char *label, const char *unit)
{
    struct cmp_hl_row *nr = realloc(h->rows, ((size_t)h->nrows + 1) * sizeof *nr);
    double *v = nr ? malloc(((size_t)h->t.ncols + 1) * sizeof *v) : NULL;
    if (nr)
        h->rows = nr;
    if (!v)
        return NULL;
    struct cmp_hl_row *r = &h->rows[h->nrows++];
    *r = (struct cmp_hl_row){label, unit, 0, 0, v};
    for (int c = 0; c < h->t.ncols; c++)
        v[c] = NAN;
    return r;
}

/* The rows of one declared figure: its values, and its % of the datasheet. */
static int item_rows(struct cmp_headline *h, const struct clb_workload *wl,
                     const struct clb_headline *it)
{
    const struct cmp_table *t = &h->t;
    const char *unit = unit_of(t, wl, it);
    struct cmp_hl_row *r = add_row(h, it->label, unit);
    if (!r)
        return CLB_ESYS;
    int any = 0, lower = it->ceiling == CLB_CEIL_LATENCY;
    for (int c = 0; c < t->ncols; c++) {
        const struct cmp_col *col = &t->cols[c];
        double v = it->ceiling >= 0 && !col->reference ? col->ceil[it->ceiling] : NAN;
        if (isnan(v) && (it->ceiling < 0 || col->reference))
            v = best_line(t, wl, it, c, &lower);
        r->v[c] = v;
        any |= !isnan(v);
    }
    r->lower_is_better = lower;
    if (!any) {   /* no device has it: no row */
        free(r->v);
        h->nrows--;
        return CLB_OK;
    }
    if (!it->datasheet)
        return CLB_OK;
    double *val = r->v;
    struct cmp_hl_row *p = add_row(h, "% of datasheet", "%");
    if (!p)
        return CLB_ESYS;
    p->datasheet = 1;
    any = 0;
    for (int c = 0; c < t->ncols; c++) {
        double d = datasheet(&t->cols[c], it, unit);
        p->v[c] = d > 0 ? 100.0 * val[c] / d : NAN;
        any |= !isnan(p->v[c]);
    }
    if (!any) {
        free(p->v);
        h->nrows--;
    }
    return CLB_OK;
}

int cmp_headline_build(struct cmp_headline *h, char **files, int nfiles, const char *run_ids)
{
    memset(h, 0, sizeof *h);
    struct cmp_filter flt = {.line_up = 1, .headline = 1, .run_id = run_ids};
    int rc = cmp_build(&h->t, files, nfiles, &flt, cmp_metric_find("auto"));
    for (const struct clb_workload *const *w = clb_workload_list(); !rc && *w; w++)
        for (const struct clb_headline *it = (*w)->headline; !rc && it && it->label; it++)
            rc = item_rows(h, *w, it);
    if (!rc && !(h->cols = malloc(((size_t)h->t.ncols + 1) * sizeof *h->cols)))
        rc = CLB_ESYS;
    for (int c = 0; !rc && c < h->t.ncols; c++) {
        int any = 0;
        for (int k = 0; k < h->nrows && !any; k++)
            any = !h->rows[k].datasheet && !isnan(h->rows[k].v[c]);
        if (any)
            h->cols[h->ncols++] = c;
    }
    if (!rc && !h->ncols)
        rc = clb_eusage("no device in these files has a figure of the headline (stream triad, dot, "
                        "the fp32 and fp64 peaks, launch and memory latency)");
    if (rc == CLB_ESYS && !strstr(clb_lasterr(), "memory"))
        clb_seterr("out of host memory");
    if (rc)
        cmp_headline_free(h);
    return rc;
}

void cmp_headline_free(struct cmp_headline *h)
{
    for (int k = 0; k < h->nrows; k++)
        free(h->rows[k].v);
    free(h->rows);
    free(h->cols);
    cmp_free(&h->t);
    memset(h, 0, sizeof *h);
}

void cmp_headline_fmt(const struct cmp_hl_row *r, double v, char *out, size_t n)
{
    if (r->datasheet && !isnan(v))
        snprintf(out, n, "%.1f", v);
    else
        cmp_fmt_num(v, 0, out, n);
}

/* The ratio of column k of the headline to its first column. */
static double ratio(const struct cmp_headline *h, const struct cmp_hl_row *r, int k)
{
    double a = r->v[h->cols[0]], b = r->v[h->cols[k]];
    return a > 0 && !isnan(b) ? b / a : NAN;
}

void cmp_headline_ratio(const struct cmp_headline *h, const struct cmp_hl_row *r, int k,
                        char *out, size_t n)
{
    double x = r->datasheet ? NAN : ratio(h, r, k);
    if (isnan(x))
        snprintf(out, n, "%s", r->datasheet ? "" : "-");
    else
        cmp_fmt_num(x, 1, out, n);   /* 1.41, 0.0489 */
}

/* The grid: figure, unit, one column per device, then each device over
 * the first (the datasheet rows have none). md: the devices' names. */
static int grid(const struct cmp_headline *h, struct cmp_grid *g, int md)
{
    int nc = 2 + h->ncols + (h->ncols - 1);
    if (cmp_grid_init(g, nc, h->nrows))
        return CLB_ESYS;
    struct clb_buf e = {0}, b = {0};
    char num[64];
    int bad = cmp_grid_set(g, -1, 0, "figure") | cmp_grid_set(g, -1, 1, "unit");
    for (int k = 0; k < h->ncols; k++) {
        const char *label = h->t.cols[h->cols[k]].label;
        snprintf(num, sizeof num, "[%d]", k + 1);
        bad |= cmp_grid_set(g, -1, 2 + k, md ? cmp_esc_tmp(&e, label, CMP_ESC_MD) : num);
        g->right[2 + k] = 1;
        if (!k)
            continue;
        b.len = 0;
        if (md) {
            struct cmp_esc_args two = {0};
            clb_buf_printf(&b, "%s / %s", cmp_esc_arg(&two, label, CMP_ESC_MD),
                           cmp_esc_arg(&two, h->t.cols[h->cols[0]].label, CMP_ESC_MD));
            cmp_esc_args_free(&two);
        } else
            clb_buf_printf(&b, "[%d]/[1]", k + 1);
        bad |= b.oom || cmp_grid_set(g, -1, 1 + h->ncols + k, clb_buf_str(&b));
        g->right[1 + h->ncols + k] = 1;
    }
    for (int i = 0; i < h->nrows && !bad; i++) {
        const struct cmp_hl_row *r = &h->rows[i];
        bad |= cmp_grid_set(g, i, 0, r->datasheet && !md ? "  % of datasheet" : r->label);
        bad |= cmp_grid_set(g, i, 1, r->unit);
        for (int k = 0; k < h->ncols; k++) {
            cmp_headline_fmt(r, r->v[h->cols[k]], num, sizeof num);
            bad |= cmp_grid_set(g, i, 2 + k, num);
            if (!k)
                continue;
            cmp_headline_ratio(h, r, k, num, sizeof num);
            bad |= cmp_grid_set(g, i, 1 + h->ncols + k, num);
        }
    }
    clb_buf_free(&b);
    return cmp_grid_done(g, &e, bad);
}

static const char *const intro =
    "headline: each device's best outside its caches (its measured ceiling where one is)";

static int print_headline(const struct cmp_headline *h, FILE *f, int md)
{
    struct cmp_grid g;
    if (grid(h, &g, md))
        return CLB_ESYS;
    struct clb_buf e = {0};
    fprintf(f, "%s%s\n", md ? "Table: " : "", intro);
    for (int k = 0; !md && k < h->ncols; k++) {
        cmp_col_legend(&h->t.cols[h->cols[k]], k + 1, f, &e);
        fputs(")\n", f);
    }
    fputc('\n', f);
    cmp_grid_print(&g, f, md);
    if (!md && h->ncols > 1)
        fputs("\n[k]/[1]: each device over the first (for the latencies, lower is better)\n", f);
    clb_buf_free(&e);
    cmp_grid_free(&g);
    return cmp_stream_ok(f);
}

int cmp_headline_print_text(const struct cmp_headline *h, FILE *f)
{
    return print_headline(h, f, 0);
}

int cmp_headline_print_markdown(const struct cmp_headline *h, FILE *f)
{
    return print_headline(h, f, 1);
}

#define SET(o, k, v) bad |= json_object_set_new((o), (k), (v)) != 0

int cmp_headline_print_json(const struct cmp_headline *h, FILE *f)
{
    int bad = 0;
    json_t *root = json_object(), *cols = json_array(), *rows = json_array();
    SET(root, "schema", json_string("clbench-headline-1"));
    for (int k = 0; k < h->ncols; k++) {
        const struct cmp_col *c = &h->t.cols[h->cols[k]];
        json_t *o = json_object(), *fs = json_array();
        SET(o, "index", json_integer(k + 1));
        SET(o, "label", cmp_json_str(c->label));
        SET(o, "device", cmp_json_str(c->device));
        SET(o, "reference", json_boolean(c->reference));
        for (int j = 0; j < c->nfiles; j++)
            bad |= json_array_append_new(fs, cmp_json_str(c->files[j])) != 0;
        SET(o, "files", fs);
        bad |= json_array_append_new(cols, o) != 0;
    }
    for (int i = 0; i < h->nrows; i++) {
        const struct cmp_hl_row *r = &h->rows[i];
        json_t *o = json_object(), *v = json_array(), *x = json_array();
        SET(o, "figure", json_string(r->label));
        SET(o, "unit", json_string(r->unit));
        SET(o, "higher_is_better", json_boolean(!r->lower_is_better));
        SET(o, "datasheet", json_boolean(r->datasheet));
        for (int k = 0; k < h->ncols; k++) {
            bad |= json_array_append_new(v, cmp_json_num(r->v[h->cols[k]])) != 0;
            if (k)
                bad |= json_array_append_new(x, cmp_json_num(r->datasheet ? NAN : ratio(h, r, k))) != 0;
        }
        SET(o, "values", v);
        SET(o, "ratios", x);   /* each device after the first over the first */
        bad |= json_array_append_new(rows, o) != 0;
    }
    SET(root, "columns", cols);
    SET(root, "rows", rows);
    char *text = bad ? NULL : json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
    json_decref(root);
    if (!text)
        return clb_err(CLB_ESYS, "out of host memory");
    fprintf(f, "%s\n", text);
    free(text);
    return cmp_stream_ok(f);
}
#undef SET

/* clbench compare: the metrics, the cells' figures, and the table as aligned
 * text or Markdown. Every name from the files is escaped for display
 * (cmp_esc): a device name cannot move the cursor, start a new line or break
 * a Markdown table. */
#include "compare_priv.h"
#include "clb_workload.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- metrics ------------------------------------------------------------ */

static double get_gbps(const struct clb_row *r) { return r->gbps; }
static double get_gbps_best(const struct clb_row *r) { return r->gbps_best; }
static double get_gflops(const struct clb_row *r) { return r->gflops; }
static double get_pct_peak(const struct clb_row *r) { return r->pct_peak_bw; }

/* Rates per watt: the row's rate over its average power over the timed runs
 * (docs/ENERGY.md); empty where no energy was read. */
static double per_watt(double rate, const struct clb_row *r)
{
    return r->avg_power_w > 0 && !isnan(rate) ? rate / r->avg_power_w : NAN;
}
static double get_gflops_per_watt(const struct clb_row *r) { return per_watt(r->gflops, r); }
static double get_gbps_per_watt(const struct clb_row *r) { return per_watt(r->gbps, r); }
static double get_power(const struct clb_row *r) { return r->avg_power_w; }

/* A metric of the columns: name, unit, axis, help, get, higher is better,
 * peak, measured, time column. */
#define COLM(n, u, a, h, g, hib, pk, meas, tc)                                                  \
    {.name = n, .unit = u, .axis = a, .help = h, .get = g, .higher_is_better = hib, .peak = pk, \
     .measured = meas, .time_col = tc}

static const struct cmp_metric metrics[] = {
    {.name = "auto", .unit = "", .axis = "each workload's own figure", .per_workload = 1,
     .help = "each workload in its own figure and unit (default)", .higher_is_better = 1,
     .peak = CMP_PEAK_NONE, .time_col = CLB_C_t_median_s},
    COLM("gbps", "GB/s", "bandwidth, median time (GB/s)", "bandwidth from the median time",
         get_gbps, 1, CMP_PEAK_BANDWIDTH, 0, CLB_C_t_median_s),
    COLM("gbps_best", "GB/s", "bandwidth, best time (GB/s)", "bandwidth from the minimum time",
         get_gbps_best, 1, CMP_PEAK_BANDWIDTH, 0, CLB_C_t_min_s),
    COLM("gflops", "GFlop/s", "GFlop/s", "GFlop/s from the median time", get_gflops, 1,
         CMP_PEAK_NONE, 0, CLB_C_t_median_s),
    COLM("pct_peak", "% of peak bandwidth", "% of peak bandwidth",
         "gbps in % of the device's peak bandwidth", get_pct_peak, 1, CMP_PEAK_HUNDRED, 0,
         CLB_C_t_median_s),
    COLM("pct_measured_peak", "% of measured ceiling", "% of the measured ceiling",
         "in % of the device's measured ceiling", NULL, 1, CMP_PEAK_HUNDRED, 1, -1),
    COLM("gflops_per_watt", "GFlop/s/W", "GFlop/s per watt", "GFlop/s per watt of average power",
         get_gflops_per_watt, 1, CMP_PEAK_NONE, 0, -1),
    COLM("gbps_per_watt", "GB/s/W", "GB/s per watt", "GB/s per watt of average power",
         get_gbps_per_watt, 1, CMP_PEAK_NONE, 0, -1),
    COLM("power", "W", "average power (W)", "average power over the timed runs",
         get_power, 0, CMP_PEAK_NONE, 0, -1),
    {.name = NULL}};
#undef COLM

const struct cmp_metric *cmp_metric_list(void) { return metrics; }

const struct cmp_metric *cmp_metric_find(const char *name)
{
    for (const struct cmp_metric *m = metrics; m->name; m++)
        if (!strcmp(m->name, name))
            return m;
    return NULL;
}

void cmp_metric_names(struct clb_buf *b)
{
    for (const struct cmp_metric *m = metrics; m->name; m++)
        clb_buf_printf(b, "%s%s", m == metrics ? "" : ", ", m->name);
    clb_buf_printf(b, ", or a key of the rows' metrics (clbench compare --list-metrics)");
}

int cmp_no_figure(const struct cmp_metric *m)
{
    struct clb_buf b = {0};
    cmp_metric_names(&b);
    clb_seterr("no selected row has a %s figure (metrics: %s)",
               m->per_workload ? "workload's own" : m->name, clb_buf_str(&b));
    clb_buf_free(&b);
    return CLB_EUSAGE;
}

int cmp_metric_lookup(const char *name, struct cmp_metric *out)
{
    const struct cmp_metric *m = cmp_metric_find(name);
    if (m) {
        *out = *m;
        return CLB_OK;
    }
    const struct clb_metric_def *d = clb_metric_def_of(name);
    struct clb_buf names = {0}, e = {0};
    if (!d || !strcmp(d->unit, "token")) {
        cmp_metric_names(&names);
        clb_seterr(d ? "the metric '%s' is a word, not a figure (metrics: %s)"
                     : "unknown metric '%s' (metrics: %s)",
                   cmp_esc_tmp(&e, name, 0), clb_buf_str(&names));
        clb_buf_free(&names);
        clb_buf_free(&e);
        return CLB_EUSAGE;
    }
    *out = (struct cmp_metric){.name = name, .unit = d->unit, .key = name,
                               .higher_is_better = d->better != CLB_BETTER_LOWER,
                               .no_direction = d->better == CLB_BETTER_NONE,
                               .peak = CMP_PEAK_NONE,
                               .time_col = d->time == CLB_MT_NONE ? -1 : CLB_C_t_median_s};
    return CLB_OK;
}

double cmp_metric_value(const struct cmp_metric *m, const struct clb_row *r)
{
    return m->key ? clb_row_metric(r, m->key) : m->get ? m->get(r) : NAN;
}

void cmp_metric_axis(const struct cmp_metric *m, struct clb_buf *b)
{
    if (m->axis)
        clb_buf_printf(b, "%s", m->axis);
    else
        clb_buf_printf(b, "%s (%s)", m->name, m->unit);
}

/* One line of --list-metrics: name, unit, better, what (the unit padded by
 * its display width: µs is two bytes, one column). */
static void list_line(FILE *f, const char *name, const char *star, const char *unit,
                      const char *better, const char *what)
{
    fprintf(f, "%s%-*s %s%*s %-6s %s\n", name, 20 - (int)strlen(name), star, unit,
            21 - cmp_width(unit), "", better, what);
}

void cmp_metric_print_all(FILE *f)
{
    list_line(f, "metric", "", "unit", "better", "what");
    for (const struct cmp_metric *m = metrics; m->name; m++)
        list_line(f, m->name, "", m->per_workload ? "its workload's" : m->unit,
                  m->per_workload ? "-" : m->higher_is_better ? "higher" : "lower", m->help);
    for (const struct clb_metric_def *d = clb_metric_defs(); d->key; d++)
        if (strcmp(d->unit, "token"))
            list_line(f, d->key, d->prefix ? "*" : "", d->unit, clb_better_name(d->better),
                      "a key of the rows' metrics (docs/RESULTS.md)");
}

/* ---- cells ---------------------------------------------------------------- */

const struct cmp_cell *cmp_cell_at(const struct cmp_table *t, int line, int col)
{
    static const struct cmp_cell empty = {.col = -1, .bad = ""};
    const struct cmp_line *l = &t->lines[line];
    const struct cmp_cell *c = t->cells + l->cell0;
    int lo = 0, hi = l->ncells;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (c[mid].col < col)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < l->ncells && c[lo].col == col ? &c[lo] : &empty;
}

double cmp_value(const struct cmp_table *t, int line, int col)
{
    const struct cmp_cell *c = cmp_cell_at(t, line, col);
    if (!c->n)
        return NAN;
    if (t->ref < 0)
        return c->best;
    const struct cmp_cell *r = cmp_cell_at(t, line, t->ref);
    return r->n && r->best != 0 ? c->best / r->best : NAN;
}

double cmp_spread_pct(const struct cmp_cell *c)
{
    if (c->n < 2 || !(c->best > 0))
        return NAN;
    return fabs(c->best - c->worst) / 2.0 / c->best * 100.0;
}

/* Figures with four significant digits or so, without exponents for the
 * usual range of GB/s (0.018 .. 3352); at most a dozen characters (the
 * callers' buffers hold numbers only). */
void cmp_fmt_num(double v, int relative, char *out, size_t n)
{
    if (isnan(v))
        snprintf(out, n, "-");
    else if (fabs(v) >= 1e9)
        snprintf(out, n, "%.4g", v);   /* never more than a dozen characters */
    else if (relative && fabs(v) < 1)
        snprintf(out, n, "%.3g", v);   /* 0.00418 of an H100 stays readable */
    else if (relative)
        snprintf(out, n, "%.2f", v);
    else if (fabs(v) >= 1000)
        snprintf(out, n, "%.0f", v);
    else if (fabs(v) >= 100)
        snprintf(out, n, "%.1f", v);
    else if (fabs(v) >= 1)
        snprintf(out, n, "%.2f", v);
    else
        snprintf(out, n, "%.3g", v);
}

/* One cell: "2987 ±1.2%" for repeated runs; the worst status where nothing
 * passed; a trailing '!' where some runs passed and others did not. (Only
 * numbers and the four status words: a fixed buffer holds them.) */
static void fmt_cell(const struct cmp_table *t, int line, int col, char *out, size_t n)
{
    const struct cmp_cell *c = cmp_cell_at(t, line, col);
    if (!c->n) {
        snprintf(out, n, "%s", c->nbad ? c->bad : "-");
        return;
    }
    cmp_fmt_num(cmp_value(t, line, col), t->ref >= 0, out, n);
    double s = cmp_spread_pct(c);
    if (!isnan(s))
        clb_appendf(out, n, s < 1e6 ? " ±%.1f%%" : " ±%.3g%%", s);
    if (c->nbad)
        clb_appendf(out, n, "!");
    if (c->ncache)
        clb_appendf(out, n, " C");
}

/* ---- grids ------------------------------------------------------------------- */

int cmp_grid_init(struct cmp_grid *g, int ncols, int nrows)
{
    *g = (struct cmp_grid){.ncols = ncols, .nrows = nrows};
    g->head = calloc((size_t)ncols + 1, sizeof *g->head);
    g->cell = calloc((size_t)ncols * (size_t)nrows + 1, sizeof *g->cell);
    g->right = calloc((size_t)ncols + 1, 1);
    if (!g->head || !g->cell || !g->right) {
        cmp_grid_free(g);
        return clb_oom();
    }
    return CLB_OK;
}

int cmp_grid_set(struct cmp_grid *g, int row, int col, const char *s)
{
    const char *c = clb_arena_str(&g->arena, s, strlen(s));
    if (!c)
        return CLB_ESYS;
    if (row < 0)
        g->head[col] = c;
    else
        g->cell[(size_t)row * (size_t)g->ncols + (size_t)col] = c;
    return CLB_OK;
}

static const char *grid_at(const struct cmp_grid *g, int row, int col)
{
    const char *s = row < 0 ? g->head[col] : g->cell[(size_t)row * (size_t)g->ncols + (size_t)col];
    return s ? s : "";
}

static void grid_text(const struct cmp_grid *g, FILE *f)
{
    int *w = calloc((size_t)g->ncols + 1, sizeof *w), others = 0;
    if (!w)
        return;
    for (int c = 0; c < g->ncols; c++) {
        for (int r = -1; r < g->nrows; r++) {
            int x = cmp_width(grid_at(g, r, c));
            if (x > w[c])
                w[c] = x;
        }
        others += c ? w[c] + 2 : 0;
    }
    if (g->width && w[0] > g->width - others)   /* a longer key: alone on its line */
        w[0] = g->width - others > 8 ? g->width - others : 8;
    struct clb_buf line = {0};
    for (int r = -1; r < g->nrows; r++) {
        line.len = 0;
        for (int c = 0; c < g->ncols; c++) {
            const char *s = grid_at(g, r, c);
            int pad = w[c] - cmp_width(s);
            if (pad < 0)
                clb_buf_printf(&line, "%s\n%*s", s, w[c], "");
            else if (g->right[c])
                clb_buf_printf(&line, "%*s%s", pad, "", s);
            else
                clb_buf_printf(&line, "%s%*s", s, pad, "");
            if (c + 1 < g->ncols)
                clb_buf_add(&line, "  ", 2);
        }
        while (line.len && line.s[line.len - 1] == ' ')   /* no trailing blanks */
            line.len--;
        fprintf(f, "%.*s\n", (int)line.len, clb_buf_str(&line));
        if (r >= 0 && g->note && g->note[r])
            fputs(g->note[r], f);
    }
    clb_buf_free(&line);
    free(w);
}

static void grid_markdown(const struct cmp_grid *g, FILE *f)
{
    for (int r = -1; r < g->nrows; r++) {
        fputc('|', f);
        for (int c = 0; c < g->ncols; c++)
            fprintf(f, " %s |", grid_at(g, r, c));
        fputc('\n', f);
        if (r == -1) {
            fputc('|', f);
            for (int c = 0; c < g->ncols; c++)
                fputs(g->right[c] ? "---:|" : "---|", f);
            fputc('\n', f);
        }
    }
}

void cmp_grid_print(const struct cmp_grid *g, FILE *f, int md)
{
    if (md)
        grid_markdown(g, f);
    else
        grid_text(g, f);
}

void cmp_grid_free(struct cmp_grid *g)
{
    free(g->head);
    free(g->cell);
    free(g->right);
    free(g->note);
    clb_arena_free(&g->arena);
    memset(g, 0, sizeof *g);
}

int cmp_grid_done(struct cmp_grid *g, struct clb_buf *e, int bad)
{
    bad |= e->oom;
    clb_buf_free(e);
    if (bad) {
        cmp_grid_free(g);
        return clb_oom();
    }
    return CLB_OK;
}

/* ---- the table ------------------------------------------------------------- */

static int any_sweep(const struct cmp_table *t)
{
    for (int i = 0; i < t->nlines; i++)
        if (t->lines[i].sweep[0])
            return 1;
    return 0;
}

/* Lined up: the workloads whose lines kept their sizes (cmp_size_varies),
 * "bus, latency", into b. */
static void sized_workloads(const struct cmp_table *t, struct clb_buf *b, int flags)
{
    struct clb_buf e = {0};
    for (int i = 0; i < t->nlines; i++) {
        if (!strcmp(t->lines[i].size, "any"))
            continue;
        const char *w = cmp_esc_tmp(&e, t->lines[i].workload, flags);
        if (!clb_list_has(clb_buf_str(b), w))
            clb_buf_printf(b, "%s%s", b->len ? ", " : "", w);
    }
    clb_buf_free(&e);
}

/* The note of compare's default for several devices: what was matched. */
static void lineup_note(const struct cmp_table *t, FILE *f, int flags)
{
    struct clb_buf w = {0};
    fprintf(f, "several devices, lined up: each one's best at any size%s,\nas --any-size%s "
            "(--by-size compares size by size)\n",
            t->lined_up > 1 ? "" : " outside its caches", t->lined_up > 1 ? " --include-cache" : "");
    sized_workloads(t, &w, flags);
    if (w.len)
        fprintf(f, "by size still where the size is what a workload varies: %s\n", clb_buf_str(&w));
    clb_buf_free(&w);
}

static void title(const struct cmp_table *t, FILE *f, const char *prefix, int flags)
{
    struct clb_buf e = {0};
    fputs(prefix, f);
    const char *what = t->metric->per_workload ? "each workload in its own figure (unit)"
                                               : t->metric->name;
    if (t->ref >= 0)
        fprintf(f, "%s relative to %s", what, cmp_esc_tmp(&e, t->cols[t->ref].label, flags));
    else if (t->metric->per_workload)
        fprintf(f, "%s", what);
    else
        fprintf(f, "%s (%s)", t->metric->name, t->metric->unit);
    fprintf(f, "; best of repeated runs, ±half their range in %% of the best\n");
    if (t->lined_up)
        lineup_note(t, f, flags);
    clb_buf_free(&e);
}

/* The measured ceilings of the columns (text: after their names; Markdown:
 * a list under the table) and which ceilings columns lacked. */
static const enum clb_ceiling_kind shown[] = {CLB_CEIL_BW, CLB_CEIL_SP, CLB_CEIL_DP};
static const char *const shown_name[] = {"bandwidth", "fp32", "fp64"};

static void ceilings_of(const struct cmp_col *col, FILE *f, struct clb_buf *e, int flags)
{
    char num[32];
    int n = 0;
    for (int i = 0; i < 3; i++) {
        double v = col->ceil[shown[i]];
        if (isnan(v))
            continue;
        cmp_fmt_num(v, 0, num, sizeof num);
        fprintf(f, "%s%s %s %s (%s)", n++ ? ", " : "", shown_name[i], num,
                i ? "GFlop/s" : "GB/s",
                cmp_esc_tmp(e, (flags ? col->ceil_src : col->ceil_what)[shown[i]], flags));
    }
    if (!n)
        fputs("none", f);
}

static void lacks(const struct cmp_table *t, FILE *f, int flags)
{
    struct clb_buf e = {0};
    int any = 0;
    for (int c = 0; c < t->ncols; c++) {
        const struct cmp_col *col = &t->cols[c];
        if (!col->lacks)
            continue;
        fprintf(f, "%s", any++ ? "; " : "\nno measured ceiling (its rows show -): ");
        if (!flags)
            fprintf(f, "[%d] ", c + 1);
        fprintf(f, "%s lacks ", cmp_esc_tmp(&e, col->label, flags));
        for (int k = 0, n = 0; k < CLB_NCEILINGS; k++)
            if (col->lacks & (1u << k))
                fprintf(f, "%s%s", n++ ? " and " : "", clb_ceiling_name((enum clb_ceiling_kind)k));
    }
    if (any)
        fputc('\n', f);
    if (t->untyped && *t->untyped)
        fprintf(f, "%sGFlop/s rows of type %s show -: no measured ceiling is of that type\n",
                any ? "" : "\n", cmp_esc_tmp(&e, t->untyped, flags));
    clb_buf_free(&e);
}

/* The workloads in which every figure of column c is cache-resident (C),
 * "stream, copy2d", into b. */
static void cache_only(const struct cmp_table *t, int c, struct clb_buf *b)
{
    clb_buf_free(b);
    for (int i = 0; i < t->nlines; i++) {
        const char *w = t->lines[i].workload;
        if (clb_list_has(clb_buf_str(b), w) || cmp_size_varies(clb_workload_find(w)))
            continue;   /* latency keeps its cache rows anyway: they are its subject */
        int all = 0;   /* 1: every figure of w cache-resident, -1: one is not */
        for (int j = i; j < t->nlines && all >= 0; j++) {
            const struct cmp_cell *x = cmp_cell_at(t, j, c);
            if (!strcmp(t->lines[j].workload, w) && x->n)
                all = x->ncache < x->n ? -1 : 1;
        }
        if (all > 0)
            clb_buf_printf(b, "%s%s", b->len ? ", " : "", w);
    }
}

/* C cells, and the columns the cache filter would have emptied; the devices
 * of the files that have no row in the table, each with why. */
static void device_notes(const struct cmp_table *t, FILE *f, int flags)
{
    struct clb_buf e = {0};
    int cache = 0;
    for (size_t k = 0; k < t->ncells && !cache; k++)
        cache = t->cells[k].ncache > 0;
    if (cache)
        fprintf(f, "\nC: cache-resident: the working set fits 4x the device's last-level cache, "
                   "the figure is a cache's\n");
    struct clb_buf w = {0};
    for (int c = 0; t->cache_out && c < t->ncols; c++) {
        cache_only(t, c, &w);
        if (!w.len)
            continue;
        if (!flags)
            fprintf(f, "[%d] ", c + 1);
        fprintf(f, "%s: ", cmp_esc_tmp(&e, t->cols[c].label, flags));
        fprintf(f, "every selected row of %s is cache-resident: kept, marked C\n",
                cmp_esc_tmp(&e, clb_buf_str(&w), flags));
    }
    clb_buf_free(&w);
    for (int u = 0; u < t->nunshown; u++) {
        const struct cmp_unshown *x = &t->unshown[u];
        const char *slash = strrchr(x->file, '/');
        fprintf(f, "%snot in the table: %s", u || cache ? "" : "\n",
                cmp_esc_tmp(&e, x->device[0] ? x->device : "unnamed device", flags));
        fprintf(f, " (%s): none of its rows selected (workloads: ",
                cmp_esc_tmp(&e, slash ? slash + 1 : x->file, flags));
        fprintf(f, "%s)\n", cmp_esc_tmp(&e, x->workloads, flags));
    }
    clb_buf_free(&e);
}

static void notes(const struct cmp_table *t, FILE *f, int flags)
{
    int bang = 0;
    for (size_t k = 0; k < t->ncells && !bang; k++)
        bang = t->cells[k].n && t->cells[k].nbad;
    if (bang)
        fprintf(f, "\n'!': other runs of that configuration failed, were skipped or errored "
                   "(see the CSV)\n");
    device_notes(t, f, flags);
    if (!t->nlines)
        fprintf(f, "\nno selected row has a %s figure: the table is empty (the figures show "
                   "the rows' own quantities)\n",
                t->metric->per_workload ? "workload's own" : t->metric->name);
    if (t->metric->measured)
        lacks(t, f, flags);
    if (flags && t->metric->measured) {   /* Markdown: the ceilings, as the text legend has them */
        struct clb_buf e = {0};
        fprintf(f, "\nMeasured ceilings%s%s%s:\n\n", t->ceilings_file ? " (from " : "",
                t->ceilings_file ? cmp_esc_tmp(&e, t->ceilings_file, flags) : "",
                t->ceilings_file ? ")" : "");
        for (int c = 0; c < t->ncols; c++) {
            fprintf(f, "- %s: ", cmp_esc_tmp(&e, t->cols[c].label, flags));
            ceilings_of(&t->cols[c], f, &e, flags);
            fputc('\n', f);
        }
        clb_buf_free(&e);
    }
}

#define KEYCOLS 6
static const char *const keynames[KEYCOLS] = {"workload", "kernel", "dtype", "size", "sweep",
                                              "unit"};

/* Key column k of line l; the sweep column k = 4 is left out where no line
 * sweeps, the unit column where one metric was asked for. */
static const char *key_of(const struct cmp_table *t, const struct cmp_line *l, int k)
{
    const char *v[KEYCOLS] = {l->workload, l->kernel, l->dtype, l->size, l->sweep,
                              t->metrics[l->metric].unit};
    return v[k];
}

static int key_shown(const struct cmp_table *t, int k, int sweep)
{
    return (k != 4 || sweep) && (k != 5 || t->metric->per_workload);
}

/* The table as a grid: key columns, then one column per table column headed
 * by its number (text) or its name (Markdown). */
static int make_grid(const struct cmp_table *t, struct cmp_grid *g, int md)
{
    int sweep = any_sweep(t), nkeys = 0, flags = md ? CMP_ESC_MD : 0;
    for (int k = 0; k < KEYCOLS; k++)
        nkeys += key_shown(t, k, sweep);
    if (cmp_grid_init(g, nkeys + t->ncols, t->nlines))
        return CLB_ESYS;
    struct clb_buf e = {0};
    char cell[96];
    int bad = 0;
    for (int k = 0, c = 0; k < KEYCOLS; k++)
        if (key_shown(t, k, sweep))
            bad |= cmp_grid_set(g, -1, c++, keynames[k]);
    for (int c = 0; c < t->ncols; c++) {
        g->right[nkeys + c] = 1;
        snprintf(cell, sizeof cell, "[%d]", c + 1);
        bad |= cmp_grid_set(g, -1, nkeys + c, md ? cmp_esc_tmp(&e, t->cols[c].label, flags) : cell);
    }
    for (int i = 0; i < t->nlines && !bad; i++) {
        for (int k = 0, c = 0; k < KEYCOLS; k++)
            if (key_shown(t, k, sweep))
                bad |= cmp_grid_set(g, i, c++, cmp_esc_tmp(&e, key_of(t, &t->lines[i], k), flags));
        for (int c = 0; c < t->ncols; c++) {
            fmt_cell(t, i, c, cell, sizeof cell);
            bad |= cmp_grid_set(g, i, nkeys + c, cell);
        }
    }
    return cmp_grid_done(g, &e, bad);
}

/* A table is printed with unchecked stdio calls; whether they all reached
 * the output is asked once, at the end. */
int cmp_stream_ok(FILE *f)
{
    errno = 0;
    if (fflush(f) == 0 && !ferror(f))
        return CLB_OK;
    return clb_err(CLB_ESYS, "cannot write the output: %s",
                             errno ? strerror(errno) : "write error");
}

void cmp_col_legend(const struct cmp_col *col, int k, FILE *f, struct clb_buf *e)
{
    int at = fprintf(f, "  [%d] %s  (", k, cmp_esc_tmp(e, col->label, 0));
    if (col->reference)
        fputs("published", f);
    for (int j = 0; !col->reference && j < col->nfiles; j++) {
        const char *slash = strrchr(col->files[j], '/');
        const char *name = cmp_esc_tmp(e, slash ? slash + 1 : col->files[j], 0);
        int w = cmp_width(name);
        if (j && at + 2 + w > 90) { /* wraps: 10 columns left for "; peak N GB/s" */
            fputs(",\n      ", f);
            at = 6;
        } else if (j) {
            fputs(", ", f);
            at += 2;
        }
        fputs(name, f);
        at += w;
    }
}

/* The text table's legend of its numbered columns, below the title. */
static void legend(const struct cmp_table *t, FILE *f)
{
    struct clb_buf e = {0};
    if (t->metric->measured && t->ceilings_file)
        fprintf(f, "measured ceilings from %s\n", cmp_esc_tmp(&e, t->ceilings_file, 0));
    /* columns are numbered; the legend below the title gives their names */
    for (int c = 0; c < t->ncols; c++) {
        const struct cmp_col *col = &t->cols[c];
        cmp_col_legend(col, c + 1, f, &e);
        if (!isnan(col->peak_gbs))
            fprintf(f, "; peak %.0f GB/s", col->peak_gbs);
        if (t->metric->measured) {
            fputs("; measured: ", f);
            ceilings_of(col, f, &e, 0);
        }
        fprintf(f, ")\n");
    }
    clb_buf_free(&e);
}

static int print_table(const struct cmp_table *t, FILE *f, int md)
{
    struct cmp_grid g;
    if (make_grid(t, &g, md))
        return CLB_ESYS;
    title(t, f, md ? "Table: " : "", md ? CMP_ESC_MD : 0);
    if (!md)
        legend(t, f);
    fputc('\n', f);
    cmp_grid_print(&g, f, md);
    notes(t, f, md ? CMP_ESC_MD : 0);
    cmp_grid_free(&g);
    return cmp_stream_ok(f);
}

int cmp_print_text(const struct cmp_table *t, FILE *f) { return print_table(t, f, 0); }

int cmp_print_markdown(const struct cmp_table *t, FILE *f) { return print_table(t, f, 1); }

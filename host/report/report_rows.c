/* clbench report: what the page makes of each row -- its figure, the peak
 * and ceiling it is set against, its flags -- and the grouping of rows into
 * workloads and cells. Everything a figure reads is a column or a metric of
 * the row (never its detail) or a declaration of its workload. */
#include "report_priv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int rpt_single(const struct rpt *r, size_t i)
{
    const struct clb_row *x = &r->t.rows[i];
    return r->t.ri[i].col >= 0 && !(x->ranks > 1) && strcmp(x->rank, "all") != 0;
}

static const struct clb_workload *wl_of(const struct rpt *r, size_t i)
{
    return clb_workload_find(r->t.rows[i].workload);
}

double rpt_value(const struct rpt *r, size_t i)
{
    const struct clb_row *x = &r->t.rows[i];
    const struct clb_workload *wl = wl_of(r, i);
    if (wl && wl->figure.y_metric)
        return clb_row_metric(x, wl->figure.y_metric);
    int k = r->t.ri[i].kind;
    if (k & CMP_RK_COUNTED)
        return (k & CMP_RK_GFLOPS) ? x->gflops : x->gbps;
    return !isnan(x->gbps) ? x->gbps : x->gflops;   /* a workload the registry does not know */
}

const char *rpt_unit(const struct rpt *r, size_t i)
{
    const struct clb_workload *wl = wl_of(r, i);
    if (wl && wl->figure.y_metric)
        return wl->figure.y_unit ? wl->figure.y_unit : "";
    int k = r->t.ri[i].kind;
    if (k & CMP_RK_COUNTED)
        return (k & CMP_RK_GFLOPS) ? "GFlop/s" : "GB/s";
    return !isnan(r->t.rows[i].gbps) ? "GB/s" : "GFlop/s";
}

/* The compute ceiling kind of a type: fp32 for float and its vectors, fp64
 * for double; -1 for the others (int, half). */
static int type_kind(const char *dtype)
{
    if (clb_dtype_is_double(dtype))
        return CLB_CEIL_DP;
    return strncmp(dtype, "float", 5) == 0 ? CLB_CEIL_SP : -1;
}

/* 1: a GFlop/s row, 0: a GB/s row of device work, -1: neither has a peak. */
static int peak_unit(const struct rpt *r, size_t i)
{
    const struct clb_workload *wl = wl_of(r, i);
    int k = r->t.ri[i].kind;
    if ((wl && wl->figure.y_metric) || !(k & CMP_RK_COUNTED) || (k & CMP_RK_HOST))
        return -1;
    if (k & CMP_RK_GFLOPS)
        return 1;
    return (k & CMP_RK_COMPUTE) ? -1 : 0;
}

double rpt_peak(const struct rpt *r, size_t i)
{
    int col = r->t.ri[i].col, u = col >= 0 ? peak_unit(r, i) : -1;
    const struct clb_profile *p = col >= 0 ? r->prof[col] : NULL;
    if (u == 0)
        return r->t.cols[col].peak_gbs;
    int k = u == 1 ? type_kind(r->t.rows[i].dtype) : -1;
    if (k < 0 || !p)
        return NAN;
    return k == CLB_CEIL_DP ? p->peak_gflops_dp : p->peak_gflops_sp;
}

double rpt_ceiling(const struct rpt *r, size_t i)
{
    int col = r->t.ri[i].col, u = col >= 0 ? peak_unit(r, i) : -1;
    if (u < 0 || r->t.cols[col].reference)
        return NAN;
    int k = u == 0 ? CLB_CEIL_BW : type_kind(r->t.rows[i].dtype);
    return k < 0 ? NAN : r->t.cols[col].ceil[k];
}

double rpt_norm(const struct rpt *r, size_t i, double v)
{
    const struct clb_workload *wl = wl_of(r, i);
    if (r->o->norm == CLB_NORM_ABSOLUTE || (wl && wl->figure.y_metric))
        return v;
    double base = r->o->norm == CLB_NORM_DATASHEET ? rpt_peak(r, i) : rpt_ceiling(r, i);
    return base > 0 ? 100.0 * v / base : NAN;
}

const char *rpt_norm_unit(const struct rpt *r, const char *unit)
{
    int pct = !strcmp(unit, "GB/s") || !strcmp(unit, "GFlop/s");
    if (!pct || r->o->norm == CLB_NORM_ABSOLUTE)
        return unit;
    return r->o->norm == CLB_NORM_DATASHEET ? "% of the datasheet peak"
                                            : "% of the measured ceiling";
}

unsigned rpt_marks(unsigned m)
{
    static const unsigned map[][2] = {
        {CLB_MARK_CACHE, RF_CACHE}, {CLB_MARK_ABOVE_PEAK, RF_ABOVE}, {CLB_MARK_NOISY, RF_NOISY},
        {CLB_MARK_HOST_TIMER, RF_HOST}, {CLB_MARK_IMPOSSIBLE, RF_IMPOSSIBLE}};
    unsigned f = 0;
    for (size_t k = 0; k < sizeof map / sizeof *map; k++)
        f |= m & map[k][0] ? map[k][1] : 0;
    return f;
}

unsigned rpt_flags(const struct rpt *r, size_t i)
{
    const struct clb_row *x = &r->t.rows[i];
    const struct clb_workload *wl = wl_of(r, i);
    if (!strcmp(x->status, "reference"))
        return 0;
    unsigned f = rpt_marks(clb_row_marks(x));
    /* a staircase's x is the working set: its caches are what it measures */
    if (wl && wl->figure.kind == CLB_FIGURE_STAIRS)
        f &= ~(unsigned)RF_CACHE;
    /* the summary's `!` is the byte count's (pct_peak_bw): beside a flop rate it
     * qualifies the bytes, not the rate */
    if ((f & RF_ABOVE) && strcmp(rpt_unit(r, i), "GB/s"))
        f = (f & ~(unsigned)RF_ABOVE) | RF_BYTES;
    double peak = peak_unit(r, i) == 1 ? rpt_peak(r, i) : NAN;
    if (peak > 0 && x->gflops > peak)
        f |= RF_ABOVE;
    f |= !strcmp(x->status, "failed")    ? RF_FAILED
         : !strcmp(x->status, "skipped") ? RF_SKIPPED
         : !strcmp(x->status, "error")   ? RF_ERROR
                                         : 0;
    return f;
}

/* ---- grouping ----------------------------------------------------------------- */

const char *rpt_params_without(struct rpt *r, size_t i, const char *skip)
{
    const char *p = r->t.rows[i].params;
    size_t sl = skip ? strlen(skip) : 0;
    struct clb_buf b = {0};
    while (*p) {
        size_t n = strcspn(p, ",");
        if (!(sl && n > sl && !strncmp(p, skip, sl) && p[sl] == '='))
            clb_buf_printf(&b, "%s%.*s", b.len ? " " : "", (int)n, p);
        p += n + (p[n] == ',');
    }
    const char *s = clb_arena_intern(&r->t.arena, clb_buf_str(&b), b.len);
    if (!s || b.oom)
        r->oom = 1;
    clb_buf_free(&b);
    return s ? s : "";
}

void rpt_on_devices(const struct rpt *r, const int *cols, int n, struct clb_buf *b)
{
    int k = 0;   /* the devices so far: the first three named */
    for (int i = 0; i < n; i++) {
        if (r->t.cols[cols[i]].reference)
            continue;
        if (++k > 3)
            continue;   /* counted for "and N more" */
        int last = 1;
        for (int j = i + 1; j < n; j++)
            last &= r->t.cols[cols[j]].reference;
        clb_buf_printf(b, "%s%s", k == 1 ? " on " : last ? " and " : ", ",
                       r->t.cols[cols[i]].label);
    }
    if (k > 3)
        clb_buf_printf(b, " and %d more", k - 3);
}

void rpt_x(struct rpt *r, double x, int bytes)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes && u < 4 && x >= 1024 && fmod(x, 1024) == 0)
        x /= 1024, u++;
    if (x == floor(x) && fabs(x) < 1e15)
        rpt_tag(r, "%.0f", x);
    else
        rpt_num(r, x);
    if (bytes)
        rpt_tag(r, " %s", unit[u]);
}

const char *rpt_label(const struct rpt *r, int col)
{
    return r->t.cols[col].label;
}

int rpt_col_rank(const struct rpt *r, int col)
{
    for (int k = 0; k < r->ndev; k++)
        if (r->dev[k] == col)
            return k;
    for (int k = 0; k < r->nref; k++)
        if (r->ref[k] == col)
            return r->ndev + k;
    return r->ndev + r->nref;
}

void rpt_colours_for(struct rpt *r, const int *cols, int n)
{
    int next = r->ndev + 1;
    memset(r->colour, 0, (size_t)r->t.ncols * sizeof *r->colour);
    for (int k = 0; k < r->ndev; k++)
        r->colour[r->dev[k]] = k + 1;
    for (int i = 0; i < n; i++)
        if (r->t.cols[cols[i]].reference && !r->colour[cols[i]])
            r->colour[cols[i]] = next++;
}

int rpt_colour(const struct rpt *r, int col)
{
    return r->colour[col] ? r->colour[col] : rpt_col_rank(r, col) + 1;
}

static int by_workload(const void *pa, const void *pb, void *ctx)
{
    const struct rpt *sort_r = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const char *wa = sort_r->t.rows[a].workload, *wb = sort_r->t.rows[b].workload;
    if (wa != wb)   /* interned: equal names are equal pointers */
        return wa < wb ? -1 : 1;
    return (a > b) - (a < b);
}

long rpt_workload_rank(const char *name)
{
    long k = 0;
    for (const struct clb_workload *const *w = clb_workload_list(); *w; w++, k++)
        if (!strcmp((*w)->name, name))
            return k;
    return k;
}

/* The registry's position of a workload, or past it by first appearance. */
static long workload_rank(const char *name, size_t first)
{
    long k = rpt_workload_rank(name);
    return clb_workload_find(name) ? k : 1000 + (long)first;
}

static int by_rank(const void *pa, const void *pb)
{
    const struct rpt_rows *a = pa, *b = pb;
    long ra = workload_rank(a->workload, a->ids[0]), rb = workload_rank(b->workload, b->ids[0]);
    return (ra > rb) - (ra < rb);
}

int rpt_workloads(struct rpt *r, struct rpt_rows **out, int *n)
{
    size_t *ids = malloc((r->t.nrows + 1) * sizeof *ids), m = 0;
    struct rpt_rows *w = NULL;
    size_t nw = 0, cap = 0;
    if (!ids)
        return CLB_ESYS;
    for (size_t i = 0; i < r->t.nrows; i++)   /* a published row without a figure: nothing to draw */
        if (rpt_single(r, i) && !(r->t.cols[r->t.ri[i].col].reference && isnan(rpt_value(r, i))))
            ids[m++] = i;
    clb_sort(ids, m, sizeof *ids, by_workload, r);
    for (size_t i = 0; i < m;) {
        size_t j = i;
        while (j < m && r->t.rows[ids[j]].workload == r->t.rows[ids[i]].workload)
            j++;
        size_t *g = malloc((j - i) * sizeof *g);
        if (!g || CLB_GROW(w, nw, cap)) {
            free(g);
            rpt_workloads_free(w, (int)nw);
            free(ids);
            return CLB_ESYS;
        }
        memcpy(g, ids + i, (j - i) * sizeof *g);
        const char *name = r->t.rows[ids[i]].workload;
        w[nw++] = (struct rpt_rows){name, clb_workload_find(name), g, j - i};
        i = j;
    }
    if (nw > 1) /* no rows: w is NULL, which qsort must not be given */
        qsort(w, nw, sizeof *w, by_rank);
    free(ids);
    *out = w;
    *n = (int)nw;
    return CLB_OK;
}

void rpt_workloads_free(struct rpt_rows *w, int n)
{
    for (int k = 0; k < n; k++)
        free(w[k].ids);
    free(w);
}

/* ---- cells ---------------------------------------------------------------------- */

/* An impossible figure is never one (clbench writes it as an error row; a
 * file may say ok beside the flag). */
static int has_value(const struct clb_row *x)
{
    return (!strcmp(x->status, "ok") || !strcmp(x->status, "reference")) &&
           !clb_row_flag(x, "impossible");
}

/* Is size a of row i larger than that of row j? (sizes that do not parse are
 * the smallest; equal numbers by text) */
static int larger(const struct rpt *r, size_t i, size_t j)
{
    double a = r->t.ri[i].size_num, b = r->t.ri[j].size_num;
    if (isnan(a) != isnan(b))
        return isnan(b);
    if (!isnan(a) && a != b)
        return a > b;
    return strcmp(r->t.ri[i].size, r->t.ri[j].size) > 0;
}

const char *rpt_shown_size(const struct rpt *r, const size_t *ids, size_t n)
{
    long pick[3] = {-1, -1, -1};   /* ok outside the caches, ok, any */
    for (size_t k = 0; k < n; k++) {
        size_t i = ids[k];
        const struct clb_row *x = &r->t.rows[i];
        int tier = !has_value(x) || isnan(rpt_value(r, i)) ? 2 : (rpt_flags(r, i) & RF_CACHE) ? 1 : 0;
        for (int t = tier; t < 3; t++)
            if (pick[t] < 0 || larger(r, i, (size_t)pick[t]))
                pick[t] = (long)i;
    }
    for (int t = 0; t < 3; t++)
        if (pick[t] >= 0)
            return r->t.ri[pick[t]].size;
    return "";
}

void rpt_cell(const struct rpt *r, const size_t *ids, size_t n, struct rpt_cell *c)
{
    memset(c, 0, sizeof *c);
    c->v = c->raw = NAN;
    const char *size = rpt_shown_size(r, ids, n);
    const struct clb_workload *wl = n ? wl_of(r, ids[0]) : NULL;
    int lower = wl && wl->figure.lower_is_better;
    for (size_t k = 0; k < n; k++) {
        size_t i = ids[k];
        if (r->t.ri[i].size != size)
            continue;
        unsigned f = rpt_flags(r, i);
        for (int b = 0; b < RF_NBITS; b++)
            if ((f & (1u << b)) && !(c->flags & (1u << b)))
                c->frow[b] = i;
        c->flags |= f;
        if (!c->nrows++)
            c->best = i;   /* a row without a figure, until one has it */
        double v = has_value(&r->t.rows[i]) ? rpt_value(r, i) : NAN;
        if (isnan(v) || !(isnan(c->raw) || (lower ? v < c->raw : v > c->raw)))
            continue;
        c->raw = v;
        c->best = i;
    }
    /* a figure beside failed runs of the same configuration: the flags say so */
    c->v = isnan(c->raw) ? NAN : rpt_norm(r, c->best, c->raw);
}

/* ---- the figure a workload declares, in words --------------------------------------- */

static void list_words(struct clb_buf *b, const char *list)
{
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        clb_buf_printf(b, "%.*s%s", (int)n, p, p[n] ? ", " : "");
        p += n + (p[n] == ',');
    }
}

void clb_report_figure_text(const struct clb_workload *wl, struct clb_buf *b)
{
    const struct clb_figure *f = &wl->figure;
    if (f->kind == CLB_FIGURE_ROOFLINE) {
        clb_buf_printf(b, "a roofline per device: GFlop/s against flop/byte under its measured "
                          "ceilings, every workload's device rows placed on it");
        return;
    }
    if (f->kind == CLB_FIGURE_STAIRS) {
        clb_buf_printf(b, "%s against %s (%s=, log2), a staircase per device, its cache sizes "
                          "marked", f->y_label ? f->y_label : f->y_metric,
                       f->x_label ? f->x_label : f->x_param, f->x_param);
        return;
    }
    const char *unit = f->y_metric ? f->y_unit : "the rows' unit";
    if (f->x_size || f->x_param) {
        clb_buf_printf(b, "%s against ", unit);
        if (f->x_size)
            clb_buf_printf(b, "the %s", f->x_label ? f->x_label : "problem size");
        else
            list_words(b, f->x_param);
        clb_buf_printf(b, ", a curve per device, kernel, type and other parameters");
    } else {
        clb_buf_printf(b, "bars of %s by kernel and type, one per device", unit);
    }
    if (f->order) {
        clb_buf_printf(b, ", in the order ");
        list_words(b, f->order);
    }
    if (f->baseline)
        clb_buf_printf(b, "; each bar against %s of the same size and type", f->baseline);
    if (f->split) {
        clb_buf_printf(b, "; a bar split in two by %s (", f->split);
        list_words(b, f->split_names ? f->split_names : "");
        clb_buf_printf(b, ")");
    }
    if (f->models)
        clb_buf_printf(b, "; the workload's model lines at the device's bandwidth");
    if (f->y_metric)
        clb_buf_printf(b, "; the figure is the metric %s%s", f->y_metric,
                       f->lower_is_better ? " (the lowest is the best)" : "");
}

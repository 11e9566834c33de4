/* clbench compare --plot: gnuplot's input for one figure, made in memory
 * (compare_gnuplot.c writes it to files and runs gnuplot; the fuzz harness
 * tests/fuzz/fuzz_plot.c checks it).
 *
 * No text of a results file is ever gnuplot code: device names, kernels,
 * sizes and swept values go into the data files, which gnuplot reads as data
 * (column headers become legend entries through `columnheader`, bar labels
 * through `xticlabels`), escaped for display there too (no tab, newline or
 * double quote can split a field). The few texts the script itself must
 * show (the workload in the title, the --relative-to column, the swept key)
 * go through cmp_gp_string, the one escaping function. The script names its
 * files by the figure's index only. */
#include "compare_priv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cmp_plot_text_free(struct cmp_plot_text *p)
{
    clb_buf_free(&p->script);
    clb_buf_free(&p->data);
    clb_buf_free(&p->peaks);
}

static int int_order(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int cmp_fig_collect(struct cmp_fig *g, const struct cmp_table *t, const char *workload,
                    const int *cand, int ncand)
{
    g->t = t;
    g->workload = workload;
    g->nlines = g->ncols = 0;
    int n = cand ? ncand : t->nlines;
    size_t ncells = 0;
    for (int k = 0; k < n; k++)
        ncells += (size_t)t->lines[cand ? cand[k] : k].ncells;
    int *seen = malloc((ncells + 1) * sizeof *seen);   /* columns with a figure, repeated */
    if (!seen) {
        clb_seterr("out of host memory");
        return CLB_ESYS;
    }
    size_t nseen = 0;
    for (int k = 0; k < n; k++) {
        int i = cand ? cand[k] : k;
        const struct cmp_line *l = &t->lines[i];
        if (l->workload != workload && strcmp(l->workload, workload))
            continue;
        int any = 0;   /* a line of failed or skipped rows only has nothing to draw */
        for (int j = 0; j < l->ncells; j++) {
            int c = t->cells[l->cell0 + (size_t)j].col;
            if (!isnan(cmp_value(t, i, c))) {
                seen[nseen++] = c;
                any = 1;
            }
        }
        if (any)
            g->lines[g->nlines++] = i;
    }
    qsort(seen, nseen, sizeof *seen, int_order);
    for (size_t k = 0; k < nseen; k++)
        if (!k || seen[k] != seen[k - 1])
            g->cols[g->ncols++] = seen[k];
    free(seen);
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

/* The x axis of a sweep: 1 = a swept parameter, 2 = the size, 0 = bars. */
static int sweep_kind(const struct cmp_fig *g, int nsizes)
{
    int param = 0, allnum = 1;
    for (int i = 0; i < g->nlines; i++) {
        const struct cmp_line *l = L(g, i);
        if (l->sweep_key[0] && !isnan(l->sweep_num))
            param = 1;
        allnum &= !isnan(l->size_num);
    }
    if (param)
        return 1;
    return allnum && nsizes >= 3 ? 2 : 0;
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
    return g->t->ref >= 0 ? CMP_PEAK_NONE : (int)g->t->metric->peak;
}

/* Values of very different magnitudes (an H100 beside a 2-core CPU) are
 * only readable on a log scale: switch to one above a ratio of 20. */
static void yscale(const struct cmp_fig *g, struct clb_buf *s)
{
    double lo = INFINITY, hi = 0;
    for (int i = 0; i < g->nlines; i++)
        for (int c = 0; c < g->ncols; c++) {
            double v = cmp_value(g->t, g->lines[i], g->cols[c]);
            if (v > 0) {
                lo = fmin(lo, v);
                hi = fmax(hi, v);
            }
        }
    if (hi > 0 && hi >= 20 * lo)
        clb_buf_printf(s, "set logscale y 10\nset yrange [%.6g:*]\n", pow(10, floor(log10(lo))));
}

static void preamble(const struct cmp_fig *g, struct clb_buf *s, const char *what)
{
    const struct cmp_table *t = g->t;
    struct clb_buf txt = {0};
    clb_buf_printf(s, "set encoding utf8\nset datafile separator tab\n"
                      "set datafile commentschars ''\n");
    clb_buf_printf(&txt, "%s: %s", g->workload, what);
    clb_buf_printf(s, "set title ");
    cmp_gp_string(s, clb_buf_str(&txt));
    txt.len = 0;
    if (t->ref >= 0)
        clb_buf_printf(&txt, "%s relative to %s", t->metric->name, t->cols[t->ref].label);
    else
        clb_buf_printf(&txt, "%s", t->metric->axis);
    clb_buf_printf(s, "\nset ylabel ");
    cmp_gp_string(s, clb_buf_str(&txt));
    clb_buf_printf(s, "\nset grid ytics\nset key outside below left Left reverse maxcols 1\n"
                      "set yrange [0:*]\n");
    if (txt.oom)
        s->oom = 1;
    clb_buf_free(&txt);
}

/* The terminal goes last, just before "plot": its height grows with the
 * legend (one line per entry below the graph) so that the graph keeps its room. */
void cmp_plot_terminal(const struct cmp_fig *g, struct clb_buf *s, int entries)
{
    int h = 540 + 19 * (entries < 100 ? entries : 100);
    if (h > 1600)
        h = 1600;
    if (g->svg)
        clb_buf_printf(s, "set terminal svg size 960,%d dynamic noenhanced font 'Sans,12' "
                          "background rgb 'white'\n", h);
    else
        clb_buf_printf(s, "set terminal pngcairo size 960,%d noenhanced font 'Sans,11' "
                          "background rgb 'white'\n", h);
    clb_buf_printf(s, "set output 'fig%d.%s'\n", g->index, g->svg ? "svg" : "png");
}

/* A data-file field: escaped for display, no tab, no newline, no double quote. */
void cmp_plot_field(struct clb_buf *d, const char *text)
{
    cmp_esc(d, text, CMP_ESC_DATA);
}

/* A data block (a series or a peak): two blank lines apart from the one
 * before (gnuplot's "index"), then a header line whose second column is the
 * legend title ("columnheader(2)"). */
void cmp_plot_block(struct clb_buf *d, const char *title)
{
    if (d->len)
        clb_buf_add(d, "\n\n", 2);
    clb_buf_add(d, "x\t", 2);
    cmp_plot_field(d, title);
    clb_buf_add(d, "\n", 1);
}

static void peak_title(struct clb_buf *b, const struct cmp_table *t, int col)
{
    b->len = 0;
    if (col < 0)
        clb_buf_printf(b, "peak bandwidth");
    else
        clb_buf_printf(b, "%s peak %.0f GB/s", t->cols[col].label, t->cols[col].peak_gbs);
}

/* The plot element of peak block `block`: position c of the figure's columns
 * (its colour), -1 for the 100 % line. */
static void peak_plot(const struct cmp_fig *g, struct clb_buf *s, int block, int c)
{
    if (c < 0)
        clb_buf_printf(s, ", 'fig%d.peak.dat' index %d using 1:2 with lines dt 2 lw 2 "
                          "lc rgb 'black' title columnheader(2)", g->index, block);
    else
        clb_buf_printf(s, ", 'fig%d.peak.dat' index %d using 1:2 with lines dt 2 lw 1.5 lc %d "
                          "title columnheader(2)", g->index, block, c + 1);
}

/* ---- bars ------------------------------------------------------------- */

/* Grouped bars: one group per line (kernel, type, ...), one bar per device.
 * Group i is centred at x = i; a column's peak is drawn over the groups
 * whose rows are device work only. */
static int write_bars(const struct cmp_fig *g, struct cmp_plot_text *o, int nsizes)
{
    const struct cmp_table *t = g->t;
    struct clb_buf *s = &o->script, *d = &o->data, *p = &o->peaks, lab = {0};
    clb_buf_add(d, "group", 5);
    for (int c = 0; c < g->ncols; c++) {
        clb_buf_add(d, "\t", 1);
        cmp_plot_field(d, t->cols[g->cols[c]].label);
    }
    clb_buf_add(d, "\n", 1);
    for (int i = 0; i < g->nlines; i++) {
        const struct cmp_line *l = L(g, i);
        lab.len = 0;
        clb_buf_printf(&lab, "%s %s", l->kernel, l->dtype);
        if (nsizes > 1)
            clb_buf_printf(&lab, " %s", l->size);
        if (l->sweep[0])
            clb_buf_printf(&lab, " %s", l->sweep);
        cmp_plot_field(d, clb_buf_str(&lab));
        for (int c = 0; c < g->ncols; c++) {
            double v = cmp_value(t, g->lines[i], g->cols[c]);
            clb_buf_printf(d, isnan(v) ? "\tNaN" : "\t%.6g", v);
        }
        clb_buf_add(d, "\n", 1);
    }
    /* peaks: one block per column (or one at 100 %), a segment per run of
     * device-bound groups */
    int pk = peak_kind(g), nblocks = 0;
    struct clb_buf plots = {0};
    for (int c = pk == CMP_PEAK_HUNDRED ? -1 : 0; pk != CMP_PEAK_NONE && c < g->ncols; c++) {
        int col = c < 0 ? -1 : g->cols[c];
        double y = col < 0 ? 100 : t->cols[col].peak_gbs;
        if (isnan(y))
            continue;
        int head = 0;
        for (int i = 0; i < g->nlines; i++) {
            if (!L(g, i)->device_bound)
                continue;
            int j = i;
            while (j + 1 < g->nlines && L(g, j + 1)->device_bound)
                j++;
            if (!head) {
                peak_title(&lab, t, col);
                cmp_plot_block(p, clb_buf_str(&lab));
                head = 1;
            } else {
                clb_buf_add(p, "\n", 1);
            }
            clb_buf_printf(p, "%.2f\t%.6g\n%.2f\t%.6g\n", i - 0.5, y, j + 0.5, y);
            i = j;
        }
        if (head)
            peak_plot(g, &plots, nblocks++, c);
        if (c < 0)
            break;
    }
    clb_buf_printf(s, "set style data histograms\nset style histogram clustered gap 1\n"
                      "set style fill solid 0.85 border -1\nset boxwidth 0.9\n"
                      "set xtics rotate by -30 nomirror\nset xlabel 'kernel'\n");
    cmp_plot_terminal(g, s, g->ncols + nblocks);
    clb_buf_printf(s, "plot ");
    for (int c = 0; c < g->ncols; c++)
        clb_buf_printf(s, "%s'fig%d.dat' using %d%s title columnheader(%d) lc %d", c ? ", " : "",
                       g->index, c + 2, c ? "" : ":xticlabels(1)", c + 2, c + 1);
    clb_buf_add(s, clb_buf_str(&plots), plots.len);
    clb_buf_add(s, "\n", 1);
    int oom = lab.oom || plots.oom;
    clb_buf_free(&lab);
    clb_buf_free(&plots);
    return oom ? CLB_ESYS : CLB_OK;
}

/* ---- lines -------------------------------------------------------------- */

/* The lines of a figure that form one series (for each column): same
 * kernel, type, size (unless the size is the x axis) and other swept values. */
struct series_ctx {
    const struct cmp_fig *g;
    int kind;
};
static const struct series_ctx *sctx;   /* qsort has no context argument */

static const char *series_part(const struct cmp_line *l, int k, int kind)
{
    switch (k) {
    case 0: return l->kernel;
    case 1: return l->dtype;
    case 2: return kind == 1 ? l->size : "";
    default: return kind == 1 ? l->sweep_rest : l->sweep;
    }
}

static int series_order(const void *pa, const void *pb)
{
    int a = *(const int *)pa, b = *(const int *)pb;
    for (int k = 0; k < 4; k++) {
        int c = strcmp(series_part(L(sctx->g, a), k, sctx->kind),
                       series_part(L(sctx->g, b), k, sctx->kind));
        if (c)
            return c;
    }
    return (a > b) - (a < b);
}

struct series {
    int start, n;   /* a run of the sorted positions */
    int first;      /* the position of its first line */
};

static int series_first(const void *pa, const void *pb)
{
    const struct series *a = pa, *b = pb;
    return (a->first > b->first) - (a->first < b->first);
}

static int write_lines(const struct cmp_fig *g, struct cmp_plot_text *o, int kind, int nsizes)
{
    const struct cmp_table *t = g->t;
    struct clb_buf *s = &o->script, *d = &o->data, *p = &o->peaks, plots = {0}, title = {0};
    int *pos = malloc(((size_t)g->nlines + 1) * sizeof *pos);
    struct series *sv = malloc(((size_t)g->nlines + 1) * sizeof *sv);
    char *allbound = calloc((size_t)g->ncols + 1, 1);
    int rc = CLB_ESYS;
    if (!pos || !sv || !allbound) {
        clb_seterr("out of host memory");
        goto out;
    }
    struct series_ctx ctx = {g, kind};
    for (int i = 0; i < g->nlines; i++)
        pos[i] = i;
    sctx = &ctx;
    qsort(pos, (size_t)g->nlines, sizeof *pos, series_order);
    sctx = NULL;
    int ns = 0;
    for (int i = 0; i < g->nlines; i++) {
        int same = i > 0;
        for (int k = 0; k < 4 && same; k++)
            same = !strcmp(series_part(L(g, pos[i]), k, kind), series_part(L(g, pos[i - 1]), k, kind));
        if (!same)
            sv[ns++] = (struct series){i, 0, 0};
        sv[ns - 1].n++;
    }
    /* series in the order of their first line: a run's first position is its
     * smallest (ties are broken by position) */
    for (int k = 0; k < ns; k++)
        sv[k].first = pos[sv[k].start];
    qsort(sv, (size_t)ns, sizeof *sv, series_first);
    double xmin = INFINITY, xmax = -INFINITY;
    int block = 0, pow2 = 1;   /* vec=1,2,4,8: spaced evenly on a log2 axis */
    for (int c = 0; c < g->ncols; c++) {
        allbound[c] = 1;
        for (int k = 0; k < ns; k++) {
            int npoints = 0;
            for (int m = 0; m < sv[k].n; m++) {
                int i = pos[sv[k].start + m];
                const struct cmp_line *b = L(g, i);
                double x = kind == 1 ? b->sweep_num : b->size_num;
                double y = cmp_value(t, g->lines[i], g->cols[c]);
                if (isnan(x) || isnan(y))
                    continue;
                if (!npoints) {
                    const struct cmp_line *a = b;
                    title.len = 0;
                    clb_buf_printf(&title, "%s: %s %s", t->cols[g->cols[c]].label, a->kernel,
                                   a->dtype);
                    if (kind == 1 && nsizes > 1)
                        clb_buf_printf(&title, " %s", a->size);
                    const char *rest = kind == 1 ? a->sweep_rest : a->sweep;
                    if (*rest)
                        clb_buf_printf(&title, " %s", rest);
                    if (d->len)
                        clb_buf_add(d, "\n\n", 2);
                    clb_buf_add(d, "x\t", 2);
                    cmp_plot_field(d, clb_buf_str(&title));
                    clb_buf_add(d, "\n", 1);
                }
                allbound[c] &= b->device_bound != 0;
                pow2 &= x >= 1 && x == floor(x) && x < 9.0e15 &&
                        ((long long)x & ((long long)x - 1)) == 0;
                xmin = fmin(xmin, x);
                xmax = fmax(xmax, x);
                clb_buf_printf(d, "%.10g\t%.6g\n", x, y);
                npoints++;
            }
            if (!npoints)
                continue;
            /* colour = device; with one device, colour = series */
            clb_buf_printf(&plots, "%s'fig%d.dat' index %d using 1:2 with linespoints lw 2 lc %d "
                                   "dt %d pt %d title columnheader(2)", block ? ", " : "",
                           g->index, block, g->ncols > 1 ? c + 1 : block + 1, 1 + block % 5,
                           1 + block % 13);
            block++;
        }
    }
    if (!block) {
        clb_seterr("%s: nothing to plot", cmp_esc_tmp(&title, g->workload, 0));
        rc = CLB_EUSAGE;
        goto out;
    }
    /* peaks over the whole x range: a column's where every point of it is
     * device work; 100 % where every point of the figure is */
    int pk = peak_kind(g), nblocks = 0, every = 1;
    for (int c = 0; c < g->ncols; c++)
        every &= allbound[c];
    for (int c = pk == CMP_PEAK_HUNDRED ? -1 : 0; pk != CMP_PEAK_NONE && c < g->ncols; c++) {
        int col = c < 0 ? -1 : g->cols[c];
        double y = col < 0 ? 100 : t->cols[col].peak_gbs;
        if (isnan(y) || !(c < 0 ? every : allbound[c]))
            continue;
        peak_title(&title, t, col);
        cmp_plot_block(p, clb_buf_str(&title));
        clb_buf_printf(p, "%.10g\t%.6g\n%.10g\t%.6g\n", xmin, y, xmax, y);
        peak_plot(g, &plots, nblocks++, c);
        if (c < 0)
            break;
    }
    if (xmin > 0 && (xmax >= 16 * xmin || (pow2 && xmax >= 4 * xmin)))
        clb_buf_printf(s, "set logscale x 2\n");
    else if (xmax - xmin <= 16 && xmin == floor(xmin) && xmax == floor(xmax))
        clb_buf_printf(s, "set xtics 1\n");   /* rhs 1..5, partitions: whole numbers */
    clb_buf_printf(s, "set offsets graph 0.03, graph 0.03, 0, 0\n");
    if (pow2 && xmax >= 65536 && xmax >= 4 * xmin)
        clb_buf_printf(s, "set format x '2^%%L'\n");   /* 2^22, not 4.1943e+06 */
    else if (xmax >= 1e5)
        clb_buf_printf(s, "set format x '%%.3s%%c'\n");
    clb_buf_printf(s, "set xlabel ");
    cmp_gp_string(s, kind == 1 ? sweep_key(g) : "problem size (elements)");
    clb_buf_add(s, "\n", 1);
    cmp_plot_terminal(g, s, block + nblocks);
    clb_buf_printf(s, "plot %s\n", clb_buf_str(&plots));
    rc = plots.oom || title.oom ? CLB_ESYS : CLB_OK;
out:
    free(pos);
    free(sv);
    free(allbound);
    clb_buf_free(&plots);
    clb_buf_free(&title);
    return rc;
}

int cmp_plot_script(const struct cmp_fig *g, struct cmp_plot_text *o)
{
    if (g->kind == CMP_FIG_ROOFLINE)
        return cmp_roofline_script(g, o);
    if (g->kind == CMP_FIG_STAIRS)
        return cmp_stairs_script(g, o);
    memset(o, 0, sizeof *o);
    int nsizes = ncat_sizes(g);
    int kind = sweep_kind(g, nsizes);
    struct clb_buf what = {0};
    clb_buf_printf(&what, "%s by %s",
                   g->t->ref >= 0 ? "relative performance" : g->t->metric->unit,
                   kind == 1 ? sweep_key(g) : kind == 2 ? "problem size" : "kernel");
    preamble(g, &o->script, clb_buf_str(&what));
    yscale(g, &o->script);
    int rc = what.oom ? CLB_ESYS : kind ? write_lines(g, o, kind, nsizes) : write_bars(g, o, nsizes);
    clb_buf_free(&what);
    if (!rc && (o->script.oom || o->data.oom || o->peaks.oom))
        rc = CLB_ESYS;
    if (rc == CLB_ESYS)
        clb_seterr("out of host memory writing the plot script");
    if (rc)
        cmp_plot_text_free(o);
    return rc;
}

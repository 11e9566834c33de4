/* A chart (include/clb_chart.h) as gnuplot's input: the one renderer of
 * every figure clbench draws. No text of a chart is gnuplot code
 * (docs/COMPARE.md): the series' titles, point labels and category names
 * are fields of the data files (CMP_ESC_DATA), a block per series whose
 * header line holds its title (`columnheader(2)`); the script's own texts
 * are string expressions (CMP_ESC_GP).
 *
 * figN.dat, every line: x, y, x0, x1, y0, label (bars are drawn as boxes
 * from (x0, y0) to (x1, y): their slot in the category and their base).
 * figN.peak.dat: x, y; a blank line breaks a guide into segments. */
#include "clb_chart.h"
#include "clb_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void clb_chart_text_free(struct clb_chart_text *t)
{
    clb_buf_free(&t->script);
    clb_buf_free(&t->data);
    clb_buf_free(&t->peaks);
}

/* What the renderer works out before it writes. */
struct layout {
    const struct clb_chart *c;
    const struct clb_chart_out *o;
    int *slot;           /* per series: its bar slot (stacked: the one below's), -1 */
    int nslots;
    double base;         /* the bars' foot: 0, or the bottom of a log axis */
    double ylo, yhi;     /* the measured y range (positive values on a log axis) */
    int width, height;
    int entries;         /* legend entries */
};

/* Text for gnuplot to show, in a data field or a script: escaped for the
 * figure's terminal too (an SVG's '&'). */
static int esc_flags(const struct layout *L, int target)
{
    return target | (L->o->svg ? CMP_ESC_SVG : 0);
}

static void fld(const struct layout *L, struct clb_buf *d, const char *text)
{
    cmp_esc(d, text ? text : "", esc_flags(L, CMP_ESC_DATA));
}

/* ---- layout ------------------------------------------------------------------- */

static int bar_slots(struct layout *L)
{
    const struct clb_chart *c = L->c;
    L->slot = malloc(((size_t)c->ns + 1) * sizeof *L->slot);
    if (!L->slot)
        return CLB_ESYS;
    for (int i = 0; i < c->ns; i++) {
        int below = i > 0 && c->s[i]->stack && c->s[i - 1]->style == CLB_CS_BARS;
        L->slot[i] = c->s[i]->style != CLB_CS_BARS ? -1 : below ? L->slot[i - 1] : L->nslots++;
    }
    return CLB_OK;
}

/* The top of each bar: stacked series add to the one below at the same x. */
static double bar_top(const struct clb_chart *c, int i, size_t k)
{
    double y = c->s[i]->p[k].y;
    if (!(c->s[i]->stack && i > 0 && c->s[i - 1]->style == CLB_CS_BARS))
        return y;
    for (size_t j = 0; j < c->s[i - 1]->n; j++)
        if (c->s[i - 1]->p[j].x == c->s[i]->p[k].x && !isnan(c->s[i - 1]->p[j].y))
            return bar_top(c, i - 1, j) + y;
    return y;
}

static void y_range(struct layout *L)
{
    const struct clb_chart *c = L->c;
    int log = c->y.scale != CLB_AXIS_LINEAR;
    L->ylo = INFINITY;
    L->yhi = -INFINITY;
    for (int i = 0; i < c->ns; i++)
        for (size_t k = 0; !c->s[i]->guide && k < c->s[i]->n; k++) {
            double y = c->s[i]->style == CLB_CS_BARS ? bar_top(c, i, k) : c->s[i]->p[k].y;
            if (isnan(y) || (log && !(y > 0)))
                continue;
            L->ylo = fmin(L->ylo, y);
            L->yhi = fmax(L->yhi, y);
        }
    L->ylo = fmin(L->ylo, c->y.lo);   /* fmin ignores a NAN */
    L->base = log ? (!isnan(c->y.lo) ? c->y.lo : pow(10, floor(log10(L->ylo)))) : 0;
    if (!log)
        L->ylo = fmin(L->ylo, 0);
}

/* The display width of a text, in pixels at the figure's font (about 7.5 px
 * a character; CJK and other wide text is rare in device names). */
static int text_px(const char *s)
{
    struct clb_buf e = {0};
    int w = cmp_width(cmp_esc_tmp(&e, s, 0));
    clb_buf_free(&e);
    return (int)(7.5 * w) + 1;
}

/* The canvas: wide enough for the title and the longest legend entry; tall
 * enough for the legend's rows below the graph (gnuplot puts as many entries
 * side by side as the width allows) and for a graph as tall as its y label
 * (which gnuplot writes upright beside it, cut at the canvas' edge). */
static int imax(int a, int b)
{
    return a > b ? a : b;
}

static int imin(int a, int b)
{
    return a < b ? a : b;
}

static void canvas(struct layout *L)
{
    const struct clb_chart *c = L->c;
    int entry = 0;
    L->entries = c->nv;
    for (int i = 0; i < c->ns; i++)
        if (c->s[i]->n) {
            L->entries++;
            entry = imax(entry, text_px(c->s[i]->title) + 70);
        }
    for (int i = 0; i < c->nv; i++)
        entry = imax(entry, text_px(c->v[i].title) + 70);
    int w = imin(imax(imax(entry + 60, text_px(c->title) + 60), 960), 2400);
    int cols = entry ? imax((w - 40) / entry, 1) : 1;
    int rows = imin((L->entries + cols - 1) / cols, 100);
    int catpx = 0;   /* rotated category names take room under the graph */
    for (int i = 0; i < c->ncats; i++)
        catpx = imax(catpx, text_px(c->cats[i]));
    int ylabel = text_px(c->y.label) - 340;   /* the graph of 480: about 360 px */
    L->width = w;
    L->height = 480 + 19 * rows + (int)(0.71 * imin(catpx, 400)) + imin(imax(ylabel, 0), 1000);
}

/* ---- the script ---------------------------------------------------------------- */

/* The smallest x of the measured points. */
static double x_min(const struct clb_chart *c)
{
    double m = INFINITY;
    for (int i = 0; i < c->ns; i++)
        for (size_t k = 0; !c->s[i]->guide && k < c->s[i]->n; k++)
            if (c->s[i]->p[k].x > 0)
                m = fmin(m, c->s[i]->p[k].x);
    return m;
}

static void axis(const struct layout *L, struct clb_buf *s, const struct clb_chart_axis *a,
                 char name, double min)
{
    clb_buf_printf(s, "set %clabel ", name);
    cmp_esc(s, a->label ? a->label : "", esc_flags(L, CMP_ESC_GP));
    clb_buf_add(s, "\n", 1);
    if (a->scale != CLB_AXIS_LINEAR)
        clb_buf_printf(s, "set logscale %c %d\n", name, a->scale == CLB_AXIS_LOG2 ? 2 : 10);
    switch (a->ticks) {
    case CLB_TICKS_INTEGERS: clb_buf_printf(s, "set %ctics 1\n", name); break;
    case CLB_TICKS_POW2: clb_buf_printf(s, "set format %c '2^%%L'\n", name); break;
    case CLB_TICKS_SI: clb_buf_printf(s, "set format %c '%%.3s%%c'\n", name); break;
    case CLB_TICKS_BYTES: clb_buf_printf(s, "set format %c '%%.0b %%BB'\n", name); break;
    default: break;
    }
    if (a->every > 1 && min > 0 && isfinite(min))
        clb_buf_printf(s, "set %ctics %.10g, %.10g\n", name, pow(2, floor(log2(min))), a->every);
}

static void range(struct clb_buf *s, char name, double lo, double hi)
{
    clb_buf_printf(s, "set %crange [", name);
    clb_buf_printf(s, isnan(lo) ? "*" : "%.10g", lo);
    clb_buf_add(s, ":", 1);
    clb_buf_printf(s, isnan(hi) ? "*" : "%.10g", hi);
    clb_buf_add(s, "]\n", 2);
}

static void preamble(const struct layout *L, struct clb_buf *s)
{
    const struct clb_chart *c = L->c;
    clb_buf_printf(s, "set encoding utf8\nset datafile separator tab\n"
                      "set datafile commentschars ''\nset title ");
    cmp_esc(s, c->title ? c->title : "", esc_flags(L, CMP_ESC_GP));
    clb_buf_add(s, "\n", 1);
    axis(L, s, &c->x, 'x', x_min(c));
    axis(L, s, &c->y, 'y', L->ylo);
    clb_buf_printf(s, "set grid %s\nset key outside below left Left reverse\n",
                   c->ncats ? "ytics" : "xtics ytics");
    if (c->ncats) {
        /* names hang down and left from their bar: never past the right edge */
        clb_buf_printf(s, "set xtics rotate by 45 right nomirror\n");
        /* the first names hang left of the graph: room for them (in characters) */
        int chars = 12;
        for (int k = 0; k < c->ncats && k < 3; k++)
            chars = imax(chars, text_px(c->cats[k]) / 8 - 5 * k);
        clb_buf_printf(s, "set lmargin %d\n", imin(chars, 60));
        range(s, 'x', -0.6, c->ncats - 0.4);
    } else {
        range(s, 'x', c->x.lo, c->x.hi);
        if (isnan(c->x.lo) && isnan(c->x.hi))
            clb_buf_printf(s, "set offsets graph 0.03, graph 0.03, 0, 0\n");
    }
    double ylo = c->y.lo;
    if (isnan(ylo) && c->y.scale == CLB_AXIS_LINEAR && L->ylo >= 0)
        ylo = 0;
    if (isnan(ylo) && c->y.scale != CLB_AXIS_LINEAR && L->nslots)
        ylo = L->base;
    range(s, 'y', ylo, c->y.hi);
}

/* The terminal goes last, just before "plot". */
static void terminal(const struct layout *L, struct clb_buf *s)
{
    int svg = L->o->svg;
    clb_buf_printf(s, "set terminal %s size %d,%d %snoenhanced font 'Sans,%d' background rgb "
                      "'white'\n", svg ? "svg" : "pngcairo", L->width, L->height,
                   svg ? "dynamic " : "", svg ? 12 : 11);
    clb_buf_printf(s, "set output 'fig%d.%s'\n", L->o->index, L->o->svg ? "svg" : "png");
}

/* Twelve colours that stay apart (a device's colour is its column's): past
 * gnuplot's own eight, which a page of devices and published sources runs out of. */
static const char *const palette[12] = {"#9400d3", "#009e73", "#56b4e9", "#e69f00", "#f0e442",
                                        "#0072b2", "#e51e10", "#4d4d4d", "#a6761d", "#66a61e",
                                        "#e7298a", "#1b9e77"};

/* A plot element's colour, and its legend entry: its block's header. */
static void colour(struct clb_buf *s, int c)
{
    clb_buf_printf(s, " lc rgb '%s' title columnheader(2)",
                   c > 0 ? palette[(c - 1) % 12] : c < 0 ? "gray50" : "black");
}

/* A block's header line in a data file: its title, the legend entry. */
static void block_head(const struct layout *L, struct clb_buf *d, const char *title)
{
    if (d->len)
        clb_buf_add(d, "\n\n", 2);
    clb_buf_add(d, "x\t", 2);
    fld(L, d, title);
}

/* ---- the data ----------------------------------------------------------------- */

/* One measured series: its block in figN.dat and its plot elements. */
static void series_data(const struct layout *L, int i, int block, struct clb_buf *d,
                        struct clb_buf *plots)
{
    const struct clb_chart *c = L->c;
    const struct clb_chart_series *sr = c->s[i];
    double w = L->nslots ? 0.8 / L->nslots : 0;
    block_head(L, d, sr->title);
    clb_buf_add(d, "\tx0\tx1\ty0\tlabel\n", 16);
    int labels = 0;
    for (size_t k = 0; k < sr->n; k++) {
        const struct clb_chart_point *p = &sr->p[k];
        double x = p->x, y = p->y, y0 = y;
        int lab = p->label && *p->label;   /* no "(empty)" for a point without a label */
        int empty = sr->style == CLB_CS_BARS && isnan(y) && lab;
        if (isnan(x) || (isnan(y) && !empty))
            continue;
        if (sr->style == CLB_CS_BARS)
            x = p->x - 0.4 + (L->slot[i] + 0.5) * w;
        if (empty) {   /* a bar without a figure (skipped, failed): its label at the foot */
            y = y0 = L->base;
        } else if (sr->style == CLB_CS_BARS) {
            y = bar_top(c, i, k);
            y0 = y - p->y;
            y0 = y0 > L->base ? y0 : L->base;
        }
        if (p->brk)
            clb_buf_add(d, "\n", 1);
        clb_buf_printf(d, "%.10g\t%.10g\t%.10g\t%.10g\t%.10g\t", x, y, x - w / 2, x + w / 2, y0);
        if (lab)
            fld(L, d, p->label);
        clb_buf_add(d, "\n", 1);
        labels |= lab;
    }
    int dash = sr->dash ? sr->dash : 1 + block % 5, pt = sr->marker ? sr->marker : 1 + block % 13;
    const char *sep = plots->len ? ", " : "";
    if (sr->style == CLB_CS_BARS)
        clb_buf_printf(plots, "%s'fig%d.dat' index %d using 1:2:3:4:5:2 with boxxyerror "
                              "fs solid 0.85 border -1", sep, L->o->index, block);
    else
        clb_buf_printf(plots, "%s'fig%d.dat' index %d using 1:2 with %s lw 2 dt %d pt %d ps %s",
                       sep, L->o->index, block,
                       sr->style == CLB_CS_POINTS ? "points" : "linespoints", dash, pt,
                       sr->style == CLB_CS_POINTS ? "1.5" : "1");
    colour(plots, sr->colour);
    /* a label above its point; above a bar of several side by side, upright
     * (horizontal ones would run into the next bar's) */
    int upright = sr->style == CLB_CS_BARS && L->nslots > 1;
    if (labels)
        clb_buf_printf(plots, ", 'fig%d.dat' index %d using 1:2:6 with labels %s font ',9' "
                              "notitle", L->o->index, block,
                       upright ? "rotate by 90 left offset 0,0.5" : "center offset 0,0.8");
}

/* The category names: a block of their positions, read by xticlabels. */
static void categories(const struct layout *L, int block, struct clb_buf *d,
                       struct clb_buf *plots)
{
    const struct clb_chart *c = L->c;
    clb_buf_add(d, "\n\nx\tcategories\tx0\tx1\ty0\tlabel\n", 30);
    for (int k = 0; k < c->ncats; k++) {
        clb_buf_printf(d, "%d\t%.10g\t%d\t%d\t%.10g\t", k, L->base, k, k, L->base);
        fld(L, d, c->cats[k]);
        clb_buf_add(d, "\n", 1);
    }
    clb_buf_printf(plots, ", 'fig%d.dat' index %d using 1:2:xticlabels(6) with points ps 0 "
                          "notitle", L->o->index, block);
}

/* The guides: a block each in figN.peak.dat; vertical lines span the
 * measured y range. */
static void guides(const struct layout *L, struct clb_buf *p, struct clb_buf *plots)
{
    const struct clb_chart *c = L->c;
    int block = 0;
    for (int i = 0; i < c->ns; i++) {
        const struct clb_chart_series *sr = c->s[i];
        if (!sr->guide || !sr->n)
            continue;
        block_head(L, p, sr->title);
        clb_buf_add(p, "\n", 1);
        for (size_t k = 0; k < sr->n; k++) {
            if (sr->p[k].brk && k)
                clb_buf_add(p, "\n", 1);
            clb_buf_printf(p, "%.10g\t%.10g\n", sr->p[k].x, sr->p[k].y);
        }
        int pts = sr->style == CLB_CS_POINTS;
        clb_buf_printf(plots, "%s'fig%d.peak.dat' index %d using 1:2 with %s", plots->len ? ", " : "",
                       L->o->index, block++, pts ? "points" : "lines");
        if (pts)
            clb_buf_printf(plots, " pt %d ps 2", sr->marker ? sr->marker : 6);
        else
            clb_buf_printf(plots, " dt %d lw 2", sr->dash ? sr->dash : 2);
        colour(plots, sr->colour);
    }
    for (int i = 0; i < c->nv; i++) {
        block_head(L, p, c->v[i].title);
        clb_buf_printf(p, "\n%.10g\t%.10g\n%.10g\t%.10g\n", c->v[i].x, L->ylo, c->v[i].x, L->yhi);
        clb_buf_printf(plots, "%s'fig%d.peak.dat' index %d using 1:2 with lines dt %d lw 1.5",
                       plots->len ? ", " : "", L->o->index, block++,
                       c->v[i].dash ? c->v[i].dash : 3);
        colour(plots, c->v[i].colour);
    }
}

static int write_all(struct layout *L, struct clb_chart_text *t)
{
    const struct clb_chart *c = L->c;
    struct clb_buf plots = {0};
    int block = 0;
    for (int i = 0; i < c->ns; i++)
        if (!c->s[i]->guide && c->s[i]->n)
            series_data(L, i, block++, &t->data, &plots);
    if (c->ncats && block)
        categories(L, block, &t->data, &plots);
    guides(L, &t->peaks, &plots);
    canvas(L);
    preamble(L, &t->script);
    terminal(L, &t->script);
    clb_buf_printf(&t->script, "plot %s\n", clb_buf_str(&plots));
    int oom = plots.oom;
    clb_buf_free(&plots);
    return oom ? CLB_ESYS : CLB_OK;
}

int clb_chart_gnuplot(const struct clb_chart *c, const struct clb_chart_out *o,
                      struct clb_chart_text *t)
{
    memset(t, 0, sizeof *t);
    double lo, hi;
    if (!clb_chart_measured(c, &lo, &hi))
        return clb_eusage("nothing to plot: no point of it has a figure");
    struct layout L = {.c = c, .o = o};
    int rc = c->oom ? CLB_ESYS : bar_slots(&L);
    if (!rc) {
        y_range(&L);
        rc = write_all(&L, t);
    }
    free(L.slot);
    if (!rc && (t->script.oom || t->data.oom || t->peaks.oom))
        rc = CLB_ESYS;
    if (rc) {
        clb_seterr(CLB_OOM " writing the plot script");
        clb_chart_text_free(t);
    }
    return rc;
}

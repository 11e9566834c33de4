/* A chart description (include/clb_chart.h): what a figure shows, built by
 * `compare --plot`, `clbench report` and `model scaling --plot`, drawn by
 * chart_gnuplot.c; and the rules every figure follows: its axes and its
 * peak levels. */
#include "clb_chart.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void clb_chart_init(struct clb_chart *c, const char *title, const char *xl, const char *yl)
{
    memset(c, 0, sizeof *c);
    c->title = clb_chart_str(c, title);
    c->x.label = clb_chart_str(c, xl);
    c->y.label = clb_chart_str(c, yl);
    c->x.lo = c->x.hi = c->y.lo = c->y.hi = NAN;
}

void clb_chart_free(struct clb_chart *c)
{
    for (int i = 0; i < c->ns; i++) {
        free(c->s[i]->p);
        free(c->s[i]);
    }
    free(c->s);
    free(c->cats);
    free(c->v);
    clb_arena_free(&c->arena);
    memset(c, 0, sizeof *c);
}

const char *clb_chart_str(struct clb_chart *c, const char *text)
{
    if (!text)
        return "";
    const char *s = clb_arena_intern(&c->arena, text, strlen(text));
    if (!s)
        c->oom = 1;
    return s ? s : "";
}

int clb_chart_cat(struct clb_chart *c, const char *name)
{
    if (CLB_GROW(c->cats, c->ncats, c->capcats)) {
        c->oom = 1;
        return c->ncats ? c->ncats - 1 : 0;
    }
    c->cats[c->ncats] = clb_chart_str(c, name);
    return c->ncats++;
}

struct clb_chart_series *clb_chart_series(struct clb_chart *c, const char *title,
                                          enum clb_chart_style style, int colour)
{
    struct clb_chart_series *s = calloc(1, sizeof *s);
    if (!s || CLB_GROW(c->s, c->ns, c->caps)) {
        free(s);
        c->oom = 1;
        return NULL;
    }
    c->s[c->ns++] = s;
    s->title = clb_chart_str(c, title);
    s->style = style;
    s->guide = style == CLB_CS_LINES;
    s->colour = colour;
    return s;
}

void clb_chart_point(struct clb_chart *c, struct clb_chart_series *s, double x, double y,
                     const char *label)
{
    if (!s)
        return;
    if (CLB_GROW(s->p, s->n, s->cap)) {
        c->oom = 1;
        return;
    }
    s->p[s->n++] = (struct clb_chart_point){x, y, label ? clb_chart_str(c, label) : NULL, 0};
}

void clb_chart_vline(struct clb_chart *c, double x, const char *title, int colour, int dash)
{
    if (CLB_GROW(c->v, c->nv, c->capv)) {
        c->oom = 1;
        return;
    }
    c->v[c->nv++] = (struct clb_chart_vline){x, clb_chart_str(c, title), colour, dash};
}

static int pow2(double x)
{
    return x >= 1 && x == floor(x) && x < 9.0e15 && ((long long)x & ((long long)x - 1)) == 0;
}

/* What the measured points span: their number (x and y not NAN), their x
 * range, whether every x is whole and a power of two, their y range over
 * positive values (ylo = INFINITY, yhi = 0 when none). */
struct span {
    size_t n;
    double xlo, xhi, ylo, yhi;
    int ints, p2;
};

static size_t span_of(const struct clb_chart *c, struct span *s)
{
    *s = (struct span){0, INFINITY, -INFINITY, INFINITY, 0, 1, 1};
    for (int i = 0; i < c->ns; i++)
        for (size_t k = 0; !c->s[i]->guide && k < c->s[i]->n; k++) {
            double x = c->s[i]->p[k].x, y = c->s[i]->p[k].y;
            if (isnan(x) || isnan(y))
                continue;
            s->n++;
            s->xlo = fmin(s->xlo, x);
            s->xhi = fmax(s->xhi, x);
            s->ints &= x == floor(x);
            s->p2 &= pow2(x);
            s->ylo = y > 0 ? fmin(s->ylo, y) : s->ylo;
            s->yhi = y > 0 ? fmax(s->yhi, y) : s->yhi;
        }
    return s->n;
}

size_t clb_chart_measured(const struct clb_chart *c, double *lo, double *hi)
{
    struct span s;
    span_of(c, &s);
    *lo = s.ylo;
    *hi = s.yhi;
    return s.n;
}

/* ---- the rules ------------------------------------------------------------------ */

/* A log y axis where the figures span two decades or more, said in its label. */
static void y_axis(struct clb_chart *c, const struct span *s)
{
    if (!(s->yhi >= 100 * s->ylo))   /* none positive: 0 against INFINITY */
        return;
    c->y.scale = CLB_AXIS_LOG10;
    c->y.lo = pow(10, floor(log10(s->ylo)));
    struct clb_buf t = {0};
    clb_buf_printf(&t, "%s (log scale: the figures span %.0f\xc3\x97)", c->y.label,
                   s->yhi / s->ylo);
    c->y.label = clb_chart_str(c, clb_buf_str(&t));
    c->oom |= t.oom;
    clb_buf_free(&t);
}

void clb_chart_axes(struct clb_chart *c, int x_bytes)
{
    struct span s;
    span_of(c, &s);
    y_axis(c, &s);
    double lo = s.xlo, hi = s.xhi;
    if (c->ncats || !s.n)
        return;
    if (lo > 0 && (hi >= 16 * lo || (s.p2 && hi >= 4 * lo)))
        c->x.scale = CLB_AXIS_LOG2;
    else if (s.ints && hi - lo <= 16)
        c->x.ticks = CLB_TICKS_INTEGERS;   /* rhs 1..5, partitions: whole numbers */
    if (c->x.scale == CLB_AXIS_LINEAR && lo == 0)
        c->x.lo = 0;   /* a distance or an offset from 0: no negative axis */
    if (x_bytes)
        c->x.ticks = CLB_TICKS_BYTES;
    else if (c->x.scale == CLB_AXIS_LOG2 && s.p2 && hi >= 65536)
        c->x.ticks = CLB_TICKS_POW2;   /* 2^22, not 4.1943e+06 */
    else if (hi >= 1e5)
        c->x.ticks = CLB_TICKS_SI;
}

static struct clb_chart_series *guide(struct clb_chart *c, const char *title, int colour,
                                      int dash)
{
    struct clb_chart_series *s = clb_chart_series(c, title, CLB_CS_LINES, colour);
    if (s)
        s->dash = dash;
    return s;
}

void clb_chart_levels(struct clb_chart *c, const char *title, int colour, int dash,
                      const double *lv, int n)
{
    struct clb_chart_series *s = NULL;
    for (int i = 0; i < n; i++) {
        if (isnan(lv[i]))
            continue;
        int j = i;
        while (j + 1 < n && lv[j + 1] == lv[i])
            j++;
        if (!s && !(s = guide(c, title, colour, dash)))
            return;
        clb_chart_point(c, s, i - 0.5, lv[i], NULL);
        s->p[s->n - 1].brk = s->n > 1;
        clb_chart_point(c, s, j + 0.5, lv[i], NULL);
        i = j;
    }
}

void clb_chart_level(struct clb_chart *c, const char *title, int colour, int dash, double y)
{
    struct span sp;
    if (isnan(y) || !span_of(c, &sp))
        return;
    struct clb_chart_series *s = guide(c, title, colour, dash);
    clb_chart_point(c, s, c->ncats ? -0.5 : sp.xlo, y, NULL);
    clb_chart_point(c, s, c->ncats ? c->ncats - 0.5 : sp.xhi, y, NULL);
}

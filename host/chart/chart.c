/* A chart description (include/clb_chart.h): what a figure shows, built by
 * `compare --plot` and `clbench report`, drawn by chart_gnuplot.c. */
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

size_t clb_chart_measured(const struct clb_chart *c, double *lo, double *hi)
{
    size_t n = 0;
    *lo = INFINITY;
    *hi = 0;
    for (int i = 0; i < c->ns; i++) {
        if (c->s[i]->guide)
            continue;
        for (size_t k = 0; k < c->s[i]->n; k++) {
            double y = c->s[i]->p[k].y;
            if (isnan(y) || isnan(c->s[i]->p[k].x))
                continue;
            n++;
            if (y > 0) {
                *lo = fmin(*lo, y);
                *hi = fmax(*hi, y);
            }
        }
    }
    return n;
}

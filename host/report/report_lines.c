/* clbench report: the curves -- a workload's figure against the parameter
 * its `figure` declares (partitions, distance, stride, rhs) or against the
 * problem size (transfers): one line per device, kernel, type and other
 * parameters, at the size each device shows; the workload's model lines
 * (Dslash, CG: the talk's [Wagner15] no-cache and perfect-cache limits at the device's
 * bandwidth) and the peaks where they apply. */
#include "report_priv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A row placed on a curve. Texts are interned: equal texts, equal pointers. */
struct pt {
    size_t i;            /* the row */
    double x;
    const char *kernel, *dtype, *rest;   /* rest: its params without the x key */
    int col, colour;     /* its column, and the column's order */
    int pos;             /* its kernel's declared position */
};

static int text_order(const char *a, const char *b)
{
    return a == b ? 0 : strcmp(a, b);
}

static int pt_order(const void *pa, const void *pb)
{
    const struct pt *a = pa, *b = pb;
    int c = a->colour - b->colour;
    c = c ? c : a->pos - b->pos;
    c = c ? c : text_order(a->kernel, b->kernel);
    c = c ? c : text_order(a->dtype, b->dtype);
    c = c ? c : text_order(a->rest, b->rest);
    c = c ? c : (a->x > b->x) - (a->x < b->x);
    return c ? c : (a->i > b->i) - (a->i < b->i);
}

static int same_series(const struct pt *a, const struct pt *b)
{
    return a->col == b->col && a->kernel == b->kernel && a->dtype == b->dtype && a->rest == b->rest;
}

/* The first key of the declared list that the row has as a number, with
 * its value; NULL when none. */
static const char *x_key(const struct clb_workload *wl, const struct clb_row *x, double *v)
{
    const char *k = wl->figure.x_param;
    char key[64];
    while (k && *k) {
        size_t n = strcspn(k, ",");
        if (n < sizeof key) {
            memcpy(key, k, n);
            key[n] = 0;
            *v = clb_row_param(x, key);
            if (!isnan(*v))
                return k;   /* points into the declaration: one pointer per key */
        }
        k += n + (k[n] == ',');
    }
    return NULL;
}

struct curves {
    struct rpt *r;
    const struct rpt_rows *w;
    const char *key;     /* the x parameter (into the declaration); NULL: the size */
    const char *name;    /* the key alone (NUL-terminated); NULL: the size */
    struct pt *p;
    size_t n;
};

/* The rows of the chart of x key cv->key (and of type dtype and other params
 * rest, interned, when not NULL). */
static int collect(struct curves *cv, const char *dtype, const char *rest)
{
    struct rpt *r = cv->r;
    const struct clb_workload *wl = cv->w->wl;
    cv->n = 0;
    for (size_t k = 0; k < cv->w->n; k++) {
        size_t i = cv->w->ids[k];
        const struct clb_row *x = &r->t.rows[i];
        double v = r->t.ri[i].size_num;
        const char *kk = wl->figure.x_size ? NULL : x_key(wl, x, &v);
        if (kk != cv->key || isnan(v) || (dtype && x->dtype != dtype))
            continue;
        int col = r->t.ri[i].col;
        const char *other = rpt_params_without(r, i, cv->name);
        if (rest && other != rest)
            continue;
        cv->p[cv->n++] = (struct pt){i, v, x->kernel, x->dtype, other, col, rpt_col_rank(r, col),
                                     clb_figure_pos(wl, x->kernel)};
    }
    qsort(cv->p, cv->n, sizeof *cv->p, pt_order);
    return cv->n ? CLB_OK : CLB_EUSAGE;
}

/* ---- series ----------------------------------------------------------------------- */

static void series_title(struct clb_buf *b, const struct rpt *r, const struct pt *p)
{
    b->len = 0;
    clb_buf_printf(b, "%s: %s", rpt_label(r, p->col), p->kernel);
    if (p->dtype[0])
        clb_buf_printf(b, " %s", p->dtype);
    if (p->rest[0])
        clb_buf_printf(b, " %s", p->rest);
}

/* ---- cells: a point per series and x -------------------------------------------- */

struct scell {
    double x;
    struct rpt_cell c;
};

/* A series: the run p[a..b) of one device, kernel, type and params. */
struct sser {
    size_t a, b;
    struct scell *v;
    size_t n;
};

/* The points of the series p[a..b): at the size the column shows (curves
 * against a parameter; against the size, every size). */
static int series_cells(struct curves *cv, struct sser *s)
{
    struct rpt *r = cv->r;
    size_t len = s->b - s->a, *ids = malloc((len + 1) * sizeof *ids);
    s->v = malloc((len + 1) * sizeof *s->v);
    s->n = 0;
    if (!ids || !s->v) {
        free(ids);
        return CLB_ESYS;
    }
    for (size_t k = 0; k < len; k++)
        ids[k] = cv->p[s->a + k].i;
    const char *size = cv->key ? rpt_shown_size(r, ids, len) : NULL;
    for (size_t k = s->a; k < s->b;) {
        size_t e = k, m = 0;
        while (e < s->b && cv->p[e].x == cv->p[k].x)
            e++;
        for (size_t q = k; q < e; q++)
            if (!size || r->t.ri[cv->p[q].i].size == size)
                ids[m++] = cv->p[q].i;
        if (m) {
            s->v[s->n].x = cv->p[k].x;
            rpt_cell(r, ids, m, &s->v[s->n++].c);
        }
        k = e;
    }
    free(ids);
    return CLB_OK;
}

/* Every series of the chart's rows. */
static int all_series(struct curves *cv, struct sser **out, size_t *n)
{
    size_t cap = 0;
    *out = NULL;
    *n = 0;
    for (size_t a = 0; a < cv->n;) {
        size_t b = a;
        while (b < cv->n && same_series(&cv->p[a], &cv->p[b]))
            b++;
        if (CLB_GROW(*out, *n, cap))
            return CLB_ESYS;
        (*out)[*n] = (struct sser){a, b, NULL, 0};
        if (series_cells(cv, &(*out)[(*n)++]))
            return CLB_ESYS;
        a = b;
    }
    return CLB_OK;
}

static void series_free(struct sser *v, size_t n)
{
    for (size_t k = 0; k < n; k++)
        free(v[k].v);
    free(v);
}

/* ---- the chart ---------------------------------------------------------------------- */

/* What the peak lines need to know of a chart's points. */
struct xrange {
    int gbps, bound;   /* every point GB/s; device work */
};

static void one_series(struct curves *cv, struct clb_chart *ch, const struct sser *s, int nser,
                       struct xrange *xr)
{
    struct rpt *r = cv->r;
    struct clb_buf t = {0};
    series_title(&t, r, &cv->p[s->a]);
    int several = 0;
    for (size_t k = 0; k < cv->n && !several; k++)
        several = cv->p[k].col != cv->p[0].col;
    int colour = several ? rpt_colour(r, cv->p[s->a].col) : nser + 1;
    struct clb_chart_series *cs = clb_chart_series(ch, clb_buf_str(&t), CLB_CS_LINESPOINTS, colour);
    if (cs) {
        cs->dash = 1 + nser % 5;
        cs->marker = 1 + nser % 13;
    }
    for (size_t k = 0; k < s->n; k++) {
        const struct rpt_cell *c = &s->v[k].c;
        t.len = 0;
        rpt_flag_letters(&t, c->flags & ~(unsigned)RF_BYTES);   /* B: the table's, by its bytes */
        clb_chart_point(ch, cs, s->v[k].x, c->v, t.len ? clb_buf_str(&t) : NULL);
        int kind = r->t.ri[c->best].kind;
        xr->gbps &= strcmp(rpt_unit(r, c->best), "GB/s") == 0;
        xr->bound &= (kind & CMP_RK_COUNTED) && !(kind & (CMP_RK_HOST | CMP_RK_COMPUTE));
    }
    clb_buf_free(&t);
}

/* ---- model lines --------------------------------------------------------------------- */

/* The bandwidth a model line is drawn at: the measured ceiling, else the
 * datasheet peak; its source in *what. */
static double model_bw(const struct rpt *r, int col, const char **what)
{
    double m = r->t.cols[col].ceil[CLB_CEIL_BW];
    *what = m > 0 ? "measured" : "datasheet";
    return m > 0 ? m : r->t.cols[col].peak_gbs;
}

/* The model lines of series s (one device; the kernels of one type and
 * params share them: drawn once, for the first kernel's series). */
static void model_lines(struct curves *cv, struct clb_chart *ch, const struct sser *s)
{
    struct rpt *r = cv->r;
    const struct pt *p0 = &cv->p[s->a];
    int (*models)(const struct clb_row *, struct clb_figure_model *, int) = cv->w->wl->figure.models;
    if (!models || r->t.cols[p0->col].reference)
        return;
    for (size_t k = 0; k < s->a; k++)   /* drawn for an earlier kernel of this device */
        if (cv->p[k].col == p0->col && cv->p[k].dtype == p0->dtype && cv->p[k].rest == p0->rest)
            return;
    const char *what;
    double bw = model_bw(r, p0->col, &what);
    struct clb_figure_model m[4];
    struct clb_buf t = {0};
    for (int k = 0; bw > 0 && k < 4; k++) {
        struct clb_chart_series *ls = NULL;
        for (size_t q = 0; q < s->n; q++) {
            size_t i = s->v[q].c.best;
            int nm = models(&r->t.rows[i], m, 4);
            if (k >= nm)
                continue;
            if (!ls) {
                const char *title = rpt_fmt(&t, "%s: model, %s (%s %.0f GB/s \xc3\x97 flop/byte)",
                                            rpt_label(r, p0->col), m[k].name, what, bw);
                if (!(ls = clb_chart_series(ch, title, CLB_CS_LINES, rpt_colour(r, p0->col))))
                    break;
                ls->dash = 2 + k;
            }
            clb_chart_point(ch, ls, s->v[q].x, rpt_norm(r, i, bw * m[k].flop_per_byte), NULL);
        }
    }
    clb_buf_free(&t);
}

/* The peaks over the x range: each device's datasheet peak and measured
 * ceiling (absolute GB/s of device work), or 100 %. */
static void peak_lines(struct curves *cv, struct clb_chart *ch, const struct xrange *xr)
{
    struct rpt *r = cv->r;
    struct clb_buf t = {0};
    if (r->o->norm != CLB_NORM_ABSOLUTE && xr->bound)
        clb_chart_level(ch, "100 %", 0, 2, 100);
    for (int k = 0; r->o->norm == CLB_NORM_ABSOLUTE && xr->gbps && xr->bound && k < r->ndev; k++) {
        int col = r->dev[k], here = 0;
        for (size_t q = 0; q < cv->n && !here; q++)
            here = cv->p[q].col == col;
        double lv[2] = {r->t.cols[col].peak_gbs, r->t.cols[col].ceil[CLB_CEIL_BW]};
        for (int j = 0; here && j < 2; j++)
            if (lv[j] > 0)
                clb_chart_level(ch, rpt_fmt(&t, "%s: %s", rpt_label(r, col),
                                            j ? "measured ceiling" : "datasheet peak"),
                                rpt_colour(r, col), 2 + j, lv[j]);
    }
    clb_buf_free(&t);
}

/* ---- the table -------------------------------------------------------------------- */

/* The distinct x of the chart, sorted (malloc'd; *n). */
static double *distinct_x(const struct curves *cv, size_t *n)
{
    double *v = malloc((cv->n + 1) * sizeof *v);
    *n = 0;
    if (!v)
        return NULL;
    for (size_t k = 0; k < cv->n; k++)
        v[k] = cv->p[k].x;
    clb_sort_doubles(v, cv->n);
    for (size_t k = 0; k < cv->n; k++)
        if (!*n || v[k] != v[*n - 1])
            v[(*n)++] = v[k];
    return v;
}

/* A matrix of series by x where there are few x values (at most 12), else
 * each series' best and worst with their x. */
static void curve_table(struct curves *cv, const struct sser *ss, size_t ns, const char *xname,
                        int bytes)
{
    struct rpt *r = cv->r;
    size_t nx;
    double *xs = distinct_x(cv, &nx);
    struct clb_buf t = {0};
    if (!xs)
        return;
    int matrix = nx <= 12;
    const char *span = matrix ? " rowspan=\"2\"" : "";
    rpt_tag(r, "<div class=\"wide\"><table>\n<tr><th%s>device</th><th%s>kernel, type, params</th>"
               "<th%s>unit</th>", span, span, span);
    if (matrix) {   /* the x name once over its values: narrow columns */
        rpt_tag(r, "<th colspan=\"%zu\">", nx);
        rpt_wrap(r, "", xname, "</th></tr>\n<tr>");
    } else {
        rpt_wrap(r, "<th>best</th><th>at ", xname, "</th><th>worst</th><th>at ");
        rpt_wrap(r, "", xname, "</th>");
    }
    for (size_t k = 0; matrix && k < nx; k++) {
        rpt_tag(r, "<th class=\"n\">");
        rpt_x(r, xs[k], bytes);
        rpt_tag(r, "</th>");
    }
    rpt_tag(r, "</tr>\n");
    for (size_t q = 0; q < ns; q++) {
        const struct sser *s = &ss[q];
        const struct pt *p = &cv->p[s->a];
        if (!s->n)
            continue;
        series_title(&t, r, p);
        rpt_wrap(r, "<tr><td>", rpt_label(r, p->col), "</td>");
        rpt_td(r, clb_buf_str(&t) + strlen(rpt_label(r, p->col)) + 2);
        rpt_td(r, rpt_norm_unit(r, rpt_unit(r, s->v[0].c.best)));
        if (matrix) {
            for (size_t k = 0, j = 0; k < nx; k++) {
                while (j < s->n && s->v[j].x < xs[k])
                    j++;
                struct rpt_cell none = {.v = NAN, .raw = NAN};
                rpt_cell_td(r, j < s->n && s->v[j].x == xs[k] ? &s->v[j].c : &none, NAN, 0);
            }
        } else {
            size_t best = 0, worst = 0;
            int lower = cv->w->wl && cv->w->wl->figure.lower_is_better;
            for (size_t k = 1; k < s->n; k++) {
                double v = s->v[k].c.v, b = s->v[best].c.v, w = s->v[worst].c.v;
                if (!isnan(v) && (isnan(b) || (lower ? v < b : v > b)))
                    best = k;
                if (!isnan(v) && (isnan(w) || (lower ? v > w : v < w)))
                    worst = k;
            }
            const size_t at[2] = {best, worst};
            for (int j = 0; j < 2; j++) {
                rpt_cell_td(r, &s->v[at[j]].c, NAN, 0);
                rpt_tag(r, "<td class=\"n\">");
                rpt_x(r, s->v[at[j]].x, bytes);
                rpt_tag(r, "</td>");
            }
        }
        rpt_tag(r, "</tr>\n");
    }
    rpt_tag(r, "</table></div>\n");
    clb_buf_free(&t);
    free(xs);
}

/* ---- a workload's curves ----------------------------------------------------------- */

/* The chart and table of the collected rows. */
static void one_chart(struct curves *cv, const char *xname, const char *key, const char *dtype,
                      const char *rest)
{
    struct rpt *r = cv->r;
    const struct clb_workload *wl = cv->w->wl;
    struct sser *ss;
    size_t ns;
    if (all_series(cv, &ss, &ns)) {
        r->oom = 1;
        series_free(ss, ns);
        return;
    }
    const char *unit = ns && ss[0].n ? rpt_unit(r, ss[0].v[0].c.best) : "";
    struct clb_buf t = {0};
    clb_buf_printf(&t, "%s: %s by %s%s%s%s%s", cv->w->workload, rpt_norm_unit(r, unit), xname,
                   dtype ? ", " : "", dtype ? dtype : "", rest && *rest ? " " : "",
                   rest ? rest : "");
    int *cols = malloc((ns + 1) * sizeof *cols), nc = 0;
    for (size_t q = 0; cols && q < ns; q++)
        if (!nc || cols[nc - 1] != cv->p[ss[q].a].col)
            cols[nc++] = cv->p[ss[q].a].col;
    rpt_on_devices(r, cols, nc, &t);
    struct clb_chart ch;
    clb_chart_init(&ch, clb_buf_str(&t), xname, rpt_norm_unit(r, unit));
    struct xrange xr = {1, 1};
    rpt_colours_for(r, cols, nc);
    for (size_t q = 0; q < ns; q++)
        one_series(cv, &ch, &ss[q], (int)q, &xr);
    for (size_t q = 0; q < ns; q++)
        model_lines(cv, &ch, &ss[q]);
    peak_lines(cv, &ch, &xr);
    clb_chart_axes(&ch, wl->figure.x_bytes);
    rpt_chart(r, &ch, rpt_fmt(&t, "%s against %s%s, each device at its default size; letters "
                                  "beside a point are its flags", cv->w->workload, xname,
                              wl->figure.models ? "; dashed: the model lines" : ""));
    free(cols);
    curve_table(cv, ss, ns, key, wl->figure.x_bytes);
    clb_buf_free(&t);
    series_free(ss, ns);
}

/* A chart per type and other params where the workload has model lines
 * (they differ by both): the distinct (dtype, rest) of the collected rows,
 * in order; one group of all rows otherwise. */
struct group {
    const char *dtype, *rest;
    size_t first;   /* its first row: groups in the files' order */
};

static int group_order(const void *pa, const void *pb)
{
    const struct group *a = pa, *b = pb;
    return (a->first > b->first) - (a->first < b->first);
}

static int groups_of(const struct curves *cv, int split, struct group **out, size_t *n)
{
    size_t cap = 0;
    *out = NULL;
    *n = 0;
    for (size_t k = 0; k < (split ? cv->n : 1); k++) {
        struct group g = {split ? cv->p[k].dtype : NULL, split ? cv->p[k].rest : NULL,
                          cv->p[k].i};
        size_t j = 0;
        while (j < *n && !((*out)[j].dtype == g.dtype && (*out)[j].rest == g.rest))
            j++;
        if (j < *n)
            (*out)[j].first = g.first < (*out)[j].first ? g.first : (*out)[j].first;
        else if (CLB_GROW(*out, *n, cap))
            return CLB_ESYS;
        else
            (*out)[(*n)++] = g;
    }
    qsort(*out, *n, sizeof **out, group_order);
    return CLB_OK;
}

/* The charts of x key k (NULL: the size): all rows collected, then one chart
 * per group. */
static void charts_of(struct curves *cv, const char *xname, const char *name)
{
    const struct clb_workload *wl = cv->w->wl;
    struct group *g = NULL;
    size_t ng = 0;
    if (collect(cv, NULL, NULL) != CLB_OK)
        return;
    if (groups_of(cv, wl->figure.models != NULL, &g, &ng)) {
        cv->r->oom = 1;
        free(g);
        return;
    }
    for (size_t k = 0; k < ng; k++)
        if (collect(cv, g[k].dtype, g[k].rest) == CLB_OK)
            one_chart(cv, xname, wl->figure.x_size ? "size" : name, g[k].dtype, g[k].rest);
    free(g);
}

void rpt_lines(struct rpt *r, const struct rpt_rows *w)
{
    const struct clb_workload *wl = w->wl;
    struct curves cv = {.r = r, .w = w};
    cv.p = malloc((w->n + 1) * sizeof *cv.p);
    if (!cv.p) {
        r->oom = 1;
        return;
    }
    for (const char *k = wl->figure.x_size ? "" : wl->figure.x_param; k;) {
        size_t n = strcspn(k, ",");
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)n, k);
        cv.key = wl->figure.x_size ? NULL : k;
        cv.name = cv.key ? name : NULL;
        int several = wl->figure.x_param && strchr(wl->figure.x_param, ',');
        charts_of(&cv, wl->figure.x_label && !several ? wl->figure.x_label : name, name);
        if (wl->figure.x_size || !k[n])
            break;
        k += n + 1;
    }
    free(cv.p);
}

/* clbench compare --plot: which figures a table makes (one per table
 * workload, a roofline per device, a staircase per workload), their file
 * names, and their charts handed to the chart layer, which draws them all
 * into their files or none (clb_chart_files, host/chart/chart_run.c). */
#include "compare_priv.h"

#include <stdlib.h>
#include <string.h>

struct figfile {
    const char *workload;
    enum cmp_fig_kind kind;
    int col;             /* a roofline's column */
    const char *name;    /* what its file name is made of: the workload, or
                          * "<workload>-<column label>" for a roofline */
    int *cand;           /* its lines (a table figure) */
    int ncand;
    char *final;         /* destination */
};

/* OUT.svg for one workload; OUT-<slug>.svg for each of several, the slug
 * made of the workload's letters, digits, '-' and '_' (cmp_slug), with
 * "-<figure number>" where two workloads give one slug. */
static int name_figures(struct figfile *ff, int nfig, const char *out)
{
    size_t stem = strlen(out) - 4;
    struct clb_arena a = {0};
    struct cmp_map seen = {.nk = 1};
    struct clb_buf b = {0};
    int rc = CLB_OK;
    for (int w = 0; w < nfig && rc == CLB_OK; w++) {
        if (nfig == 1) {
            ff[w].final = clb_strdup(out);
        } else {
            b.len = 0;
            cmp_slug(&b, ff[w].name);
            const char *slug = clb_arena_intern(&a, clb_buf_str(&b), b.len);
            uint64_t k = CMP_KEY(slug);
            size_t before = seen.n;
            if (!slug || cmp_map_add(&seen, &k, w) < -1)
                rc = CLB_ESYS;
            if (seen.n == before)
                clb_buf_printf(&b, "-%d", w + 1);
            ff[w].final = clb_asprintf("%.*s-%s%s", (int)stem, out, clb_buf_str(&b), out + stem);
        }
        if (!ff[w].final || b.oom)
            rc = CLB_ESYS;
    }
    clb_buf_free(&b);
    cmp_map_free(&seen);
    clb_arena_free(&a);
    if (rc)
        clb_oom();
    return rc;
}

/* The chart of a figure (*c initialised; CLB_EUSAGE: nothing to draw). */
static int figure_chart(const struct cmp_table *t, const struct figfile *f, int *lines,
                        int *cols, struct clb_chart *c)
{
    struct cmp_fig g = {.lines = lines, .cols = cols};
    int rc = f->kind == CMP_FIG_TABLE ? cmp_fig_collect(&g, t, f->workload, f->cand, f->ncand)
                                      : cmp_fig_points(&g, t, f->kind, f->workload, f->col);
    if (rc) {
        clb_chart_init(c, "", "", "");
        return rc;
    }
    rc = cmp_fig_chart(&g, c);
    double lo, hi;
    if (!rc && !clb_chart_measured(c, &lo, &hi)) {
        struct clb_buf e = {0};
        clb_seterr("%s: nothing to plot", cmp_esc_tmp(&e, f->workload, 0));
        clb_buf_free(&e);
        rc = CLB_EUSAGE;
    }
    return rc;
}

/* The figures of a table: a table workload's, in table order; then the
 * rooflines (one per column) and staircases of the workloads whose `figure`
 * says so, in the order of their points. */
struct plan {
    struct figfile *ff;
    int nfig;
    int *lines, *cols, *figof, *bylines;
    struct cmp_map wls, special;
    struct clb_arena names;
};

static void plan_free(struct plan *p)
{
    for (int w = 0; p->ff && w < p->nfig; w++)
        free(p->ff[w].final);
    free(p->ff);
    free(p->lines);
    free(p->cols);
    free(p->figof);
    free(p->bylines);
    cmp_map_free(&p->wls);
    cmp_map_free(&p->special);
    clb_arena_free(&p->names);
}

/* Each line's table figure, then the lines of each figure (a counting sort). */
static int plan_tables(const struct cmp_table *t, struct plan *p)
{
    for (int i = 0; i < t->nlines; i++) {
        p->figof[i] = -1;
        const struct clb_workload *wl = clb_workload_find(t->lines[i].workload);
        if (wl && wl->figure.kind != CLB_FIGURE_TABLE)
            continue;   /* drawn from its points */
        uint64_t k = CMP_KEY(t->lines[i].workload);
        int w = cmp_map_add(&p->wls, &k, p->nfig);
        if (w < -1)
            return CLB_ESYS;
        if (w == p->nfig) {
            p->ff[p->nfig].workload = p->ff[p->nfig].name = t->lines[i].workload;
            p->ff[p->nfig++].kind = CMP_FIG_TABLE;
        }
        p->ff[w].ncand++;
        p->figof[i] = w;
    }
    for (int w = 0, at = 0; w < p->nfig; w++) {
        p->ff[w].cand = p->bylines + at;
        at += p->ff[w].ncand;
        p->ff[w].ncand = 0;
    }
    for (int i = 0; i < t->nlines; i++)
        if (p->figof[i] >= 0) {
            struct figfile *f = &p->ff[p->figof[i]];
            f->cand[f->ncand++] = i;
        }
    return CLB_OK;
}

/* The rooflines and staircases, from the points. */
static int plan_points(const struct cmp_table *t, struct plan *p)
{
    for (size_t i = 0; i < t->npoints; i++) {
        const struct cmp_point *pt = &t->points[i];
        int roof = pt->kind == CLB_FIGURE_ROOFLINE && pt->own;
        if (!roof && pt->kind != CLB_FIGURE_STAIRS)
            continue;   /* other workloads' rows are placed on the rooflines */
        uint64_t k[2] = {CMP_KEY(pt->workload), roof ? (uint64_t)pt->col + 1 : 0};
        int w = cmp_map_add(&p->special, k, p->nfig);
        if (w < -1)
            return CLB_ESYS;
        if (w < p->nfig)
            continue;
        struct figfile *f = &p->ff[p->nfig++];
        f->workload = f->name = pt->workload;
        f->kind = roof ? CMP_FIG_ROOFLINE : CMP_FIG_STAIRS;
        f->col = pt->col;
        if (roof) {
            char *nm = clb_asprintf("%s-%s", pt->workload, t->cols[pt->col].label);
            f->name = nm ? clb_arena_str(&p->names, nm, strlen(nm)) : NULL;
            free(nm);
            if (!f->name)
                return CLB_ESYS;
        }
    }
    return CLB_OK;
}

/* Check the output name (clb_chart_path_check), then plan the figures and
 * name their files; *p is plan_free's whatever this returns. */
static int plan_figures(const struct cmp_table *t, const char *out, struct plan *p)
{
    *p = (struct plan){.wls = {.nk = 1}, .special = {.nk = 2}};
    int svg, rc = clb_chart_path_check(out, &svg);
    if (rc)
        return rc;
    p->ff = calloc((size_t)t->nlines + t->npoints + 1, sizeof *p->ff);
    p->lines = malloc(((size_t)t->nlines + 1) * sizeof *p->lines);
    p->cols = malloc(((size_t)t->ncols + 1) * sizeof *p->cols);
    p->figof = malloc(((size_t)t->nlines + 1) * sizeof *p->figof);
    p->bylines = malloc(((size_t)t->nlines + 1) * sizeof *p->bylines);
    if (!p->ff || !p->lines || !p->cols || !p->figof || !p->bylines || plan_tables(t, p) ||
        plan_points(t, p))
        return clb_oom();
    if (!p->nfig)
        return clb_eusage("nothing to plot");
    return name_figures(p->ff, p->nfig, out) ? CLB_ESYS : CLB_OK;
}

/* The chart of each figure of the plan: fn(destination, chart, ctx); a
 * figure with nothing to draw (a workload whose rows are all skipped,
 * failed or error) is said in one line and left out (quiet: not said). */
static int each_chart(const struct cmp_table *t, struct plan *p, int quiet,
                      int (*fn)(const char *final, struct clb_chart *c, void *ctx), void *ctx)
{
    int rc = CLB_OK;
    for (int w = 0; !rc && w < p->nfig; w++) {
        struct clb_chart c;
        rc = figure_chart(t, &p->ff[w], p->lines, p->cols, &c);
        if (!rc)
            rc = fn(p->ff[w].final, &c, ctx);
        else if (rc == CLB_EUSAGE && !quiet)
            clb_print_error("%s; the other figures are drawn", clb_lasterr());
        rc = rc == CLB_EUSAGE ? CLB_OK : rc;
        clb_chart_free(&c);
    }
    return rc;
}

int cmp_plot_each(const struct cmp_table *t, const char *out,
                  int (*fn)(const char *final, struct clb_chart *c, void *ctx), void *ctx)
{
    struct plan p;
    int rc = plan_figures(t, out, &p);
    if (!rc)
        rc = each_chart(t, &p, 1, fn, ctx);
    plan_free(&p);
    return rc;
}

/* The charts to draw, taken over from each_chart. */
struct drawing {
    struct clb_chart *c;
    struct clb_drawn *d;
    size_t n;
};

static int keep_chart(const char *final, struct clb_chart *c, void *ctx)
{
    struct drawing *dr = ctx;
    dr->c[dr->n] = *c;
    memset(c, 0, sizeof *c);   /* taken over: the caller's free finds nothing */
    dr->d[dr->n] = (struct clb_drawn){.c = &dr->c[dr->n], .name = final};
    dr->n++;
    return CLB_OK;
}

int cmp_plot(const struct cmp_table *t, const char *out)
{
    struct plan p;
    struct drawing dr = {0};
    int rc = plan_figures(t, out, &p);
    if (!rc) {
        dr.c = calloc((size_t)p.nfig + 1, sizeof *dr.c);
        dr.d = calloc((size_t)p.nfig + 1, sizeof *dr.d);
        rc = dr.c && dr.d ? each_chart(t, &p, 0, keep_chart, &dr) : clb_oom();
    }
    if (!rc && !dr.n)
        rc = clb_eusage("nothing to plot: no workload has a figure");
    if (!rc)
        rc = clb_chart_files(dr.d, dr.n);
    struct clb_buf e = {0};
    for (size_t i = 0; i < dr.n; i++) {
        if (!rc)
            clb_info("plot: %s\n", cmp_esc_tmp(&e, dr.d[i].name, 0));
        clb_chart_free(&dr.c[i]);
    }
    clb_buf_free(&e);
    clb_drawn_free(dr.d, dr.n);
    free(dr.d);
    free(dr.c);
    plan_free(&p);
    return rc;
}

/* clbench compare --plot: one figure per workload, drawn by gnuplot run as a
 * subprocess in a private temporary directory on the script and data that
 * compare_plot.c made. Files there are named by the figure's index only
 * (fig1.gp, fig1.dat, fig1.peak.dat, fig1.svg): no path is built from the
 * text of a results file. Each figure is copied to a temporary name beside
 * its destination and renamed only when every figure succeeded, so a failure
 * leaves no partial file. */
#include "compare_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The directory part of a path (malloc'd): "." when none. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return clb_strdup(".");
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    char *d = clb_xmalloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = 0;
    }
    return d;
}

int cmp_plot_check(const char *out, int *svg)
{
    size_t n = strlen(out);
    struct clb_buf e = {0};
    *svg = n > 4 && !strcmp(out + n - 4, ".svg");
    const char *base = strrchr(out, '/');
    base = base ? base + 1 : out;
    if ((!*svg && !(n > 4 && !strcmp(out + n - 4, ".png"))) || strlen(base) <= 4) {
        clb_seterr("--plot '%s': the file name must end in .svg or .png", cmp_esc_tmp(&e, out, 0));
        clb_buf_free(&e);
        return CLB_EUSAGE;
    }
    if (clb_output_ok(out, "--plot", "the figure"))
        return CLB_EUSAGE;
    char *dir = dir_of(out);
    if (!dir)
        return CLB_ESYS;
    int rc = CLB_OK;
    if (access(dir, W_OK) != 0) {
        int err = errno;
        struct cmp_esc_args a = {0};
        clb_seterr("--plot '%s': cannot write to directory '%s': %s", cmp_esc_arg(&a, out, 0),
                   cmp_esc_arg(&a, dir, 0), strerror(err));
        cmp_esc_args_free(&a);
        rc = CLB_EUSAGE;
    }
    clb_buf_free(&e);
    free(dir);
    return rc;
}

/* ---- files ---------------------------------------------------------------- */

/* Copy the figure gnuplot drew into the temporary file beside its destination. */
static int copy_out(const char *from, int out, const char *final)
{
    int in = open(from, O_RDONLY | O_CLOEXEC);
    int rc = in >= 0 ? CLB_OK : CLB_ESYS;
    char buf[1 << 16];
    for (ssize_t k; rc == CLB_OK && (k = read(in, buf, sizeof buf)) != 0;) {
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 || clb_write_all(out, buf, (size_t)k) != 0)
            rc = CLB_ESYS;
    }
    int err = errno;
    if (in >= 0)
        close(in);
    if (rc) {
        struct clb_buf e = {0};
        clb_seterr("cannot write '%s': %s", cmp_esc_tmp(&e, final, 0), strerror(err));
        clb_buf_free(&e);
    }
    return rc;
}

/* ---- all figures ----------------------------------------------------------- */

struct figfile {
    const char *workload;
    enum cmp_fig_kind kind;
    int col;             /* a roofline's column */
    const char *name;    /* what its file name is made of: the workload, or
                          * "<workload>-<column label>" for a roofline */
    int *cand;           /* its lines (a table figure) */
    int ncand;
    char *final;         /* destination */
    struct clb_replace tmp;  /* the temporary file beside it (tmp.tmp: while open) */
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

/* Create the temporary file beside a destination. */
static int make_tmp(struct figfile *f)
{
    if (clb_replace_open(AT_FDCWD, f->final, 0666, &f->tmp) == 0)
        return CLB_OK;
    struct clb_buf e = {0};
    clb_seterr("cannot write beside '%s': %s", cmp_esc_tmp(&e, f->final, 0), strerror(errno));
    clb_buf_free(&e);
    return CLB_ESYS;
}

/* Put the figure in place (keep) or drop it; CLB_ESYS with the message when
 * it cannot be put there. */
static int put_tmp(struct figfile *f, int keep)
{
    if (!f->tmp.tmp || clb_replace_done(&f->tmp, f->final, keep, CLB_REPLACE) == 0 || !keep)
        return CLB_OK;
    struct clb_buf e = {0};
    clb_seterr("cannot write '%s': %s", cmp_esc_tmp(&e, f->final, 0), strerror(errno));
    clb_buf_free(&e);
    return CLB_ESYS;
}

/* The script and data of one figure, in memory. */
static int figure_text(const struct cmp_table *t, const struct figfile *f, int fig, int svg,
                       int *lines, int *cols, struct clb_chart_text *pt)
{
    struct cmp_fig g = {.lines = lines, .cols = cols, .svg = svg, .index = fig};
    int rc = f->kind == CMP_FIG_TABLE ? cmp_fig_collect(&g, t, f->workload, f->cand, f->ncand)
                                      : cmp_fig_points(&g, t, f->kind, f->workload, f->col);
    return rc ? rc : cmp_plot_script(&g, pt);
}

/* A figure's script and data written, gnuplot run, the figure copied to f->tmp. */
static int draw_text(const struct figfile *f, int fig, int svg, const char *gp,
                     struct clb_plotdir *dir, const struct clb_chart_text *pt)
{
    char script[32];
    snprintf(script, sizeof script, "fig%d.gp", fig);
    int rc = clb_plotdir_write(dir, fig, pt);
    if (rc || (rc = clb_gnuplot_run(gp, dir, script, f->final)))
        return rc;
    char *drawn = clb_plotdir_path(dir, fig, svg ? "svg" : "png");
    struct stat sb;
    if (drawn && (stat(drawn, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size == 0)) {
        struct clb_buf e = {0};
        clb_seterr("gnuplot failed to draw '%s': it wrote no figure", cmp_esc_tmp(&e, f->final, 0));
        clb_buf_free(&e);
        rc = CLB_ESYS;
    } else {
        rc = drawn ? copy_out(drawn, f->tmp.fd, f->final) : CLB_ESYS;
    }
    free(drawn);
    return rc;
}

/* One figure of a table: its chart's text, then drawn. */
static int draw(const struct cmp_table *t, struct figfile *f, int fig, int svg, const char *gp,
                struct clb_plotdir *dir, int *lines, int *cols)
{
    struct clb_chart_text pt;
    int rc = figure_text(t, f, fig, svg, lines, cols, &pt);
    if (rc)
        return rc;
    rc = draw_text(f, fig, svg, gp, dir, &pt);
    clb_chart_text_free(&pt);
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
    for (int w = 0; p->ff && w < p->nfig; w++) {
        put_tmp(&p->ff[w], 0);
        free(p->ff[w].final);
    }
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

static int plan_figures(const struct cmp_table *t, const char *out, struct plan *p)
{
    memset(p, 0, sizeof *p);
    p->wls.nk = 1;
    p->special.nk = 2;
    size_t room = (size_t)t->nlines + t->npoints + 1;
    p->ff = calloc(room, sizeof *p->ff);
    p->lines = malloc(((size_t)t->nlines + 1) * sizeof *p->lines);
    p->cols = malloc(((size_t)t->ncols + 1) * sizeof *p->cols);
    p->figof = malloc(((size_t)t->nlines + 1) * sizeof *p->figof);
    p->bylines = malloc(((size_t)t->nlines + 1) * sizeof *p->bylines);
    if (!p->ff || !p->lines || !p->cols || !p->figof || !p->bylines || plan_tables(t, p) ||
        plan_points(t, p)) {
        return clb_oom();
    }
    if (!p->nfig) {
        clb_seterr("nothing to plot");
        return CLB_EUSAGE;
    }
    return name_figures(p->ff, p->nfig, out) ? CLB_ESYS : CLB_OK;
}

/* Draw every figure in dir; a figure with nothing to draw (a workload whose
 * rows are all skipped, failed or error) is said in one line and left out.
 * *drawn: how many were. */
static int draw_all(const struct cmp_table *t, struct plan *p, int svg, const char *gp,
                    struct clb_plotdir *dir, int *drawn)
{
    *drawn = 0;
    for (int w = 0; w < p->nfig; w++) {
        int rc = make_tmp(&p->ff[w]);
        if (!rc)
            rc = draw(t, &p->ff[w], w + 1, svg, gp, dir, p->lines, p->cols);
        if (rc == CLB_EUSAGE) {
            clb_print_error("%s; the other figures are drawn", clb_lasterr());
            put_tmp(&p->ff[w], 0);
            continue;
        }
        if (rc)
            return rc;
        (*drawn)++;
    }
    if (!*drawn) {
        clb_seterr("nothing to plot: no workload has a figure");
        return CLB_EUSAGE;
    }
    return CLB_OK;
}

/* Rename every drawn figure into place (all or, after a failure, none). */
static int put_in_place(struct plan *p, int rc)
{
    struct clb_buf e = {0};
    for (int w = 0; w < p->nfig; w++) {
        struct figfile *f = &p->ff[w];
        if (!f->tmp.tmp)
            continue;
        if (!rc)
            rc = clb_output_ok(f->final, "--plot", "the figure");
        int r = put_tmp(f, !rc);
        if (!rc && !(rc = r))
            clb_info("plot: %s\n", cmp_esc_tmp(&e, f->final, 0));
    }
    clb_buf_free(&e);
    return rc;
}

int cmp_plot_each(const struct cmp_table *t, const char *out,
                  int (*fn)(const char *final, const struct clb_chart_text *pt, void *ctx), void *ctx)
{
    int svg, rc;
    if ((rc = cmp_plot_check(out, &svg)))
        return rc;
    struct plan p;
    rc = plan_figures(t, out, &p);
    for (int w = 0; !rc && w < p.nfig; w++) {
        struct clb_chart_text pt;
        int r = figure_text(t, &p.ff[w], w + 1, svg, p.lines, p.cols, &pt);
        if (r == CLB_OK) {
            rc = fn(p.ff[w].final, &pt, ctx);
            clb_chart_text_free(&pt);
        } else if (r != CLB_EUSAGE) {
            rc = r;
        }
    }
    plan_free(&p);
    return rc;
}

int cmp_plot(const struct cmp_table *t, const char *out)
{
    int svg, rc, drawn = 0;
    if ((rc = cmp_plot_check(out, &svg)))
        return rc;
    char *gp = clb_gnuplot_find();
    if (!gp) {
        clb_seterr("%s; no plot written", clb_lasterr());
        return CLB_ESYS;
    }
    /* from here a signal removes what the plot made and ends gnuplot */
    struct plan p;
    struct clb_plotdir dir = {0};
    int dirmade = 0;
    if (!(rc = plan_figures(t, out, &p)) && !(rc = clb_plotdir_open(&dir))) {
        dirmade = 1;
        rc = draw_all(t, &p, svg, gp, &dir, &drawn);
    }
    rc = put_in_place(&p, rc);
    if (dirmade)
        clb_plotdir_close(&dir);
    plan_free(&p);
    free(gp);
    return rc;
}

/* ---- one chart of a caller's (clb_plot_draw) ---------------------------------- */

int clb_plot_draw(const char *out, const struct clb_chart *c)
{
    int svg, rc;
    if ((rc = cmp_plot_check(out, &svg)))
        return rc;
    char *gp = clb_gnuplot_find();
    if (!gp)
        return CLB_ESYS;
    /* from here a signal removes what the plot made and ends gnuplot */
    struct clb_plotdir dir = {0};
    struct figfile f = {.final = clb_strdup(out)};
    struct clb_chart_text pt = {0};
    struct clb_chart_out o = {.svg = svg, .index = 1};
    int dirmade = 0;
    rc = f.final ? clb_chart_gnuplot(c, &o, &pt) : CLB_ESYS;
    if (!rc && !(rc = clb_plotdir_open(&dir))) {
        dirmade = 1;
        if (!(rc = make_tmp(&f)))
            rc = draw_text(&f, 1, svg, gp, &dir, &pt);
    }
    if (f.tmp.tmp && !rc)
        rc = clb_output_ok(f.final, "--plot", "the figure");
    int r = put_tmp(&f, !rc);
    rc = rc ? rc : r;
    if (dirmade)
        clb_plotdir_close(&dir);
    clb_chart_text_free(&pt);
    free(f.final);
    free(gp);
    return rc;
}

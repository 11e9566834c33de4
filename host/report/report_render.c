/* clbench report: the charts drawn by gnuplot (SVG) and put inline in the
 * page. One gnuplot process draws them all (a script that loads each
 * figure's script in turn: a process start per chart would cost more than
 * the drawing); if it fails, each chart is drawn alone so that one bad chart
 * costs only itself, and its place in the page says why. Without gnuplot the
 * page is made all the same: tables, and a line where each chart would be. */
#include "report_priv.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SVG_MAX ((size_t)64 << 20)   /* a figure larger than this is not inlined */

struct drawn {
    char *svg;        /* gnuplot's SVG, NULL */
    size_t len;
    char *why;        /* why there is none (malloc'd), NULL */
    int failed;       /* why is a failure to draw, not a chart left out on purpose */
};

/* The first reason a chart is not drawn is the one it keeps. */
static void set_why(struct drawn *d, const char *why, int failed)
{
    if (!d->why) {
        d->why = clb_strdup(why);
        d->failed = failed;
    }
}

/* Write every chart's script and data; their number in *made. */
static int write_charts(struct rpt *r, struct clb_plotdir *dir, struct drawn *d, int *made)
{
    *made = 0;
    for (size_t i = 0; i < r->nch; i++) {
        struct clb_chart_text t;
        struct clb_chart_out o = {1, (int)i + 1, 0};
        int rc = clb_chart_gnuplot(&r->ch[i].c, &o, &t);
        if (rc == CLB_EUSAGE) {
            set_why(&d[i], "nothing to plot: no row of it has a figure", 0);
            continue;
        }
        if (rc || (rc = clb_plotdir_write(dir, (int)i + 1, &t))) {
            clb_chart_text_free(&t);
            return rc;
        }
        clb_chart_text_free(&t);
        (*made)++;
    }
    return CLB_OK;
}

/* all.gp: each figure's script in turn, gnuplot's settings reset between. */
static int write_all(struct rpt *r, struct clb_plotdir *dir, const struct drawn *d)
{
    struct clb_buf s = {0};
    for (size_t i = 0; i < r->nch; i++)
        if (!d[i].why)
            clb_buf_printf(&s, "reset\nload 'fig%zu.gp'\n", i + 1);
    clb_buf_printf(&s, "unset output\n");
    char *path = clb_asprintf("%s/all.gp", dir->path), *err = clb_asprintf("%s/all.err", dir->path);
    if (path)
        clb_plotdir_guard(dir, path);
    if (err)
        clb_plotdir_guard(dir, err);
    free(err);
    FILE *f = path ? fopen(path, "w") : NULL;
    int rc = f && !s.oom && fwrite(s.s, 1, s.len, f) == s.len ? CLB_OK : CLB_ESYS;
    if (f && fclose(f) != 0)
        rc = CLB_ESYS;
    if (rc)
        clb_seterr("cannot write to the temporary directory '%s'", dir->path);
    free(path);
    clb_buf_free(&s);
    return rc;
}

/* Read what gnuplot drew; a figure it did not finish is not inlined. */
static void read_drawn(struct rpt *r, struct clb_plotdir *dir, struct drawn *d)
{
    for (size_t i = 0; i < r->nch; i++) {
        if (d[i].why || d[i].svg)
            continue;
        d[i].svg = clb_plotdir_read(dir, (int)i + 1, "svg", SVG_MAX, &d[i].len);
        if (d[i].svg && !strstr(d[i].svg, "</svg>")) {
            free(d[i].svg);
            d[i].svg = NULL;
        }
    }
}

/* Draw every chart: all at once, else each alone. */
static void draw(struct rpt *r, const char *gp, struct clb_plotdir *dir, struct drawn *d)
{
    if (clb_gnuplot_run(gp, dir, "all.gp", "the report's charts") == CLB_OK) {
        read_drawn(r, dir, d);
        return;
    }
    for (size_t i = 0; i < r->nch; i++) {
        char script[32];
        snprintf(script, sizeof script, "fig%zu.gp", i + 1);
        if (d[i].why)
            continue;
        if (clb_gnuplot_run(gp, dir, script, script) != CLB_OK)
            set_why(&d[i], clb_lasterr(), 1);
    }
    read_drawn(r, dir, d);
}

/* Every chart drawn (or why not). CLB_ESYS when the files cannot be written. */
static int draw_charts(struct rpt *r, struct drawn *d, struct clb_buf *notes)
{
    if (r->o->chart_hook) {
        for (size_t i = 0; i < r->nch; i++) {
            set_why(&d[i], "charts were handed to a test", 0);
            if (r->o->chart_hook(&r->ch[i].c, r->o->hook_ctx) == CLB_ESYS)
                return CLB_ESYS;
        }
        return CLB_OK;
    }
    char *gp = r->o->charts ? clb_gnuplot_find() : NULL;
    if (!gp) {
        const char *why = r->o->charts ? clb_lasterr() : "charts were not asked for (--no-charts)";
        char *w = clb_asprintf("charts need gnuplot: %s", why);
        for (size_t i = 0; i < r->nch; i++)
            set_why(&d[i], r->o->charts ? (w ? w : why) : why, 0);
        if (notes && r->o->charts)
            clb_buf_printf(notes, "%s; the report has its tables only", w ? w : why);
        free(w);
        return CLB_OK;
    }
    struct clb_plotdir dir;
    int made = 0, rc = clb_plotdir_open(&dir);
    if (!rc)
        rc = write_charts(r, &dir, d, &made);
    if (!rc && made && !(rc = write_all(r, &dir, d)))
        draw(r, gp, &dir, d);
    if (dir.path)
        clb_plotdir_close(&dir);
    free(gp);
    return rc;
}

/* The figure of chart i in the page: its SVG, or a line saying why not. */
static void figure(struct clb_buf *out, struct drawn *d, size_t i, struct clb_buf *notes,
                   int *failed)
{
    char prefix[24];
    snprintf(prefix, sizeof prefix, "c%zu", i + 1);
    if (d->svg && clb_svg_inline(out, d->svg, d->len, prefix) == CLB_OK)
        return;
    if (d->svg)
        set_why(d, clb_lasterr(), 1);
    if (!d->why)
        set_why(d, "gnuplot drew no complete figure", 1);
    clb_buf_printf(out, "<div class=\"nochart\">Chart not drawn: ");
    cmp_esc(out, d->why ? d->why : "out of memory", CMP_ESC_HTML);
    clb_buf_printf(out, "</div>\n");
    if (notes && (d->failed || !d->why))
        (*failed)++;
}

int rpt_render(struct rpt *r, const struct clb_buf *body, struct clb_buf *out,
               struct clb_buf *notes)
{
    struct drawn *d = calloc(r->nch + 1, sizeof *d);
    if (!d)
        return CLB_ESYS;
    int rc = draw_charts(r, d, notes), failed = 0;
    size_t from = 0;
    for (size_t i = 0; !rc && i < r->nch; i++) {
        clb_buf_add(out, clb_buf_str(body) + from, r->ch[i].at - from);
        from = r->ch[i].at;
        figure(out, &d[i], i, notes, &failed);
    }
    if (!rc)
        clb_buf_add(out, clb_buf_str(body) + from, body->len - from);
    if (failed && notes)
        clb_buf_printf(notes, "%s%d chart%s not drawn (gnuplot failed: the page says why)",
                       notes->len ? "; " : "", failed, failed == 1 ? "" : "s");
    for (size_t i = 0; i < r->nch; i++) {
        free(d[i].svg);
        free(d[i].why);
    }
    free(d);
    return rc ? rc : out->oom ? CLB_ESYS : CLB_OK;
}

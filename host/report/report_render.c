/* clbench report: the charts drawn as SVG (clb_chart_svgs) and put inline in
 * the page, each in its place or a line there saying why not. Without
 * gnuplot the page is made all the same: tables, and a line per chart. */
#include "report_priv.h"

#include <stdlib.h>
#include <string.h>

/* Why no chart is drawn at all, for every chart; CLB_ESYS from a test's hook. */
static int none_drawn(struct rpt *r, struct clb_drawn *d, const char *why)
{
    for (size_t i = 0; i < r->nch; i++) {
        d[i].why = clb_strdup(why);
        d[i].rc = CLB_EUSAGE;   /* not a failure of the chart's own */
        if (r->o->chart_hook && r->o->chart_hook(&r->ch[i].c, r->o->hook_ctx) == CLB_ESYS)
            return CLB_ESYS;
    }
    return CLB_OK;
}

/* Every chart drawn (or why not). CLB_ESYS when the files cannot be written. */
static int draw_charts(struct rpt *r, struct clb_drawn *d, struct clb_buf *notes)
{
    for (size_t i = 0; i < r->nch; i++)
        d[i].c = &r->ch[i].c;
    if (r->o->chart_hook)
        return none_drawn(r, d, "charts were handed to a test");
    if (!r->o->charts)
        return none_drawn(r, d, "charts were not asked for (--no-charts)");
    char *gp = clb_gnuplot_find();
    if (!gp) {
        char *w = clb_asprintf("charts need gnuplot: %s", clb_lasterr());
        if (notes)
            clb_buf_printf(notes, "%s; the report has its tables only", w ? w : clb_lasterr());
        int rc = none_drawn(r, d, w ? w : "charts need gnuplot");
        free(w);
        return rc;
    }
    int rc = clb_chart_svgs(gp, d, r->nch);
    free(gp);
    return rc;
}

/* The figure of chart i in the page: its SVG, or a line saying why not. */
static void figure(struct clb_buf *out, struct clb_drawn *d, size_t i, int *failed)
{
    char prefix[24];
    snprintf(prefix, sizeof prefix, "c%zu", i + 1);
    if (d->svg && clb_svg_inline(out, d->svg, d->len, prefix) == CLB_OK)
        return;
    if (d->svg) {
        d->why = clb_strdup(clb_lasterr());
        d->rc = CLB_ESYS;
    }
    clb_buf_printf(out, "<div class=\"nochart\">Chart not drawn: ");
    cmp_esc(out, d->why ? d->why : "out of memory", CMP_ESC_HTML);
    clb_buf_printf(out, "</div>\n");
    *failed += d->rc == CLB_ESYS;   /* gnuplot failed on it, or its SVG was refused */
}

int rpt_render(struct rpt *r, const struct clb_buf *body, struct clb_buf *out,
               struct clb_buf *notes)
{
    struct clb_drawn *d = calloc(r->nch + 1, sizeof *d);
    if (!d)
        return CLB_ESYS;
    int rc = draw_charts(r, d, notes), failed = 0;
    size_t from = 0;
    for (size_t i = 0; !rc && i < r->nch; i++) {
        clb_buf_add(out, clb_buf_str(body) + from, r->ch[i].at - from);
        from = r->ch[i].at;
        figure(out, &d[i], i, &failed);
    }
    if (!rc)
        clb_buf_add(out, clb_buf_str(body) + from, body->len - from);
    if (failed && notes)
        clb_buf_printf(notes, "%s%d chart%s not drawn (gnuplot failed: the page says why)",
                       notes->len ? "; " : "", failed, failed == 1 ? "" : "s");
    clb_drawn_free(d, r->nch);
    free(d);
    return rc ? rc : out->oom ? CLB_ESYS : CLB_OK;
}

/* clbench report FILE... -o report.html: one page a person reads (docs/REPORT.md).
 *
 * The files are read by compare's table (every row kept, with its device or
 * published source, its peaks and measured ceilings, and what the registry's
 * count() says of it); the page is written section by section -- devices,
 * rows to distrust, a section per workload drawn as its `figure` declares,
 * energy, MPI jobs -- with each chart described (include/clb_chart.h) where
 * it goes; then the charts are drawn and put inline, and the head, the
 * contents and the foot are put around the body. */
#include "report_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const norm_names[] = {"absolute", "datasheet", "measured"};

int clb_report_norm_find(const char *name)
{
    for (int k = 0; k < 3; k++)
        if (!strcmp(name, norm_names[k]))
            return k;
    return -1;
}

/* ---- the rows ----------------------------------------------------------------------- */

static int setup(struct rpt *r)
{
    struct cmp_table *t = &r->t;
    r->prof = calloc((size_t)t->ncols + 1, sizeof *r->prof);
    r->colour = calloc((size_t)t->ncols + 1, sizeof *r->colour);
    r->dev = malloc(((size_t)t->ncols + 1) * sizeof *r->dev);
    r->ref = malloc(((size_t)t->ncols + 1) * sizeof *r->ref);
    r->rf = malloc((t->nrows + 1) * sizeof *r->rf);
    if (!r->prof || !r->colour || !r->dev || !r->ref || !r->rf)
        return CLB_ESYS;
    const char *dir = clb_profiles_dir(NULL);
    if (!dir || clb_profiles_load(dir, &r->profs) != CLB_OK) {   /* a bonus: the rows come first */
        clb_profiles_free(&r->profs);
        memset(&r->profs, 0, sizeof r->profs);
    }
    for (int c = 0; c < t->ncols; c++) {
        r->prof[c] = clb_profiles_find(&r->profs, t->cols[c].profile);
        if (t->cols[c].reference)
            r->ref[r->nref++] = c;
        else
            r->dev[r->ndev++] = c;
    }
    for (size_t i = 0; i < t->nrows; i++)
        r->rf[i] = t->ri[i].col >= 0 ? rpt_flags(r, i) : 0;
    return CLB_OK;
}

static void rpt_free(struct rpt *r)
{
    cmp_free(&r->t);
    clb_profiles_free(&r->profs);
    free(r->prof);
    free(r->colour);
    free(r->dev);
    free(r->ref);
    free(r->rf);
    for (size_t i = 0; i < r->nch; i++)
        clb_chart_free(&r->ch[i].c);
    free(r->ch);
    clb_buf_free(&r->page);
    clb_buf_free(&r->toc);
}

/* ---- the body ----------------------------------------------------------------------- */

static void workload_section(struct rpt *r, const struct rpt_rows *w)
{
    const struct clb_workload *wl = w->wl;
    rpt_section(r, w->workload, wl ? wl->summary : "a workload this clbench does not know: "
                                                   "its rows are drawn by their GB/s or GFlop/s");
    if (wl && wl->figure.kind == CLB_FIGURE_ROOFLINE)
        rpt_rooflines(r, w);
    else if (wl && wl->figure.kind == CLB_FIGURE_STAIRS)
        rpt_stairs(r, w);
    else if (wl && (wl->figure.x_param || wl->figure.x_size))
        rpt_lines(r, w);
    else
        rpt_bars(r, w);
    rpt_section_end(r);
}

/* The headline first: the figures people paste into slides, the table
 * `compare --headline` prints (docs/COMPARE.md, "The headline"). */
static void headline(struct rpt *r)
{
    struct cmp_headline h;
    if (cmp_headline_build(&h, r->files, r->nfiles, r->o->run_ids) != CLB_OK)
        return;   /* no device has one of its figures: no section */
    rpt_section(r, "Headline", "each device's best outside its caches (its measured ceiling "
                               "where one is), its % of the datasheet, each device over the "
                               "first");
    rpt_tag(r, "<div class=\"wide\"><table>\n<tr><th>figure</th><th>unit</th>");
    for (int k = 0; k < h.ncols; k++)
        rpt_wrap(r, "<th>", h.t.cols[h.cols[k]].label, "</th>");
    for (int k = 1; k < h.ncols; k++) {
        rpt_wrap(r, "<th>", h.t.cols[h.cols[k]].label, " / ");
        rpt_wrap(r, "", h.t.cols[h.cols[0]].label, "</th>");
    }
    rpt_tag(r, "</tr>\n");
    for (int i = 0; i < h.nrows; i++) {
        const struct cmp_hl_row *row = &h.rows[i];
        rpt_wrap(r, "<tr><td>", row->label, "</td>");
        rpt_td(r, row->unit);
        char num[64];
        for (int k = 0; k < h.ncols; k++) {
            cmp_headline_fmt(row, row->v[h.cols[k]], num, sizeof num);
            rpt_tag(r, "<td class=\"n\">%s</td>", num);
        }
        for (int k = 1; k < h.ncols; k++) {
            cmp_headline_ratio(&h, row, k, num, sizeof num);
            rpt_tag(r, "<td class=\"n\">%s</td>", num);
        }
        rpt_tag(r, "</tr>\n");
    }
    rpt_tag(r, "</table></div>\n");
    rpt_section_end(r);
    cmp_headline_free(&h);
}

static void body(struct rpt *r)
{
    headline(r);
    rpt_devices(r);
    rpt_distrust(r);
    struct rpt_rows *w;
    int nw;
    if (rpt_workloads(r, &w, &nw)) {
        r->oom = 1;
        return;
    }
    for (int k = 0; k < nw; k++)
        workload_section(r, &w[k]);
    rpt_workloads_free(w, nw);
    rpt_energy(r);
    rpt_scaling(r);
}

/* The header: what the page shows, from which files, how it normalises. */
static void header(struct rpt *r, const struct clb_buf *notes)
{
    rpt_tag(r, "<header>\n<h1>clbench report</h1>\n<p>");
    rpt_labels(r, r->dev, r->ndev, ", ");
    rpt_tag(r, "%s%d published source%s; %zu rows from %d file%s. Figures: %s.</p>\n",
            r->ndev ? "; " : "", r->nref, r->nref == 1 ? "" : "s", r->t.nrows, r->nfiles,
            r->nfiles == 1 ? "" : "s",
            r->o->norm == CLB_NORM_ABSOLUTE ? "absolute (GB/s, GFlop/s)"
            : r->o->norm == CLB_NORM_DATASHEET ? "% of each device's datasheet peak"
                                               : "% of each device's measured ceiling");
    if (notes->len)
        rpt_wrap(r, "<p>", clb_buf_str(notes), "</p>\n");
    rpt_tag(r, "</header>\n<main>\n<nav><strong>Contents</strong><ol>\n%s</ol></nav>\n",
            clb_buf_str(&r->toc));
}

int clb_report_html(char **files, int nfiles, const struct clb_report_opts *o,
                    struct clb_buf *html, struct clb_buf *notes)
{
    struct rpt r = {.o = o, .files = files, .nfiles = nfiles};
    struct cmp_filter flt = {.plot = 1, .keep_rows = 1, .run_id = o->run_ids};
    struct clb_buf note = {0}, page = {0};
    int rc = cmp_build(&r.t, files, nfiles, &flt, cmp_metric_find("gbps"));
    if (!rc && !r.t.nrows)
        rc = clb_eusage("no rows in the files: nothing to report");
    if (!rc && (rc = setup(&r)) == CLB_ESYS)
        clb_oom();
    if (!rc) {
        unsigned long seq = clb_errseq();
        body(&r);
        struct clb_buf b = r.page;   /* the body, the charts' places in it */
        memset(&r.page, 0, sizeof r.page);
        if (!(rc = rpt_render(&r, &b, &page, &note))) {
            rpt_head(&r);
            header(&r, &note);
            clb_buf_add(&r.page, clb_buf_str(&page), page.len);
            rpt_foot(&r);
        }
        clb_buf_free(&b);
        if (!rc && (r.oom || r.page.oom || page.oom))
            rc = CLB_ESYS;
        if (rc == CLB_ESYS && clb_errseq() == seq)   /* an allocation failed without a word */
            clb_seterr(CLB_OOM " making the report");
    }
    if (!rc) {
        clb_buf_add(html, clb_buf_str(&r.page), r.page.len);
        if (notes)
            clb_buf_add(notes, clb_buf_str(&note), note.len);
    }
    clb_buf_free(&note);
    clb_buf_free(&page);
    rpt_free(&r);
    return rc;
}

/* ---- the file ----------------------------------------------------------------------- */

/* The page into a temporary file beside out, renamed into place when whole
 * (never over a file the report read or a results file). */
static int put_file(const char *out, const struct clb_buf *page)
{
    if (clb_output_ok(out, "the report", "the page"))
        return CLB_EUSAGE;
    struct clb_replace f;
    clb_cleanup_guard();
    if (clb_replace_open(AT_FDCWD, out, 0666, &f) == 0 &&
        clb_replace_done(&f, out, clb_write_all(f.fd, page->s, page->len) == 0,
                         CLB_REPLACE) == 0)
        return CLB_OK;
    struct clb_buf e = {0};
    clb_seterr("cannot write '%s': %s", cmp_esc_tmp(&e, out, 0), strerror(errno));
    clb_buf_free(&e);
    return CLB_ESYS;
}

int clb_report_write(char **files, int nfiles, const struct clb_report_opts *o, const char *out)
{
    struct clb_buf page = {0}, notes = {0};
    int rc = clb_report_html(files, nfiles, o, &page, &notes);
    if (!rc)
        rc = put_file(out, &page);
    if (!rc && notes.len)
        clb_print_error("%s", clb_buf_str(&notes));   /* the page says it too */
    clb_buf_free(&page);
    clb_buf_free(&notes);
    return rc;
}

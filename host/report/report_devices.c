/* clbench report: a card per measured device (what ran, where, when, with
 * which program) and its measured ceilings beside its datasheet figures
 * (the profile the rows name), then its bandwidth overview. */
#include "report_priv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The distinct values of one text column among the column's rows, "a, b"
 * (at most `max` listed, then "+N more"). */
static void distinct(const struct rpt *r, int col, size_t off, int max, struct clb_buf *out)
{
    const char **seen = malloc(((size_t)max + 1) * sizeof *seen);
    int n = 0, more = 0;
    for (size_t i = 0; seen && i < r->t.nrows; i++) {
        if (r->t.ri[i].col != col)
            continue;
        const char *v = *(const char *const *)((const char *)&r->t.rows[i] + off);
        int have = !*v;
        for (int k = 0; k < n && !have; k++)
            have = seen[k] == v;
        if (have)
            continue;
        if (n < max)
            seen[n++] = v;
        else
            more++;
    }
    for (int k = 0; k < n; k++)
        clb_buf_printf(out, "%s%s", k ? ", " : "", seen[k]);
    if (more)
        clb_buf_printf(out, " (+%d more)", more);
    free(seen);
}

#define OFF(f) offsetof(struct clb_row, f)

static void item(struct rpt *r, const char *name, const char *text)
{
    rpt_tag(r, "<dt>%s</dt>", name);
    rpt_wrap(r, "<dd>", text && *text ? text : "–", "</dd>\n");
}

static void item_of(struct rpt *r, int col, const char *name, size_t off, int max)
{
    struct clb_buf b = {0};
    distinct(r, col, off, max, &b);
    item(r, name, clb_buf_str(&b));
    clb_buf_free(&b);
}

/* The first and last timestamps and the rows' statuses. */
static void when_and_rows(struct rpt *r, int col)
{
    const char *first = NULL, *last = NULL;
    int n[4] = {0};
    static const char *const st[4] = {"ok", "failed", "skipped", "error"};
    for (size_t i = 0; i < r->t.nrows; i++) {
        const struct clb_row *x = &r->t.rows[i];
        if (r->t.ri[i].col != col)
            continue;
        if (*x->timestamp && (!first || strcmp(x->timestamp, first) < 0))
            first = x->timestamp;
        if (*x->timestamp && (!last || strcmp(x->timestamp, last) > 0))
            last = x->timestamp;
        for (int k = 0; k < 4; k++)
            n[k] += !strcmp(x->status, st[k]);
    }
    struct clb_buf b = {0};
    if (first)
        clb_buf_printf(&b, "%s%s%s", first, strcmp(first, last) ? " to " : "",
                       strcmp(first, last) ? last : "");
    item(r, "measured", clb_buf_str(&b));
    item(r, "rows", rpt_fmt(&b, "%d ok, %d failed, %d skipped, %d error", n[0], n[1], n[2], n[3]));
    clb_buf_free(&b);
}

static void card(struct rpt *r, int col)
{
    const struct cmp_col *c = &r->t.cols[col];
    rpt_wrap(r, "<div class=\"card\">\n<h3>", c->label, "</h3>\n<dl>\n");
    item_of(r, col, "platform", OFF(platform), 4);
    item_of(r, col, "type", OFF(device_type), 4);
    item_of(r, col, "driver", OFF(driver), 4);
    item_of(r, col, "profile", OFF(profile), 4);
    item(r, "host", c->host);
    when_and_rows(r, col);
    item_of(r, col, "clbench", OFF(clbench_version), 4);
    item_of(r, col, "run ids", OFF(run_id), 6);
    item_of(r, col, "energy from", OFF(power_source), 4);
    struct clb_buf b = {0};
    for (int f = 0; f < c->nfiles; f++)
        clb_buf_printf(&b, "%s%s", f ? ", " : "", c->files[f]);
    item(r, "files", clb_buf_str(&b));
    clb_buf_free(&b);
    rpt_tag(r, "</dl>\n</div>\n");
}

/* ---- ceilings beside the datasheet ------------------------------------------------- */

static void ceiling_line(struct rpt *r, const struct cmp_col *c, int k, double sheet,
                         const char *unit)
{
    rpt_wrap(r, "<tr><td>", clb_ceiling_name((enum clb_ceiling_kind)k), "</td>");
    rpt_td_num(r, c->ceil[k]);
    rpt_td_num(r, sheet);
    rpt_tag(r, "<td>%s</td>", unit);
    rpt_td_num(r, sheet > 0 && !isnan(c->ceil[k]) ? 100 * c->ceil[k] / sheet : NAN);
    rpt_wrap(r, "<td>", c->ceil_src[k][0] ? c->ceil_src[k] : "not measured in these files", "");
    /* how far to trust the row it comes from (its cache is the ceiling's own rule) */
    unsigned f = rpt_marks(c->ceil_marks[k]) & ~(unsigned)RF_CACHE;
    if ((k == CLB_CEIL_SP || k == CLB_CEIL_DP) && sheet > 0 && c->ceil[k] > sheet)
        f |= RF_ABOVE;   /* a rate above its datasheet peak, as the tables mark it */
    if (f) {
        struct clb_buf w = {0};
        rpt_flag_words(&w, f);
        rpt_wrap(r, " <span class=\"flag\">", clb_buf_str(&w), "</span>");
        clb_buf_free(&w);
    }
    rpt_tag(r, "</td></tr>\n");
}

static void datasheet_line(struct rpt *r, const char *what, double v, const char *unit)
{
    if (isnan(v))
        return;
    rpt_tag(r, "<tr><td>%s</td><td class=\"n\">&ndash;</td><td class=\"n\">", what);
    rpt_num(r, v);
    rpt_tag(r, "</td><td>%s</td><td></td><td>datasheet only</td></tr>\n", unit);
}

static void ceilings(struct rpt *r, int col)
{
    const struct cmp_col *c = &r->t.cols[col];
    const struct clb_profile *p = r->prof[col];
    rpt_wrap(r, "<h3>", c->label, ": measured ceilings and the datasheet</h3>\n");
    rpt_wrap(r, "<p class=\"note\">Datasheet: ", p ? p->id : "no profile known for this device",
             "");
    if (p && p->name)
        rpt_wrap(r, " (", p->name, ")");
    rpt_tag(r, ". Measured: the best of the device's own rows in these files.</p>\n"
               "<div class=\"wide\"><table>\n<tr><th>ceiling</th><th>measured</th><th>datasheet"
               "</th><th>unit</th><th>measured / datasheet %%</th><th>measured by</th></tr>\n");
    ceiling_line(r, c, CLB_CEIL_BW, c->peak_gbs, "GB/s");
    ceiling_line(r, c, CLB_CEIL_TRIAD, c->peak_gbs, "GB/s");
    ceiling_line(r, c, CLB_CEIL_SP, p ? p->peak_gflops_sp : NAN, "GFlop/s");
    ceiling_line(r, c, CLB_CEIL_DP, p ? p->peak_gflops_dp : NAN, "GFlop/s");
    ceiling_line(r, c, CLB_CEIL_LATENCY, NAN, "ns");
    if (p) {
        datasheet_line(r, "L2 cache", p->l2_kb / 1024, "MiB");
        datasheet_line(r, "memory", p->memory_gb, "GB");
        datasheet_line(r, "compute units", p->compute_units, "");
        datasheet_line(r, "core clock", p->core_clock_mhz, "MHz");
        datasheet_line(r, "board power (TDP)", p->tdp_w, "W");
    }
    rpt_tag(r, "</table></div>\n");
}

void rpt_devices(struct rpt *r)
{
    rpt_section(r, "Devices", r->ndev ? "What ran where, its measured ceilings beside its "
                                        "datasheet, and the bandwidth of every memory workload "
                                        "against both."
                                      : "These files hold published figures only.");
    rpt_tag(r, "<div class=\"cards\">\n");
    for (int k = 0; k < r->ndev; k++)
        card(r, r->dev[k]);
    rpt_tag(r, "</div>\n");
    for (int k = 0; k < r->ndev; k++) {
        ceilings(r, r->dev[k]);
        rpt_overview(r, r->dev[k]);
    }
    if (r->nref) {
        rpt_tag(r, "<p class=\"note\">Published figures beside them: ");
        rpt_labels(r, r->ref, r->nref, "; ");
        rpt_tag(r, ".</p>\n");
    }
    rpt_section_end(r);
}

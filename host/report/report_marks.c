/* clbench report: each mark explained where it stands. A section notes the
 * flags its charts and tables show (with the first row shown with each) and
 * ends with one sentence per flag, made from that row's own figures: what
 * the letter says about this figure, not only the footer's legend. */
#include "report_priv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void rpt_seen_row(struct rpt *r, size_t i, unsigned flags)
{
    for (int k = 0; k < RF_NBITS; k++) {
        unsigned bit = 1u << k;
        if ((flags & bit) && !(r->seen & bit)) {
            r->seen |= bit;
            r->seen_row[k] = i;
        }
    }
}

/* "stream copy float 2^28 elements vec=4 on NVIDIA H100" */
static void row_name(struct rpt *r, size_t i, struct clb_buf *b)
{
    const struct clb_row *x = &r->t.rows[i];
    clb_buf_printf(b, "%s %s%s%s ", x->workload, x->kernel, x->dtype[0] ? " " : "", x->dtype);
    clb_size_words(clb_workload_find(x->workload), x->size, b);
    if (x->params[0])
        clb_buf_printf(b, " %s", x->params);
    clb_buf_printf(b, " on %s", rpt_label(r, r->t.ri[i].col));
}

/* A figure with about four significant digits (as rpt_num). */
static void num(struct clb_buf *b, double v)
{
    double a = fabs(v);
    int digits = a >= 1000 ? 0 : a >= 100 ? 1 : a >= 10 ? 2 : a >= 1 ? 3 : 4;
    clb_buf_printf(b, "%.*f", digits, v);
}

/* The sentence of flag bit for row i (text, escaped by the caller). */
static void sentence(struct rpt *r, unsigned bit, size_t i, struct clb_buf *b)
{
    const struct clb_row *x = &r->t.rows[i];
    const struct cmp_col *col = &r->t.cols[r->t.ri[i].col];
    double v = rpt_value(r, i), peak = rpt_peak(r, i);
    const char *unit = rpt_unit(r, i);
    row_name(r, i, b);
    clb_buf_printf(b, ": ");
    switch (bit) {
    case RF_CACHE:
        clb_buf_printf(b, "its working set is below 4 \xc3\x97 the device's last-level cache");
        if (col->llc_bytes > 0)
            clb_buf_printf(b, " (%.3g MB)", col->llc_bytes / 1e6);
        if (!isnan(v)) {
            clb_buf_printf(b, ", so its ");
            num(b, v);
            clb_buf_printf(b, " %s", unit);
        } else {
            clb_buf_printf(b, ", so its figure");
        }
        clb_buf_printf(b, " is the cache's, not the memory's.");
        break;
    case RF_ABOVE:
        num(b, !isnan(v) ? v : x->gbps);
        clb_buf_printf(b, " %s is ", unit);
        if (peak > 0 && !isnan(v))
            clb_buf_printf(b, "%.1f %% of", 100 * v / peak);
        else
            clb_buf_printf(b, "above");
        clb_buf_printf(b, " the datasheet's peak");
        if (peak > 0) {
            clb_buf_printf(b, " (");
            num(b, peak);
            clb_buf_printf(b, " %s)", unit);
        }
        clb_buf_printf(b, strcmp(unit, "GB/s") ? ": the clock ran above the datasheet's, or its "
                                                 "peak is low."
                                               : ": a cache served part of the counted bytes, or "
                                                 "the datasheet's peak is low.");
        break;
    case RF_BYTES:
        if (!isnan(x->gflops)) {
            clb_buf_printf(b, "at ");
            num(b, x->gflops);
            clb_buf_printf(b, " GFlop/s ");
        }
        clb_buf_printf(b, "its counted bytes move at ");
        num(b, x->gbps);
        clb_buf_printf(b, " GB/s");
        if (!isnan(x->pct_peak_bw))
            clb_buf_printf(b, ", %.0f %% of the datasheet's peak bandwidth", x->pct_peak_bw);
        clb_buf_printf(b, ": the count charges every read it makes to the memory, and a cache "
                          "served part of them (inputs read again hit in cache), so the memory "
                          "moved fewer bytes than counted; the flop rate is not in question.");
        break;
    case RF_NOISY:
        clb_buf_printf(b, "its slowest repetition took %.2f \xc3\x97 its fastest, so its figure "
                          "may move between runs.", x->t_max_s / x->t_min_s);
        break;
    case RF_HOST: {
        double us = clb_row_metric(x, "launch_overhead_us");
        clb_buf_printf(b, "the device's event timer was not trusted; each run was timed between "
                          "two clFinish with the launch overhead");
        if (!isnan(us))
            clb_buf_printf(b, " (%.3g \xc2\xb5s a launch)", us);
        clb_buf_printf(b, " included, so the figure is a lower bound.");
        break;
    }
    case RF_IMPOSSIBLE:   /* its figure is not one: not even here */
        clb_buf_printf(b, "its GFlop/s is above the profile's peak for its type: a timer or "
                          "counting fault, so no figure is shown (its detail says which).");
        break;
    default:   /* failed, skipped, error: the row's reason (an impossible figure's is not one) */
        if (r->rf[i] & RF_IMPOSSIBLE)
            clb_buf_printf(b, "its figure is impossible (X), so it has none.");
        else
            clb_buf_printf(b, "%s", x->detail[0] ? x->detail : "no reason given");
        break;
    }
}

/* Under a flop rate whose counted bytes exceed the peak bandwidth: that byte
 * rate, and the B beside it (not beside the rate). */
static void bytes_note(struct rpt *r, const struct rpt_cell *c)
{
    if (!(c->flags & RF_BYTES))
        return;
    _Static_assert(RF_BYTES == 1u << 8, "frow[8] is RF_BYTES's row");
    size_t i = (r->rf[c->best] & RF_BYTES) ? c->best : c->frow[8];
    rpt_tag(r, "<br><span class=\"note\">counted ");
    rpt_num(r, r->t.rows[i].gbps);
    rpt_tag(r, " GB/s</span> <span class=\"flag\">B</span>");
}

void rpt_cell_td(struct rpt *r, const struct rpt_cell *c, double base, int size)
{
    struct clb_buf t = {0};
    rpt_tag(r, "<td class=\"n\">");
    rpt_num(r, c->v);
    if (base > 0 && !isnan(c->raw))
        rpt_tag(r, " <span class=\"note\">(%.2f&times;)</span>", c->raw / base);
    rpt_flag_letters(&t, c->flags & ~(unsigned)RF_BYTES);   /* B: bytes_note's */
    for (size_t k = 0; k < t.len; k++)
        rpt_tag(r, " <span class=\"flag%s\">%c</span>", strchr("FSE", t.s[k]) ? " bad" : "",
                t.s[k]);
    bytes_note(r, c);
    for (int k = 0; k < RF_NBITS; k++)
        if (c->flags & (1u << k))
            rpt_seen_row(r, c->frow[k], 1u << k);
    if (size && c->nrows) {   /* "2^28 elements", "64x64x64x16 lattice", "64 MiB" */
        const struct clb_row *x = &r->t.rows[c->best];
        t.len = 0;
        clb_size_words(clb_workload_find(x->workload), x->size, &t);
        rpt_wrap(r, "<br><span class=\"note size\">", clb_buf_str(&t), "</span>");
    }
    rpt_tag(r, "</td>");
    r->oom |= t.oom;
    clb_buf_free(&t);
}

void rpt_explain_marks(struct rpt *r)
{
    static const char order[] = "C!B~HXFSE";
    if (!r->seen)
        return;
    struct clb_buf b = {0}, let = {0};
    rpt_tag(r, "<ul class=\"marks\">\n");
    for (const char *o = order; *o; o++)
        for (int k = 0; k < RF_NBITS; k++) {
            unsigned bit = 1u << k;
            let.len = 0;
            rpt_flag_letters(&let, bit);
            if (!(r->seen & bit) || !let.len || let.s[0] != *o)
                continue;
            b.len = 0;
            rpt_flag_words(&b, bit);
            clb_buf_printf(&b, ": ");
            sentence(r, bit, r->seen_row[k], &b);
            rpt_tag(r, "<li><span class=\"flag%s\">%c</span> ", strchr("FSEX", *o) ? " bad" : "",
                    *o);
            rpt_wrap(r, "", clb_buf_str(&b), "</li>\n");
        }
    rpt_tag(r, "</ul>\n");
    r->oom |= b.oom || let.oom;
    clb_buf_free(&b);
    clb_buf_free(&let);
    r->seen = 0;
}

/* clbench report: the page's markup. Text of the files reaches it through
 * rpt_text only (cmp_esc, CMP_ESC_HTML); rpt_tag writes the markup made here.
 * The Content-Security-Policy is a second wall (docs/REPORT.md, "Text from
 * the files"). */
#include "report_priv.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void rpt_text(struct rpt *r, const char *s)
{
    cmp_esc(&r->page, s ? s : "", CMP_ESC_HTML);
}

void rpt_tag(struct rpt *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    clb_buf_vprintf(&r->page, fmt, ap);
    va_end(ap);
}

const char *rpt_fmt(struct clb_buf *b, const char *fmt, ...)
{
    va_list ap;
    b->len = 0;
    va_start(ap, fmt);
    clb_buf_vprintf(b, fmt, ap);
    va_end(ap);
    return clb_buf_str(b);
}

void rpt_wrap(struct rpt *r, const char *open, const char *s, const char *close)
{
    clb_buf_printf(&r->page, "%s", open);
    rpt_text(r, s);
    clb_buf_printf(&r->page, "%s", close);
}

void rpt_td(struct rpt *r, const char *s) { rpt_wrap(r, "<td>", s, "</td>"); }

void rpt_labels(struct rpt *r, const int *cols, int n, const char *sep)
{
    for (int k = 0; k < n; k++)
        rpt_wrap(r, k ? sep : "", rpt_label(r, cols[k]), "");
}

void rpt_td_num(struct rpt *r, double v)
{
    rpt_tag(r, "<td class=\"n\">");
    rpt_num(r, v);
    rpt_tag(r, "</td>");
}

void rpt_num(struct rpt *r, double v)
{
    if (isnan(v)) {
        rpt_tag(r, "&ndash;");
        return;
    }
    double a = fabs(v);
    int digits = a >= 1000 || (v == floor(v) && a < 1e15) ? 0 : a >= 100 ? 1 : a >= 10 ? 2
                 : a >= 1 ? 3 : 4;
    if (a > 0 && a < 0.001)
        rpt_tag(r, "%.3g", v);
    else
        rpt_tag(r, "%.*f", digits, v);
}

void rpt_section(struct rpt *r, const char *title, const char *lead)
{
    int id = ++r->sections;
    rpt_tag(r, "<section id=\"s%d\">\n", id);
    rpt_wrap(r, "<h2>", title, "</h2>\n");
    if (lead && *lead)
        rpt_wrap(r, "<p class=\"lead\">", lead, "</p>\n");
    clb_buf_printf(&r->toc, "<li><a href=\"#s%d\">", id);
    cmp_esc(&r->toc, title, CMP_ESC_HTML);
    clb_buf_printf(&r->toc, "</a></li>\n");
}

void rpt_section_end(struct rpt *r)
{
    rpt_explain_marks(r);
    rpt_tag(r, "</section>\n");
}

static const char css[] =
    "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0;"
    "color:#1d232a;background:#f5f6f8}\n"
    "header{background:#1f2d3d;color:#fff;padding:18px 28px}\n"
    "header h1{margin:0 0 4px;font-size:24px}header p{margin:2px 0;color:#c8d3df}\n"
    "main{max-width:1180px;margin:0 auto;padding:8px 24px 40px}\n"
    "nav{background:#fff;border:1px solid #d8dde3;border-radius:6px;padding:8px 16px;margin:16px 0}\n"
    "nav ol{columns:3;margin:4px 0;padding-left:22px}\n"
    "section{background:#fff;border:1px solid #d8dde3;border-radius:6px;padding:6px 20px 14px;"
    "margin:18px 0}\n"
    "h2{font-size:20px;border-bottom:2px solid #e3e7ec;padding-bottom:4px}h3{font-size:16px}\n"
    ".lead{color:#4a5663}\n"
    ".cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(330px,1fr));gap:14px}\n"
    ".card{border:1px solid #d8dde3;border-left:5px solid #3b6ea5;border-radius:6px;"
    "padding:8px 14px;background:#fbfcfd}\n"
    ".card h3{margin:4px 0 8px}.card dl{display:grid;grid-template-columns:auto 1fr;"
    "gap:2px 12px;margin:0}\n"
    ".card dt{color:#5b6773}.card dd{margin:0;overflow-wrap:anywhere}\n"
    "table{border-collapse:collapse;margin:10px 0;font-size:13.5px}\n"
    "th,td{border-bottom:1px solid #e3e7ec;padding:3px 9px;text-align:left;"
    "vertical-align:top}\n"
    "th{background:#eef1f4;font-weight:600}td.n{text-align:right;"
    "font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    ".wide{overflow-x:auto}\n"
    "figure{margin:12px 0}figure svg{width:100%;height:auto;max-width:1100px}\n"
    "figcaption{color:#4a5663;font-size:13.5px}\n"
    ".nochart{border:1px dashed #b9c2cc;padding:10px;color:#6b4f00;background:#fffbea}\n"
    ".flag{display:inline-block;font-size:12px;padding:0 5px;border-radius:3px;"
    "background:#fde8c8;color:#7a4100;margin-right:3px}\n"
    ".flag.bad{background:#f9d0d0;color:#8a1010}\n"
    ".note{color:#5b6773;font-size:13px}\n"
    ".marks{color:#4a5663;font-size:13.5px;padding-left:18px}.marks li{margin:2px 0}\n"
    "footer{max-width:1180px;margin:0 auto;padding:0 24px 30px;color:#5b6773;font-size:13px}\n";

void rpt_head(struct rpt *r)
{
    rpt_tag(r, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
               "style-src 'unsafe-inline'\">\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
               "<title>clbench report: ");
    rpt_labels(r, r->dev, r->ndev, ", ");
    if (!r->ndev)
        rpt_tag(r, "published figures");
    rpt_tag(r, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", css);
}

void rpt_foot(struct rpt *r)
{
    rpt_tag(r, "</main>\n<footer>\n<p>Flags: <span class=\"flag\">C</span>cache-resident (the "
               "working set fits the last-level cache: a cache's bandwidth, not the memory's) "
               "<span class=\"flag\">!</span>above the datasheet peak of its unit "
               "<span class=\"flag\">B</span>a flop rate whose counted bytes move faster than "
               "the peak bandwidth (a cache served part of them) "
               "<span class=\"flag\">~</span>noisy (the slowest repetition took more than %.2f "
               "&times; the fastest) <span class=\"flag\">H</span>timed on the host clock (the "
               "device's event timer was not trusted: each run between two clFinish, the launch "
               "overhead included) <span class=\"flag bad\">F</span>failed validation "
               "<span class=\"flag bad\">S</span>skipped <span class=\"flag bad\">E</span>error "
               "<span class=\"flag bad\">X</span>impossible (above the peak GFlop/s: a timer or "
               "counting fault, no figure)."
               "</p>\n<p>Made by clbench %s from ", CLB_NOISY_SPREAD, CLB_VERSION);
    for (int f = 0; f < r->nfiles; f++)
        rpt_wrap(r, f ? ", <code>" : "<code>", r->files[f], "</code>");
    rpt_tag(r, ". One file: no script, nothing loaded from the network (docs/REPORT.md).</p>\n"
               "</footer>\n</body>\n</html>\n");
}

static const struct {
    unsigned bit;
    char letter;
    const char *word;
} flag_names[] = {
    {RF_CACHE, 'C', "cache-resident"}, {RF_ABOVE, '!', "above the datasheet peak"},
    {RF_NOISY, '~', "noisy"},          {RF_FAILED, 'F', "failed validation"},
    {RF_SKIPPED, 'S', "skipped"},      {RF_ERROR, 'E', "error"},
    {RF_HOST, 'H', "timed on the host clock"}, {RF_IMPOSSIBLE, 'X', "impossible"},
    {RF_BYTES, 'B', "counted bytes above the peak bandwidth"},
};
#define NFLAGS (sizeof flag_names / sizeof *flag_names)

void rpt_flag_words(struct clb_buf *b, unsigned f)
{
    for (size_t k = 0, n = 0; k < NFLAGS; k++)
        if (f & flag_names[k].bit)
            clb_buf_printf(b, "%s%s", n++ ? ", " : "", flag_names[k].word);
}

void rpt_flag_letters(struct clb_buf *b, unsigned f)
{
    for (size_t k = 0; k < NFLAGS; k++)
        if (f & flag_names[k].bit)
            clb_buf_add(b, &flag_names[k].letter, 1);
}

void rpt_chart(struct rpt *r, struct clb_chart *c, const char *caption)
{
    if (c->oom || CLB_GROW(r->ch, r->nch, r->capch)) {
        r->oom = 1;
        clb_chart_free(c);
        return;
    }
    rpt_tag(r, "<figure>\n");
    r->ch[r->nch].c = *c;   /* taken over */
    r->ch[r->nch++].at = r->page.len;
    memset(c, 0, sizeof *c);
    rpt_wrap(r, "<figcaption>", caption, "</figcaption>\n</figure>\n");
}

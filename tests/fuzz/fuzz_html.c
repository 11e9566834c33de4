/* libFuzzer: what puts text of a results file in a `clbench report` page
 * and in the charts of the report and of `compare --plot`. The first byte
 * picks the target:
 *   0, 2 (mod 4): cmp_esc(CMP_ESC_HTML), the one function every text goes
 *         through. Oracle (html_oracle.h, apart from the escaper): the output
 *         is text that holds no markup character of its own (& < > " ' only
 *         as character references), is UTF-8 without a control byte, and
 *         reads back -- references decoded -- as the display form cmp_esc(s, 0);
 *   1:    clb_svg_inline on the rest as an SVG. Oracle: when it accepts, the
 *         output's every tag is an SVG element of gnuplot's set with no event
 *         handler and no reference out of the figure (href only "#c1-...",
 *         url() only "url(#c1-..."), and every id carries the prefix;
 *   3:    the chart text (cmp_esc with CMP_ESC_DATA and CMP_ESC_GP, for an
 *         SVG and a PNG). Oracle (plot_oracle.h): the field and the string
 *         expression pass gnuplot's rules, and what gnuplot reads from them,
 *         written by its SVG terminal and read back by an XML reader, is the
 *         display form (a PNG: gnuplot's value itself) -- no quote, escape or
 *         character reference of the text acts.
 * A failed check aborts, so libFuzzer keeps the input. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clb_chart.h"
#include "clb_text.h"
#include "html_oracle.h"

static void die(const char *why, const char *in, const char *out)
{
    fprintf(stderr, "fuzz_html: %s\n--- in ---\n%s\n--- out ---\n%s\n", why, in, out);
    abort();
}

/* The references of the escaper decoded (html_oracle.h checked them). */
static void decode(const char *s, struct clb_buf *out)
{
    static const char *const ref[5] = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"};
    static const char ch[5] = {'&', '<', '>', '"', '\''};
    for (; *s; s++) {
        int k = 0;
        while (*s == '&' && k < 5 && strncmp(s, ref[k], strlen(ref[k])))
            k++;
        if (*s == '&' && k < 5) {
            clb_buf_add(out, &ch[k], 1);
            s += strlen(ref[k]) - 1;
        } else {
            clb_buf_add(out, s, 1);
        }
    }
}

static void escape(const char *in)
{
    struct clb_buf h = {0}, plain = {0}, back = {0};
    cmp_esc(&h, in, CMP_ESC_HTML);
    cmp_esc(&plain, in, 0);
    const char *why = oracle_html_text(clb_buf_str(&h), h.len, 0);
    if (!why && (strchr(clb_buf_str(&h), '>') || strchr(clb_buf_str(&h), '"') ||
                 strchr(clb_buf_str(&h), '\'')))
        why = "a markup character of its own in escaped text";
    decode(clb_buf_str(&h), &back);
    if (!why && strcmp(clb_buf_str(&back), clb_buf_str(&plain)))
        why = "the escaped text does not read back as the display form";
    if (why)
        die(why, in, clb_buf_str(&h));
    clb_buf_free(&h);
    clb_buf_free(&plain);
    clb_buf_free(&back);
}

/* The chart text of one name, for each target and terminal. */
static void chart_text(const char *in)
{
    struct clb_buf shown = {0}, esc = {0};
    cmp_esc(&shown, in, 0);
    for (int k = 0; k < 4; k++) {
        int gp = k & 1, svg = k >> 1;
        esc.len = 0;
        cmp_esc(&esc, in, (gp ? CMP_ESC_GP : CMP_ESC_DATA) | (svg ? CMP_ESC_SVG : 0));
        if (esc.oom || shown.oom)
            abort();
        const char *why = oracle_shows(clb_buf_str(&esc), esc.len, gp, svg, clb_buf_str(&shown));
        if (why)
            die(why, in, clb_buf_str(&esc));
    }
    clb_buf_free(&shown);
    clb_buf_free(&esc);
}

static int svg_element(const char *s, size_t n)
{
    static const char *const el[] = {
        "svg", "g", "defs", "title", "desc", "circle", "ellipse", "path", "rect", "use",
        "filter", "feFlood", "feComposite", "polygon", "polyline", "line", "text", "tspan",
        "clipPath", "pattern", NULL};
    for (int k = 0; el[k]; k++)
        if (strlen(el[k]) == n && !memcmp(el[k], s, n))
            return 1;
    return 0;
}

/* Check one attribute (name, value) of the inlined SVG. */
static const char *svg_attr(const char *a, size_t an, const char *v, size_t vn)
{
    if (an >= 2 && (a[0] == 'o' || a[0] == 'O') && (a[1] == 'n' || a[1] == 'N'))
        return "an event handler";
    int href = (an == 4 && !memcmp(a, "href", 4)) || (an == 10 && !memcmp(a, "xlink:href", 10));
    if ((href || (an == 2 && !memcmp(a, "id", 2))) &&
        (vn < 3 + (size_t)href || memcmp(v, href ? "#c1-" : "c1-", 3 + (size_t)href)))
        return "an id or a reference without the figure's prefix";
    for (size_t i = 0; i + 4 <= vn; i++)
        if (!memcmp(v + i, "url(", 4) && (i + 8 > vn || memcmp(v + i + 4, "#c1-", 4)))
            return "a url() out of the figure";
    if (memchr(v, '<', vn))
        return "markup in an attribute";
    return NULL;
}

static const char *svg_tags(const char *s, size_t n)
{
    for (const char *p = memchr(s, '<', n); p; p = memchr(p, '<', n - (size_t)(p - s))) {
        p += 1 + (p[1] == '/');
        const char *nm = p;
        while (*p && *p != ' ' && *p != '>' && *p != '/' && *p != '\n')
            p++;
        if (!svg_element(nm, (size_t)(p - nm)))
            return "an element gnuplot does not write";
        while (*p && *p != '>') {
            while (*p == ' ' || *p == '\n' || *p == '/')
                p++;
            const char *a = p;
            while (*p && *p != '=' && *p != '>')
                p++;
            if (*p != '=')
                break;
            char q = p[1];
            const char *v = p + 2, *e = q ? strchr(v, q) : NULL;
            if ((q != '\'' && q != '"') || !e)
                return "an attribute without a quoted value";
            const char *why = svg_attr(a, (size_t)(p - a), v, (size_t)(e - v));
            if (why)
                return why;
            p = e + 1;
        }
        if (!*p)
            return "an unterminated tag";
    }
    return NULL;
}

static void inline_svg(const char *in, size_t n)
{
    struct clb_buf out = {0};
    if (clb_svg_inline(&out, in, n, "c1") == CLB_OK) {
        const char *why = svg_tags(clb_buf_str(&out), out.len);
        if (why)
            die(why, in, clb_buf_str(&out));
    } else if (out.len) {
        die("a refused SVG left output", in, clb_buf_str(&out));
    }
    clb_buf_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char *s = malloc(size);
    if (!s)
        return 0;
    memcpy(s, data + 1, size - 1);
    s[size - 1] = 0;   /* a results file cannot hold a NUL: the reader refuses it */
    if ((data[0] & 3) == 1)
        inline_svg(s, strlen(s));
    else if ((data[0] & 3) == 3)
        chart_text(s);
    else
        escape(s);
    free(s);
    return 0;
}

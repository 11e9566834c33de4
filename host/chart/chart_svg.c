/* gnuplot's SVG inline in an HTML page (include/clb_chart.h, clb_svg_inline):
 * read as a sequence of tags and text, written back with ids prefixed, and
 * refused for anything gnuplot's SVG terminal does not write. The text of a
 * figure reached gnuplot escaped by cmp_esc: this pass is a second wall, not
 * the escaping. */
#include "clb_chart.h"

#include <stdlib.h>
#include <string.h>

static const char *const elements[] = {
    "svg", "g", "defs", "title", "desc", "circle", "ellipse", "path", "rect", "use", "filter",
    "feFlood", "feComposite", "polygon", "polyline", "line", "text", "tspan", "clipPath",
    "pattern", NULL};

static const char *const attributes[] = {
    "id", "class", "color", "cx", "cy", "r", "rx", "ry", "d", "fill", "fill-opacity",
    "filterUnits", "flood-color", "flood-opacity", "font-family", "font-size", "font-weight",
    "font-style", "height", "width", "in", "in2", "operator", "result", "shape-rendering",
    "stroke", "stroke-dasharray", "stroke-linecap", "stroke-linejoin", "stroke-width",
    "stroke-opacity", "text-anchor", "transform", "viewBox", "x", "y", "x1", "y1", "x2", "y2",
    "points", "xlink:href", "href", "xmlns", "xmlns:xlink", "clip-path", "patternUnits",
    "opacity", "visibility", "style", "xml:space", "filter", NULL};

static const char *const namespaces[] = {"http://www.w3.org/2000/svg",
                                         "http://www.w3.org/1999/xlink", NULL};

static int listed(const char *const *list, const char *s, size_t n)
{
    for (int i = 0; list[i]; i++)
        if (strlen(list[i]) == n && !memcmp(list[i], s, n))
            return 1;
    return 0;
}

struct svgin {
    const char *s, *end;
    const char *prefix;
    struct clb_buf *out;
    const char *why;
};

/* -1, with the reason the figure is refused. */
static int refuse(struct svgin *x, const char *why)
{
    x->why = why;
    return -1;
}

static int name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-' || c == ':' || c == '_';
}

/* Character data: '&' only as a reference (&name; &#N; &#xN;). */
static int text_ok(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '<')
            return 0;
        if (p[i] != '&')
            continue;
        size_t k = i + 1;
        if (k < n && p[k] == '#')
            k++;
        size_t start = k;
        while (k < n && ((p[k] >= 'a' && p[k] <= 'z') || (p[k] >= 'A' && p[k] <= 'Z') ||
                         (p[k] >= '0' && p[k] <= '9')))
            k++;
        if (k == start || k >= n || p[k] != ';')
            return 0;
        i = k;
    }
    return 1;
}

/* An attribute value with its ids prefixed: an id, "#id" of a reference,
 * "url(#id)" inside a value; external references refused. */
static int value_out(struct svgin *x, const char *name, size_t nl, const char *v, size_t n)
{
    struct clb_buf *o = x->out;
    int is_id = nl == 2 && !memcmp(name, "id", 2);
    int is_ref = (nl == 10 && !memcmp(name, "xlink:href", 10)) || (nl == 4 && !memcmp(name, "href", 4));
    int is_ns = nl >= 5 && !memcmp(name, "xmlns", 5);
    if (!text_ok(v, n))
        return refuse(x, "an attribute value with markup");
    if (is_ns && !listed(namespaces, v, n))
        return refuse(x, "an unknown namespace");
    if (is_ref && (n < 2 || v[0] != '#'))
        return refuse(x, "a reference outside the figure");
    if (is_id || is_ref) {
        clb_buf_add(o, "#", is_ref);
        clb_buf_printf(o, "%s-", x->prefix);
        clb_buf_add(o, v + is_ref, n - (size_t)is_ref);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (n - i >= 4 && !memcmp(v + i, "url(", 4)) {
            if (i + 4 >= n || v[i + 4] != '#')
                return refuse(x, "a url() outside the figure");
            clb_buf_printf(o, "url(#%s-", x->prefix);
            i += 4;
            continue;
        }
        clb_buf_add(o, v + i, 1);
    }
    return 0;
}

/* One tag from x->s (at '<'): copied with its attributes checked. */
static int tag(struct svgin *x)
{
    const char *p = x->s + 1, *e = x->end;
    int closing = p < e && *p == '/';
    p += closing;
    const char *nm = p;
    while (p < e && name_char(*p))
        p++;
    if (!listed(elements, nm, (size_t)(p - nm)))
        return refuse(x, "an element gnuplot does not write");
    clb_buf_add(x->out, x->s, (size_t)(p - x->s));
    while (p < e) {
        while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
            p++;
        if (p < e && (*p == '>' || (*p == '/' && p + 1 < e && p[1] == '>'))) {
            const char *close = *p == '>' ? p + 1 : p + 2;
            clb_buf_add(x->out, p, (size_t)(close - p));
            x->s = close;
            return 0;
        }
        const char *an = p;
        while (p < e && name_char(*p))
            p++;
        size_t al = (size_t)(p - an);
        while (p < e && *p == ' ')   /* gnuplot writes "fill = 'rgb(...)'" too */
            p++;
        int eq = p < e && *p == '=';
        for (p += eq; p < e && *p == ' ';)
            p++;
        if (closing || !al || !listed(attributes, an, al) || !eq || p >= e ||
            (*p != '\'' && *p != '"'))
            return refuse(x, closing ? "a closing tag with attributes"
                                     : "an attribute gnuplot does not write");
        char q = *p;
        const char *v = p + 1, *ve = memchr(v, q, (size_t)(e - v));
        if (!ve)
            return refuse(x, "an unterminated attribute");
        clb_buf_add(x->out, " ", 1);
        clb_buf_add(x->out, an, al);
        clb_buf_printf(x->out, "=%c", q);
        if (value_out(x, an, al, v, (size_t)(ve - v)))
            return -1;
        clb_buf_add(x->out, &q, 1);
        p = ve + 1;
    }
    return refuse(x, "an unterminated tag");
}

/* Skip a prolog, DOCTYPE or comment at x->s ('<?', '<!'); 1 when skipped. */
static int skip_decl(struct svgin *x)
{
    const char *p = x->s, *e = x->end;
    const char *stop = p[1] == '?' ? "?>" : (e - p >= 4 && !memcmp(p, "<!--", 4)) ? "-->" : ">";
    if (p[1] != '?' && p[1] != '!')
        return 0;
    if (e - p >= 9 && !memcmp(p, "<![CDATA[", 9))
        return refuse(x, "a CDATA section");
    for (const char *q = p + 2; q < e; q++)
        if ((size_t)(e - q) >= strlen(stop) && !memcmp(q, stop, strlen(stop))) {
            x->s = q + strlen(stop);
            return 1;
        }
    return refuse(x, "an unterminated declaration");
}

int clb_svg_inline(struct clb_buf *out, const char *svg, size_t len, const char *prefix)
{
    struct clb_buf o = {0};
    struct svgin x = {svg, svg + len, prefix, &o, NULL};
    int root = 0;
    while (x.s < x.end && !x.why) {
        const char *lt = memchr(x.s, '<', (size_t)(x.end - x.s));
        size_t n = (size_t)((lt ? lt : x.end) - x.s);
        if (!text_ok(x.s, n)) {
            x.why = "text with a bare '&'";
            break;
        }
        if (root)   /* the prolog's white space is dropped */
            clb_buf_add(&o, x.s, n);
        x.s += n;
        if (!lt)
            break;
        if (skip_decl(&x))   /* skipped, or refused: x.why ends the loop */
            continue;
        root |= !strncmp(x.s, "<svg", 4);
        if (root)
            tag(&x);
        else
            x.why = "content before the svg element";
    }
    int rc = CLB_OK;
    if (x.why || !root || o.oom) {
        clb_seterr("gnuplot's SVG cannot be inlined: %s",
                   o.oom ? CLB_OOM : x.why ? x.why : "no svg element");
        rc = o.oom ? CLB_ESYS : CLB_EUSAGE;
    } else {
        clb_buf_add(out, clb_buf_str(&o), o.len);
    }
    clb_buf_free(&o);
    return rc;
}

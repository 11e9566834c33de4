/* The oracle of a `clbench report` page (tests/fuzz/fuzz_rows.c, fuzz_html.c),
 * written apart from the report, from HTML's rules:
 *   - text: no '<' (a text of a file comes with & < > " ' as character
 *     references), every '&' a reference, UTF-8, no control byte but tab and
 *     newline; in an attribute value no quote of its own kind either;
 *   - markup: every '<' opens or closes an element the report writes (its
 *     own set: a text of a file can never become one of them unescaped), and
 *     no attribute value holds a '<'.
 * A page without figures (the fuzzer draws no chart) has nothing else.
 * Each check returns NULL when the text passes, else the reason. */
#ifndef HTML_ORACLE_H
#define HTML_ORACLE_H

#include <stddef.h>
#include <string.h>
#include "plot_oracle.h"

/* Is there a character reference at s[0..n) (s[0] == '&')? Its length, 0 when none. */
static inline size_t oracle_entity(const char *s, size_t n)
{
    static const char *const named[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;", "&ndash;",
                                        "&times;", NULL};
    for (int k = 0; named[k]; k++) {
        size_t l = strlen(named[k]);
        if (l <= n && !memcmp(s, named[k], l))
            return l;
    }
    return 0;
}

/* Text of an element (or an attribute value, quote `q`; 0 for text). */
static inline const char *oracle_html_text(const char *s, size_t n, char q)
{
    if (!oracle_utf8((const unsigned char *)s, n))
        return "text that is not UTF-8";
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '&') {
            size_t l = oracle_entity(s + i, n - i);
            if (!l)
                return "an '&' that is not a character reference";
            i += l - 1;
        } else if (c == '<' || (q && c == (unsigned char)q)) {
            return "markup characters in text";
        } else if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) {
            return "a control byte in the page";
        } else if (c == 0xC2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 &&
                   (unsigned char)s[i + 1] <= 0x9F) {
            return "a C1 control in the page";
        }
    }
    return NULL;
}

static inline int oracle_report_tag(const char *name, size_t n)
{
    static const char *const tags[] = {
        "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "p",
        "main", "nav", "strong", "ol", "li", "a", "section", "div", "dl", "dt", "dd", "table",
        "tr", "th", "td", "span", "br", "code", "figure", "figcaption", "footer", "ul", NULL};
    for (int k = 0; tags[k]; k++)
        if (strlen(tags[k]) == n && !memcmp(tags[k], name, n))
            return 1;
    return 0;
}

/* One tag at s (s[0] == '<'), at most n bytes: its length, 0 when bad (*why set). */
static inline size_t oracle_tag(const char *s, size_t n, const char **why)
{
    size_t i = 1 + (n > 1 && s[1] == '/'), start = i;
    while (i < n && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9')))
        i++;
    if (!oracle_report_tag(s + start, i - start)) {
        *why = "an element the report does not write";
        return 0;
    }
    while (i < n && s[i] != '>') {
        if (s[i] == '"' || s[i] == '\'') {
            const char *e = memchr(s + i + 1, s[i], n - i - 1);
            if (!e || (*why = oracle_html_text(s + i + 1, (size_t)(e - s - i - 1), s[i])))
                return (*why = *why ? *why : "an unterminated attribute"), 0;
            i = (size_t)(e - s);
        } else if (s[i] == '<') {
            *why = "a '<' inside a tag";
            return 0;
        }
        i++;
    }
    if (i >= n) {
        *why = "an unterminated tag";
        return 0;
    }
    return i + 1;
}

/* A whole page without figures. */
static inline const char *oracle_page(const char *s, size_t n)
{
    const char *why = NULL;
    static const char doctype[] = "<!DOCTYPE html>\n";
    if (n < sizeof doctype - 1 || memcmp(s, doctype, sizeof doctype - 1))
        return "no DOCTYPE";
    for (size_t i = sizeof doctype - 1; i < n;) {
        const char *lt = memchr(s + i, '<', n - i);
        size_t end = lt ? (size_t)(lt - s) : n;
        if ((why = oracle_html_text(s + i, end - i, 0)))
            return why;
        if (!lt)
            break;
        size_t t = oracle_tag(s + end, n - end, &why);
        if (!t)
            return why;
        if (t >= 7 && !memcmp(s + end, "<style>", 7)) {   /* the page's own CSS: to </style> */
            const char *e = strstr(s + end, "</style>");
            if (!e)
                return "an unterminated style";
            t = (size_t)(e - s) - end;
        }
        i = end + t;
    }
    return NULL;
}

#endif

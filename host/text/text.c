/* The text module (include/clb_text.h says what it is for): one escaping
 * function, cmp_esc, for every target; it calls nothing but the core. */
#include "clb_text.h"

#include <stdlib.h>
#include <string.h>

/* The length of the well-formed UTF-8 sequence at p (at most n bytes) and its
 * code point; 0 when the bytes are not UTF-8. */
static int utf8_seq(const unsigned char *p, size_t n, unsigned *cp)
{
    unsigned c = p[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c < 0xC2 || c > 0xF4)
        return 0;
    int len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    /* the second byte's range: no overlong form, no surrogate, nothing past U+10FFFF */
    unsigned lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
    unsigned hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
    *cp = c & (0x7Fu >> len);
    if ((size_t)len > n)
        return 0;
    for (int i = 1; i < len; i++) {
        unsigned b = p[i];
        if (b < (i == 1 ? lo : 0x80) || b > (i == 1 ? hi : 0xBF))
            return 0;
        *cp = (*cp << 6) | (b & 0x3F);
    }
    return len;
}

/* Code points shown as \uNNNN: C1 controls, line and paragraph separators,
 * the bidirectional marks and overrides, the zero-width no-break space. */
static int hidden_cp(unsigned cp)
{
    return (cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 || cp == 0x200E ||
           cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
           cp == 0xFEFF;
}

/* gnuplot's SVG terminal writes a '&' of text as "&amp;" unless "#x"
 * follows, which it passes on as the start of a character reference (for
 * fonts' symbols): so a '&' of a name becomes such a reference to itself,
 * "&#x26;", and no name can make one of its own (a live "&#x202e;"). */
#define SVG_AMP "&#x26;"

/* The target's rule over the display form e (flags: one of DATA, GP, HTML;
 * SVG with DATA or GP). The display form has no control byte and no line
 * break, and every backslash of it is one of the text. */
static void esc_target(struct clb_buf *b, const char *e, int flags)
{
    int svg = (flags & CMP_ESC_SVG) && (flags & (CMP_ESC_DATA | CMP_ESC_GP));
    if (flags & CMP_ESC_GP)
        clb_buf_add(b, "'", 1);
    for (const char *p = e; *p; p++) {
        const char *rep = NULL;
        if (svg && *p == '&') {
            rep = SVG_AMP;
        } else if (flags & CMP_ESC_DATA) {
            /* gnuplot reads backslash escapes in a data string (\n, \t,
             * \ooo), ends it at a double quote and drops the blanks that
             * begin a field: an octal escape says each as it is */
            rep = *p == '\\'             ? "\\\\"
                  : *p == '"'            ? "\\042"
                  : *p == ' ' && p == e  ? "\\040"
                                         : NULL;
        } else if (flags & CMP_ESC_GP) {
            /* a single-quoted string knows no escape but '' for a quote,
             * which gnuplot misreads for quotes in a row ('a''''b'): each
             * quote ends the string instead, joined to "'" and the rest */
            rep = *p == '\'' ? "'.\"'\".'" : NULL;
        } else {
            rep = *p == '&'    ? "&amp;"
                  : *p == '<'  ? "&lt;"
                  : *p == '>'  ? "&gt;"
                  : *p == '"'  ? "&quot;"
                  : *p == '\'' ? "&#39;"
                               : NULL;
        }
        if (rep)
            clb_buf_add(b, rep, strlen(rep));
        else
            clb_buf_add(b, p, 1);
    }
    if (flags & CMP_ESC_GP)
        clb_buf_add(b, "'", 1);
}

/* The display form, then the rule of a target that needs more than it. */
static void esc_for(struct clb_buf *b, const char *s, int flags)
{
    if ((flags & CMP_ESC_DATA) && !*s) {
        clb_buf_add(b, "(empty)", 7);
        return;
    }
    struct clb_buf e = {0};
    cmp_esc(&e, s, flags & CMP_ESC_MD);
    if (e.oom)
        b->oom = 1;
    esc_target(b, clb_buf_str(&e), flags);
    clb_buf_free(&e);
}

/* Written by name: the backslash, newline, CR and tab. */
static const char named[] = "\\\n\r\t";
static const char *const named_as[] = {"\\\\", "\\n", "\\r", "\\t"};

void cmp_esc(struct clb_buf *b, const char *s, int flags)
{
    if (flags & (CMP_ESC_DATA | CMP_ESC_GP | CMP_ESC_HTML)) {
        esc_for(b, s, flags);
        return;
    }
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    size_t run = 0;   /* printable bytes not yet copied, ending at p */
    while (n) {
        unsigned cp = 0;
        int len = utf8_seq(p, n, &cp);
        const char *nm = len && cp && cp < 0x80 ? strchr(named, (int)cp) : NULL;
        const char *rep = NULL;
        char tmp[12];
        if (nm) {
            rep = named_as[nm - named];
        } else if (!len || cp < 0x20 || cp == 0x7F) {   /* not UTF-8, or a control byte */
            snprintf(tmp, sizeof tmp, "\\x%02x", len ? cp : p[0]);
            rep = tmp;
        } else if (hidden_cp(cp)) {
            snprintf(tmp, sizeof tmp, "\\u%04x", cp);
            rep = tmp;
        } else if (cp == '|' && (flags & CMP_ESC_MD)) {
            rep = "\\|";
        }
        if (rep) {
            clb_buf_add(b, (const char *)p - run, run);
            clb_buf_add(b, rep, strlen(rep));
            run = 0;
        } else {
            run += (size_t)len;
        }
        len += !len;   /* a byte that is not UTF-8: one */
        p += len;
        n -= (size_t)len;
    }
    clb_buf_add(b, (const char *)p - run, run);
}

void cmp_utf8_fix(struct clb_buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    while (n) {
        unsigned cp;
        int len = utf8_seq(p, n, &cp);
        if (len)
            clb_buf_add(b, (const char *)p, (size_t)len);
        else
            clb_buf_add(b, "\xEF\xBF\xBD", 3);   /* U+FFFD */
        len += !len;
        p += len;
        n -= (size_t)len;
    }
}

const char *cmp_esc_tmp(struct clb_buf *b, const char *s, int flags)
{
    b->len = 0;
    if (b->s)
        b->s[0] = 0;
    cmp_esc(b, s, flags);
    return clb_buf_str(b);
}

const char *cmp_esc_arg(struct cmp_esc_args *a, const char *s, int flags)
{
    if (CLB_GROW(a->b, a->n, a->cap))
        return "";
    struct clb_buf *b = &a->b[a->n++];
    *b = (struct clb_buf){0};
    cmp_esc(b, s, flags);
    return clb_buf_str(b);
}

void cmp_esc_args_free(struct cmp_esc_args *a)
{
    for (size_t i = 0; i < a->n; i++)
        clb_buf_free(&a->b[i]);
    free(a->b);
    *a = (struct cmp_esc_args){0};
}

int cmp_width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

void cmp_slug(struct clb_buf *b, const char *s)
{
    size_t n = 0;
    for (; *s && n < CMP_SLUG_MAX; s++, n++) {
        char c = *s;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '-' || c == '_';
        clb_buf_add(b, ok ? &c : "_", 1);
    }
    if (!n)
        clb_buf_add(b, "_", 1);
}

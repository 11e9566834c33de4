/* The oracle of the gnuplot input of every chart (host/chart/chart_gnuplot.c,
 * compare's and the report's), shared by tests/fuzz/fuzz_plot.c,
 * fuzz_rows.c, fuzz_html.c and the unit tests. It is written apart from the
 * generator, from gnuplot's rules (gnuplot 5.4's scanner, data reader and SVG
 * terminal):
 *   - a script is commands of a few known words, numbers and punctuation;
 *     every other text is inside single quotes, where gnuplot expands
 *     neither `backquotes` nor @macros and has no escape: a quote ends the
 *     string (its '' escape is misread for quotes in a row, so a string is
 *     never followed by a quote), and a text's quote is the double-quoted
 *     string "'" joined by '.'; a string holds no newline (it would end the
 *     command) and no control byte, and is UTF-8;
 *   - a data file is lines of tab-separated fields, each line of a file with
 *     the same number of fields; no double quote (gnuplot ends a string
 *     there), no control byte but tab and newline, a backslash only in the
 *     escapes the writer means (\\, \042 for a double quote, \040 for a
 *     leading blank: gnuplot reads escapes in data strings), no field that
 *     begins with a blank (gnuplot drops it), UTF-8;
 *   - what gnuplot shows: the value of a string expression, or of a data
 *     field (its escapes read), written by the SVG terminal (a '&' as "&amp;"
 *     unless "#x" follows, which it passes on as a reference) and read back
 *     by an XML reader, is the display form of the text (cmp_esc(s, 0)); no
 *     text makes a character reference of its own.
 * Each check returns NULL when the text passes, else the reason. */
#ifndef PLOT_ORACLE_H
#define PLOT_ORACLE_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Is s[0..n) UTF-8 (no overlongs, no surrogates)? */
static inline int oracle_utf8(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (!len || i + len > n || (len == 2 && c < 0xC2))
            return 0;
        unsigned cp = len == 1 ? c : c & (0x7F >> len);
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return 0;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF))
            return 0;
        i += len;
    }
    return 1;
}

/* The words a script may use outside strings: gnuplot's own. */
static inline int oracle_word(const char *w, size_t n)
{
    static const char *const words[] = {
        "set", "encoding", "utf8", "datafile", "separator", "tab", "commentschars", "title",
        "ylabel", "xlabel", "grid", "ytics", "xtics", "key", "outside", "below", "left", "Left",
        "reverse", "maxcols", "yrange", "logscale", "x", "y", "style", "data", "histograms",
        "histogram", "clustered", "gap", "fill", "solid", "border", "boxwidth", "rotate", "by",
        "nomirror", "terminal", "svg", "pngcairo", "size", "dynamic", "noenhanced", "font",
        "background", "rgb", "output", "plot", "using", "xticlabels", "columnheader", "lc",
        "with", "lines", "linespoints", "dt", "lw", "pt", "index", "offsets", "graph", "format",
        "points", "ps", "xrange", "boxxyerror", "fs", "notitle", "labels", "center", "offset",
        "right", "lmargin", NULL};
    for (int i = 0; words[i]; i++)
        if (strlen(words[i]) == n && !memcmp(words[i], w, n))
            return 1;
    return 0;
}

/* A control byte, a C1 control or a newline at s[i] inside a string? */
static inline const char *oracle_in_string(const unsigned char *s, size_t i, size_t n)
{
    unsigned c = s[i];
    if (c == '\n')
        return "a newline inside a quoted string";
    if (c < 0x20 || c == 0x7F)
        return "a control byte inside a quoted string";
    if (c == 0xC2 && i + 1 < n && s[i + 1] >= 0x80 && s[i + 1] <= 0x9F)
        return "a C1 control inside a quoted string";
    return NULL;
}

static inline const char *oracle_script(const char *text, size_t n)
{
    const unsigned char *s = (const unsigned char *)text;
    if (!oracle_utf8(s, n))
        return "the script is not UTF-8";
    for (size_t i = 0; i < n; i++) {
        unsigned c = s[i];
        if (c == '\'') {   /* a string: no escape, the next quote ends it */
            size_t k = i + 1;
            for (; k < n && s[k] != '\''; k++) {
                const char *why = oracle_in_string(s, k, n);
                if (why)
                    return why;
            }
            if (k == n)
                return "an unterminated quoted string";
            if (k + 1 < n && s[k + 1] == '\'')
                return "a quote right after a string ('' in a string: gnuplot misreads quotes "
                       "in a row)";
            i = k;
        } else if (c == '"') {   /* only "'", a text's quote */
            if (!(i + 2 < n && s[i + 1] == '\'' && s[i + 2] == '"'))
                return "a double-quoted string other than \"'\" (gnuplot reads escapes there)";
            i += 2;
        } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
            size_t k = i;
            while (k < n && ((s[k] >= 'a' && s[k] <= 'z') || (s[k] >= 'A' && s[k] <= 'Z') ||
                             (s[k] >= '0' && s[k] <= '9') || s[k] == '_'))
                k++;
            /* fig3.dat is a file name inside quotes; outside, only words */
            if (!oracle_word(text + i, k - i))
                return "a word outside strings that is not a gnuplot command";
            i = k - 1;
        } else if (c >= '0' && c <= '9') {
            while (i + 1 < n && ((s[i + 1] >= '0' && s[i + 1] <= '9') || s[i + 1] == '.' ||
                                 s[i + 1] == 'e' || s[i + 1] == 'E' ||
                                 ((s[i + 1] == '+' || s[i + 1] == '-') &&
                                  (s[i] == 'e' || s[i] == 'E'))))
                i++;
        } else if (!strchr(" \n,.:;=()[]*+-", (int)c) || c == 0) {
            return "a byte outside strings that gnuplot could interpret (` @ $ # \\ \" or text)";
        }
    }
    return NULL;
}

static inline const char *oracle_data(const char *text, size_t n)
{
    const unsigned char *s = (const unsigned char *)text;
    if (!oracle_utf8(s, n))
        return "a data file is not UTF-8";
    long fields = -1, here = 0;
    int empty = 1;
    for (size_t i = 0; i < n; i++) {
        unsigned c = s[i];
        int start = i == 0 || s[i - 1] == '\t' || s[i - 1] == '\n';
        if (c == '"')
            return "a double quote in a data file";
        if (c == ' ' && start)
            return "a field that begins with a blank (gnuplot drops it)";
        if (c == '\\') {
            if (i + 1 < n && s[i + 1] == '\\')
                i++;
            else if (i + 3 < n && s[i + 1] == '0' && s[i + 2] == '4' &&
                     (s[i + 3] == '2' || s[i + 3] == '0'))
                i += 3;
            else
                return "a backslash in a data file that is not \\\\, \\042 or \\040 (gnuplot "
                       "would read another escape)";
            empty = 0;
            continue;
        }
        if (c == '\t') {
            here++;
            empty = 0;
        } else if (c == '\n') {
            if (!empty) {
                if (fields >= 0 && here != fields)
                    return "lines of a data file with different numbers of fields";
                fields = here;
            }
            here = 0;
            empty = 1;
        } else if (c < 0x20 || c == 0x7F) {
            return "a control byte in a data file";
        } else if (c == 0xC2 && i + 1 < n && s[i + 1] >= 0x80 && s[i + 1] <= 0x9F) {
            return "a C1 control in a data file";
        } else {
            empty = 0;
        }
    }
    if (!empty)
        return "a data file that does not end with a newline";
    return NULL;
}

/* gnuplot's value of a string expression of the script (strings joined by
 * '.'), into out (room: n + 1). */
static inline const char *oracle_gp_value(const char *s, size_t n, char *out)
{
    size_t k = 0, i = 0;
    for (;;) {
        if (i < n && s[i] == '\'') {
            for (i++; i < n && s[i] != '\''; i++)
                out[k++] = s[i];
            if (i == n)
                return "an unterminated quoted string";
            i++;
        } else if (i + 2 < n && s[i] == '"' && s[i + 1] == '\'' && s[i + 2] == '"') {
            out[k++] = '\'';
            i += 3;
        } else {
            return "not a string where one is due";
        }
        if (i == n)
            break;
        if (s[i++] != '.')
            return "strings not joined by '.'";
    }
    out[k] = 0;
    return NULL;
}

/* gnuplot's value of a data field (its escapes read: \\, \ooo), into out
 * (room: n + 1). */
static inline const char *oracle_data_value(const char *s, size_t n, char *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\\') {
            out[k++] = s[i];
        } else if (i + 1 < n && s[i + 1] == '\\') {
            out[k++] = '\\';
            i++;
        } else if (i + 3 < n && s[i + 1] >= '0' && s[i + 1] <= '3' && s[i + 2] >= '0' &&
                   s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
            out[k++] = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
            i += 3;
        } else {
            return "a backslash gnuplot would read as another escape";
        }
    }
    out[k] = 0;
    return NULL;
}

/* What an SVG figure shows for a text gnuplot writes there: gnuplot's SVG
 * terminal writes '<' as "&lt;" and a '&' as "&amp;" unless "#x" follows,
 * which it passes on, and an XML reader decodes the references; into out
 * (room: strlen(s) + 1). A reference the text makes of its own fails. */
static inline const char *oracle_svg_shown(const char *s, char *out)
{
    size_t k = 0;
    for (; *s; s++) {
        if (*s == '&' && s[1] == '#' && s[2] == 'x') {
            if (strncmp(s, "&#x26;", 6))
                return "a character reference in a text other than \"&#x26;\" (it would be "
                       "live in the SVG)";
            out[k++] = '&';
            s += 5;
        } else {
            out[k++] = *s;
        }
    }
    out[k] = 0;
    return NULL;
}

/* The whole property of a text gnuplot shows: esc (n bytes), escaped as a
 * data field (gp 0) or a script's string expression (gp 1) for an SVG (svg
 * 1) or a PNG, passes gnuplot's rules and shows `display` (a data field
 * shows "(empty)" for an empty text). NULL when it does, else why. */
static inline const char *oracle_shows(const char *esc, size_t n, int gp, int svg,
                                       const char *display)
{
    char *line = (char *)malloc(n + 16), *v = (char *)malloc(n + 1), *out = (char *)malloc(n + 1);
    const char *why = !line || !v || !out ? "out of memory" : NULL;
    if (!why) {
        size_t k = 0;
        if (gp) {
            memcpy(line, "set title ", 10);
            k = 10;
        }
        memcpy(line + k, esc, n);
        k += n;
        memcpy(line + k, gp ? "\n" : "\t1\n", gp ? 1 : 3);
        k += gp ? 1 : 3;
        why = gp ? oracle_script(line, k) : oracle_data(line, k);
    }
    if (!why)
        why = gp ? oracle_gp_value(esc, n, v) : oracle_data_value(esc, n, v);
    if (!why && svg)
        why = oracle_svg_shown(v, out);
    else if (!why)
        strcpy(out, v);
    if (!why && strcmp(out, *display || gp ? display : "(empty)"))
        why = "gnuplot would show another text than the display form";
    free(line);
    free(v);
    free(out);
    return why;
}

/* The script with every string expression (quoted strings joined by '.')
 * replaced by one 'S' and every number by one 'N': what must not depend on
 * the text of the files (the canvas and the margins grow with the length of
 * the names: numbers only). Written into out (room: n + 1). */
static inline size_t oracle_skeleton(const char *s, size_t n, char *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] >= '0' && s[i] <= '9') {
            while (i + 1 < n && ((s[i + 1] >= '0' && s[i + 1] <= '9') || s[i + 1] == '.'))
                i++;
            out[k++] = 'N';
            continue;
        }
        if (s[i] != '\'' && s[i] != '"') {
            out[k++] = s[i];
            continue;
        }
        for (;;) {   /* a string, and each joined to it */
            char q = s[i];
            for (i++; i < n && s[i] != q; i++)
                ;
            if (i + 2 < n && s[i + 1] == '.' && (s[i + 2] == '\'' || s[i + 2] == '"'))
                i += 2;
            else
                break;
        }
        out[k++] = 'S';
    }
    out[k] = 0;
    return k;
}

#endif

/* The oracle of compare's gnuplot input (host/compare/compare_plot.c), shared
 * by tests/fuzz/fuzz_plot.c and tests/unit/test_compare.c. It is written
 * apart from the generator, from gnuplot's rules:
 *   - a script is commands of a few known words, numbers and punctuation;
 *     every other text is inside single quotes, where gnuplot expands
 *     neither `backquotes` nor @macros and '' is the only escape; a string
 *     holds no newline (it would end the command) and no control byte, and
 *     is UTF-8;
 *   - a data file is lines of tab-separated fields, each line of a file with
 *     the same number of fields; no double quote (gnuplot ends a string
 *     there), no control byte but tab and newline, backslashes only in pairs
 *     (gnuplot reads escapes in data strings), UTF-8.
 * Each check returns NULL when the text passes, else the reason. */
#ifndef PLOT_ORACLE_H
#define PLOT_ORACLE_H

#include <stddef.h>
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

static inline const char *oracle_script(const char *text, size_t n)
{
    const unsigned char *s = (const unsigned char *)text;
    if (!oracle_utf8(s, n))
        return "the script is not UTF-8";
    int in = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned c = s[i];
        if (in) {
            if (c == '\'') {
                if (i + 1 < n && s[i + 1] == '\'')
                    i++;   /* '' : a quote inside the string */
                else
                    in = 0;
            } else if (c == '\n') {
                return "a newline inside a quoted string";
            } else if (c < 0x20 || c == 0x7F) {
                return "a control byte inside a quoted string";
            } else if (c == 0xC2 && i + 1 < n && s[i + 1] >= 0x80 && s[i + 1] <= 0x9F) {
                return "a C1 control inside a quoted string";
            }
            continue;
        }
        if (c == '\'') {
            in = 1;
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
    return in ? "an unterminated quoted string" : NULL;
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
        if (c == '"')
            return "a double quote in a data file";
        if (c == '\\') {
            size_t k = i;
            while (k < n && s[k] == '\\')
                k++;
            if ((k - i) % 2)
                return "a single backslash in a data file (gnuplot would read an escape)";
            i = k - 1;
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

/* The script with every quoted string replaced by one 'S' and every number
 * by one 'N': what must not depend on the text of the files (the canvas and
 * the margins grow with the length of the names: numbers only). Written into
 * out (room: n + 1). */
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
        if (s[i] != '\'') {
            out[k++] = s[i];
            continue;
        }
        for (i++; i < n; i++)
            if (s[i] == '\'') {
                if (i + 1 < n && s[i + 1] == '\'')
                    i++;
                else
                    break;
            }
        out[k++] = 'S';
    }
    out[k] = 0;
    return k;
}

#endif

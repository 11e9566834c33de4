/* Text from a results file, a profile or the command line on its way to a
 * terminal, a Markdown document, gnuplot, or an HTML page with its SVG
 * figures (the text module, host/text/text.c: compare, the charts and the
 * report use it; it uses only the core). One function, cmp_esc, escapes it
 * for each of those targets; nothing else may put such text there. */
#ifndef CLB_TEXT_H
#define CLB_TEXT_H

#include "clbench.h"

enum {
    CMP_ESC_MD = 1,      /* Markdown cell: '|' as "\|" too */
    CMP_ESC_DATA = 2,    /* a gnuplot data-file field: the display form with every
                          * backslash doubled, '"' as "\042" and a leading blank as
                          * "\040" (gnuplot reads escapes there, ends a string at a
                          * double quote and drops the blanks a field begins with);
                          * "" as "(empty)". gnuplot shows the display form */
    CMP_ESC_GP = 4,      /* a gnuplot string expression whose value is the display
                          * form: single-quoted strings (no escape in them; gnuplot
                          * expands neither backquotes nor @macros there) joined by
                          * "'" where the text has one ('it'."'".'s'); never '' for
                          * a quote, which gnuplot misreads for quotes in a row */
    CMP_ESC_HTML = 8,    /* HTML or SVG text or attribute value: the display form
                          * with & < > " ' as character references */
    CMP_ESC_SVG = 16     /* with DATA or GP, for gnuplot's SVG terminal: '&' as
                          * "&#x26;" (gnuplot passes "&#x..." on as a reference and
                          * writes any other '&' as "&amp;"), so a figure shows each
                          * '&' as written and no name makes a live reference */
};
/* Append s escaped for display: printable UTF-8 as is; '\\' as "\\\\"; newline,
 * CR and tab as "\n", "\r", "\t"; other control bytes and bytes that are not
 * UTF-8 as "\xNN"; C1 controls, line/paragraph separators and bidirectional
 * overrides as "\uNNNN"; then the target's own rule (flags above). */
void cmp_esc(struct clb_buf *b, const char *s, int flags);
/* The same into a scratch buffer that is reset first; returns its text. One
 * argument of a call only: two cmp_esc_tmp of one buffer in one printf print
 * the same text (use cmp_esc_arg). */
const char *cmp_esc_tmp(struct clb_buf *b, const char *s, int flags);
/* Escaped arguments of one message: each cmp_esc_arg call returns text in a
 * buffer of its own, alive until cmp_esc_args_free, so a message may escape
 * any number of paths or values (NULL text: out of memory reads ""). */
struct cmp_esc_args {
    struct clb_buf *b;
    size_t n, cap;
};
const char *cmp_esc_arg(struct cmp_esc_args *a, const char *s, int flags);
void cmp_esc_args_free(struct cmp_esc_args *a);
/* Display width of an escaped (printable UTF-8) string. */
int cmp_width(const char *s);
/* Append a file-name slug of s: letters, digits, '-' and '_' kept, every
 * other byte '_', at most CMP_SLUG_MAX bytes; "_" for an empty s. */
#define CMP_SLUG_MAX 32
void cmp_slug(struct clb_buf *b, const char *s);
/* Append s with every byte that is not UTF-8 replaced by U+FFFD. */
void cmp_utf8_fix(struct clb_buf *b, const char *s);

#endif

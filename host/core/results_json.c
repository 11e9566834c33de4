/* Rows as JSON Lines (run --format json): the same fields as the CSV, named
 * by the column table, encoded by jansson (never by hand). `metrics` is an
 * object: numbers as numbers, tokens as strings, in the order of the text. */
#include "results_priv.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A string: JSON strings are UTF-8, so text that is not (a driver's name, a
 * crafted file) has its non-ASCII bytes replaced by '?'. */
static json_t *text_value(const char *s)
{
    if (!s[0])
        return json_null();
    json_t *v = json_string(s);
    if (v)
        return v;
    char *fixed = clb_strdup(s);
    for (unsigned char *p = (unsigned char *)fixed; fixed && *p; p++)
        if (*p >= 0x80)
            *p = '?';
    v = fixed ? json_string(fixed) : NULL;
    free(fixed);
    return v;
}

int clb_shortest(double x, int from)
{
    char buf[40];
    for (int p = from; p < 17; p++) {
        snprintf(buf, sizeof buf, "%.*g", p, x);
        if (strtod(buf, NULL) == x)
            return p;
    }
    return 17;
}

/* A real of the row: the figure as the CSV writes it (times to 9
 * significant digits, the others to 6: both formats give the same value),
 * and the digits the row's reals need (*prec, the most of them). */
static json_t *real_value(double x, int digits, int *prec)
{
    char buf[40];
    if (digits) {
        snprintf(buf, sizeof buf, "%.*g", digits, x);
        x = strtod(buf, NULL);
    }
    int p = clb_shortest(x, 1);
    *prec = p > *prec ? p : *prec;
    return json_real(x);
}

static json_t *number_value(double x, enum clb_col_kind kind, int *prec)
{
    if (isnan(x))
        return json_null();
    int whole = (kind == CLB_COL_COUNT || kind == CLB_COL_EXACT) && fabs(x) < 9.007199254740992e15;
    return whole ? json_integer((json_int_t)x) : real_value(x, kind == CLB_COL_TIME ? 9 : 6, prec);
}

/* The metrics text as an object (null when empty). The text is the
 * writer's or a checked file's: a metric outside the grammar ends it. */
static json_t *metrics_value(const char *text, int *prec)
{
    if (!text[0])
        return json_null();
    json_t *o = json_object();
    const char *p = text, *why;
    struct clb_metric m;
    while (o && clb_metric_next(&p, &m, &why) == 1) {
        char key[CLB_METRIC_MAX + 1];
        snprintf(key, sizeof key, "%.*s", (int)m.klen, m.key);
        json_t *v = isnan(m.num)                                    ? json_stringn(m.val, m.vlen)
                    : m.num == floor(m.num) && fabs(m.num) < 9.007199254740992e15
                        ? json_integer((json_int_t)m.num)
                        : real_value(m.num, 0, prec);   /* as the metrics text has it */
        if (!v || json_object_set_new(o, key, v) != 0) {
            json_decref(o);
            o = NULL;
        }
    }
    return o;
}

char *clb_row_json(const struct clb_row *r)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    int bad = 0, prec = 1;
    for (int i = 0; i < CLB_NCOLS && !bad; i++) {
        enum clb_col_kind k = clb_columns[i].kind;
        json_t *v = k == CLB_COL_STR   ? text_value(clb_row_str(r, i))
                    : k == CLB_COL_MET ? metrics_value(clb_row_str(r, i), &prec)
                                       : number_value(clb_row_num(r, i), k, &prec);
        bad = !v || json_object_set_new(o, clb_columns[i].name, v) != 0;
    }
    /* A number is the shortest text that reads back as its double
     * (0.000370309, not jansson's default 17 digits 0.00037030900000000004):
     * the row's reals are written with the digits the longest of them needs,
     * which for up to 15 (DBL_DIG) prints each of them shortest. */
    char *text = bad ? NULL
                     : json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(prec));
    json_decref(o);
    if (!text) {
        clb_seterr(CLB_OOM " formatting a row as JSON");
        return NULL;
    }
    /* one object per line */
    size_t n = strlen(text);
    char *line = realloc(text, n + 2);
    if (!line) {
        free(text);
        return NULL;
    }
    line[n] = '\n';
    line[n + 1] = 0;
    return line;
}

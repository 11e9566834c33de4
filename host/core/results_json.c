/* Rows as JSON Lines (run --format json): the same fields as the CSV, named
 * by the column table, encoded by jansson (never by hand). */
#include "clb_results.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

char *clb_row_json(const struct clb_row *r)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    int bad = 0;
    for (int i = 0; i < CLB_NCOLS && !bad; i++) {
        json_t *v;
        if (clb_columns[i].kind == CLB_COL_STR) {
            const char *s = clb_row_str(r, i);
            /* JSON strings are UTF-8: text that is not (a driver's name, a
             * crafted file) has its non-ASCII bytes replaced by '?' */
            v = s[0] ? json_string(s) : json_null();
            if (!v && s[0]) {
                char *fixed = clb_strdup(s);
                for (unsigned char *p = (unsigned char *)fixed; fixed && *p; p++)
                    if (*p >= 0x80)
                        *p = '?';
                v = fixed ? json_string(fixed) : NULL;
                free(fixed);
            }
        } else {
            double x = clb_row_num(r, i);
            v = isnan(x) ? json_null()
                         : (clb_columns[i].kind == CLB_COL_COUNT ||
                            clb_columns[i].kind == CLB_COL_EXACT) && fabs(x) < 9.007199254740992e15
                               ? json_integer((json_int_t)x)
                               : json_real(x);
        }
        bad = !v || json_object_set_new(o, clb_columns[i].name, v) != 0;
    }
    char *text = bad ? NULL : json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    if (!text) {
        clb_seterr("out of host memory formatting a row as JSON");
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

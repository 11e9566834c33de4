/* Reading JSON Lines results (run -o FILE.jsonl): one object per line whose
 * keys are exactly the columns of one schema (v1, v2 or v3), every row of a
 * file of the same schema; text columns strings or null, figures numbers or
 * null (finite, >= 0, counts whole), metrics an object of numbers and tokens
 * or null. Parsed by jansson; every value checked as the CSV reader checks
 * its fields, with the same `file:line: ...` messages. */
#define _GNU_SOURCE
#include "results_priv.h"
#include "clbench.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int bad(const char *where, const char *col, const char *what)
{
    return clb_eusage("%s: column %s is not %s", where, col, what);
}

/* The schema a row's keys say: metrics (v3), clbench_version (v2), else v1;
 * refused when its keys are not exactly that schema's columns. */
static int schema_of(json_t *o, const char *where, int *version)
{
    int v = json_object_get(o, "metrics") ? 3 : json_object_get(o, "clbench_version") ? 2 : 1;
    int n = clb_schema_ncols(v);
    for (int i = 0; i < n; i++)
        if (!json_object_get(o, clb_columns[i].name))
            return clb_eusage("%s: not a clbench row of schema v%d: no key '%s'", where, v,
                              clb_columns[i].name);
    if (json_object_size(o) != (size_t)n) {
        const char *key;
        json_t *x;
        json_object_foreach(o, key, x) {
            int known = 0;
            for (int i = 0; i < n && !known; i++)
                known = strcmp(key, clb_columns[i].name) == 0;
            if (!known) {
                clb_seterr("%s: not a clbench row: key '%.60s' is not a column of schema v%d",
                           where, key, v);
                return CLB_EUSAGE;
            }
        }
    }
    *version = v;
    return CLB_OK;
}

/* One metric value as text in the grammar (checked by the caller). */
static int metric_text(json_t *x, char *buf, size_t n)
{
    if (json_is_integer(x))
        snprintf(buf, n, "%" JSON_INTEGER_FORMAT, json_integer_value(x));
    else if (json_is_real(x))
        snprintf(buf, n, "%.*g", clb_shortest(json_real_value(x), 9), json_real_value(x));
    else if (json_is_string(x) && json_string_length(x) < n)
        snprintf(buf, n, "%s", json_string_value(x));
    else
        return -1;
    return 0;
}

/* The metrics object as its text (interned), checked against the grammar. */
static int metrics_of(json_t *x, const char *where, struct clb_arena *arena, const char **out)
{
    *out = "";
    if (json_is_null(x))
        return CLB_OK;
    if (!json_is_object(x))
        return bad(where, "metrics", "an object of key: number or token");
    struct clb_buf b = {0};
    const char *key, *why = NULL;
    json_t *v;
    int rc = CLB_OK;
    json_object_foreach(x, key, v) {
        char val[64];
        /* a key outside the grammar, or a ';' or '=' in it, is caught by the check below */
        if (metric_text(v, val, sizeof val)) {
            rc = bad(where, "metrics", "an object of key: number or token");
            break;
        }
        clb_buf_printf(&b, "%s%s=%s", b.len ? ";" : "", key, val);
    }
    if (!rc && clb_metrics_check(clb_buf_str(&b), &why))
        rc = clb_eusage("%s: column metrics is not key=value;...: %s", where, why);
    if (!rc && !(*out = clb_arena_intern(arena, clb_buf_str(&b), b.len)))
        rc = CLB_ESYS;
    if (b.oom)
        rc = CLB_ESYS;
    clb_buf_free(&b);
    return rc;
}

static int text_of(json_t *x, const char *where, int col, struct clb_arena *arena, const char **out)
{
    *out = "";
    if (json_is_null(x))
        return CLB_OK;
    if (!json_is_string(x))
        return bad(where, clb_columns[col].name, "a string or null");
    const char *s = json_string_value(x);
    return (*out = clb_arena_intern(arena, s, strlen(s))) ? CLB_OK : CLB_ESYS;
}

static int number_of(json_t *x, const char *where, int col, double *out)
{
    *out = NAN;
    if (json_is_null(x))
        return CLB_OK;
    if (!json_is_number(x))
        return bad(where, clb_columns[col].name, "a number or null");
    double v = json_number_value(x);
    if (!isfinite(v) || v < 0 || signbit(v))
        return bad(where, clb_columns[col].name, "a non-negative decimal number");
    if (clb_columns[col].kind == CLB_COL_COUNT && (v != floor(v) || v > 2147483647.0))
        return bad(where, clb_columns[col].name, "a count");
    *out = v;
    return CLB_OK;
}

static int fill(json_t *o, int v, const char *where, struct clb_arena *arena, struct clb_row *r)
{
    clb_row_init(r);
    int n = clb_schema_ncols(v), rc = CLB_OK;
    for (int i = 0; i < n && !rc; i++) {
        json_t *x = json_object_get(o, clb_columns[i].name);
        char *p = (char *)r + clb_columns[i].offset;
        enum clb_col_kind k = clb_columns[i].kind;
        rc = k == CLB_COL_STR   ? text_of(x, where, i, arena, (const char **)p)
             : k == CLB_COL_MET ? metrics_of(x, where, arena, (const char **)p)
                                : number_of(x, where, i, (double *)p);
    }
    if (!rc && !clb_results_status_ok(r->status))
        rc = bad(where, "status", "a status (ok, failed, skipped, error, reference)");
    return rc;
}

int clb_jsonl_row(const char *line, size_t len, const char *where, struct clb_arena *arena,
                  struct clb_row *r, int *version)
{
    json_error_t err;
    json_t *o = json_loadb(line, len, JSON_REJECT_DUPLICATES, &err);
    if (!o)
        return clb_eusage("%s: malformed JSON (%s)", where, err.text);
    int rc = CLB_EUSAGE;
    if (!json_is_object(o))
        clb_seterr("%s: not a clbench row (not a JSON object)", where);
    else if (!(rc = schema_of(o, where, version)))
        rc = fill(o, *version, where, arena, r);
    json_decref(o);
    return rc;
}

/* ---- a file ------------------------------------------------------------------ */

/* Add a row read from a file of schema v: older rows get their metrics from
 * their detail. */
static int add_row(struct clb_rowset *out, struct clb_row *r, int v)
{
    char *m = NULL;
    if (v < CLB_SCHEMA) {
        if (!(m = clb_metrics_from_detail(r->detail)))
            return CLB_ESYS;
        r->metrics = m;
    }
    int rc = clb_rowset_add(out, r);
    free(m);
    return rc;
}

/* Can the line be a row at all, by its shape? A row is one object of at
 * most CLB_NCOLS keys whose values are strings, numbers or null, but for
 * metrics: an object of at most CLB_METRICS_MAX_N numbers or strings. So
 * no array, nothing nested deeper, no more keys: refused before jansson
 * builds it (a line of 7 million nested objects took 1.6 GB). */
static int shape_ok(const char *line, size_t len, const char *where)
{
    int depth = 0, in_str = 0, esc = 0;
    size_t keys = 0;
    const char *why = NULL;
    for (size_t i = 0; i < len && !why; i++) {
        char c = line[i];
        if (in_str) {
            if (esc)
                esc = 0;
            else if (c == '\\')
                esc = 1;
            else if (c == '"')
                in_str = 0;
            continue;
        }
        if (c == '"')
            in_str = 1;
        else if (c == '[')
            why = "an array: no column holds one";
        else if (c == '{' && ++depth > 2)
            why = "objects nested deeper than metrics";
        else if (c == '}')
            depth--;
        else if (c == ':' && ++keys > CLB_NCOLS + CLB_METRICS_MAX_N)
            why = "more keys than a row and its metrics have";
    }
    if (!why)
        return CLB_OK;
    return clb_eusage("%s: not a clbench row (%s)", where, why);
}

/* One line of the file (line number no) into out; *schema: the file's.
 * A blank line is skipped, as the CSV reader skips one. */
static int read_line(const char *path, long no, char *line, size_t len, struct clb_rowset *out,
                     int *schema)
{
    while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        len--;
    if (no == 1 && len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0)
        line += 3, len -= 3;
    if (len == 0)
        return CLB_OK;
    char *where = clb_asprintf("%s:%ld", path, no);
    if (!where)
        return CLB_ESYS;
    struct clb_row r;
    int v = 0, rc = CLB_EUSAGE;
    if (memchr(line, 0, len))
        clb_seterr("%s: a NUL byte (not a text file)", where);
    else if (!(rc = shape_ok(line, len, where)))
        rc = clb_jsonl_row(line, len, where, &out->arena, &r, &v);
    if (!rc && *schema && v != *schema)
        rc = clb_eusage("%s: a row of schema v%d after rows of schema v%d", where, v, *schema);
    free(where);
    if (rc)
        return rc;
    *schema = v;
    return add_row(out, &r, v);
}

/* A file read line by line through a buffer of its own: a line is kept
 * only up to CLB_MAX_LINE_BYTES, so no line makes the memory grow past it. */
struct lines {
    FILE *f;
    char buf[1 << 16];
    size_t pos, end;
    size_t total;       /* bytes read */
};

/* The next line (its '\n' included) into *line: 1 a line, 0 the end of the
 * file, -1 a line longer than the limit (the rest of it unread), -2 a read
 * error. */
static int next_line(struct lines *in, struct clb_buf *line)
{
    line->len = 0;
    for (;;) {
        if (in->pos == in->end) {
            in->end = fread(in->buf, 1, sizeof in->buf, in->f);
            in->pos = 0;
            in->total += in->end;
            if (in->end == 0)
                return ferror(in->f) ? -2 : line->len > 0;
        }
        const char *nl = memchr(in->buf + in->pos, '\n', in->end - in->pos);
        size_t n = nl ? (size_t)(nl - (in->buf + in->pos)) + 1 : in->end - in->pos;
        if (line->len + n > CLB_MAX_LINE_BYTES + 2) /* + CR LF */
            return -1;
        clb_buf_add(line, in->buf + in->pos, n);
        in->pos += n;
        if (nl)
            return 1;
    }
}

int clb_jsonl_read(const char *path, struct clb_rowset *out)
{
    struct lines *in = clb_xcalloc(1, sizeof *in);
    if (!in)
        return CLB_ESYS;
    if (!(in->f = clb_results_open(path))) {
        free(in);
        return CLB_EUSAGE;
    }
    struct clb_buf line = {0};
    long no = 0;
    int rc = CLB_OK, schema = 0, k;
    while (!rc && (k = next_line(in, &line)) > 0) {
        no++;
        if (in->total > CLB_MAX_INPUT_BYTES) {
            rc = clb_eusage("%s: larger than the %zu GiB clbench reads", path,
                            CLB_MAX_INPUT_BYTES >> 30);
        } else if (line.oom) {
            rc = CLB_ESYS;
        } else {
            rc = read_line(path, no, line.s, line.len, out, &schema);
        }
    }
    if (!rc && k == -1)
        rc = clb_eusage("%s:%ld: a line longer than the %zu MiB of any clbench row", path, no + 1,
                        CLB_MAX_LINE_BYTES >> 20);
    if (!rc && k == -2)
        rc = clb_eusage("%s: read error: %s", path, strerror(errno));
    clb_buf_free(&line);
    fclose(in->f);
    free(in);
    if (!rc)
        out->version = schema;
    return rc;
}

/* ---- upgrade ------------------------------------------------------------------ */

static int write_rows(FILE *f, const struct clb_rowset *rows)
{
    for (size_t i = 0; i < rows->n; i++) {
        char *line = clb_row_json(&rows->v[i]);
        if (!line)
            return CLB_ESYS;
        fputs(line, f);
        free(line);
    }
    return CLB_OK;
}

int clb_jsonl_upgrade(const char *path, const struct clb_rowset *rows)
{
    struct clb_rewrite w;
    int rc = clb_rewrite_open(path, &w);
    return rc ? rc : clb_rewrite_close(path, &w, write_rows(w.f, rows));
}

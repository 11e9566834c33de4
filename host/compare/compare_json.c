/* clbench compare --json: the table as one JSON document, written by jansson
 * (no JSON text is escaped by hand here). The schema is in docs/COMPARE.md. */
#include "compare_priv.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

json_t *cmp_json_str(const char *s)
{
    json_t *j = json_string(s);
    if (j)
        return j;
    /* not UTF-8 (jansson refuses it): the same text with U+FFFD for each
     * byte that is not */
    struct clb_buf b = {0};
    cmp_utf8_fix(&b, s);
    j = b.oom ? NULL : json_stringn(clb_buf_str(&b), b.len);
    clb_buf_free(&b);
    return j;
}

json_t *cmp_json_num(double v) { return isfinite(v) ? json_real(v) : json_null(); }

/* One document of a head object and a long array, written piece by piece
 * so that memory holds one entry at a time: the head (every member but the
 * array) as jansson writes it, then the array's entries, each a compact
 * object on a line of its own. Only the document's punctuation around the
 * pieces is written here; every string is escaped by jansson. */
int cmp_json_stream_begin(json_t *head, int bad, const char *array, FILE *f)
{
    char *h = head && !bad ? json_dumps(head, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) : NULL;
    json_t *name = json_string(array);
    char *n = name ? json_dumps(name, JSON_ENCODE_ANY) : NULL;
    json_decref(head);
    json_decref(name);
    int rc = CLB_ESYS;
    size_t len = h ? strlen(h) : 0;
    if (h && n && len >= 2 && h[len - 1] == '}') {
        while (len > 1 && (h[len - 2] == '\n' || h[len - 2] == ' '))
            len--;   /* "{\n  ...\n}" -> "{\n  ..." */
        fwrite(h, 1, len - 1, f);
        fprintf(f, "%s\n  %s: [", len > 2 ? "," : "", n);
        rc = CLB_OK;
    } else {
        clb_seterr(CLB_OOM " building the JSON document");
    }
    free(h);
    free(n);
    return rc;
}

int cmp_json_stream_item(json_t *item, int bad, int first, FILE *f)
{
    char *s = item && !bad ? json_dumps(item, JSON_COMPACT | JSON_REAL_PRECISION(10)) : NULL;
    json_decref(item);
    if (!s)
        return clb_err(CLB_ESYS, CLB_OOM " building the JSON document");
    fprintf(f, "%s\n    %s", first ? "" : ",", s);
    free(s);
    return CLB_OK;
}

int cmp_json_stream_end(FILE *f, int empty)
{
    fputs(empty ? "]\n}\n" : "\n  ]\n}\n", f);
    return cmp_stream_ok(f);
}

/* Set o[key] = v (which it takes over); a NULL v (OOM) marks *bad. */
static void jset(json_t *o, const char *key, json_t *v, int *bad)
{
    if (json_object_set_new(o, key, v))   /* takes v over even when it fails */
        *bad = 1;
}

static void jpush(json_t *a, json_t *v, int *bad)
{
    if (json_array_append_new(a, v))
        *bad = 1;
}

json_t *cmp_json_head(const char *schema, const struct cmp_metric *m, int *bad)
{
    json_t *root = json_object(), *metric = json_object();
    jset(root, "schema", json_string(schema), bad);
    jset(metric, "name", json_string(m->name), bad);
    jset(metric, "unit", m->per_workload ? json_null() : json_string(m->unit), bad);
    jset(metric, "higher_is_better", m->per_workload ? json_null()
                                     : m->no_direction ? json_null()
                                                       : json_boolean(m->higher_is_better), bad);
    jset(root, "metric", metric, bad);
    return root;
}

void cmp_json_line_metric(json_t *o, const struct cmp_metric *m, int *bad)
{
    jset(o, "metric", json_string(m->name), bad);
    jset(o, "unit", json_string(m->unit), bad);
    jset(o, "higher_is_better", m->no_direction ? json_null() : json_boolean(m->higher_is_better),
         bad);
}

static json_t *column(const struct cmp_table *t, int c, int *bad)
{
    const struct cmp_col *col = &t->cols[c];
    json_t *o = json_object(), *files = json_array();
    jset(o, "index", json_integer(c + 1), bad);
    jset(o, "label", cmp_json_str(col->label), bad);
    jset(o, "device", cmp_json_str(col->device), bad);
    jset(o, "host", cmp_json_str(col->host), bad);
    jset(o, "driver", cmp_json_str(col->driver), bad);
    jset(o, "reference", json_boolean(col->reference), bad);
    jset(o, "source", col->reference ? cmp_json_str(col->source) : json_null(), bad);
    for (int k = 0; k < col->nfiles; k++)
        jpush(files, cmp_json_str(col->files[k]), bad);
    jset(o, "files", files, bad);
    jset(o, "peak_gbs", cmp_json_num(col->peak_gbs), bad);
    if (t->have_ceilings) {   /* each kind: {"value", "source"} or null */
        static const char *const keys[CLB_NCEILINGS] = {
            [CLB_CEIL_BW] = "bandwidth_gbs", [CLB_CEIL_TRIAD] = "triad_gbs",
            [CLB_CEIL_SP] = "fp32_gflops", [CLB_CEIL_DP] = "fp64_gflops",
            [CLB_CEIL_LATENCY] = "latency_ns"};
        json_t *m = json_object(), *lacks = json_array();
        for (int k = 0; k < CLB_NCEILINGS; k++) {
            json_t *v = json_null();
            if (!isnan(col->ceil[k])) {
                v = json_object();
                jset(v, "value", cmp_json_num(col->ceil[k]), bad);
                jset(v, "source", cmp_json_str(col->ceil_src[k]), bad);
            }
            jset(m, keys[k], v, bad);
            if (col->lacks & (1u << k))
                jpush(lacks, json_string(clb_ceiling_name((enum clb_ceiling_kind)k)), bad);
        }
        jset(o, "measured_ceilings", m, bad);
        jset(o, "lacks", lacks, bad);
    }
    return o;
}

static json_t *value(const struct cmp_table *t, int line, int col, int *bad)
{
    const struct cmp_cell *c = cmp_cell_at(t, line, col);
    if (!c->n && !c->nbad)
        return json_null();   /* no row of this column on this line */
    json_t *o = json_object();
    jset(o, "value", cmp_json_num(cmp_value(t, line, col)), bad);
    jset(o, "best", c->n ? cmp_json_num(c->best) : json_null(), bad);
    jset(o, "worst", c->n ? cmp_json_num(c->worst) : json_null(), bad);
    jset(o, "runs", json_integer(c->n), bad);
    jset(o, "spread_pct", cmp_json_num(cmp_spread_pct(c)), bad);
    jset(o, "status", json_string(c->n ? "ok" : c->nbad ? c->bad : "none"), bad);
    jset(o, "other_runs_bad", json_integer(c->n ? c->nbad : 0), bad);
    jset(o, "cache_resident", json_integer(c->ncache), bad);
    return o;
}

/* The measured devices of the files without a row in the table. */
static json_t *unshown(const struct cmp_table *t, int *bad)
{
    json_t *a = json_array();
    for (int u = 0; u < t->nunshown; u++) {
        json_t *o = json_object();
        jset(o, "device", cmp_json_str(t->unshown[u].device), bad);
        jset(o, "host", cmp_json_str(t->unshown[u].host), bad);
        jset(o, "file", cmp_json_str(t->unshown[u].file), bad);
        jset(o, "workloads", cmp_json_str(t->unshown[u].workloads), bad);
        jpush(a, o, bad);
    }
    return a;
}

int cmp_print_json(const struct cmp_table *t, FILE *f)
{
    int bad = 0;
    json_t *root = cmp_json_head("clbench-compare-2", t->metric, &bad), *cols = json_array();
    jset(root, "relative_to", t->ref >= 0 ? json_integer(t->ref + 1) : json_null(), &bad);
    jset(root, "lined_up", json_boolean(t->lined_up), &bad);
    jset(root, "not_in_table", unshown(t, &bad), &bad);
    if (t->have_ceilings) {
        jset(root, "ceilings_file", t->ceilings_file ? cmp_json_str(t->ceilings_file) : json_null(),
             &bad);
        jset(root, "untyped", cmp_json_str(t->untyped ? t->untyped : ""), &bad);
    }
    for (int c = 0; c < t->ncols && !bad; c++)
        jpush(cols, column(t, c, &bad), &bad);
    jset(root, "columns", cols, &bad);
    int rc = cmp_json_stream_begin(root, bad, "lines", f);
    for (int i = 0; i < t->nlines && !rc; i++) {
        const struct cmp_line *l = &t->lines[i];
        json_t *o = json_object(), *vals = json_array();
        jset(o, "workload", cmp_json_str(l->workload), &bad);
        jset(o, "kernel", cmp_json_str(l->kernel), &bad);
        jset(o, "dtype", cmp_json_str(l->dtype), &bad);
        jset(o, "size", cmp_json_str(l->size), &bad);
        jset(o, "sweep", cmp_json_str(l->sweep), &bad);
        cmp_json_line_metric(o, &t->metrics[l->metric], &bad);
        jset(o, "peak_applies", json_boolean(l->device_bound), &bad);
        for (int c = 0; c < t->ncols; c++)
            jpush(vals, value(t, i, c, &bad), &bad);
        jset(o, "values", vals, &bad);
        rc = cmp_json_stream_item(o, bad, i == 0, f);
    }
    return rc ? rc : cmp_json_stream_end(f, t->nlines == 0);
}

/* clbench compare --baseline: the gate's verdicts as text, Markdown and JSON
 * (docs/COMPARE.md, "The gate"): the same lines, states and counts in each.
 * Names from the files are escaped for display (cmp_esc) or written by
 * jansson. */
#include "compare_priv.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

const char *cmp_dstate_name(enum cmp_dstate s)
{
    static const char *const names[CMP_D_NSTATES] = {
        "same", "improved", "regressed", "noise", "lost", "missing", "no_figure", "new", "changed"};
    return names[s];
}

/* The status column's word; a missing line that --allow-missing lets pass
 * is not shouted. */
static const char *state_word(const struct cmp_delta *d, enum cmp_dstate s)
{
    static const char *const words[CMP_D_NSTATES] = {
        "same", "better", "REGRESSED", "noise", "LOST", "MISSING", "no figure", "new", "CHANGED"};
    return s == CMP_D_MISSING && d->gate.allow_missing ? "missing (allowed)" : words[s];
}

/* The spread of a side's figure, ± half of [lo, hi] in % of the figure; NAN
 * when it has none. */
static double spread_pct(const struct cmp_dside *s)
{
    if (!(s->best > 0) || !(s->hi > s->lo))
        return NAN;
    return (s->hi - s->lo) / 2.0 / s->best * 100.0;
}

/* "1000 ±2.9%", the status where there is no figure, "-" where absent.
 * (Numbers and status words only: a fixed buffer holds them.) */
static void fmt_side(const struct cmp_dside *s, char *out, size_t n)
{
    if (isnan(s->best)) {
        snprintf(out, n, "%s", s->status[0] && strcmp(s->status, "none") ? s->status : "-");
        return;
    }
    cmp_fmt_num(s->best, 0, out, n);
    double p = spread_pct(s);
    if (!isnan(p))
        clb_appendf(out, n, p < 1e6 ? " ±%.1f%%" : " ±%.3g%%", p);
}

/* The size column: as matched; "default (268435456→536870912)" for each
 * device's default size (--cross-device). */
static void size_cell(const struct cmp_delta *d, const struct cmp_dline *l, struct clb_buf *b)
{
    b->len = 0;
    clb_buf_printf(b, "%s", l->size);
    if (!d->gate.cross_device || strcmp(l->size, "default"))
        return;
    const char *o = l->old.size, *c = l->cur.size;
    if (o[0] && c[0] && o != c)
        clb_buf_printf(b, " (%s→%s)", o, c);
    else
        clb_buf_printf(b, " (%s)", o[0] ? o : c);
}

/* The tuning column: what changed, else the tuning of the best row; and
 * what changed in the kernel. */
static const char *tuning_cell(const struct cmp_dline *l, struct clb_buf *b)
{
    b->len = 0;
    if (l->tuned[0])
        clb_buf_printf(b, "tuned: %s", l->tuned);
    else
        clb_buf_printf(b, "%s", l->cur.present ? l->cur.tuning : l->old.tuning);
    if (l->changed[0])
        clb_buf_printf(b, "%schanged: %s", b->len ? "; " : "", l->changed);
    return clb_buf_str(b);
}

enum { G_LINE, G_WL, G_KERNEL, G_DTYPE, G_SIZE, G_CASE, G_DEVICE, G_TUNING, G_UNIT, G_OLD,
       G_NEW, G_DELTA, G_STATUS, G_N };
static const char *const head_names[G_N] = {"line", "workload", "kernel", "dtype", "size",
                                           "case", "device", "tuning", "unit", "baseline", "new",
                                           "delta", "status"};

/* Is column k shown? Markdown: every column but the key as one text (line),
 * the device where lines are per device; text: the key as one text and the
 * figures. Both: the unit where each workload has its own figure. */
static int shown(const struct cmp_delta *d, int k, int md)
{
    if (k == G_UNIT)
        return d->metric->per_workload;
    return md ? k != G_LINE && (k != G_DEVICE || d->by_device) : k == G_LINE || k >= G_OLD;
}

/* The figure cells of line l: baseline, new, delta (numbers only). */
static void figures(const struct cmp_dline *l, char num[3][64])
{
    fmt_side(&l->old, num[0], sizeof num[0]);
    fmt_side(&l->cur, num[1], sizeof num[1]);
    if (isnan(l->delta_pct))
        snprintf(num[2], sizeof num[2], "-");
    else
        snprintf(num[2], sizeof num[2], "%+.1f%%", l->delta_pct);
}

/* A line's key as one text: "dslash reg float 16x16x16x16 links=full,rhs=1",
 * "on DEVICE" where lines are per device. */
static void key_text(const struct cmp_delta *d, const struct cmp_dline *l, struct clb_buf *b)
{
    struct clb_buf sz = {0};
    size_cell(d, l, &sz);
    b->len = 0;
    const char *part[] = {l->workload, l->kernel, l->dtype, clb_buf_str(&sz), l->cases};
    for (size_t k = 0; k < sizeof part / sizeof *part; k++)
        if (part[k][0])
            clb_buf_printf(b, "%s%s", b->len ? " " : "", part[k]);
    if (d->by_device)
        clb_buf_printf(b, " on %s", l->device);
    b->oom |= sz.oom;
    clb_buf_free(&sz);
}

/* Text: below a line, the tuning that changed between the two sides and
 * what changed in the kernel. */
static int line_note(const struct cmp_dline *l, struct cmp_grid *g, int i, struct clb_buf *e)
{
    struct clb_buf k = {0};
    if (l->tuned[0])
        clb_buf_printf(&k, "  tuned: %s\n", cmp_esc_tmp(e, l->tuned, 0));
    if (l->changed[0])
        clb_buf_printf(&k, "  changed: %s\n", cmp_esc_tmp(e, l->changed, 0));
    int bad = k.oom || (k.len && !(g->note[i] = clb_arena_str(&g->arena, k.s, k.len)));
    clb_buf_free(&k);
    return bad;
}

/* The cells of line i, in column order. */
static int line_cells(const struct cmp_delta *d, int i, struct cmp_grid *g, struct clb_buf *e,
                      int md)
{
    const struct cmp_dline *l = &d->v[i];
    struct clb_buf sz = {0}, tu = {0}, key = {0};
    char num[3][64];
    size_cell(d, l, &sz);
    figures(l, num);
    key_text(d, l, &key);
    const char *text[G_N] = {clb_buf_str(&key), l->workload, l->kernel, l->dtype,
                             clb_buf_str(&sz), l->cases, l->device, tuning_cell(l, &tu),
                             d->metrics[l->metric].unit, num[0], num[1], num[2],
                             state_word(d, l->state)};
    int bad = sz.oom || tu.oom || key.oom || (!md && line_note(l, g, i, e));
    for (int k = 0, c = 0; k < G_N; k++) {
        if (!shown(d, k, md))
            continue;
        int raw = k >= G_OLD || (!md && k == G_UNIT);   /* numbers and words of our own */
        const char *x = raw ? text[k] : cmp_esc_tmp(e, text[k], md ? CMP_ESC_MD : 0);
        bad |= cmp_grid_set(g, i, c++, x);
    }
    clb_buf_free(&sz);
    clb_buf_free(&tu);
    clb_buf_free(&key);
    return bad;
}

/* Markdown: every column (tuning, case, unit); text: 100 columns wide, the
 * key as one text (a longer one alone on its line), the notes below. */
static int make_grid(const struct cmp_delta *d, struct cmp_grid *g, int md)
{
    int ncols = 0;
    for (int k = 0; k < G_N; k++)
        ncols += shown(d, k, md);
    if (cmp_grid_init(g, ncols, d->n))
        return CLB_ESYS;
    g->width = md ? 0 : 100;
    g->note = md ? NULL : calloc((size_t)d->n + 1, sizeof *g->note);
    struct clb_buf e = {0};
    int bad = !md && !g->note;
    for (int k = 0, c = 0; k < G_N; k++) {
        if (!shown(d, k, md))
            continue;
        g->right[c] = k >= G_OLD && k <= G_DELTA;
        bad |= cmp_grid_set(g, -1, c++, head_names[k]);
    }
    for (int i = 0; i < d->n && !bad; i++)
        bad |= line_cells(d, i, g, &e, md);
    return cmp_grid_done(g, &e, bad);
}

/* The title: the figure, the baseline and its devices, the rule. */
static void head(const struct cmp_delta *d, FILE *f, const char *prefix, int flags)
{
    struct cmp_esc_args e = {0};
    if (d->metric->per_workload)
        fprintf(f, "%seach workload's own figure (unit) against the baseline\n", prefix);
    else
        fprintf(f, "%s%s (%s) against the baseline\n", prefix, d->metric->name, d->metric->unit);
    /* the path on a line of its own: a long one does not push the rest past 100 columns */
    fprintf(f, "%s'%s' (%s", prefix, cmp_esc_arg(&e, d->baseline, flags),
            cmp_esc_arg(&e, d->old_devices, flags));
    if (strcmp(d->old_devices, d->new_devices))
        fprintf(f, "; the new files: %s", cmp_esc_arg(&e, d->new_devices, flags));
    fprintf(f, "%s)\n", d->gate.cross_device ? "; --cross-device: each device's default size" : "");
    fprintf(f, "a line regresses when it is more than %g%% %s%s\n(each side: the best of its "
               "repeated runs and tuning)\n",
            d->gate.threshold,
            d->metric->per_workload ? "worse" : d->metric->higher_is_better ? "lower" : "higher",
            d->gate.strict ? " (--strict: whatever the runs' spread)"
                           : " and outside the two runs' measured spread");
    cmp_esc_args_free(&e);
}

/* The counts and the verdict, then what else a reader needs to know. */
static void summary(const struct cmp_delta *d, FILE *f, int flags)
{
    const int *n = d->count;
    struct clb_buf e = {0};
    fprintf(f, "\ngate: %d compared, %d regressed, %d improved, %d changed, %d missing, %d new; "
               "%s\n", d->compared, n[CMP_D_REGRESSED], n[CMP_D_IMPROVED], n[CMP_D_CHANGED],
            n[CMP_D_MISSING], n[CMP_D_NEW], d->failed ? "FAIL" : "pass");
    fprintf(f, "  %d within noise, %d lost their figure (failed or error), %d without a "
               "baseline figure\n", n[CMP_D_NOISE], n[CMP_D_LOST], n[CMP_D_NOFIGURE]);
    if (d->worst >= 0) {
        const struct cmp_dline *l = &d->v[d->worst];
        struct clb_buf k = {0};
        key_text(d, l, &k);
        fprintf(f, "  worst: %s, %+.1f%%\n", cmp_esc_tmp(&e, clb_buf_str(&k), flags),
                l->delta_pct);
        clb_buf_free(&k);
    }
    if (d->host_out)
        fprintf(f, "  left out: %zu host-bound line%s (CPU baselines, host and hybrid paths, "
                   "transfers, launches:\n    they measure the host, not the device; "
                   "--host-lines judges them)\n", d->host_out, d->host_out == 1 ? "" : "s");
    else if (d->gate.host_lines)
        fprintf(f, "  host-bound lines judged too (--host-lines)\n");
    if (d->refused)
        fprintf(f, "note: %zu rows of the new files are the baseline's own (run id %s): left out "
                   "of the new side\n", d->refused, cmp_esc_tmp(&e, d->refused_ids, flags));
    if (d->unmarked[0] + d->unmarked[1])
        fprintf(f, "note: %zu rows do not say whether their size was their device's default "
                   "(written before the metric size_from):\n  they matched at their sizes as "
                   "given (--any-size matches any size)\n",
                d->unmarked[0] + d->unmarked[1]);
    clb_buf_free(&e);
}

/* Text: the 100-column table; Markdown: every column (tuning, case, unit). */
static int print_delta(const struct cmp_delta *d, FILE *f, int md)
{
    struct cmp_grid g;
    if (make_grid(d, &g, md))
        return CLB_ESYS;
    head(d, f, md ? "Table: " : "", md ? CMP_ESC_MD : 0);
    fputc('\n', f);
    cmp_grid_print(&g, f, md);
    summary(d, f, md ? CMP_ESC_MD : 0);
    cmp_grid_free(&g);
    return cmp_stream_ok(f);
}

int cmp_delta_print_text(const struct cmp_delta *d, FILE *f) { return print_delta(d, f, 0); }

int cmp_delta_print_markdown(const struct cmp_delta *d, FILE *f) { return print_delta(d, f, 1); }

void cmp_delta_verdict(const struct cmp_delta *d, struct clb_buf *b)
{
    const int *n = d->count;
    struct clb_buf e = {0};
    clb_buf_printf(b, "the gate fails against '%s':", cmp_esc_tmp(&e, d->baseline, 0));
    const char *sep = " ";
    if (n[CMP_D_REGRESSED]) {
        clb_buf_printf(b, "%s%d line%s regressed by more than %g%%%s", sep, n[CMP_D_REGRESSED],
                       n[CMP_D_REGRESSED] == 1 ? "" : "s", d->gate.threshold,
                       d->gate.strict ? "" : " outside the runs' spread");
        sep = ",\n  "; /* a further reason on a line of its own */
    }
    if (n[CMP_D_LOST]) {
        int grp = 0;
        for (int i = 0; i < d->n; i++)
            grp += d->v[i].state == CMP_D_LOST && d->v[i].group_failed;
        clb_buf_printf(b, "%s%d lost %s figure (failed or error", sep, n[CMP_D_LOST],
                       n[CMP_D_LOST] == 1 ? "its" : "their");
        if (grp)
            clb_buf_printf(b, "; %d of them in a group that stopped in set-up", grp);
        clb_buf_printf(b, ")");
        sep = ",\n  ";
    }
    if (n[CMP_D_MISSING] && !d->gate.allow_missing) {
        clb_buf_printf(b, "%s%d missing from the new files or skipped there\n  (--allow-missing "
                          "lets missing lines pass)", sep, n[CMP_D_MISSING]);
        sep = ",\n  ";
    }
    if (n[CMP_D_CHANGED] && d->gate.strict)
        clb_buf_printf(b, "%s%d ran another kernel than the baseline (CHANGED fails with "
                          "--strict)", sep, n[CMP_D_CHANGED]);
    clb_buf_free(&e);
}

/* ---- JSON ----------------------------------------------------------------------- */

#define SET(o, k, v) *bad |= json_object_set_new((o), (k), (v)) != 0

static json_t *side_json(const struct cmp_dside *s, int *bad)
{
    if (!s->present)
        return json_null();
    json_t *o = json_object();
    SET(o, "value", cmp_json_num(s->best));
    SET(o, "lo", cmp_json_num(s->lo));
    SET(o, "hi", cmp_json_num(s->hi));
    SET(o, "spread_pct", cmp_json_num(spread_pct(s)));
    SET(o, "runs", json_integer(s->runs));
    SET(o, "status", cmp_json_str(s->status));
    SET(o, "tuning", cmp_json_str(s->tuning));
    SET(o, "size", cmp_json_str(s->size));
    SET(o, "device", cmp_json_str(s->device));
    SET(o, "fp", cmp_json_str(s->fp));
    SET(o, "timestamp", cmp_json_str(s->timestamp));
    return o;
}

static json_t *line_json(const struct cmp_delta *d, const struct cmp_dline *l, int *bad)
{
    json_t *o = json_object();
    SET(o, "workload", cmp_json_str(l->workload));
    SET(o, "kernel", cmp_json_str(l->kernel));
    SET(o, "dtype", cmp_json_str(l->dtype));
    SET(o, "size", cmp_json_str(l->size));
    SET(o, "case", cmp_json_str(l->cases));
    SET(o, "device", d->by_device ? cmp_json_str(l->device) : json_null());
    SET(o, "baseline", side_json(&l->old, bad));
    SET(o, "new", side_json(&l->cur, bad));
    SET(o, "delta_pct", cmp_json_num(l->delta_pct));
    cmp_json_line_metric(o, &d->metrics[l->metric], bad);
    SET(o, "tuned", cmp_json_str(l->tuned));
    SET(o, "changed", cmp_json_str(l->changed));
    SET(o, "group_failed", json_boolean(l->group_failed));
    SET(o, "state", json_string(cmp_dstate_name(l->state)));
    return o;
}

static json_t *gate_json(const struct cmp_delta *d, int *bad)
{
    json_t *g = json_object(), *c = json_object();
    SET(g, "threshold_pct", json_real(d->gate.threshold));
    SET(g, "strict", json_boolean(d->gate.strict));
    SET(g, "allow_missing", json_boolean(d->gate.allow_missing));
    SET(g, "cross_device", json_boolean(d->gate.cross_device));
    SET(g, "host_lines", json_boolean(d->gate.host_lines));
    SET(g, "host_lines_left_out", json_integer((json_int_t)d->host_out));
    SET(c, "compared", json_integer(d->compared));
    for (int s = 0; s < CMP_D_NSTATES; s++)
        SET(c, cmp_dstate_name((enum cmp_dstate)s), json_integer(d->count[s]));
    SET(g, "counts", c);
    return g;
}

int cmp_delta_print_json(const struct cmp_delta *d, FILE *f)
{
    int nbad = 0, *bad = &nbad;
    json_t *root = cmp_json_head("clbench-compare-baseline-3", d->metric, bad);
    json_t *dev = json_object(), *un = json_object();
    SET(root, "baseline", cmp_json_str(d->baseline));
    SET(dev, "baseline", cmp_json_str(d->old_devices));
    SET(dev, "new", cmp_json_str(d->new_devices));
    SET(root, "devices", dev);
    SET(root, "by_device", json_boolean(d->by_device));
    SET(root, "gate", gate_json(d, bad));
    SET(un, "new", json_integer((json_int_t)d->unmarked[0]));
    SET(un, "baseline", json_integer((json_int_t)d->unmarked[1]));
    SET(root, "unmarked_rows", un);
    SET(root, "refused_rows", json_integer((json_int_t)d->refused));
    SET(root, "refused_run_ids", cmp_json_str(d->refused_ids ? d->refused_ids : ""));
    SET(root, "failed", json_integer(d->failed));
    SET(root, "verdict", json_string(d->failed ? "fail" : "pass"));
    int rc = cmp_json_stream_begin(root, nbad, "lines", f);
    for (int i = 0; i < d->n && !rc; i++) {
        int lbad = 0;
        json_t *o = line_json(d, &d->v[i], &lbad);
        rc = cmp_json_stream_item(o, lbad, i == 0, f);
    }
    return rc ? rc : cmp_json_stream_end(f, d->n == 0);
}
#undef SET

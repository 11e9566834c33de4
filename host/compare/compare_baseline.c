/* clbench compare --baseline OLD.csv: the files' rows set against a saved
 * run, line by line, with the deltas in percent; a CI gate (exit 1 when a
 * line regressed by more than the threshold).
 *
 * A line is what cmp_ident says (workload, kernel, dtype, canonical size or
 * "any" with --any-size, the case parameters; never the tuning ones), plus
 * the device name when the baseline holds rows of several devices (then the
 * new rows of a device are set against the baseline's rows of the same
 * device name; with one device in the baseline, every new device is set
 * against it). Each side's figure is the best of its repeated runs and
 * tuning values; the tuning of the best row is shown, and a change of it
 * named. */
#include "compare_priv.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct agg {
    const char *workload, *kernel, *dtype, *size, *params, *device;
    const char *tuning;      /* of the best row (of the first row while none has a figure) */
    int n, nbad;
    double best;
    const char *bad;
    int matched;
};

static void agg_row(struct agg *a, const struct clb_row *r, const struct cmp_metric *m,
                    const char *tuning)
{
    if (cmp_is_value_status(r->status)) {
        double v = m->get(r);
        if (isnan(v))
            return;
        if (!a->n || (m->higher_is_better ? v > a->best : v < a->best)) {
            a->best = v;
            a->tuning = tuning;
        }
        a->n++;
    } else {
        cmp_count_bad(r->status, &a->bad, &a->nbad);
    }
}

struct side {
    struct agg *v;
    size_t n, cap;
    struct cmp_map map;   /* key -> index */
};

/* Gather the selected rows of one side into lines (cmp_ident). */
static int gather(struct cmp_in *in, const char *sel, int f0, int f1, int with_device,
                  const struct cmp_filter *flt, const struct cmp_metric *m, struct side *s)
{
    s->map.nk = CMP_IDENT_NK + 1;
    for (size_t i = 0; i < in->set.n; i++) {
        if (!sel[i] || in->file[i] < f0 || in->file[i] >= f1)
            continue;
        const struct clb_row *r = &in->set.v[i];
        struct cmp_ident id;
        if (cmp_ident(in, i, flt->any_size ? CMP_SIZE_ANY : CMP_SIZE_GIVEN, &id))
            return CLB_ESYS;
        const char *dev = with_device ? r->device : "";
        uint64_t k[CMP_IDENT_NK + 1];
        cmp_ident_key(&id, k);
        k[CMP_IDENT_NK] = with_device ? CMP_KEY(dev) : 0;
        int x = cmp_slot(&s->map, k, (void **)&s->v, (int)s->n, &s->cap, sizeof *s->v);
        if (x < -1)
            return CLB_ESYS;
        if (x == (int)s->n) {
            s->v[s->n++] = (struct agg){id.workload, id.kernel, id.dtype, id.size, id.cases,
                                        dev, id.tuning, 0, 0, NAN, "", 0};
        }
        agg_row(&s->v[x], r, m, id.tuning);
    }
    return CLB_OK;
}

/* An item "k=v" of a sorted params list; 0 at its end. */
struct item {
    const char *k, *v;
    int kl, vl;
};

static int next_item(const char **p, struct item *it)
{
    if (!**p)
        return 0;
    size_t len = strcspn(*p, ",");
    const char *eq = memchr(*p, '=', len);
    size_t kl = eq ? (size_t)(eq - *p) : len;
    *it = (struct item){*p, eq ? eq + 1 : "", (int)kl, eq ? (int)(len - kl - 1) : 0};
    *p += len + ((*p)[len] == ',');
    return 1;
}

static int item_order(const struct item *a, const struct item *b)
{
    int c = strncmp(a->k, b->k, (size_t)(a->kl < b->kl ? a->kl : b->kl));
    return c ? c : a->kl - b->kl;
}

/* "local 128→1024, vec 2→4": the items that differ between two sorted
 * "k=v,k=v" lists (an item of one side only reads "-" on the other). */
static void tuned_diff(struct clb_buf *b, const char *old, const char *cur)
{
    static const struct item dash = {"-", "-", 1, 1};
    struct item a, c;
    int ha = next_item(&old, &a), hc = next_item(&cur, &c);
    while (ha || hc) {
        int o = !ha ? 1 : !hc ? -1 : item_order(&a, &c);
        const struct item *x = o <= 0 ? &a : &dash, *y = o >= 0 ? &c : &dash;
        if (o || x->vl != y->vl || memcmp(x->v, y->v, (size_t)x->vl))
            clb_buf_printf(b, "%s%.*s %.*s→%.*s", b->len ? ", " : "", o <= 0 ? a.kl : c.kl,
                           o <= 0 ? a.k : c.k, x->vl, x->v, y->vl, y->v);
        if (o <= 0)
            ha = next_item(&old, &a);
        if (o >= 0)
            hc = next_item(&cur, &c);
    }
}

static int ndevices(const struct cmp_in *in, const char *sel, int f0, int f1)
{
    const char *first = NULL;
    for (size_t i = 0; i < in->set.n; i++) {
        if (!sel[i] || in->file[i] < f0 || in->file[i] >= f1)
            continue;
        if (!first)
            first = in->set.v[i].device;
        else if (first != in->set.v[i].device)
            return 2;
    }
    return first ? 1 : 0;
}

/* The tuning a line shows: the new side's (the baseline's where it has no
 * new rows), and what changed ("local 128→1024") where both sides have a
 * figure and their best rows were tuned differently. */
static int tuning_of(struct cmp_in *in, struct cmp_dline *l, const struct agg *cur,
                     const struct agg *old)
{
    l->tuning = cur ? cur->tuning : old->tuning;
    l->tuned = "";
    if (!cur || !old || !cur->n || !old->n || cur->tuning == old->tuning)
        return CLB_OK;
    struct clb_buf b = {0};
    tuned_diff(&b, old->tuning, cur->tuning);
    l->tuned = b.oom ? NULL : cmp_in_intern(in, clb_buf_str(&b), b.len);
    clb_buf_free(&b);
    return l->tuned ? CLB_OK : CLB_ESYS;
}

static int add_line(struct cmp_delta *d, size_t *cap, const struct agg *cur, const struct agg *old,
                    const char *device, struct cmp_in *in)
{
    if ((!cur || (!cur->n && !cur->nbad)) && (!old || (!old->n && !old->nbad)))
        return CLB_OK;   /* no figure for this metric on either side (copy has no GFlop/s) */
    if (cmp_grow((void **)&d->v, (size_t)d->n, cap, sizeof *d->v))
        return CLB_ESYS;
    const struct agg *a = cur ? cur : old;
    struct cmp_dline *l = &d->v[d->n];
    *l = (struct cmp_dline){a->workload, a->kernel, a->dtype, a->size, a->params, device,
                            NAN, NAN, "", "", NAN, CMP_D_NOFIGURE, "", ""};
    if (tuning_of(in, l, cur, old))
        return CLB_ESYS;
    if (old) {
        l->old = old->n ? old->best : NAN;
        l->old_status = old->n ? "ok" : old->nbad ? old->bad : "none";
    }
    if (cur) {
        l->cur = cur->n ? cur->best : NAN;
        l->cur_status = cur->n ? "ok" : cur->nbad ? cur->bad : "none";
    }
    const struct cmp_metric *m = d->metric;
    if (!old) {
        l->state = CMP_D_ONLY_NEW;
    } else if (!cur) {
        l->state = CMP_D_ONLY_OLD;
    } else if (old->n && cur->n) {
        l->delta_pct = old->best != 0 ? (cur->best - old->best) / old->best * 100.0 : NAN;
        double worse = m->higher_is_better ? -l->delta_pct : l->delta_pct;
        l->state = isnan(worse) ? CMP_D_SAME
                   : worse > d->threshold ? CMP_D_REGRESSED
                   : -worse > d->threshold ? CMP_D_IMPROVED
                   : CMP_D_SAME;
        if (l->state == CMP_D_REGRESSED &&
            (d->worst < 0 || worse > (m->higher_is_better ? -d->v[d->worst].delta_pct
                                                          : d->v[d->worst].delta_pct)))
            d->worst = d->n;
    } else if (old->n && cmp_bad_rank(cur->bad) >= 2) {
        l->state = CMP_D_LOST;   /* the new rows failed validation or errored */
    }
    d->nregressed += l->state == CMP_D_REGRESSED || l->state == CMP_D_LOST;
    d->n++;
    return CLB_OK;
}

int cmp_baseline(struct cmp_delta *d, char **files, int nfiles, const char *baseline,
                 const struct cmp_filter *flt, const struct cmp_metric *metric, double threshold)
{
    memset(d, 0, sizeof *d);
    d->metric = metric;
    d->threshold = threshold;
    d->worst = -1;
    if (!metric->get) {   /* a measured metric needs each column's ceilings: a table's */
        clb_seterr("--metric %s is not for --baseline (which sets lines, not devices, side by "
                   "side)", metric->name);
        return CLB_EUSAGE;
    }
    struct cmp_in in;
    memset(&in, 0, sizeof in);
    struct side cur = {0}, old = {0};
    char **all = malloc(((size_t)nfiles + 2) * sizeof *all);
    char *sel = NULL;
    size_t cap = 0;
    int rc = CLB_ESYS;
    if (!all)
        goto oom;
    memcpy(all, files, (size_t)nfiles * sizeof *all);
    all[nfiles] = (char *)baseline;
    if ((rc = cmp_in_read(&in, all, nfiles + 1)) || (rc = cmp_in_prepare(&in)))
        goto out;
    rc = CLB_ESYS;
    sel = calloc(in.set.n + 1, 1);
    if (!sel)
        goto oom;
    if ((rc = cmp_in_select(&in, flt, 0, nfiles, sel, "these files")) ||
        (rc = cmp_in_select(&in, flt, nfiles, nfiles + 1, sel, "the baseline")))
        goto out;
    /* the device is part of the key when the baseline has several; the new
     * side's lines are per device when either side has several */
    int old_dev = ndevices(&in, sel, nfiles, nfiles + 1) > 1;
    int cur_dev = old_dev || ndevices(&in, sel, 0, nfiles) > 1;
    rc = CLB_ESYS;
    if (gather(&in, sel, 0, nfiles, cur_dev, flt, metric, &cur) ||
        gather(&in, sel, nfiles, nfiles + 1, old_dev, flt, metric, &old))
        goto oom;
    d->by_device = cur_dev;
    for (size_t i = 0; i < cur.n; i++) {
        const struct agg *a = &cur.v[i];
        uint64_t k[6] = {CMP_KEY(a->workload), CMP_KEY(a->kernel), CMP_KEY(a->dtype),
                         CMP_KEY(a->size), CMP_KEY(a->params), old_dev ? CMP_KEY(a->device) : 0};
        int o = cmp_map_get(&old.map, k);
        if (o >= 0)
            old.v[o].matched = 1;
        if (add_line(d, &cap, a, o >= 0 ? &old.v[o] : NULL, a->device, &in))
            goto oom;
    }
    for (size_t i = 0; i < old.n; i++)
        if (!old.v[i].matched && add_line(d, &cap, NULL, &old.v[i], old.v[i].device, &in))
            goto oom;
    if (!d->n) {
        struct clb_buf m = {0};
        cmp_metric_names(&m);
        clb_seterr("no selected row has a %s figure (metrics: %s)", metric->name,
                   clb_buf_str(&m));
        clb_buf_free(&m);
        rc = CLB_EUSAGE;
        goto out;
    }
    d->baseline = cmp_in_intern(&in, baseline, strlen(baseline));
    if (!d->baseline)
        goto oom;
    rc = CLB_OK;
    goto out;
oom:
    clb_seterr("out of host memory");
    rc = CLB_ESYS;
out:
    cmp_map_free(&cur.map);
    cmp_map_free(&old.map);
    free(cur.v);
    free(old.v);
    free(all);
    free(sel);
    cmp_in_free_keep(&in, &d->arena);
    if (rc)
        cmp_delta_free(d);
    return rc;
}

void cmp_delta_free(struct cmp_delta *d)
{
    free(d->v);
    clb_arena_free(&d->arena);
    memset(d, 0, sizeof *d);
    d->worst = -1;
}

const char *cmp_dstate_name(enum cmp_dstate s)
{
    static const char *const names[] = {"same",    "improved",  "regressed",    "lost",
                                        "no_figure", "only_new", "only_baseline"};
    return names[s];
}

/* ---- printing ----------------------------------------------------------- */

static const char *state_word(enum cmp_dstate s)
{
    static const char *const words[] = {"same",      "better",   "REGRESSED",    "LOST",
                                        "no figure", "only new", "only baseline"};
    return words[s];
}

static int make_grid(const struct cmp_delta *d, struct cmp_grid *g, int md)
{
    static const char *const head[] = {"workload", "kernel", "dtype", "size", "case", "device",
                                       "tuning", "baseline", "new", "delta", "status"};
    int flags = md ? CMP_ESC_MD : 0, dev = d->by_device;
    int nc = dev ? 11 : 10;
    if (cmp_grid_init(g, nc, d->n))
        return CLB_ESYS;
    struct clb_buf e = {0}, t = {0};
    int bad = 0;
    for (int c = 0, k = 0; k < 11; k++) {
        if (k == 5 && !dev)
            continue;
        g->right[c] = k >= 7 && k <= 9;
        bad |= cmp_grid_set(g, -1, c++, head[k]);
    }
    for (int i = 0; i < d->n && !bad; i++) {
        const struct cmp_dline *l = &d->v[i];
        t.len = 0;
        if (l->tuned[0])
            clb_buf_printf(&t, "tuned: %s", l->tuned);
        const char *keys[7] = {l->workload, l->kernel, l->dtype, l->size, l->params, l->device,
                               l->tuned[0] ? clb_buf_str(&t) : l->tuning};
        int c = 0;
        for (int k = 0; k < 7; k++)
            if (k != 5 || dev)
                bad |= cmp_grid_set(g, i, c++, cmp_esc_tmp(&e, keys[k], flags));
        char num[64];
        const double v[2] = {l->old, l->cur};
        const char *st[2] = {l->old_status, l->cur_status};
        for (int k = 0; k < 2; k++) {
            if (!isnan(v[k]))
                cmp_fmt_num(v[k], 0, num, sizeof num);
            else
                snprintf(num, sizeof num, "%s", st[k][0] && strcmp(st[k], "none") ? st[k] : "-");
            bad |= cmp_grid_set(g, i, c++, num);
        }
        if (isnan(l->delta_pct))
            snprintf(num, sizeof num, "-");
        else
            snprintf(num, sizeof num, "%+.1f%%", l->delta_pct);
        bad |= cmp_grid_set(g, i, c++, num);
        bad |= cmp_grid_set(g, i, c++, state_word(l->state));
    }
    bad |= t.oom;
    clb_buf_free(&t);
    return cmp_grid_done(g, &e, bad);
}

static void head(const struct cmp_delta *d, FILE *f, const char *prefix, int flags)
{
    struct clb_buf e = {0};
    fprintf(f, "%s%s (%s) against the baseline '%s': best of repeated runs on each side; a line "
               "regresses when it is more than %g%% %s\n",
            prefix, d->metric->name, d->metric->unit, cmp_esc_tmp(&e, d->baseline, flags),
            d->threshold, d->metric->higher_is_better ? "lower" : "higher");
    clb_buf_free(&e);
}

static void summary(const struct cmp_delta *d, FILE *f)
{
    int n[7] = {0};
    for (int i = 0; i < d->n; i++)
        n[d->v[i].state]++;
    fprintf(f, "\n%d of %d lines regressed by more than %g%%", n[CMP_D_REGRESSED],
            d->n - n[CMP_D_ONLY_NEW] - n[CMP_D_ONLY_OLD], d->threshold);
    if (d->worst >= 0) {
        const struct cmp_dline *l = &d->v[d->worst];
        struct clb_buf k = {0}, e = {0};
        clb_buf_printf(&k, "%s %s %s %s", l->workload, l->kernel, l->dtype, l->size);
        if (l->params[0])
            clb_buf_printf(&k, " %s", l->params);
        if (l->device[0])
            clb_buf_printf(&k, " on %s", l->device);
        fprintf(f, " (worst: %s, %+.1f%%)", cmp_esc_tmp(&e, clb_buf_str(&k), 0), l->delta_pct);
        clb_buf_free(&k);
        clb_buf_free(&e);
    }
    fprintf(f, "; %d lost their figure (failed or error), %d improved; %d only in the new files, "
               "%d only in the baseline\n",
            n[CMP_D_LOST], n[CMP_D_IMPROVED], n[CMP_D_ONLY_NEW], n[CMP_D_ONLY_OLD]);
}

/* Text and Markdown differ only in the title's prefix, the escaping and how
 * the grid is drawn. */
static int print_delta(const struct cmp_delta *d, FILE *f, int md)
{
    struct cmp_grid g;
    if (make_grid(d, &g, md))
        return CLB_ESYS;
    head(d, f, md ? "Table: " : "", md ? CMP_ESC_MD : 0);
    fputc('\n', f);
    if (md)
        cmp_grid_markdown(&g, f);
    else
        cmp_grid_text(&g, f);
    summary(d, f);
    cmp_grid_free(&g);
    return cmp_stream_ok(f);
}

int cmp_delta_print_text(const struct cmp_delta *d, FILE *f) { return print_delta(d, f, 0); }

int cmp_delta_print_markdown(const struct cmp_delta *d, FILE *f) { return print_delta(d, f, 1); }

int cmp_delta_print_json(const struct cmp_delta *d, FILE *f)
{
    int bad = 0;
    json_t *root = cmp_json_head("clbench-compare-baseline-1", d->metric, &bad);
#define SET(o, k, v) bad |= json_object_set_new((o), (k), (v)) != 0
    SET(root, "baseline", cmp_json_str(d->baseline));
    SET(root, "threshold_pct", json_real(d->threshold));
    SET(root, "by_device", json_boolean(d->by_device));
    SET(root, "regressed", json_integer(d->nregressed));
    int rc = cmp_json_stream_begin(root, bad, "lines", f);
    for (int i = 0; i < d->n && !rc; i++) {
        const struct cmp_dline *l = &d->v[i];
        json_t *o = json_object();
        SET(o, "workload", cmp_json_str(l->workload));
        SET(o, "kernel", cmp_json_str(l->kernel));
        SET(o, "dtype", cmp_json_str(l->dtype));
        SET(o, "size", cmp_json_str(l->size));
        SET(o, "case", cmp_json_str(l->params));
        SET(o, "tuning", cmp_json_str(l->tuning));
        SET(o, "tuned", cmp_json_str(l->tuned));
        SET(o, "device", d->by_device ? cmp_json_str(l->device) : json_null());
        SET(o, "baseline", cmp_json_num(l->old));
        SET(o, "new", cmp_json_num(l->cur));
        SET(o, "baseline_status", l->old_status[0] ? json_string(l->old_status) : json_null());
        SET(o, "new_status", l->cur_status[0] ? json_string(l->cur_status) : json_null());
        SET(o, "delta_pct", cmp_json_num(l->delta_pct));
        SET(o, "state", json_string(cmp_dstate_name(l->state)));
        rc = cmp_json_stream_item(o, bad, i == 0, f);
    }
#undef SET
    return rc ? rc : cmp_json_stream_end(f, d->n == 0);
}

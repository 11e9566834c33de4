/* clbench compare --baseline OLD.csv: the regression gate (docs/COMPARE.md,
 * "The gate"). The files' rows are set against a saved run line by line
 * (cmp_ident, plus the device where a side holds several), and the gate
 * fails closed: a line that regressed, a baseline line the new run lost or
 * no longer has, fail it (exit 1); inputs it cannot judge (no line in
 * common, another device without --cross-device) are refused (exit 2) rather
 * than passed. Each side's figure is the best over its rows of the line; a
 * line regresses when it is worse by more than the threshold and, unless
 * --strict, the two runs' spreads do not overlap. */
#include "compare_priv.h"
#include "clb_workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The rows of one line and one tuning on one side. */
struct conf {
    int line;                 /* its line on this side */
    const char *tuning, *size, *device;   /* size, device: of its best row, else its first */
    const char *fp, *timestamp;   /* of its best row: its fingerprint ("" none), its time */
    int n, nbad;
    const char *bad;
    double best, lo, hi;
};

/* One line on one side. */
struct agg {
    struct cmp_ident id;      /* of its first row; id.size is the key */
    const char *device;       /* the key's device ("" unless per device) */
    int metric;               /* its figure: an index of the delta's metrics */
    int conf;                 /* its conf with the best figure, else its first */
    int n, nbad;              /* over its confs */
    const char *bad;
    int matched;
};

struct side {
    int f0, f1;               /* its files */
    struct agg *v;
    size_t n, cap;
    struct conf *c;
    size_t nc, capc;
    struct cmp_map lines, confs;   /* (ident, device) -> v; + tuning -> c */
    size_t unmarked;          /* rows that do not say where their size came from */
    /* groups that failed in set-up: a `kernel=*` row that errored or failed,
     * (workload, dtype, size, device) -> the index of its status in grpstat */
    struct cmp_map groups;
    const char **grpstat;
    size_t ngrp, capgrp;
    struct cmp_map *host;     /* both sides': the host-bound lines left out */
};

static int better(const struct cmp_metric *m, double a, double b)
{
    return m->higher_is_better ? a > b : a < b;
}

/* A row's measured spread around its figure v: the narrower of its
 * half-ranges (median - min, max - median) over the median, h, taken on both
 * sides of the median time, which is what a slow repetition (an interrupt, a
 * clock ramp) or a fast one (a timer glitch) cannot widen alone; a rate
 * (higher is better) then spans v/(1+h) .. v/(1-h). No spread (lo = hi = v)
 * for a metric that is not a time's (power) or a row without times. */
static void row_spread(const struct clb_row *r, const struct cmp_metric *m, double v, double *lo,
                       double *hi)
{
    *lo = *hi = v;
    double tmin = r->t_min_s, tmed = r->t_median_s, tmax = r->t_max_s;
    if (m->time_col < 0 || !(tmin > 0 && tmed >= tmin && tmax >= tmed && isfinite(tmax)))
        return;
    double h = fmin(tmed - tmin, tmax - tmed) / tmed;   /* < 1: tmin > 0 */
    if (m->higher_is_better) {
        *lo = v / (1 + h);
        *hi = v / (1 - h);
    } else {
        *lo = v * (1 - h);
        *hi = v * (1 + h);
    }
}

static void conf_row(struct conf *c, const struct clb_row *r, const struct cmp_metric *m,
                     const struct cmp_ident *id, const char *fp)
{
    if (!cmp_is_value_status(r->status)) {
        cmp_count_bad(r->status, &c->bad, &c->nbad);
        return;
    }
    double v = cmp_metric_value(m, r), lo, hi;
    if (isnan(v))
        return;
    row_spread(r, m, v, &lo, &hi);
    if (!c->n || better(m, v, c->best)) {
        c->best = v;
        c->size = id->row_size;
        c->device = r->device;
        c->fp = fp;
        c->timestamp = r->timestamp;
    }
    c->lo = c->n ? fmin(c->lo, lo) : lo;
    c->hi = c->n ? fmax(c->hi, hi) : hi;
    c->n++;
}

/* A line's key: its identity, and its device (NULL: not per device). */
static void line_key(const struct cmp_ident *id, const char *device, uint64_t *k)
{
    cmp_ident_key(id, k);
    k[CMP_IDENT_NK] = device ? CMP_KEY(device) : 0;
}

/* The line (and its conf) of one row: index into s->v (s->c), made when new. */
static int slot_of(struct side *s, const struct cmp_ident *id, const char *device, int metric,
                   int *line)
{
    uint64_t k[CMP_IDENT_NK + 2];
    line_key(id, device, k);
    s->lines.nk = CMP_IDENT_NK + 1;
    s->confs.nk = CMP_IDENT_NK + 2;
    int l = cmp_slot(&s->lines, k, (void **)&s->v, (int)s->n, &s->cap, sizeof *s->v);
    if (l == (int)s->n)
        s->v[s->n++] = (struct agg){.id = *id, .device = device ? device : "", .conf = -1,
                                    .bad = "", .metric = metric};
    k[CMP_IDENT_NK + 1] = CMP_KEY(id->tuning);
    int c = l < 0 ? -2 : cmp_slot(&s->confs, k, (void **)&s->c, (int)s->nc, &s->capc, sizeof *s->c);
    if (c == (int)s->nc)
        s->c[s->nc++] = (struct conf){l, id->tuning, id->row_size, "", "", "", 0, 0, "", NAN, NAN,
                                      NAN};
    *line = l;
    return c;
}

/* Each line's best conf, and its totals. */
static void pick_best(struct side *s, const struct cmp_metric *metrics)
{
    for (size_t k = 0; k < s->nc; k++) {
        const struct conf *c = &s->c[k];
        struct agg *a = &s->v[c->line];
        const struct cmp_metric *m = &metrics[a->metric];
        a->n += c->n;
        a->nbad += c->nbad;
        if (cmp_bad_rank(c->bad) > cmp_bad_rank(a->bad))
            a->bad = c->bad;
        if (a->conf < 0 || (c->n && (!s->c[a->conf].n || better(m, c->best, s->c[a->conf].best))))
            a->conf = (int)k;
    }
}

/* A row that stands for a whole group (type and size) that stopped in
 * set-up or its build: `kernel=*`, an error (an OpenCL error, a watchdog's
 * timeout) or a failure. */
static int is_group_row(const struct clb_row *r)
{
    return !strcmp(r->kernel, "*") && cmp_bad_rank(r->status) >= 2;
}

/* The key of a group: workload, type, size as matched, device (NULL: not
 * per device). */
static void group_key(const struct cmp_ident *id, const char *device, uint64_t k[4])
{
    const uint64_t v[4] = {CMP_KEY(id->workload), CMP_KEY(id->dtype), CMP_KEY(id->size),
                           device ? CMP_KEY(device) : 0};
    memcpy(k, v, sizeof v);
}

/* Keep the group of a `kernel=*` row that failed (its worst status). -1 on OOM. */
static int group_failed(struct side *s, const struct cmp_ident *id, const char *device,
                        const char *status)
{
    uint64_t k[4];
    group_key(id, device, k);
    s->groups.nk = 4;
    int g = cmp_slot(&s->groups, k, (void **)&s->grpstat, (int)s->ngrp, &s->capgrp,
                     sizeof *s->grpstat);
    if (g < 0)
        return -1;
    if (g == (int)s->ngrp)
        s->grpstat[s->ngrp++] = status;
    else if (cmp_bad_rank(status) > cmp_bad_rank(s->grpstat[g]))
        s->grpstat[g] = status;
    return 0;
}

/* The status of the failed group a baseline line belongs to on side s
 * ("error", "failed"), NULL when its group did not fail there. */
static const char *group_status(const struct side *s, const struct agg *a, int by_device)
{
    uint64_t k[4];
    group_key(&a->id, by_device ? a->device : NULL, k);
    int g = cmp_map_get(&s->groups, k);
    return g >= 0 ? s->grpstat[g] : NULL;
}

/* A line of host-bound rows (the workload's count() says host_bound: CPU
 * baselines, host and hybrid paths, transfers, launches) that the gate
 * leaves out without --host-lines: counted once over both sides. */
static int host_line(struct cmp_delta *d, struct side *s, const struct cmp_ident *id,
                     const char *device)
{
    uint64_t k[CMP_IDENT_NK + 1];
    line_key(id, device, k);
    size_t before = s->host->n;
    if (cmp_map_add(s->host, k, 1) < -1)
        return -1;
    d->host_out += s->host->n != before;
    return 0;
}

/* Gather the selected rows of one side into lines, each in its metric (the
 * one asked for, or with "auto" the one its workload is about). */
static int gather(struct cmp_delta *d, struct cmp_in *in, const char *sel, struct side *s,
                  enum cmp_size_mode mode, int with_device)
{
    for (size_t i = 0; i < in->set.n; i++) {
        if (!sel[i] || in->file[i] < s->f0 || in->file[i] >= s->f1)
            continue;
        const struct clb_row *r = &in->set.v[i];
        const char *dev = with_device ? r->device : NULL;
        struct cmp_ident id;
        int line;
        if (cmp_ident(in, i, mode, &id))
            return CLB_ESYS;
        s->unmarked += mode == CMP_SIZE_DEFAULT && id.size_default < 0;
        int kind = cmp_in_kind(in, i);
        if (kind < 0)
            return CLB_ESYS;
        if ((kind & CMP_RK_HOST) && !d->gate.host_lines) {   /* measures the host: counted, out */
            if (host_line(d, s, &id, dev))
                return CLB_ESYS;
            continue;
        }
        int metric = cmp_row_metric(in, i, d->metric, &d->metrics, &d->nmetrics);
        if (metric < 0)
            return CLB_ESYS;
        int c = slot_of(s, &id, dev, metric, &line);
        if (c < 0 || (is_group_row(r) && group_failed(s, &id, dev, r->status)))
            return CLB_ESYS;
        const char *fv;
        size_t fn = clb_row_text(r, "fp", &fv);
        const char *fp = fn ? cmp_in_intern(in, fv, fn) : "";
        if (!fp)
            return CLB_ESYS;
        conf_row(&s->c[c], r, &d->metrics[s->v[line].metric], &id, fp);
    }
    pick_best(s, d->metrics);
    return CLB_OK;
}

static void side_free(struct side *s)
{
    cmp_map_free(&s->lines);
    cmp_map_free(&s->confs);
    cmp_map_free(&s->groups);
    free(s->v);
    free(s->c);
    free(s->grpstat);
}

/* ---- the devices ---------------------------------------------------------- */

/* The distinct device names of a side's selected rows: their number, and
 * "A, B" (interned) in *names. -1 on OOM. */
static int devices_of(struct cmp_in *in, const char *sel, int f0, int f1, struct cmp_map *set,
                      const char **names)
{
    struct clb_buf b = {0};
    set->nk = 1;
    int n = 0;
    for (size_t i = 0; i < in->set.n && n >= 0; i++) {
        if (!sel[i] || in->file[i] < f0 || in->file[i] >= f1)
            continue;
        uint64_t k = CMP_KEY(in->set.v[i].device);
        int x = cmp_map_add(set, &k, n);
        if (x == n)
            clb_buf_printf(&b, "%s%s", n++ ? ", " : "", in->set.v[i].device);
        else if (x < -1)
            n = -1;
    }
    *names = cmp_in_take(in, &b);
    return *names && n >= 0 ? n : -1;
}

/* Do the two sides share a device name? */
static int share_device(const struct cmp_map *a, const struct cmp_map *b)
{
    for (size_t j = 0; j < a->cap; j++)
        if (a->vals[j] >= 0 && cmp_map_get(b, a->keys + j) >= 0)
            return 1;
    return 0;
}

/* Decide how lines match across the sides' devices: the same device(s) (by
 * device when a side has several), or --cross-device between one device
 * and one. CLB_EUSAGE (message set) for another device without it. */
static int match_devices(struct cmp_delta *d, struct cmp_in *in, const char *sel, int nfiles,
                         int *by_device)
{
    struct cmp_map set[2] = {{.nk = 1}, {.nk = 1}};
    int n0 = devices_of(in, sel, 0, nfiles, &set[0], &d->new_devices);
    int n1 = n0 < 0 ? -1 : devices_of(in, sel, nfiles, nfiles + 1, &set[1], &d->old_devices);
    int rc = n1 < 0 ? CLB_ESYS : CLB_OK, shared = !rc && share_device(&set[0], &set[1]);
    struct cmp_esc_args e = {0};
    if (rc) {
        clb_oom();
    } else if (d->gate.cross_device && (n0 > 1 || n1 > 1)) {
        rc = clb_eusage("--cross-device sets one device against one: %s '%s'",
                        n1 > 1 ? "the baseline has" : "the new files have",
                        cmp_esc_arg(&e, n1 > 1 ? d->old_devices : d->new_devices, 0));
    } else if (!d->gate.cross_device && !shared) {
        rc = clb_eusage("the baseline is from '%s', the new files from '%s': another device "
                        "(--cross-device compares them at each device's default size)",
                        cmp_esc_arg(&e, d->old_devices, 0), cmp_esc_arg(&e, d->new_devices, 0));
    }
    *by_device = !d->gate.cross_device && (n0 > 1 || n1 > 1);
    cmp_esc_args_free(&e);
    cmp_map_free(&set[0]);
    cmp_map_free(&set[1]);
    return rc;
}

/* ---- lines and verdicts ------------------------------------------------------- */

static void set_side(struct cmp_dside *o, const struct side *s, const struct agg *a)
{
    const struct conf *c = &s->c[a->conf];   /* best, lo and hi: NAN where c->n is 0 */
    *o = (struct cmp_dside){1, c->best, c->lo, c->hi, a->n,
                            a->n ? "ok" : a->nbad ? a->bad : "none", c->tuning, c->size,
                            c->device, c->fp, c->timestamp};
}

/* A line with a figure on both sides: same, better or worse by more than
 * the threshold, and then outside the two runs' spread or not. */
static enum cmp_dstate moved(const struct cmp_delta *d, struct cmp_dline *l)
{
    const struct cmp_dside *o = &l->old, *c = &l->cur;
    int hib = d->metrics[l->metric].higher_is_better;
    l->delta_pct = o->best != 0 ? (c->best - o->best) / o->best * 100.0 : NAN;
    l->worse_pct = hib ? -l->delta_pct : l->delta_pct;
    if (isnan(l->worse_pct) || fabs(l->worse_pct) <= d->gate.threshold)
        return CMP_D_SAME;
    /* outside the spread: the two intervals [lo, hi] do not overlap */
    int apart = c->hi < o->lo || c->lo > o->hi;
    if (!d->gate.strict && !apart)
        return CMP_D_NOISE;
    return l->worse_pct > 0 ? CMP_D_REGRESSED : CMP_D_IMPROVED;
}

static enum cmp_dstate verdict(struct cmp_delta *d, struct cmp_dline *l, int at)
{
    if (!l->old.present)
        return CMP_D_NEW;
    if (!l->old.runs)
        return CMP_D_NOFIGURE;
    if (!l->cur.present || !l->cur.runs)
        return cmp_bad_rank(l->cur.status) >= 2 ? CMP_D_LOST : CMP_D_MISSING;
    enum cmp_dstate st = moved(d, l);
    if (l->changed[0])
        return CMP_D_CHANGED;   /* another kernel ran: the delta is shown, not judged */
    if (st == CMP_D_REGRESSED && (d->worst < 0 || l->worse_pct > d->v[d->worst].worse_pct))
        d->worst = at;
    return st;
}

/* The part of a fingerprint ("s<hex>-o<hex>") that is the source's. */
static size_t fp_source_len(const char *fp)
{
    const char *o = strstr(fp, "-o");
    return o ? (size_t)(o - fp) : strlen(fp);
}

/* A time as rows write it, "2026-11-25T20:44:34Z", that compares as text. */
static int iso_time(const char *t)
{
    return strlen(t) == 20 && t[4] == '-' && t[10] == 'T' && t[19] == 'Z';
}

/* Did the kernel change between the two sides' best rows? Both fingerprints
 * known: their source parts differ, or (the same device, the same tuning)
 * their options; else a revision the workload declares for the kernel lies
 * between the two rows' times. What changed into b, "" when nothing did. */
static void changed_text(struct cmp_in *in, const struct cmp_delta *d, const struct cmp_dline *l,
                         struct clb_buf *b)
{
    const char *a = l->old.fp, *c = l->cur.fp;
    if (a[0] && c[0]) {
        size_t sa = fp_source_len(a), sc = fp_source_len(c);
        int src = sa != sc || memcmp(a, c, sa), opt = strcmp(a + sa, c + sc);
        if (src || (opt && !d->gate.cross_device && !l->tuned[0]))
            clb_buf_printf(b, "the kernel's %s (fingerprint %s→%s)",
                           src ? "source" : "build options", a, c);
        return;
    }
    const char *t0 = l->old.timestamp, *t1 = l->cur.timestamp;
    const struct clb_workload *wl = cmp_in_wl(in, l->workload);
    if (!wl || !wl->revisions || !iso_time(t0) || !iso_time(t1))
        return;
    const char *lo = strcmp(t0, t1) < 0 ? t0 : t1, *hi = lo == t0 ? t1 : t0;
    for (const struct clb_kernel_rev *r = wl->revisions; r->kernels; r++)
        if (clb_list_has(r->kernels, l->kernel) && strcmp(lo, r->date) < 0 &&
            strcmp(r->date, hi) <= 0)
            clb_buf_printf(b, "%s%s (%s, %.10s)", b->len ? "; " : "", r->what, r->commit, r->date);
}

static int changed_of(struct cmp_in *in, const struct cmp_delta *d, struct cmp_dline *l)
{
    l->changed = "";
    if (!l->old.runs || !l->cur.runs)
        return CLB_OK;
    struct clb_buf b = {0};
    changed_text(in, d, l, &b);
    l->changed = b.len ? cmp_in_take(in, &b) : "";
    clb_buf_free(&b);
    return l->changed ? CLB_OK : CLB_ESYS;
}

/* An item "k=v" of a sorted params list. */
struct item {
    const char *k, *v;
    int kl, vl;
};

/* The next item of *p (advanced); 0 at its end. */
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
    struct item a = dash, c = dash; /* set by next_item before use; gcc -O2 cannot tell */
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

/* What changed in the tuning of the two sides' best rows. */
static int tuned_of(struct cmp_in *in, struct cmp_dline *l)
{
    l->tuned = "";
    if (!l->old.runs || !l->cur.runs || l->old.tuning == l->cur.tuning)
        return CLB_OK;
    struct clb_buf b = {0};
    tuned_diff(&b, l->old.tuning, l->cur.tuning);
    l->tuned = cmp_in_take(in, &b);
    return l->tuned ? CLB_OK : CLB_ESYS;
}

static int add_line(struct cmp_delta *d, size_t *cap, struct cmp_in *in, const struct side *cs,
                    const struct agg *cur, const struct side *os, const struct agg *old)
{
    if ((!cur || (!cur->n && !cur->nbad)) && (!old || (!old->n && !old->nbad)))
        return CLB_OK;   /* no figure for this metric on either side (copy has no GFlop/s) */
    if (CLB_GROW(d->v, d->n, *cap))
        return CLB_ESYS;
    const struct agg *a = cur ? cur : old;
    struct cmp_dline *l = &d->v[d->n];
    *l = (struct cmp_dline){.workload = a->id.workload, .kernel = a->id.kernel,
                            .dtype = a->id.dtype, .size = a->id.size, .cases = a->id.cases,
                            .device = a->device, .delta_pct = NAN,
                            .state = CMP_D_SAME, .metric = a->metric, .worse_pct = NAN};
    static const struct cmp_dside absent = {0, NAN, NAN, NAN, 0, "", "", "", "", "", ""};
    l->old = l->cur = absent;
    if (old)
        set_side(&l->old, os, old);
    if (cur)
        set_side(&l->cur, cs, cur);
    else if (old && (l->cur.status = group_status(cs, old, d->by_device)))
        l->group_failed = 1;   /* its group errored in set-up: LOST, not missing */
    else
        l->cur.status = "";
    if (tuned_of(in, l) || changed_of(in, d, l))
        return CLB_ESYS;
    l->state = verdict(d, l, d->n);
    d->count[l->state]++;
    d->n++;
    return CLB_OK;
}

/* Every line of the new files (set against the baseline's), then the
 * baseline's lines the new files lack. */
static int make_lines(struct cmp_delta *d, struct cmp_in *in, struct side *cur, struct side *old)
{
    size_t cap = 0;
    for (size_t i = 0; i < cur->n; i++) {
        const struct agg *a = &cur->v[i];
        uint64_t k[CMP_IDENT_NK + 1];
        line_key(&a->id, d->by_device ? a->device : NULL, k);
        int o = cmp_map_get(&old->lines, k);
        if (o >= 0)
            old->v[o].matched = 1;
        if (add_line(d, &cap, in, cur, a, old, o >= 0 ? &old->v[o] : NULL))
            return CLB_ESYS;
    }
    for (size_t i = 0; i < old->n; i++)
        if (!old->v[i].matched && add_line(d, &cap, in, cur, NULL, old, &old->v[i]))
            return CLB_ESYS;
    d->compared = d->count[CMP_D_SAME] + d->count[CMP_D_IMPROVED] + d->count[CMP_D_REGRESSED] +
                  d->count[CMP_D_NOISE] + d->count[CMP_D_CHANGED];
    d->failed = d->count[CMP_D_REGRESSED] + d->count[CMP_D_LOST] +
                (d->gate.allow_missing ? 0 : d->count[CMP_D_MISSING]) +
                (d->gate.strict ? d->count[CMP_D_CHANGED] : 0);
    return CLB_OK;
}

/* ---- inputs the gate cannot judge ------------------------------------------------ */

/* The workloads of a side's lines, in order: "stream, dot". */
static void workloads_of(const struct side *s, struct clb_buf *b)
{
    size_t start = b->len;
    for (size_t i = 0; i < s->n; i++) {
        const char *w = s->v[i].id.workload;
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = s->v[j].id.workload == w;
        if (!seen)
            clb_buf_printf(b, "%s%s", b->len > start ? ", " : "", w);
    }
}

static size_t reduced_lines(const struct side *s)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++)
        n += s->v[i].id.reduced;
    return n;
}

/* "nothing in common: ..." or "nothing compared: ...": no line had a figure
 * on both sides (and none lost its figure, which fails the gate instead). */
static void nothing_message(const struct cmp_delta *d, const struct side *cur,
                            const struct side *old)
{
    struct clb_buf m = {0}, e = {0};
    int common = 0;
    for (size_t i = 0; i < old->n; i++)
        common += old->v[i].matched;
    if (common) {
        clb_buf_printf(&m, "nothing compared: %d line%s on both sides, none with a %s figure on "
                       "both (%d missing or skipped in the new files, %d without a figure in the "
                       "baseline)", common, common == 1 ? " is" : "s are",
                       d->metric->per_workload ? "workload's own" : d->metric->name,
                       d->count[CMP_D_MISSING], d->count[CMP_D_NOFIGURE]);
    } else {
        clb_buf_printf(&m, "nothing in common: the baseline has ");
        workloads_of(old, &m);
        clb_buf_printf(&m, "; the new files have ");
        workloads_of(cur, &m);
        clb_buf_printf(&m, " (no line of the same workload, kernel, type, size and case "
                           "parameters on both sides%s)",
                       d->gate.cross_device ? "; sizes matched at each device's default size" : "");
    }
    size_t red[2] = {reduced_lines(old), reduced_lines(cur)};
    if (!common && red[0] + red[1])
        clb_buf_printf(&m, "; %zu baseline and %zu new lines ran a tile or work-group reduced "
                           "to fit their device: such a line is what ran and meets only one "
                           "reduced the same way",
                       red[0], red[1]);
    if (d->unmarked[0] + d->unmarked[1])
        clb_buf_printf(&m, "; %zu rows do not say whether their size was their device's "
                           "default (written before the metric size_from): they match only at "
                           "equal sizes (--any-size matches any size)",
                       d->unmarked[0] + d->unmarked[1]);
    clb_seterr("%s", m.oom ? CLB_OOM : cmp_esc_tmp(&e, clb_buf_str(&m), 0));
    clb_buf_free(&m);
    clb_buf_free(&e);
}

/* ---- the gate -------------------------------------------------------------------- */

static int judge(struct cmp_delta *d, struct cmp_in *in, const char *sel, int nfiles,
                 const struct cmp_filter *flt)
{
    struct cmp_map host = {.nk = CMP_IDENT_NK + 1};
    struct side cur = {.f0 = 0, .f1 = nfiles, .host = &host},
                old = {.f0 = nfiles, .f1 = nfiles + 1, .host = &host};
    int rc = match_devices(d, in, sel, nfiles, &d->by_device);
    enum cmp_size_mode mode = flt->any_size        ? CMP_SIZE_ANY
                              : d->gate.cross_device ? CMP_SIZE_DEFAULT
                                                     : CMP_SIZE_GIVEN;
    if (!rc && (gather(d, in, sel, &cur, mode, d->by_device) ||
                gather(d, in, sel, &old, mode, d->by_device) ||
                make_lines(d, in, &cur, &old)))
        rc = clb_oom();
    d->unmarked[0] = cur.unmarked;
    d->unmarked[1] = old.unmarked;
    cmp_map_free(&host);
    if (!rc && !d->n && d->host_out) {
        rc = clb_eusage("every selected line is host-bound (%zu line%s: CPU baselines, host and "
                        "hybrid paths, transfers, launches measure the host, not the device): the "
                        "gate leaves them out unless --host-lines", d->host_out,
                        d->host_out == 1 ? "" : "s");
    } else if (!rc && !d->n) {
        rc = cmp_no_figure(d->metric);
    } else if (!rc && !d->compared && !d->count[CMP_D_LOST]) {
        nothing_message(d, &cur, &old);
        rc = CLB_EUSAGE;
    }
    side_free(&cur);
    side_free(&old);
    return rc;
}

/* A row of the new files whose run id is one of the baseline's is the
 * baseline's own measurement (the default results file copied as the
 * baseline, a glob that takes it in): on the new side, best-of-rows would
 * let the baseline's figure stand for the new run on every line. Such rows
 * are left out of the new side (sel 0) and counted, their run ids noted;
 * CLB_EUSAGE when no row of the new files is left. */
static int refuse_own_rows(struct cmp_delta *d, struct cmp_in *in, char *sel, int nfiles)
{
    struct cmp_map ids = {.nk = 1}, seen = {.nk = 1};
    struct clb_buf b = {0};
    size_t left = 0;
    int rc = CLB_OK;
    for (size_t i = 0; i < in->set.n && !rc; i++) {
        uint64_t k = CMP_KEY(in->set.v[i].run_id);
        if (in->file[i] == nfiles && in->set.v[i].run_id[0] && cmp_map_add(&ids, &k, 1) < -1)
            rc = CLB_ESYS;
    }
    for (size_t i = 0; i < in->set.n && !rc; i++) {
        if (in->file[i] >= nfiles)
            continue;
        uint64_t k = CMP_KEY(in->set.v[i].run_id);
        if (!sel[i] || cmp_map_get(&ids, &k) < 0) {
            left += sel[i] != 0;
            continue;
        }
        sel[i] = 0;
        d->refused++;
        size_t before = seen.n;
        if (cmp_map_add(&seen, &k, 1) < -1)
            rc = CLB_ESYS;
        else if (seen.n != before)
            clb_buf_printf(&b, "%s%s", b.len ? ", " : "", in->set.v[i].run_id);
    }
    if (!rc && !(d->refused_ids = cmp_in_take(in, &b)))
        rc = CLB_ESYS;
    if (rc) {
        clb_oom();
    } else if (d->refused && !left) {
        struct cmp_esc_args e = {0};
        clb_seterr("every selected row of the new files is the baseline's own (run id %s of "
                   "'%s'): a run cannot be its own baseline; give the new run's file, not the "
                   "baseline's", cmp_esc_arg(&e, d->refused_ids, 0),
                   cmp_esc_arg(&e, d->baseline, 0));
        cmp_esc_args_free(&e);
        rc = CLB_EUSAGE;
    }
    cmp_map_free(&ids);
    cmp_map_free(&seen);
    clb_buf_free(&b);
    return rc;
}

/* Read the files and the baseline, select the rows (the filters apply to
 * both sides), and judge. */
int cmp_baseline(struct cmp_delta *d, char **files, int nfiles, const char *baseline,
                 const struct cmp_filter *flt, const struct cmp_metric *metric,
                 const struct cmp_gate *gate)
{
    *d = (struct cmp_delta){.metric = metric, .gate = *gate, .worst = -1};
    if (metric->measured) {   /* a measured metric needs each column's ceilings: a table's */
        return clb_eusage("--metric %s is not for --baseline (which sets lines, not devices, side "
                          "by side)", metric->name);
    }
    if (metric->no_direction)
        return clb_eusage("--metric %s has no better way (a %s): the gate judges figures that are "
                          "better higher or lower (clbench compare --list-metrics)", metric->name,
                          metric->unit);
    struct cmp_in in = {0};
    char **all = malloc(((size_t)nfiles + 2) * sizeof *all);
    char *sel = NULL;
    int rc = all ? CLB_OK : clb_oom();
    if (all) {
        memcpy(all, files, (size_t)nfiles * sizeof *all);
        all[nfiles] = (char *)baseline;
        rc = cmp_in_read(&in, all, nfiles + 1);
    }
    if (!rc && (!(sel = calloc(in.set.n + 1, 1)) ||
                !(d->baseline = cmp_in_intern(&in, baseline, strlen(baseline)))))
        rc = clb_oom();
    if (!rc && !(rc = cmp_in_select(&in, flt, 0, nfiles, sel, "these files")))
        rc = cmp_in_select(&in, flt, nfiles, nfiles + 1, sel, "the baseline");
    if (!rc)
        rc = refuse_own_rows(d, &in, sel, nfiles);
    if (!rc)
        rc = judge(d, &in, sel, nfiles, flt);
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
    free(d->metrics);
    clb_arena_free(&d->arena);
    *d = (struct cmp_delta){.worst = -1};
}

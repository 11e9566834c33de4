/* clbench compare: the rows of every file gathered into a table of
 * configurations (lines) x columns (devices or published sources). Every
 * step is a pass over the rows with hash maps keyed by interned strings, then
 * sorts: O(n log n) in the rows. */
#define _GNU_SOURCE
#include "compare_priv.h"
#include "clb_profile.h"
#include "clb_workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- columns ------------------------------------------------------------ */

/* The source of a published figure ("BabelStream 1.0"; clb_reference_source). */
static const char *source_of(struct cmp_in *in, const char *detail)
{
    const char *p;
    size_t k = clb_reference_source(detail, &p);
    return k ? cmp_in_intern(in, p, k) : "published";
}

struct build {
    struct cmp_table *t;
    struct cmp_in *in;
    const struct cmp_filter *flt;
    const char *sel;
    int *col, *line;           /* per row */
    int *kind;                 /* per row, with flt->keep_rows: CMP_RK_* */
    size_t ccap, lcap, ncells, cellcap;
    struct bcell {             /* a cell and its line (its place once the lines are sorted) */
        struct cmp_cell c;
        int line;
    } *cells;
    /* swept keys: (workload, key) -> 1 */
    struct cmp_map swept;
    /* per (params, workload): the swept part */
    struct sweepinfo {
        const char *sweep, *rest, *key;
        double num;
    } *sw;
    size_t nsw, capsw;
    /* the points of the figures: per (col, workload, kernel, dtype, size, params) */
    struct cmp_map pts;
    size_t ptcap;
    struct clb_buf untyped;   /* the types of GFlop/s rows no ceiling covers */
    /* per workload: its rows that lack what it declares (row_params, row_metrics) */
    struct unfit {
        const struct clb_workload *wl;
        size_t n;
    } *unfit;
    size_t nunfit, capunfit;
};

/* A column lists the files of its rows (a handful: one realloc each). */
static int add_file(struct cmp_col *c, const char *file)
{
    const char **nf = realloc(c->files, ((size_t)c->nfiles + 1) * sizeof *nf);
    if (!nf)
        return -1;
    c->files = nf;
    c->files[c->nfiles++] = file;
    return 0;
}

static int find_cols(struct build *b)
{
    struct cmp_in *in = b->in;
    struct cmp_table *t = b->t;
    struct cmp_map cols = {.nk = 5}, files = {.nk = 2};
    int rc = CLB_ESYS;
    for (size_t i = 0; i < in->set.n; i++) {
        b->col[i] = -1;
        if (!b->sel[i])
            continue;
        const struct clb_row *r = &in->set.v[i];
        int ref = !strcmp(r->status, "reference");
        const char *source = ref ? source_of(in, r->detail) : "";   /* published rows: few */
        if (!source)
            goto out;
        uint64_t key[5] = {(uint64_t)ref, CMP_KEY(r->device), CMP_KEY(r->host),
                           CMP_KEY(ref ? source : NULL), CMP_KEY(ref ? r->driver : NULL)};
        int c = cmp_slot(&cols, key, (void **)&t->cols, t->ncols, &b->ccap, sizeof *t->cols);
        if (c < -1)
            goto out;
        if (c == t->ncols)
            t->cols[t->ncols++] = (struct cmp_col){
                .reference = ref, .device = r->device, .host = r->host, .driver = r->driver,
                .source = source, .peak_gbs = NAN, .llc_bytes = NAN, .l2_bytes = NAN,
                .peak_sp = NAN, .peak_dp = NAN, .profile = ""};
        b->col[i] = c;
        uint64_t fk[2] = {(uint64_t)c, (uint64_t)in->file[i]};
        size_t before = files.n;
        if (cmp_map_add(&files, fk, 1) < -1)
            goto out;
        if (files.n != before) {
            const char *name = in->files[in->file[i]];
            const char *copy = cmp_in_intern(in, name, strlen(name));
            if (!copy || add_file(&t->cols[c], copy))
                goto out;
        }
    }
    rc = CLB_OK;
out:
    cmp_map_free(&cols);
    cmp_map_free(&files);
    return rc;
}

/* The label of column c (twin: another column has its device and source). */
static const char *col_label(struct cmp_in *in, const struct cmp_col *c, int twin)
{
    struct clb_buf l = {0};
    const char *dev = c->device[0] ? c->device : "unnamed device";
    const char *extra = c->driver[0] ? c->driver : c->host;
    if (c->reference && twin && extra[0])
        clb_buf_printf(&l, "%s (%s; %s)", dev, c->source, extra);
    else if (c->reference)
        clb_buf_printf(&l, "%s (%s)", dev, c->source);
    else if (twin)
        clb_buf_printf(&l, "%s @%s", dev, c->host[0] ? c->host : "?");
    else
        clb_buf_printf(&l, "%s", dev);
    return cmp_in_take(in, &l);
}

/* Column labels: the device name; published sources add "(source)", and the
 * driver (or host) field where one device has several figures from one source
 * (ECC on and off); two measured columns of one device name on different
 * hosts add "@host". */
static int label_cols(struct build *b)
{
    struct cmp_table *t = b->t;
    struct cmp_map twins = {.nk = 3};
    int *count = calloc((size_t)t->ncols + 1, sizeof *count);
    int *group = malloc(((size_t)t->ncols + 1) * sizeof *group);
    int rc = CLB_ESYS;
    if (!count || !group)
        goto out;
    for (int i = 0; i < t->ncols; i++) {
        const struct cmp_col *c = &t->cols[i];
        uint64_t k[3] = {(uint64_t)c->reference, CMP_KEY(c->device),
                         CMP_KEY(c->reference ? c->source : NULL)};
        int g = cmp_map_add(&twins, k, i);
        if (g < -1)
            goto out;
        group[i] = g;
        count[g]++;
    }
    for (int i = 0; i < t->ncols; i++)
        if (!(t->cols[i].label = col_label(b->in, &t->cols[i], count[group[i]] > 1)))
            goto out;
    rc = CLB_OK;
out:
    if (rc)
        clb_oom();
    cmp_map_free(&twins);
    free(count);
    free(group);
    return rc;
}

/* ---- sweeps ---------------------------------------------------------------- */

/* A key is swept when two rows of one configuration on one column differ in
 * it (its value, or whether they have it): then each value is a line of its
 * own (stride=1, 2, ...), while a key that merely differs between devices
 * (the vector width each one chose) is not part of the line. */
static int find_sweeps(struct build *b)
{
    struct cmp_in *in = b->in;
    const char *mode = b->flt->sweep;
    if (mode && !strcmp(mode, "none"))
        return CLB_OK;
    if (mode && strcmp(mode, "auto")) {   /* the keys named */
        for (size_t i = 0; i < in->set.n; i++) {
            if (!b->sel[i])
                continue;
            int p = in->plist[i];
            for (int j = 0; j < in->plists[p].n; j++) {
                const struct cmp_kv *kv = &in->kv[in->plists[p].start + (size_t)j];
                uint64_t k[2] = {CMP_KEY(in->set.v[i].workload), CMP_KEY(kv->key)};
                if (clb_list_has(mode, kv->key) && cmp_map_add(&b->swept, k, 1) < -1)
                    return CLB_ESYS;
            }
        }
        return CLB_OK;
    }
    struct cmp_map groups = {.nk = 5}, entries = {.nk = 2};
    int *gcount = NULL;
    size_t ng = 0, capg = 0, ne = 0, cape = 0;
    struct entry {
        const char *workload, *val;
        int group, count, differs;
    } *e = NULL;
    int rc = CLB_ESYS;
    for (size_t i = 0; i < in->set.n; i++) {
        if (!b->sel[i])
            continue;
        const struct clb_row *r = &in->set.v[i];
        uint64_t gk[5] = {(uint64_t)b->col[i], CMP_KEY(r->workload), CMP_KEY(r->kernel),
                          CMP_KEY(r->dtype), CMP_KEY(in->sizes[in->size[i]].canon)};
        int g = cmp_slot(&groups, gk, (void **)&gcount, (int)ng, &capg, sizeof *gcount);
        if (g < -1)
            goto out;
        ng += g == (int)ng;   /* a new group, its count zeroed */
        gcount[g]++;
        int p = in->plist[i];
        for (int j = 0; j < in->plists[p].n; j++) {
            const struct cmp_kv *kv = &in->kv[in->plists[p].start + (size_t)j];
            uint64_t ek[2] = {(uint64_t)g, CMP_KEY(kv->key)};
            int x = cmp_slot(&entries, ek, (void **)&e, (int)ne, &cape, sizeof *e);
            if (x < -1)
                goto out;
            if (x == (int)ne)
                e[ne++] = (struct entry){r->workload, kv->val, g, 0, 0};
            e[x].count++;
            e[x].differs |= e[x].val != kv->val;
        }
    }
    /* the swept (workload, key) pairs: the key is the second word of the
     * entry's map key */
    for (size_t s = 0; s < entries.cap; s++) {
        int x = entries.vals[s];
        if (x < 0 || (!e[x].differs && e[x].count >= gcount[e[x].group]))
            continue;
        uint64_t k[2] = {CMP_KEY(e[x].workload), entries.keys[s * 2 + 1]};
        if (cmp_map_add(&b->swept, k, 1) < -1)
            goto out;
    }
    rc = CLB_OK;
out:
    cmp_map_free(&groups);
    cmp_map_free(&entries);
    free(gcount);
    free(e);
    return rc;
}

/* The swept part of a row's params, in the row's order (cached per params
 * and workload): "rhs=2 vec=4", its first key and that key's number. */
static int sweep_of(struct build *b, struct cmp_map *cache, size_t i, struct sweepinfo **out)
{
    struct cmp_in *in = b->in;
    const struct clb_row *r = &in->set.v[i];
    uint64_t k[2] = {CMP_KEY(r->params), CMP_KEY(r->workload)};
    int s = cmp_slot(cache, k, (void **)&b->sw, (int)b->nsw, &b->capsw, sizeof *b->sw);
    if (s < -1)
        return CLB_ESYS;
    struct sweepinfo *w = *out = &b->sw[s];
    if (s < (int)b->nsw)
        return CLB_OK;
    b->nsw++;
    *w = (struct sweepinfo){"", "", "", NAN};
    struct clb_buf sb = {0};
    size_t restat = 0;
    int p = in->plist[i];
    for (int j = 0; j < in->plists[p].n; j++) {
        const struct cmp_kv *kv = &in->kv[in->plists[p].start + (size_t)j];
        uint64_t sk[2] = {CMP_KEY(r->workload), CMP_KEY(kv->key)};
        if (cmp_map_get(&b->swept, sk) < 0)
            continue;
        if (!w->key[0]) {
            char *end;
            double x = strtod(kv->val, &end);
            w->key = kv->key;
            w->num = (*kv->val && !*end && isfinite(x)) ? x : NAN;
        }
        clb_buf_printf(&sb, "%s%s=%s", sb.len ? " " : "", kv->key, kv->val);
        if (!restat)
            restat = sb.len;
    }
    if (sb.len) {
        w->sweep = cmp_in_intern(in, sb.s, sb.len);
        size_t from = restat < sb.len ? restat + 1 : sb.len;
        w->rest = cmp_in_intern(in, sb.s + from, sb.len - from);
    }
    int bad = sb.oom || !w->sweep || !w->rest;
    clb_buf_free(&sb);
    return bad ? CLB_ESYS : CLB_OK;
}

/* ---- what the registry says of a row ------------------------------------ */

/* Does the bandwidth peak belong to this row? Only when the registry knows
 * its workload and the workload's count() of the row says device work (not
 * host_bound). Unknown workloads, sizes that do not parse and refused
 * counts: no. */
static int device_bound(int kind)
{
    return (kind & CMP_RK_COUNTED) && !(kind & CMP_RK_HOST);
}

/* ---- measured ceilings ------------------------------------------------------ */

/* The ceiling kind of a GFlop/s row's type; -1 for types no kind covers. */
static int compute_kind(const char *dtype)
{
    if (clb_dtype_is_double(dtype))
        return CLB_CEIL_DP;
    return strncmp(dtype, "float", 5) == 0 ? CLB_CEIL_SP : -1;
}

/* No ceiling yet on any column. */
static void ceilings_reset(struct cmp_table *t)
{
    t->have_ceilings = 1;
    for (int c = 0; c < t->ncols; c++)
        for (int k = 0; k < CLB_NCEILINGS; k++) {
            t->cols[c].ceil[k] = NAN;
            t->cols[c].ceil_src[k] = t->cols[c].ceil_what[k] = "";   /* ceil_marks stay 0 */
        }
}

/* --ceilings FILE: its rows into *extra, its name kept in the table. */
static int read_ceilings_file(struct build *b, const char *file, struct clb_rowset *extra)
{
    int rc = clb_results_read(file, extra);
    if (rc) {
        clb_seterr("--ceilings: %s", clb_lasterr());
        return rc;
    }
    b->t->ceilings_file = cmp_in_intern(b->in, file, strlen(file));
    return b->t->ceilings_file ? CLB_OK : CLB_ESYS;
}

/* The key of a column's group of ceiling rows: its device and host, or its
 * device alone with --ceilings FILE. */
static void group_key(uint64_t k[2], const char *device, const char *host, const char *file)
{
    k[0] = CMP_KEY(device);
    k[1] = file ? 0 : CMP_KEY(host);
}

/* The rows of the ceilings, grouped by the measured column they belong to (a
 * counting sort): the rows of the group whose first column is c are
 * ptr[start[c] .. start[c + 1]). */
struct ceil_rows {
    struct cmp_map groups;       /* group_key -> the group's first column */
    int *colof;                  /* each row's group, -1 for none */
    size_t *start;
    const struct clb_row **ptr;
};

static void ceil_rows_free(struct ceil_rows *g)
{
    cmp_map_free(&g->groups);
    free(g->colof);
    free(g->start);
    free(g->ptr);
}

/* The measured columns' groups (a published column has none). */
static int ceil_groups(struct ceil_rows *g, const struct cmp_table *t, const char *file)
{
    g->groups.nk = 2;
    for (int c = 0; c < t->ncols; c++) {
        uint64_t k[2];
        group_key(k, t->cols[c].device, t->cols[c].host, file);
        if (!t->cols[c].reference && cmp_map_add(&g->groups, k, c) < -1)
            return CLB_ESYS;
    }
    return CLB_OK;
}

/* Sort the ok rows of src by group: each one's group counted two places on
 * (start[c + 2]), so that placing a row at start[c + 1]++ leaves start[c]
 * the group's first row and start[c + 1] its end. */
static int ceil_sort(struct ceil_rows *g, struct build *b, const struct clb_rowset *src,
                     const char *file)
{
    int n = b->t->ncols;
    g->colof = malloc((src->n + 1) * sizeof *g->colof);
    g->start = calloc((size_t)n + 2, sizeof *g->start);
    g->ptr = malloc((src->n + 1) * sizeof *g->ptr);
    if (!g->colof || !g->start || !g->ptr)
        return CLB_ESYS;
    for (size_t i = 0; i < src->n; i++) {
        const struct clb_row *r = &src->v[i];
        g->colof[i] = -1;
        if (strcmp(r->status, "ok"))
            continue;
        /* the extra file's strings live in its own arena: intern the device here */
        const char *dev = file ? cmp_in_intern(b->in, r->device, strlen(r->device)) : r->device;
        if (!dev)
            return CLB_ESYS;
        uint64_t k[2];
        group_key(k, dev, r->host, file);
        int c = g->colof[i] = cmp_map_get(&g->groups, k);
        if (c >= 0)
            g->start[c + 2]++;
    }
    for (int c = 2; c < n + 2; c++)
        g->start[c] += g->start[c - 1];
    for (size_t i = 0; i < src->n; i++)
        if (g->colof[i] >= 0)
            g->ptr[g->start[g->colof[i] + 1]++] = &src->v[i];
    return CLB_OK;
}

/* Keep ceiling x of kind k on col: its value, what measured it and its row's marks. */
static int keep_ceiling(struct build *b, struct cmp_col *col, int k, const struct clb_ceiling *x,
                        struct clb_buf *txt)
{
    if (!(col->ceil_what[k] = cmp_in_intern(b->in, x->what, strlen(x->what))))
        return CLB_ESYS;
    txt->len = 0;
    clb_buf_printf(txt, "%s", x->what);
    if (x->note[0])
        clb_buf_printf(txt, " (%s)", x->note);
    if (txt->oom || !(col->ceil_src[k] = cmp_in_intern(b->in, txt->s, txt->len)))
        return CLB_ESYS;
    col->ceil[k] = x->value;
    col->ceil_marks[k] = x->row ? clb_row_marks(x->row) : 0;
    return CLB_OK;
}

/* Measure the ceilings of column c from its group's rows (none for a
 * published column or a group without rows). */
static int measure_col(struct build *b, const struct ceil_rows *g, int c, const char *file,
                       struct clb_ceiling_set *set, struct clb_buf *txt)
{
    struct cmp_col *col = &b->t->cols[c];
    if (col->reference)
        return CLB_OK;
    uint64_t k[2];   /* columns of one device share the rows with --ceilings */
    group_key(k, col->device, col->host, file);
    int grp = cmp_map_get(&g->groups, k);
    size_t n = grp < 0 ? 0 : g->start[grp + 1] - g->start[grp];
    if (!n)
        return CLB_OK;
    if (clb_ceilings_measure(g->ptr + g->start[grp], n, set))
        return CLB_ESYS;
    for (int kind = 0; kind < CLB_NCEILINGS; kind++)
        if (set->have[kind] && keep_ceiling(b, col, kind, &set->c[kind], txt))
            return CLB_ESYS;
    return CLB_OK;
}

/* Each measured column's ceilings: from the ok rows of its device and host
 * in every file (whatever the filters select), or from the rows of its device
 * name in --ceilings FILE; measured by the workloads' hooks (ceilings.c). */
static int find_ceilings(struct build *b)
{
    const char *file = b->flt->ceilings;
    struct clb_rowset extra = {0};
    struct ceil_rows g = {0};
    struct clb_ceiling_set *set = NULL;
    struct clb_buf txt = {0};
    ceilings_reset(b->t);
    int rc = file ? read_ceilings_file(b, file, &extra) : CLB_OK;
    const struct clb_rowset *src = file ? &extra : &b->in->set;
    if (!rc && (ceil_groups(&g, b->t, file) || ceil_sort(&g, b, src, file) ||
                !(set = malloc(sizeof *set))))
        rc = CLB_ESYS;
    for (int c = 0; !rc && c < b->t->ncols; c++)
        rc = measure_col(b, &g, c, file, set, &txt);
    if (rc == CLB_ESYS)
        clb_oom();
    ceil_rows_free(&g);
    clb_rowset_free(&extra);
    clb_buf_free(&txt);
    free(set);
    return rc;
}

/* A row's percentage of its column's measured ceiling (pct_measured_peak):
 * GB/s rows of device work against the bandwidth ceiling, GFlop/s rows
 * against the compute ceiling of their type; host-bound rows, the GB/s of
 * compute-bound rows and rows the registry does not count have none, as
 * for pct_peak. A ceiling the column lacks is noted for the footer. */
static double measured_value(struct build *b, size_t i, int kind)
{
    const struct clb_row *r = &b->in->set.v[i];
    struct cmp_col *col = &b->t->cols[b->col[i]];
    int gflops = kind & CMP_RK_GFLOPS;
    if (!device_bound(kind) || (!gflops && (kind & CMP_RK_COMPUTE)))
        return NAN;
    double v = gflops ? r->gflops : r->gbps;
    int k = gflops ? compute_kind(r->dtype) : CLB_CEIL_BW;
    if (k < 0 && !isnan(v) && cmp_is_value_status(r->status)) {
        /* a type no ceiling kind covers (int, half): noted once */
        struct clb_buf *u = &b->untyped;
        if (!clb_list_has(clb_buf_str(u), r->dtype))
            clb_buf_printf(u, "%s%s", u->len ? "," : "", r->dtype);
    }
    if (isnan(v) || k < 0)
        return NAN;
    if (isnan(col->ceil[k])) {
        if (cmp_is_value_status(r->status))
            col->lacks |= 1u << k;
        return NAN;
    }
    return 100.0 * v / col->ceil[k];
}

/* ---- the points of roofline and stairs figures ---------------------------------- */

/* One more row of wl that lacks what wl declares (skipped for the figures). */
static int count_unfit(struct build *b, const struct clb_workload *wl)
{
    size_t k = 0;
    while (k < b->nunfit && b->unfit[k].wl != wl)
        k++;
    if (k == b->nunfit) {
        if (CLB_GROW(b->unfit, b->nunfit, b->capunfit))
            return CLB_ESYS;
        b->unfit[b->nunfit++] = (struct unfit){wl, 0};
    }
    b->unfit[k].n++;
    return CLB_OK;
}

/* Add row i to its point (the best of its configuration on its column). */
static int add_point(struct build *b, size_t i, int kind)
{
    struct cmp_in *in = b->in;
    struct cmp_table *t = b->t;
    const struct clb_row *r = &in->set.v[i];
    if (!cmp_is_value_status(r->status))
        return CLB_OK;
    const struct clb_workload *wl = cmp_in_wl(b->in, r->workload);
    enum clb_figure_kind fk = wl ? wl->figure.kind : CLB_FIGURE_TABLE;
    double x = NAN, y = NAN;
    if (fk == CLB_FIGURE_STAIRS) {
        if (!wl->figure.x_param || !wl->figure.y_metric)
            return CLB_OK;
        if (!clb_row_fits(wl, r))   /* counted: one warning per workload */
            return count_unfit(b, wl);
        x = clb_row_param(r, wl->figure.x_param);
        y = clb_row_metric(r, wl->figure.y_metric);
    } else if (device_bound(kind) && !(kind & CMP_RK_COMPUTE) && r->bytes > 0 && r->flops > 0) {
        fk = CLB_FIGURE_ROOFLINE;
        x = r->flops / r->bytes;
        y = r->gflops;
    } else {
        return CLB_OK;
    }
    if (!(x > 0) || !(y > 0) || !isfinite(x) || !isfinite(y))
        return CLB_OK;
    uint64_t k[6] = {(uint64_t)b->col[i], CMP_KEY(r->workload), CMP_KEY(r->kernel),
                     CMP_KEY(r->dtype), CMP_KEY(r->size), CMP_KEY(r->params)};
    int p = cmp_slot(&b->pts, k, (void **)&t->points, (int)t->npoints, &b->ptcap,
                     sizeof *t->points);
    if (p < -1)
        return CLB_ESYS;
    struct cmp_point *pt = &t->points[p];
    if (p == (int)t->npoints) {
        *pt = (struct cmp_point){b->col[i], fk, r->workload, r->kernel, r->dtype, "", x, y,
                                 wl && wl->figure.kind == CLB_FIGURE_ROOFLINE, (int)t->npoints};
        if (fk == CLB_FIGURE_STAIRS) {   /* the params but the x key */
            struct clb_buf rest = {0};
            int pl = in->plist[i];
            for (int j = 0; j < in->plists[pl].n; j++) {
                const struct cmp_kv *kv = &in->kv[in->plists[pl].start + (size_t)j];
                if (strcmp(kv->key, wl->figure.x_param))
                    clb_buf_printf(&rest, "%s%s%s%s", rest.len ? " " : "", kv->key,
                                   *kv->val ? "=" : "", kv->val);
            }
            if (!(pt->rest = cmp_in_take(in, &rest)))
                return CLB_ESYS;
        }
        t->npoints++;
    } else if (fk == CLB_FIGURE_STAIRS ? y < pt->y : y > pt->y) {
        pt->x = x;
        pt->y = y;
    }
    return CLB_OK;
}

/* ---- lines and cells ------------------------------------------------------- */

static void fill_cell(struct cmp_cell *c, const struct clb_row *r, const struct cmp_metric *m,
                      double v)
{
    if (cmp_is_value_status(r->status)) {
        if (isnan(v))
            return;
        c->ncache += clb_row_flag(r, "cache_resident");
        int better = m->higher_is_better ? v > c->best : v < c->best;
        int worse = m->higher_is_better ? v < c->worst : v > c->worst;
        if (!c->n || better)
            c->best = v;
        if (!c->n || worse)
            c->worst = v;
        c->n++;
    } else {
        cmp_count_bad(r->status, &c->bad, &c->nbad);
    }
}

static int cmp_num(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) - isnan(b);
    return (a > b) - (a < b);
}

/* Order: workloads, kernels and types as they first appear (run order), then
 * sizes and swept values numerically, then first appearance. */
static int line_order(const void *pa, const void *pb)
{
    const struct cmp_line *a = pa, *b = pb;
    for (int i = 0; i < 3; i++)
        if (a->order[i] != b->order[i])
            return a->order[i] - b->order[i];
    int c = cmp_num(a->size_num, b->size_num);
    if (!c)
        c = cmp_num(a->sweep_num, b->sweep_num);
    return c ? c : a->first - b->first;
}

static int bcell_order(const void *pa, const void *pb)
{
    const struct bcell *a = pa, *b = pb;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    return (a->c.col > b->c.col) - (a->c.col < b->c.col);
}

/* The size of row i's line: "any" with any_size, except where the lineup
 * keeps the sizes of a workload that varies them (cmp_size_varies). */
static const char *line_size(struct build *b, size_t i, const char *any)
{
    const char *canon = b->in->sizes[b->in->size[i]].canon;
    if (!b->flt->any_size)
        return canon;
    const struct clb_workload *wl = cmp_in_wl(b->in, b->in->set.v[i].workload);
    return b->flt->line_up && cmp_size_varies(wl) ? canon : any;
}

/* What find_lines keeps while it passes over the rows. */
struct line_maps {
    struct cmp_map lines, cells, swc;   /* line key -> line, (line, col) -> cell, sweeps */
    struct cmp_map names[3];            /* workload, kernel, dtype -> order of appearance */
    int nnames[3];
    const char *any;                    /* the size of a line that ignores it */
};

/* Fill line ln, new with row i (its first): its names, size, sweep and the
 * order of its workload, kernel and dtype. */
static int new_line(struct build *b, struct line_maps *m, struct cmp_line *ln, size_t i,
                    const char *size, const struct sweepinfo *w, int metric)
{
    const struct clb_row *r = &b->in->set.v[i];
    *ln = (struct cmp_line){.workload = r->workload, .kernel = r->kernel, .dtype = r->dtype,
                            .size = size, .sweep = w->sweep, .sweep_rest = w->rest,
                            .sweep_key = w->key, .sweep_num = w->num, .first = b->t->nlines,
                            .device_bound = 1, .metric = metric};
    ln->size_num = size == m->any ? NAN : b->in->sizes[b->in->size[i]].num;
    const char *parts[3] = {r->workload, r->kernel, r->dtype};
    for (int k = 0; k < 3; k++) {
        uint64_t nk = CMP_KEY(parts[k]);
        int o = cmp_map_add(&m->names[k], &nk, m->nnames[k]);
        if (o < -1)
            return CLB_ESYS;
        m->nnames[k] += o == m->nnames[k];
        ln->order[k] = o;
    }
    return CLB_OK;
}

/* The line of row i, made when it is the first: its index, -1 on OOM. Its
 * metric is part of what a line is: each workload (each kernel, where a
 * workload's count gives kernels other units) is shown in its own figure. */
static int line_of(struct build *b, struct line_maps *m, size_t i, int metric)
{
    struct cmp_table *t = b->t;
    const struct clb_row *r = &b->in->set.v[i];
    struct sweepinfo *w;
    if (sweep_of(b, &m->swc, i, &w))
        return -1;
    const char *size = line_size(b, i, m->any);
    uint64_t lk[6] = {CMP_KEY(r->workload), CMP_KEY(r->kernel), CMP_KEY(r->dtype),
                      CMP_KEY(size), CMP_KEY(w->sweep), (uint64_t)metric};
    int l = cmp_slot(&m->lines, lk, (void **)&t->lines, t->nlines, &b->lcap, sizeof *t->lines);
    if (l < -1)
        return -1;
    if (l == t->nlines) {
        if (new_line(b, m, &t->lines[l], i, size, w, metric))
            return -1;
        t->nlines++;
    }
    return l;
}

/* Row i's figure into its cell (line l, its column), the cell made when new. */
static int add_to_cell(struct build *b, struct line_maps *m, size_t i, int l, int kind)
{
    const struct clb_row *r = &b->in->set.v[i];
    const struct cmp_metric *metric = &b->t->metrics[b->t->lines[l].metric];
    uint64_t ck[2] = {(uint64_t)l, (uint64_t)b->col[i]};
    int c = cmp_slot(&m->cells, ck, (void **)&b->cells, (int)b->ncells, &b->cellcap,
                     sizeof *b->cells);
    if (c < -1)
        return CLB_ESYS;
    if (c == (int)b->ncells)
        b->cells[b->ncells++] = (struct bcell){{.col = b->col[i], .bad = ""}, l};
    fill_cell(&b->cells[c].c, r, metric,
              metric->measured ? measured_value(b, i, kind) : cmp_metric_value(metric, r));
    return CLB_OK;
}

/* Selected row i on its line: its kind (what the registry says of it; the
 * peak belongs to its line when every row of it is device work), its
 * metric, its point (--plot) and its cell. */
static int add_row(struct build *b, struct line_maps *m, size_t i)
{
    struct cmp_table *t = b->t;
    int kind = cmp_in_kind(b->in, i);
    int metric = kind < 0 ? -1 : cmp_row_metric(b->in, i, t->metric, &t->metrics, &t->nmetrics);
    int l = metric < 0 ? -1 : line_of(b, m, i, metric);
    if (l < 0)
        return CLB_ESYS;
    b->line[i] = l;
    t->lines[l].device_bound &= device_bound(kind);
    if (b->kind)
        b->kind[i] = kind;
    if (b->flt->plot && add_point(b, i, kind))
        return CLB_ESYS;
    return add_to_cell(b, m, i, l, kind);
}

static int find_lines(struct build *b)
{
    struct line_maps m = {.lines = {.nk = 6}, .cells = {.nk = 2}, .swc = {.nk = 2},
                          .names = {{.nk = 1}, {.nk = 1}, {.nk = 1}}};
    int rc = (m.any = cmp_in_intern(b->in, "any", 3)) ? CLB_OK : CLB_ESYS;
    for (size_t i = 0; !rc && i < b->in->set.n; i++)
        if (b->sel[i])
            rc = add_row(b, &m, i);
    cmp_map_free(&m.lines);
    cmp_map_free(&m.cells);
    cmp_map_free(&m.swc);
    for (int k = 0; k < 3; k++)
        cmp_map_free(&m.names[k]);
    if (rc)
        clb_oom();
    return rc;
}

/* Sort the lines, order the cells by line and column, and drop the cells
 * without a figure or a status and the lines left without cells. */
static int order_cells(struct build *b)
{
    struct cmp_table *t = b->t;
    int *pos = malloc(((size_t)t->nlines + 1) * sizeof *pos);
    int *kept_of = b->kind ? malloc(((size_t)t->nlines + 1) * sizeof *kept_of) : NULL;
    int rc = CLB_ESYS;
    if (!pos || (b->kind && !kept_of))
        goto out;
    qsort(t->lines, (size_t)t->nlines, sizeof *t->lines, line_order);
    for (int i = 0; i < t->nlines; i++)
        pos[t->lines[i].first] = i;
    size_t n = 0;
    for (size_t c = 0; c < b->ncells; c++)
        if (b->cells[c].c.n || b->cells[c].c.nbad)
            b->cells[n++] = (struct bcell){b->cells[c].c, pos[b->cells[c].line]};
    qsort(b->cells, n, sizeof *b->cells, bcell_order);
    if (!(t->cells = malloc((n + 1) * sizeof *t->cells)))
        goto out;
    t->ncells = n;
    /* each line's range (its ncells 0 from new_line), then drop the lines without cells */
    for (size_t k = n; k-- > 0;) {
        t->cells[k] = b->cells[k].c;
        t->lines[b->cells[k].line].cell0 = k;
        t->lines[b->cells[k].line].ncells++;
    }
    int kept = 0;
    for (int i = 0; i < t->nlines; i++) {
        int k = t->lines[i].ncells ? kept++ : -1;
        if (k >= 0)
            t->lines[k] = t->lines[i];
        if (kept_of)
            kept_of[i] = k;
    }
    for (size_t i = 0; kept_of && i < b->in->set.n; i++)   /* the rows' lines, for keep_rows */
        b->line[i] = b->col[i] >= 0 && b->sel[i] ? kept_of[pos[b->line[i]]] : -1;
    t->nlines = kept;
    rc = CLB_OK;
out:
    if (rc)
        clb_oom();
    free(pos);
    free(kept_of);
    return rc;
}

/* ---- peaks ------------------------------------------------------------------ */

/* The datasheet L2 and compute peaks of a column's profile; and where nothing
 * else gave its peak bandwidth, that of the profile whose match has the
 * longest word of its device name ("K20X" over "K20"). */
static void profile_peaks(struct cmp_col *cc, const struct clb_profiles *ps)
{
    const struct clb_profile *p = clb_profiles_find(ps, cc->profile);
    if (p && p->l2_kb > 0)
        cc->l2_bytes = p->l2_kb * 1024.0;
    if (p && p->peak_gflops_sp > 0)
        cc->peak_sp = p->peak_gflops_sp;
    if (p && p->peak_gflops_dp > 0)
        cc->peak_dp = p->peak_gflops_dp;
    if (!isnan(cc->peak_gbs))
        return;
    for (size_t k = 0, best = 0; k < ps->n; k++) {
        size_t len = clb_profile_match_len(ps->v[k].match, cc->device);
        if (len > best && ps->v[k].peak_bandwidth_gbs > 0) {
            best = len;
            cc->peak_gbs = ps->v[k].peak_bandwidth_gbs;
        }
    }
}

/* A column's peak bandwidth: derived from its rows (gbps / pct_peak_bw), else
 * from the profile named in its rows or matching its device name. */
static int find_peaks(struct build *b)
{
    struct cmp_in *in = b->in;
    struct cmp_table *t = b->t;
    for (size_t i = 0; i < in->set.n; i++) {
        const struct clb_row *r = &in->set.v[i];
        if (b->col[i] < 0)
            continue;
        struct cmp_col *cc = &t->cols[b->col[i]];
        if (isnan(cc->peak_gbs) && r->gbps > 0 && r->pct_peak_bw > 0)
            cc->peak_gbs = r->gbps * 100.0 / r->pct_peak_bw;
        double llc = clb_row_metric(r, "llc_bytes");
        if (llc > 0 && !(cc->llc_bytes >= llc))
            cc->llc_bytes = llc;
        if (!cc->profile[0])
            cc->profile = r->profile;
    }
    struct clb_profiles ps = {0};
    const char *dir = clb_profiles_dir(NULL);
    if (!dir || clb_profiles_load(dir, &ps) != CLB_OK) {
        clb_profiles_free(&ps);
        return CLB_OK;   /* profiles are a bonus here; the rows come first */
    }
    struct cmp_map tried = {.nk = 2};
    int rc = CLB_OK;
    for (size_t i = 0; i < in->set.n && rc == CLB_OK; i++) {
        const struct clb_row *r = &in->set.v[i];
        int c = b->col[i];
        if (c < 0 || !isnan(t->cols[c].peak_gbs) || !r->profile[0])
            continue;
        uint64_t k[2] = {(uint64_t)c, CMP_KEY(r->profile)};
        size_t before = tried.n;
        if (cmp_map_add(&tried, k, 1) < -1)
            rc = CLB_ESYS;
        if (tried.n == before)
            continue;
        const struct clb_profile *p = clb_profiles_find(&ps, r->profile);
        if (p && p->peak_bandwidth_gbs > 0)
            t->cols[c].peak_gbs = p->peak_bandwidth_gbs;
    }
    for (int c = 0; c < t->ncols; c++)
        profile_peaks(&t->cols[c], &ps);
    cmp_map_free(&tried);
    clb_profiles_free(&ps);
    if (rc)
        clb_oom();
    return rc;
}

/* ---- building ----------------------------------------------------------------- */

/* "no selected row has a pct_measured_peak figure": which columns lack which
 * ceilings, and which workloads measure them. CLB_EUSAGE. */
static int no_measured_message(const struct cmp_table *t)
{
    struct clb_buf m = {0}, e = {0};
    for (int c = 0; c < t->ncols; c++) {
        const struct cmp_col *col = &t->cols[c];
        if (!col->lacks)
            continue;
        clb_buf_printf(&m, "%s'%s' lacks ", m.len ? "; " : "", cmp_esc_tmp(&e, col->label, 0));
        for (int k = 0, n = 0; k < CLB_NCEILINGS; k++)
            if (col->lacks & (1u << k))
                clb_buf_printf(&m, "%s%s", n++ ? ", " : "", clb_ceiling_name((enum clb_ceiling_kind)k));
    }
    char *wls = clb_ceiling_workloads();
    clb_seterr("no selected row has a %s figure: %s%s (measured ceilings come from ok rows of %s "
               "on the same device%s)", t->metric->name, m.len ? "" : "no row has a ceiling kind",
               clb_buf_str(&m), wls ? wls : "the workloads that measure them",
               t->ceilings_file ? " in --ceilings FILE" : ", or from --ceilings FILE");
    free(wls);
    clb_buf_free(&m);
    clb_buf_free(&e);
    return CLB_EUSAGE;
}

/* Add row i's workload to the list of unshown device u (a few names). */
static void unshown_workload(struct cmp_in *in, struct cmp_unshown *u, size_t i)
{
    const char *w = in->set.v[i].workload;
    if (clb_list_has(u->workloads, w) || strlen(u->workloads) > 200)
        return;
    struct clb_buf b = {0};
    clb_buf_printf(&b, "%s%s%s", u->workloads, *u->workloads ? ", " : "", w);
    const char *x = cmp_in_take(in, &b);
    if (x)
        u->workloads = x;
}

/* The measured devices of the files that have no column: none of their rows
 * passed the selection. The table says so (one line each), so a device the
 * user named never disappears without a word. */
static int find_unshown(struct build *b)
{
    struct cmp_in *in = b->in;
    struct cmp_table *t = b->t;
    struct cmp_map shown = {.nk = 2}, seen = {.nk = 2};
    size_t cap = 0;
    int rc = CLB_OK;
    for (int c = 0; c < t->ncols && !rc; c++) {
        uint64_t k[2] = {CMP_KEY(t->cols[c].device), CMP_KEY(t->cols[c].host)};
        if (!t->cols[c].reference && cmp_map_add(&shown, k, c) < -1)
            rc = CLB_ESYS;
    }
    for (size_t i = 0; i < in->set.n && !rc; i++) {
        const struct clb_row *r = &in->set.v[i];
        uint64_t k[2] = {CMP_KEY(r->device), CMP_KEY(r->host)};
        if (!strcmp(r->status, "reference") || cmp_map_get(&shown, k) >= 0)
            continue;
        int u = cmp_slot(&seen, k, (void **)&t->unshown, t->nunshown, &cap, sizeof *t->unshown);
        if (u < 0) {
            rc = CLB_ESYS;
            break;
        }
        if (u == t->nunshown)
            t->unshown[t->nunshown++] = (struct cmp_unshown){r->device, r->host,
                                                             in->files[in->file[i]], ""};
        unshown_workload(in, &t->unshown[u], i);
    }
    cmp_map_free(&shown);
    cmp_map_free(&seen);
    if (rc)
        clb_oom();
    return rc;
}

/* keep_rows: what the table made of each row (the rows themselves are
 * handed over by cmp_build). */
static int keep(struct build *b)
{
    struct cmp_in *in = b->in;
    struct cmp_table *t = b->t;
    t->ri = malloc((in->set.n + 1) * sizeof *t->ri);
    if (!t->ri)
        return clb_oom();
    for (size_t i = 0; i < in->set.n; i++) {
        const struct cmp_size *z = &in->sizes[in->size[i]];
        int sel = b->sel[i] && b->col[i] >= 0;
        t->ri[i] = (struct cmp_rowinfo){sel ? b->col[i] : -1, sel ? b->line[i] : -1, b->kind[i],
                                        in->file[i], z->canon, z->num};
    }
    t->nrows = in->set.n;
    return CLB_OK;
}

static int build(struct cmp_table *t, struct cmp_in *in, const struct cmp_filter *flt,
                 const char *sel)
{
    struct build b = {.t = t, .in = in, .flt = flt, .sel = sel, .swept = {.nk = 2},
                      .pts = {.nk = 6}};
    int rc = CLB_ESYS;
    unsigned long seq = clb_errseq();
    b.col = malloc((in->set.n + 1) * sizeof *b.col);
    b.line = malloc((in->set.n + 1) * sizeof *b.line);
    b.kind = flt->keep_rows ? calloc(in->set.n + 1, sizeof *b.kind) : NULL;
    if (!b.col || !b.line || (flt->keep_rows && !b.kind)) {
        clb_oom();
        goto out;
    }
    if ((rc = find_cols(&b)))
        goto out;
    if ((t->metric->measured || flt->plot || flt->ceilings || flt->headline) &&
        (rc = find_ceilings(&b)))
        goto out;
    if ((rc = find_sweeps(&b)) || (rc = find_lines(&b)) || (rc = order_cells(&b)))
        goto out;
    for (size_t k = 0; k < b.nunfit; k++)
        clb_warn_unfit(b.unfit[k].wl, b.unfit[k].n, "in the files", "the figures");
    if (!(t->untyped = cmp_in_take(in, &b.untyped))) {
        rc = CLB_ESYS;
        goto out;
    }
    if ((rc = label_cols(&b)))
        goto out;
    if (!t->nlines && !(flt->plot && t->npoints) && !flt->keep_rows) {
        rc = t->metric->measured ? no_measured_message(t) : cmp_no_figure(t->metric);
        goto out;
    }
    rc = find_peaks(&b);
    if (!rc)
        rc = find_unshown(&b);
    if (!rc && flt->keep_rows)
        rc = keep(&b);
out:
    if (rc == CLB_ESYS && clb_errseq() == seq)   /* an allocation failed without a word */
        clb_oom();
    cmp_map_free(&b.swept);
    cmp_map_free(&b.pts);
    clb_buf_free(&b.untyped);
    free(b.unfit);
    free(b.sw);
    free(b.cells);
    free(b.col);
    free(b.line);
    free(b.kind);
    return rc;
}

/* Do the selected rows name more than one device (measured or published)? */
static int several_devices(const struct cmp_in *in, const char *sel)
{
    const char *first = NULL;
    for (size_t i = 0; i < in->set.n; i++) {
        if (!sel[i])
            continue;
        if (first && first != in->set.v[i].device)   /* interned: equal names, equal pointers */
            return 1;
        first = in->set.v[i].device;
    }
    return 0;
}

/* A device is never left out without a word: the cache filter (--any-size,
 * the lineup) drops a device's cache-resident rows of a workload only where
 * the device has other rows of that workload; a device whose every selected
 * row of a workload is cache-resident keeps them (its cells marked C). A
 * device here is (published?, device, host). */
static int cache_filter(struct cmp_in *in, const struct cmp_filter *f, int nfiles, char *sel)
{
    struct cmp_map cols = {.nk = 4};
    int *other = NULL, n = 0;
    size_t cap = 0;
    int rc = CLB_OK;
    for (size_t pass = 0; pass < 2 && !rc; pass++)
        for (size_t i = 0; i < in->set.n && !rc; i++) {
            const struct clb_row *r = &in->set.v[i];
            if (!sel[i] || in->file[i] >= nfiles)
                continue;
            uint64_t k[4] = {(uint64_t)!strcmp(r->status, "reference"), CMP_KEY(r->device),
                             CMP_KEY(r->host), CMP_KEY(r->workload)};
            int c = cmp_slot(&cols, k, (void **)&other, n, &cap, sizeof *other);
            if (c < 0) {
                rc = clb_oom();
                continue;
            }
            n += c == n;
            int out = cmp_in_cache_out(f, r);
            if (pass == 0)
                other[c] += !out;   /* rows the filter keeps */
            else if (out && other[c])
                sel[i] = 0;
        }
    cmp_map_free(&cols);
    free(other);
    return rc;
}

/* cmp_in_select, then the cache filter (cache_filter): every filter but the
 * cache's first. */
static int select_pass(struct cmp_in *in, const struct cmp_filter *f, int nfiles, char *sel)
{
    struct cmp_filter all = *f;
    all.include_cache = 1;
    int rc = cmp_in_select(in, &all, 0, nfiles, sel, "these files");
    return rc || !f->any_size || f->include_cache ? rc : cache_filter(in, f, nfiles, sel);
}

/* Select the rows; f->line_up: when the selection spans several devices,
 * select again with any_size (each device runs its own default sizes), and
 * say so in f->line_up (0: the lines stay size by size). */
static int select_rows(struct cmp_in *in, struct cmp_filter *f, int nfiles, char *sel)
{
    f->line_up = f->line_up && !f->size && !f->any_size;
    int rc = select_pass(in, f, nfiles, sel);
    if (rc || !f->line_up)
        return rc;
    if (!(f->line_up = several_devices(in, sel)))
        return CLB_OK;
    f->any_size = 1;
    return select_pass(in, f, nfiles, sel);
}

int cmp_build(struct cmp_table *t, char **files, int nfiles, const struct cmp_filter *flt,
              const struct cmp_metric *metric)
{
    *t = (struct cmp_table){.metric = metric, .ref = -1};
    struct cmp_in in = {0};
    struct cmp_filter f = *flt;
    char *sel = NULL;
    int rc = cmp_in_read(&in, files, nfiles);
    if (!rc && !(sel = malloc(in.set.n + 1)))
        rc = clb_oom();
    if (!rc && !(rc = select_rows(&in, &f, nfiles, sel)))
        rc = build(t, &in, &f, sel);
    free(sel);
    t->lined_up = f.line_up ? 1 + f.include_cache : 0;
    t->cache_out = f.any_size && !f.include_cache;
    if (!rc && flt->keep_rows) {   /* the rows too: their strings live in the same arena */
        t->rows = in.set.v;
        in.set.v = NULL;
        in.set.n = in.set.cap = 0;
    }
    /* the table keeps the strings (rows' and derived), not the rows */
    cmp_in_free_keep(&in, &t->arena);
    if (rc)
        cmp_free(t);
    return rc;
}

int cmp_set_relative(struct cmp_table *t, const char *device)
{
    int found = -1, nfound = 0;
    for (int c = 0; c < t->ncols; c++) {
        if (clb_strieq(t->cols[c].label, device)) {   /* an exact name wins */
            t->ref = c;
            return CLB_OK;
        }
        if (clb_stristr(t->cols[c].label, device)) {
            found = c;
            nfound++;
        }
    }
    if (nfound == 1) {
        t->ref = found;
        return CLB_OK;
    }
    struct clb_buf list = {0}, e = {0};
    for (int c = 0; c < t->ncols; c++)
        clb_buf_printf(&list, "%s'%s'", c ? ", " : "", cmp_esc_tmp(&e, t->cols[c].label, 0));
    clb_seterr("--relative-to '%s' %s (columns: %s)", cmp_esc_tmp(&e, device, 0),
               nfound ? "matches several columns" : "matches no column", clb_buf_str(&list));
    clb_buf_free(&list);
    clb_buf_free(&e);
    return CLB_EUSAGE;
}

void cmp_free(struct cmp_table *t)
{
    for (int c = 0; t->cols && c < t->ncols; c++)
        free(t->cols[c].files);
    free(t->cols);
    free(t->lines);
    free(t->cells);
    free(t->points);
    free(t->metrics);
    free(t->unshown);
    free(t->rows);
    free(t->ri);
    clb_arena_free(&t->arena);
    *t = (struct cmp_table){.ref = -1};
}

/* clbench compare: reading result files into a table of configurations x
 * columns (devices or published sources). */
#define _GNU_SOURCE
#include "clb_compare.h"
#include "clb_profile.h"
#include "clbench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const metric_names[] = {"gbps", "gbps_best", "gflops", "pct_peak"};

int cmp_metric_parse(const char *s)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(s, metric_names[i]) == 0)
            return i;
    return -1;
}

const char *cmp_metric_name(enum cmp_metric m) { return metric_names[m]; }

const char *cmp_metric_unit(enum cmp_metric m)
{
    return m == CMP_GFLOPS ? "GFlop/s" : m == CMP_PCT_PEAK ? "% of peak bandwidth" : "GB/s";
}

static double metric_of(const struct clb_row *r, enum cmp_metric m)
{
    switch (m) {
    case CMP_GBPS: return r->gbps;
    case CMP_GBPS_BEST: return r->gbps_best;
    case CMP_GFLOPS: return r->gflops;
    case CMP_PCT_PEAK: return r->pct_peak_bw;
    }
    return NAN;
}

/* Rows of every file, each remembering its file. */
struct input {
    struct clb_rowset set;   /* every file's rows, strings in one arena */
    struct clb_row *rows;    /* = set.v */
    int *file;
    size_t n;
};

static int read_all(struct input *in, char **files, int nfiles)
{
    memset(in, 0, sizeof *in);
    for (int f = 0; f < nfiles; f++) {
        struct stat sb;
        if (stat(files[f], &sb) == 0 && S_ISDIR(sb.st_mode)) {
            clb_seterr("'%s' is a directory, not a results file (try '%s/*.csv')", files[f],
                       files[f]);
            return CLB_EUSAGE;
        }
        int rc = clb_results_read(files[f], &in->set);
        in->rows = in->set.v;
        if (rc)
            return rc;
        size_t n = in->set.n - in->n;
        void *nf = realloc(in->file, (in->set.n + 1) * sizeof *in->file);
        if (!nf) {
            clb_seterr("out of host memory reading '%s'", files[f]);
            return CLB_ESYS;
        }
        in->file = nf;
        for (size_t i = 0; i < n; i++)
            in->file[in->n + i] = f;
        in->n = in->set.n;
    }
    return CLB_OK;
}

static int is_value_status(const char *s) { return !strcmp(s, "ok") || !strcmp(s, "reference"); }

/* Higher is worse: which non-ok status a cell shows. */
static int bad_rank(const char *s)
{
    return !strcmp(s, "error") ? 3 : !strcmp(s, "failed") ? 2 : !strcmp(s, "skipped") ? 1 : 0;
}

static int selected(const struct clb_row *r, const struct cmp_filter *f)
{
    if (!is_value_status(r->status) && !bad_rank(r->status))
        return 0;   /* an unknown status: not ours to interpret */
    return (!f->workload || clb_list_has(f->workload, r->workload)) &&
           (!f->kernel || clb_list_has(f->kernel, r->kernel)) &&
           (!f->dtype || clb_list_has(f->dtype, r->dtype)) &&
           (!f->size || clb_list_has(f->size, r->size));
}

/* The source of a published figure: detail up to the first ';', ',', '(',
 * ':' or quote, at most three words, a leading directory dropped:
 * "BabelStream 1.0", "NVIDIA whitepaper". */
static void source_of(const char *detail, char *out, size_t n)
{
    char buf[96];
    size_t k = 0;
    int words = 0, inword = 0;
    const char *p = detail, *slash = strchr(detail, '/'), *sp = strchr(detail, ' ');
    if (slash && (!sp || slash < sp))
        p = strrchr(detail, '/') && (!sp || strrchr(detail, '/') < sp) ? strrchr(detail, '/') + 1
                                                                      : slash + 1;
    for (; *p && k + 1 < sizeof buf; p++) {
        if (strchr(";,(:'\"", *p))
            break;
        if (*p == ' ') {
            if (inword && ++words == 3)
                break;
            inword = 0;
        } else {
            inword = 1;
        }
        buf[k++] = *p;
    }
    while (k && buf[k - 1] == ' ')
        k--;
    buf[k] = 0;
    clb_strlcpy(out, k ? buf : "published", n);
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* A small growable array helper: ensure room for one more element. */
static int grow(void **v, int n, int *cap, size_t elem)
{
    if (n < *cap)
        return 0;
    int c = *cap ? 2 * *cap : 16;
    void *nv = realloc(*v, (size_t)c * elem);
    if (!nv) {
        clb_seterr("out of host memory");
        return -1;
    }
    *v = nv;
    *cap = c;
    return 0;
}

static int find_col(struct cmp_table *t, int *cap, const struct clb_row *r, const char *file)
{
    int ref = !strcmp(r->status, "reference");
    char src[96] = "";
    if (ref)
        source_of(r->detail, src, sizeof src);
    for (int i = 0; i < t->ncols; i++) {
        struct cmp_col *c = &t->cols[i];
        if (c->reference == ref && !strcmp(c->device, r->device) && !strcmp(c->host, r->host) &&
            (!ref || (!strcmp(c->source, src) && !strcmp(c->driver, r->driver))))
            return i;
    }
    if (grow((void **)&t->cols, t->ncols, cap, sizeof *t->cols))
        return -1;
    struct cmp_col *c = &t->cols[t->ncols];
    memset(c, 0, sizeof *c);
    c->reference = ref;
    clb_strlcpy(c->device, r->device[0] ? r->device : "unnamed device", sizeof c->device);
    clb_strlcpy(c->host, r->host, sizeof c->host);
    clb_strlcpy(c->driver, r->driver, sizeof c->driver);
    clb_strlcpy(c->source, ref ? src : base_name(file), sizeof c->source);
    clb_strlcpy(c->file, file, sizeof c->file);
    c->peak_gbs = NAN;
    return t->ncols++;
}

/* Column labels: the device name; published sources add "(source)", and the
 * driver (or host) field where one device has several figures from one source
 * (ECC on and off); two measured columns of one device name on different
 * hosts add "@host". */
static void label_cols(struct cmp_table *t)
{
    for (int i = 0; i < t->ncols; i++) {
        struct cmp_col *c = &t->cols[i];
        int twin = 0;
        for (int j = 0; j < t->ncols; j++)
            if (j != i && c->reference == t->cols[j].reference &&
                !strcmp(c->device, t->cols[j].device) &&
                (!c->reference || !strcmp(c->source, t->cols[j].source)))
                twin = 1;
        if (c->reference && twin && c->driver[0])
            snprintf(c->label, sizeof c->label, "%s (%s; %s)", c->device, c->source, c->driver);
        else if (c->reference && twin && c->host[0])
            snprintf(c->label, sizeof c->label, "%s (%s; %s)", c->device, c->source, c->host);
        else if (c->reference)
            snprintf(c->label, sizeof c->label, "%s (%s)", c->device, c->source);
        else if (twin)
            snprintf(c->label, sizeof c->label, "%s @%s", c->device, c->host[0] ? c->host : "?");
        else
            snprintf(c->label, sizeof c->label, "%s", c->device);
    }
}

/* ---- parameters ------------------------------------------------------- */

/* Iterate "k=v" items of a params string separated by spaces, ',' or ';'. */
static const char *next_param(const char *p, char *key, size_t kn, char *val, size_t vn)
{
    while (*p == ' ' || *p == ',' || *p == ';')
        p++;
    if (!*p)
        return NULL;
    size_t len = strcspn(p, " ,;");
    const char *eq = memchr(p, '=', len);
    size_t kl = eq ? (size_t)(eq - p) : len;
    snprintf(key, kn, "%.*s", (int)kl, p);
    snprintf(val, vn, "%.*s", eq ? (int)(len - kl - 1) : 0, eq ? eq + 1 : "");
    return p + len;
}

static int param_get(const char *params, const char *key, char *val, size_t vn)
{
    char k[64], v[128];
    const char *p = params;
    while ((p = next_param(p, k, sizeof k, v, sizeof v)))
        if (!strcmp(k, key)) {
            clb_strlcpy(val, v, vn);
            return 1;
        }
    return 0;
}

/* Swept keys: (workload, key) pairs. */
struct sweeps {
    struct {
        char workload[32], key[64];
    } *v;
    int n, cap;
};

static int is_swept(const struct sweeps *s, const char *wl, const char *key)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->v[i].workload, wl) && !strcmp(s->v[i].key, key))
            return 1;
    return 0;
}

static int add_sweep(struct sweeps *s, const char *wl, const char *key)
{
    if (grow((void **)&s->v, s->n, &s->cap, sizeof *s->v))
        return -1;
    clb_strlcpy(s->v[s->n].workload, wl, sizeof s->v[s->n].workload);
    clb_strlcpy(s->v[s->n].key, key, sizeof s->v[s->n].key);
    s->n++;
    return 0;
}

/* A key is swept when two rows of one configuration on one column differ in
 * it: then each value is a line of its own (stride=1, 2, ...), while a key
 * that merely differs between devices (the vector width each one chose) is
 * not part of the line. */
static int find_sweeps(const struct input *in, const char *sel, const int *col, struct sweeps *s,
                       const char *mode)
{
    if (mode && strcmp(mode, "auto") != 0) {   /* the keys named (none for "none") */
        for (size_t i = 0; i < in->n; i++) {
            char k[64], v[128];
            const char *p = in->rows[i].params;
            while (sel[i] && (p = next_param(p, k, sizeof k, v, sizeof v)))
                if (clb_list_has(mode, k) && !is_swept(s, in->rows[i].workload, k) &&
                    add_sweep(s, in->rows[i].workload, k))
                    return -1;
        }
        return 0;
    }
    for (size_t i = 0; i < in->n; i++) {
        const struct clb_row *a = &in->rows[i];
        if (!sel[i])
            continue;
        for (size_t j = i + 1; j < in->n; j++) {
            const struct clb_row *b = &in->rows[j];
            if (!sel[j] || col[i] != col[j] || strcmp(a->workload, b->workload) ||
                strcmp(a->kernel, b->kernel) || strcmp(a->dtype, b->dtype) ||
                strcmp(a->size, b->size) || !strcmp(a->params, b->params))
                continue;
            char k[64], v[128], w[128];
            const char *p = a->params;
            while ((p = next_param(p, k, sizeof k, v, sizeof v))) {
                if (param_get(b->params, k, w, sizeof w) && !strcmp(v, w))
                    continue;
                if (!is_swept(s, a->workload, k) && add_sweep(s, a->workload, k))
                    return -1;
            }
        }
    }
    return 0;
}

/* The swept part of a row's params, in the row's order. */
static void sweep_of(const struct sweeps *s, const struct clb_row *r, char *out, size_t n,
                     char *first_key, size_t fkn, double *first_num)
{
    char k[64], v[128];
    const char *p = r->params;
    out[0] = 0;
    first_key[0] = 0;
    *first_num = NAN;
    while ((p = next_param(p, k, sizeof k, v, sizeof v))) {
        if (!is_swept(s, r->workload, k))
            continue;
        if (!first_key[0]) {
            char *end;
            double x = strtod(v, &end);
            clb_strlcpy(first_key, k, fkn);
            *first_num = (*v && !*end) ? x : NAN;
        }
        clb_appendf(out, n, "%s%s=%s", out[0] ? " " : "", k, v);
    }
}

/* "1048576" -> 1048576, "64x64" -> 4096, "16x16x16x16" -> 65536; NAN otherwise. */
static double size_number(const char *s)
{
    double prod = 1;
    const char *p = s;
    if (!*p)
        return NAN;
    for (;;) {
        char *end;
        double x = strtod(p, &end);
        if (end == p)
            return NAN;
        prod *= x;
        if (!*end)
            return prod;
        if (*end != 'x' && *end != 'X')
            return NAN;
        p = end + 1;
    }
}

/* ---- lines ------------------------------------------------------------ */

struct names {
    char (*v)[48];
    int n, cap;
};

static int name_index(struct names *ns, const char *s)
{
    for (int i = 0; i < ns->n; i++)
        if (!strcmp(ns->v[i], s))
            return i;
    if (grow((void **)&ns->v, ns->n, &ns->cap, sizeof *ns->v))
        return -1;
    clb_strlcpy(ns->v[ns->n], s, sizeof ns->v[0]);
    return ns->n++;
}

static int find_line(struct cmp_table *t, int *cap, const struct clb_row *r, const char *sweep,
                     int any_size)
{
    const char *size = any_size ? "any" : r->size;
    for (int i = 0; i < t->nlines; i++) {
        const struct cmp_line *l = &t->lines[i];
        if (!strcmp(l->workload, r->workload) && !strcmp(l->kernel, r->kernel) &&
            !strcmp(l->dtype, r->dtype) && !strcmp(l->size, size) && !strcmp(l->sweep, sweep))
            return i;
    }
    if (grow((void **)&t->lines, t->nlines, cap, sizeof *t->lines))
        return -1;
    struct cmp_line *l = &t->lines[t->nlines];
    memset(l, 0, sizeof *l);
    clb_strlcpy(l->workload, r->workload, sizeof l->workload);
    clb_strlcpy(l->kernel, r->kernel, sizeof l->kernel);
    clb_strlcpy(l->dtype, r->dtype, sizeof l->dtype);
    clb_strlcpy(l->size, size, sizeof l->size);
    clb_strlcpy(l->sweep, sweep, sizeof l->sweep);
    l->size_num = size_number(size);
    l->first = t->nlines;
    return t->nlines++;
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

/* ---- peaks ------------------------------------------------------------ */

/* A column's peak bandwidth: derived from its rows (gbps / pct_peak_bw), else
 * from the profile named in its rows or matching its device name. */
static void find_peaks(struct cmp_table *t, const struct input *in, const int *col)
{
    for (size_t i = 0; i < in->n; i++) {
        const struct clb_row *r = &in->rows[i];
        if (col[i] >= 0 && isnan(t->cols[col[i]].peak_gbs) && r->gbps > 0 && r->pct_peak_bw > 0)
            t->cols[col[i]].peak_gbs = r->gbps * 100.0 / r->pct_peak_bw;
    }
    struct clb_profiles ps = {0};
    const char *dir = clb_profiles_dir(NULL);
    if (!dir || clb_profiles_load(dir, &ps) != CLB_OK)
        return;   /* profiles are a bonus here; the rows come first */
    for (int c = 0; c < t->ncols; c++) {
        struct cmp_col *cc = &t->cols[c];
        for (size_t i = 0; i < in->n && isnan(cc->peak_gbs); i++) {
            if (col[i] != c || !in->rows[i].profile[0])
                continue;
            const struct clb_profile *p = clb_profiles_find(&ps, in->rows[i].profile);
            if (p)
                cc->peak_gbs = p->peak_bandwidth_gbs;
        }
        /* by name: the profile with the longest match substring in the device
         * name wins ("K20X" over "K20") */
        size_t best_len = 0;
        double best_peak = NAN;
        for (size_t k = 0; k < ps.n && isnan(cc->peak_gbs); k++) {
            const char *m = ps.v[k].match;
            char word[128];
            while (m && *m) {
                size_t len = strcspn(m, ",");
                snprintf(word, sizeof word, "%.*s", (int)len, m);
                char *w = word;
                while (*w == ' ')
                    w++;
                for (size_t e = strlen(w); e && w[e - 1] == ' '; e--)
                    w[e - 1] = 0;
                if (*w && strlen(w) > best_len && clb_stristr(cc->device, w)) {
                    best_len = strlen(w);
                    best_peak = ps.v[k].peak_bandwidth_gbs;
                }
                m += len;
                if (*m == ',')
                    m++;
            }
        }
        if (isnan(cc->peak_gbs))
            cc->peak_gbs = best_peak;
    }
    clb_profiles_free(&ps);
}

/* ---- building --------------------------------------------------------- */

static void describe_filter(const struct cmp_filter *f, char *buf, size_t n)
{
    buf[0] = 0;
    const char *names[] = {"workload", "kernel", "dtype", "size"};
    const char *vals[] = {f->workload, f->kernel, f->dtype, f->size};
    for (int i = 0; i < 4; i++)
        if (vals[i])
            clb_appendf(buf, n, "%s%s=%s", buf[0] ? ", " : "", names[i], vals[i]);
}

static void fill_cell(struct cmp_cell *c, const struct clb_row *r, enum cmp_metric m)
{
    if (is_value_status(r->status)) {
        double v = metric_of(r, m);
        if (isnan(v))
            return;
        if (!c->n || v > c->best)
            c->best = v;
        if (!c->n || v < c->min)
            c->min = v;
        c->n++;
    } else {
        if (bad_rank(r->status) > bad_rank(c->bad))
            clb_strlcpy(c->bad, r->status, sizeof c->bad);
        c->nbad++;
    }
}

/* Keep the lines where some column has a figure or a failure to show. */
static void drop_empty_lines(struct cmp_table *t)
{
    int k = 0;
    for (int i = 0; i < t->nlines; i++) {
        int any = 0;
        for (int c = 0; c < t->ncols; c++)
            any |= cmp_cell_at(t, i, c)->n > 0 || cmp_cell_at(t, i, c)->nbad > 0;
        if (!any)
            continue;
        if (k != i) {
            t->lines[k] = t->lines[i];
            memmove(cmp_cell_at(t, k, 0), cmp_cell_at(t, i, 0),
                    (size_t)t->ncols * sizeof *t->cells);
        }
        k++;
    }
    t->nlines = k;
}

static int build(struct cmp_table *t, const struct input *in, char **files,
                 const struct cmp_filter *flt, char *sel, int *col, int *line)
{
    int ccap = 0, lcap = 0, nsel = 0;
    struct sweeps sw = {0};
    struct names names[3] = {{0}};
    int rc = CLB_ESYS;
    for (size_t i = 0; i < in->n; i++) {
        sel[i] = (char)selected(&in->rows[i], flt);
        col[i] = -1;
        if (sel[i]) {
            nsel++;
            if ((col[i] = find_col(t, &ccap, &in->rows[i], files[in->file[i]])) < 0)
                goto out;
        }
    }
    if (!nsel) {
        char what[512];
        describe_filter(flt, what, sizeof what);
        clb_seterr("no result rows%s%s in the given file(s) (rows with status ok, reference, "
                   "failed, skipped or error count)",
                   what[0] ? " match " : "", what);
        rc = CLB_EUSAGE;
        goto out;
    }
    if (find_sweeps(in, sel, col, &sw, flt->sweep))
        goto out;
    for (size_t i = 0; i < in->n; i++) {
        if (!sel[i])
            continue;
        char sweep[192], key[32];
        double num;
        sweep_of(&sw, &in->rows[i], sweep, sizeof sweep, key, sizeof key, &num);
        if ((line[i] = find_line(t, &lcap, &in->rows[i], sweep, flt->any_size)) < 0)
            goto out;
        struct cmp_line *l = &t->lines[line[i]];
        clb_strlcpy(l->sweep_key, key, sizeof l->sweep_key);
        l->sweep_num = num;
        const char *parts[3] = {l->workload, l->kernel, l->dtype};
        for (int k = 0; k < 3; k++)
            if ((l->order[k] = name_index(&names[k], parts[k])) < 0)
                goto out;
    }
    /* sort the lines, then map old line indices to new ones through `first` */
    qsort(t->lines, (size_t)t->nlines, sizeof *t->lines, line_order);
    int *pos = malloc((size_t)t->nlines * sizeof *pos);
    t->cells = calloc((size_t)t->nlines * (size_t)t->ncols, sizeof *t->cells);
    if (!pos || !t->cells) {
        free(pos);
        clb_seterr("out of host memory");
        goto out;
    }
    for (int i = 0; i < t->nlines; i++)
        pos[t->lines[i].first] = i;
    for (size_t i = 0; i < in->n; i++)
        if (sel[i])
            fill_cell(cmp_cell_at(t, pos[line[i]], col[i]), &in->rows[i], t->metric);
    free(pos);
    drop_empty_lines(t);
    if (!t->nlines) {
        clb_seterr("no selected row has a %s figure (try --metric gbps)",
                   cmp_metric_name(t->metric));
        rc = CLB_EUSAGE;
        goto out;
    }
    label_cols(t);
    find_peaks(t, in, col);
    rc = CLB_OK;
out:
    free(sw.v);
    for (int k = 0; k < 3; k++)
        free(names[k].v);
    return rc;
}

int cmp_build(struct cmp_table *t, char **files, int nfiles, const struct cmp_filter *flt,
              enum cmp_metric metric)
{
    memset(t, 0, sizeof *t);
    t->metric = metric;
    t->ref = -1;
    struct input in;
    int rc = read_all(&in, files, nfiles);
    if (rc == CLB_OK) {
        char *sel = malloc(in.n + 1);
        int *col = malloc((in.n + 1) * sizeof *col);
        int *line = malloc((in.n + 1) * sizeof *line);
        if (sel && col && line) {
            rc = build(t, &in, files, flt, sel, col, line);
        } else {
            clb_seterr("out of host memory");
            rc = CLB_ESYS;
        }
        free(sel);
        free(col);
        free(line);
    }
    clb_rowset_free(&in.set);
    free(in.file);
    if (rc)
        cmp_free(t);
    return rc;
}

int cmp_set_relative(struct cmp_table *t, const char *device)
{
    int found = -1, nfound = 0;
    char list[1024] = "";
    for (int c = 0; c < t->ncols; c++) {
        clb_appendf(list, sizeof list, "%s'%s'", c ? ", " : "", t->cols[c].label);
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
    clb_seterr("--relative-to '%s' %s (columns: %s)", device,
               nfound ? "matches several columns" : "matches no column", list);
    return CLB_EUSAGE;
}

void cmp_free(struct cmp_table *t)
{
    free(t->cols);
    free(t->lines);
    free(t->cells);
    memset(t, 0, sizeof *t);
    t->ref = -1;
}

double cmp_value(const struct cmp_table *t, int line, int col)
{
    const struct cmp_cell *c = cmp_cell_at(t, line, col);
    if (!c->n)
        return NAN;
    if (t->ref < 0)
        return c->best;
    const struct cmp_cell *r = cmp_cell_at(t, line, t->ref);
    return r->n && r->best != 0 ? c->best / r->best : NAN;
}

double cmp_spread_pct(const struct cmp_cell *c)
{
    if (c->n < 2 || !(c->best > 0))
        return NAN;
    return (c->best - c->min) / 2.0 / c->best * 100.0;
}

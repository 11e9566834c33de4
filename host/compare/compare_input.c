/* clbench compare: reading the files, canonical sizes, parsed params and
 * the filters. Every string of the rows is interned in one arena
 * (clb_results_read), so equal strings are equal pointers and keys of
 * pointers stand for keys of strings (the hash map: compare_map.c). */
#define _GNU_SOURCE
#include "compare_priv.h"
#include "clb_params.h"
#include "clb_workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* ---- reading ----------------------------------------------------------- */

int cmp_in_read(struct cmp_in *in, char **files, int nfiles)
{
    in->files = files;
    for (int f = 0; f < nfiles; f++) {
        struct stat sb;
        if (stat(files[f], &sb) == 0 && S_ISDIR(sb.st_mode)) {
            struct cmp_esc_args e = {0};
            const char *name = cmp_esc_arg(&e, files[f], 0);
            clb_seterr("'%s' is a directory, not a results file (try '%s/*.csv')", name, name);
            cmp_esc_args_free(&e);
            return CLB_EUSAGE;
        }
        size_t before = in->set.n;
        int rc = clb_results_read(files[f], &in->set);
        if (rc)
            return rc;
        int *nf = realloc(in->file, (in->set.n + 1) * sizeof *in->file);
        if (!nf)
            return clb_err(CLB_ESYS, CLB_OOM " reading '%s'", files[f]);
        in->file = nf;
        for (size_t i = before; i < in->set.n; i++)
            in->file[i] = f;
    }
    return cmp_in_prepare(in);
}

const char *cmp_in_intern(struct cmp_in *in, const char *s, size_t n)
{
    return clb_arena_intern(&in->set.arena, s, n);
}

const char *cmp_in_take(struct cmp_in *in, struct clb_buf *b)
{
    const char *s = b->oom ? NULL : cmp_in_intern(in, clb_buf_str(b), b->len);
    clb_buf_free(b);
    return s;
}

/* "2^28", "256M", "268435456", "8192x8192": every 'x'-separated extent a
 * count (clb_parse_count); canonical form: the extents in decimal. */
static int parse_size(struct cmp_in *in, const char *s, struct cmp_size *z)
{
    *z = (struct cmp_size){.canon = s, .num = NAN};
    struct clb_buf part = {0}, canon = {0};
    double num = 1;
    int nd = 0, ok = *s != 0;
    for (const char *p = s; ok;) {
        size_t len = strcspn(p, "xX");
        part.len = 0;
        clb_buf_add(&part, p, len);
        size_t v;
        ok = !part.oom && nd < 4 && clb_parse_count(clb_buf_str(&part), &v) == CLB_OK;
        if (!ok)
            break;
        z->d[nd++] = v;
        num *= (double)v;
        clb_buf_printf(&canon, "%s%zu", nd > 1 ? "x" : "", v);
        if (!p[len])
            break;
        p += len + 1;
    }
    int rc = part.oom || canon.oom ? CLB_ESYS : CLB_OK;
    clb_buf_free(&part);
    if (ok && !rc) {
        z->num = num;
        z->ndims = nd;
        return (z->canon = cmp_in_take(in, &canon)) ? CLB_OK : CLB_ESYS;
    }
    memset(z->d, 0, sizeof z->d);
    clb_buf_free(&canon);
    return rc;
}

/* Items "k=v" of a params string separated by spaces, ',' or ';'. */
static int parse_params(struct cmp_in *in, const char *p)
{
    size_t start = in->nkv;
    int n = 0;
    for (;;) {
        while (*p == ' ' || *p == ',' || *p == ';')
            p++;
        if (!*p)
            break;
        size_t len = strcspn(p, " ,;");
        const char *eq = memchr(p, '=', len);
        size_t kl = eq ? (size_t)(eq - p) : len;
        if (CLB_GROW(in->kv, in->nkv, in->capkv))
            return CLB_ESYS;
        struct cmp_kv *kv = &in->kv[in->nkv];
        kv->key = cmp_in_intern(in, p, kl);
        kv->val = eq ? cmp_in_intern(in, eq + 1, len - kl - 1) : "";
        if (!kv->key || !kv->val)
            return CLB_ESYS;
        in->nkv++;
        n++;
        p += len;
    }
    if (CLB_GROW(in->plists, in->nplists, in->capplists))
        return CLB_ESYS;
    in->plists[in->nplists++] = (struct cmp_plist){start, n};
    return CLB_OK;
}

int cmp_in_prepare(struct cmp_in *in)
{
    size_t n = in->set.n;
    struct cmp_map sizes = {.nk = 1}, params = {.nk = 1};
    int rc = CLB_ESYS;
    in->size = malloc((n + 1) * sizeof *in->size);
    in->plist = malloc((n + 1) * sizeof *in->plist);
    if (!in->size || !in->plist) {
        clb_oom();
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        const struct clb_row *r = &in->set.v[i];
        uint64_t k = CMP_KEY(r->size);
        int s = cmp_slot(&sizes, &k, (void **)&in->sizes, (int)in->nsizes, &in->capsizes,
                         sizeof *in->sizes);
        if (s < -1)
            goto out;
        if (s == (int)in->nsizes) {   /* a size not seen before */
            if (parse_size(in, r->size, &in->sizes[s]))
                goto out;
            in->nsizes++;
        }
        in->size[i] = s;
        k = CMP_KEY(r->params);
        int p = cmp_map_add(&params, &k, (int)in->nplists);
        if (p < -1 || (p == (int)in->nplists && parse_params(in, r->params)))
            goto out;
        in->plist[i] = p;
    }
    rc = CLB_OK;
out:
    cmp_map_free(&sizes);
    cmp_map_free(&params);
    return rc;
}

void cmp_in_free(struct cmp_in *in)
{
    clb_rowset_free(&in->set);
    free(in->file);
    free(in->size);
    free(in->sizes);
    free(in->plist);
    free(in->plists);
    free(in->kv);
    cmp_map_free(&in->splitmap);
    free(in->split);
    cmp_map_free(&in->wls);
    cmp_map_free(&in->kinds);
    free(in->wlv);
    memset(in, 0, sizeof *in);
}

void cmp_in_free_keep(struct cmp_in *in, struct clb_arena *keep)
{
    *keep = in->set.arena;
    memset(&in->set.arena, 0, sizeof in->set.arena);
    cmp_in_free(in);
}

static int kv_order(const void *pa, const void *pb)
{
    const struct cmp_kv *a = pa, *b = pb;
    int c = strcmp(a->key, b->key);
    return c ? c : strcmp(a->val, b->val);
}

const char *cmp_in_params_join(struct cmp_in *in, int p, const struct clb_workload *wl, int role)
{
    int n = in->plists[p].n, k = 0;
    if (!n)
        return "";
    struct cmp_kv *v = malloc((size_t)n * sizeof *v);
    if (!v) {
        clb_oom();
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        const struct cmp_kv *kv = &in->kv[in->plists[p].start + (size_t)i];
        if (!role || (int)clb_param_role_of(wl, kv->key) == role)
            v[k++] = *kv;
    }
    qsort(v, (size_t)k, sizeof *v, kv_order);
    struct clb_buf b = {0};
    for (int i = 0; i < k; i++)
        clb_buf_printf(&b, "%s%s%s%s", i ? "," : "", v[i].key, *v[i].val ? "=" : "", v[i].val);
    free(v);
    return cmp_in_take(in, &b);
}

/* ---- statuses ---------------------------------------------------------- */

int cmp_is_value_status(const char *s) { return !strcmp(s, "ok") || !strcmp(s, "reference"); }

int cmp_bad_rank(const char *s)
{
    return !strcmp(s, "error") ? 3 : !strcmp(s, "failed") ? 2 : !strcmp(s, "skipped") ? 1 : 0;
}

void cmp_count_bad(const char *status, const char **bad, int *nbad)
{
    if (cmp_bad_rank(status) > cmp_bad_rank(*bad))
        *bad = status;
    (*nbad)++;
}

/* ---- the filters --------------------------------------------------------- */

enum { F_WORKLOAD, F_KERNEL, F_DTYPE, F_SIZE, F_RUN, F_CACHE, NF };
static const char *const fopt[NF] = {"--workload", "--kernel", "--dtype", "--size", "--run-id", ""};
static const char *const fplural[NF] = {"workloads", "kernels", "types", "sizes", "run ids", ""};

struct flist {
    char **items;        /* NULL: no filter */
    const char **canon;  /* sizes: each item's canonical form */
    int n;
    struct cmp_map cache;  /* value pointer -> 0/1 */
};

static const char *field_of(const struct cmp_in *in, size_t i, int f)
{
    const struct clb_row *r = &in->set.v[i];
    switch (f) {
    case F_WORKLOAD: return r->workload;
    case F_KERNEL: return r->kernel;
    case F_DTYPE: return r->dtype;
    case F_SIZE: return in->sizes[in->size[i]].canon;
    default: return r->run_id;
    }
}

/* Does v pass filter f (not F_CACHE)? Cached per interned value. -1 on OOM. */
static int passes(struct flist *l, int f, const char *v)
{
    if (!l->items)
        return 1;
    uint64_t k = CMP_KEY(v);
    int c = cmp_map_get(&l->cache, &k);
    if (c >= 0)
        return c;
    int ok = 0;
    for (int j = 0; j < l->n && !ok; j++)
        ok = !strcasecmp(f == F_SIZE ? l->canon[j] : l->items[j], v);
    return cmp_map_add(&l->cache, &k, ok) < -1 ? -1 : ok;
}

/* The message for an empty selection: which filter emptied it, and the
 * names it could have matched among the rows the filters before it keep. */
static void empty_message(struct cmp_in *in, const struct cmp_filter *flt, struct flist *fl,
                          int stage, int f0, int f1, const char *what)
{
    struct clb_buf m = {0}, e = {0};
    const char *vals[NF] = {flt->workload, flt->kernel, flt->dtype, flt->size, flt->run_id, NULL};
    if (stage == F_CACHE) {
        clb_seterr("no rows left: every selected row is cache_resident, which %s leaves out "
                   "(add --include-cache%s)",
                   flt->line_up ? "lining the devices up (as --any-size)" : "--any-size",
                   flt->line_up ? ", or --by-size" : "");
        return;
    }
    clb_buf_printf(&m, "no rows for %s %s (%s in %s", fopt[stage],
                   cmp_esc_tmp(&e, vals[stage], 0), fplural[stage], what);
    for (int s = 0, n = 0; s < stage; s++)
        if (vals[s])
            clb_buf_printf(&m, "%s%s %s", n++ ? " " : " with ", fopt[s],
                           cmp_esc_tmp(&e, vals[s], 0));
    clb_buf_printf(&m, ": ");
    struct cmp_map seen = {.nk = 1};
    int shown = 0, more = 0;
    for (size_t i = 0; i < in->set.n; i++) {
        if (in->file[i] < f0 || in->file[i] >= f1)
            continue;
        int ok = 1;
        for (int s = 0; s < stage && ok; s++)
            ok = passes(&fl[s], s, field_of(in, i, s)) == 1;
        if (!ok)
            continue;
        const char *v = field_of(in, i, stage);
        uint64_t k = CMP_KEY(v);
        size_t before = seen.n;
        if (cmp_map_add(&seen, &k, 1) < -1)
            break;
        if (seen.n == before)
            continue;
        if (shown < 20)
            clb_buf_printf(&m, "%s%s", shown++ ? ", " : "", *v ? cmp_esc_tmp(&e, v, 0) : "''");
        else
            more++;
    }
    if (more)
        clb_buf_printf(&m, " and %d more", more);
    clb_buf_printf(&m, ")");
    clb_seterr("%s", m.oom ? CLB_OOM : clb_buf_str(&m));
    cmp_map_free(&seen);
    clb_buf_free(&m);
    clb_buf_free(&e);
}

int cmp_size_varies(const struct clb_workload *wl)
{
    return wl && (wl->figure.x_size || wl->figure.kind == CLB_FIGURE_STAIRS);
}

int cmp_in_cache_out(const struct cmp_filter *flt, const struct clb_row *r)
{
    /* the lineup keeps the rows of a workload that varies its size whatever the filter says */
    return flt->any_size && !flt->include_cache && clb_metrics_flag(r->metrics, "cache_resident") &&
           !(flt->line_up && cmp_size_varies(clb_workload_find(r->workload)));
}

int cmp_in_select(struct cmp_in *in, const struct cmp_filter *flt, int f0, int f1, char *sel,
                  const char *what)
{
    struct flist fl[NF];
    memset(fl, 0, sizeof fl);
    const char *vals[NF] = {flt->workload, flt->kernel, flt->dtype, flt->size, flt->run_id, NULL};
    int rc = CLB_ESYS;
    for (int s = 0; s < NF; s++) {
        fl[s].cache.nk = 1;
        if (!vals[s])
            continue;
        fl[s].items = clb_split(vals[s], &fl[s].n);
        if (!fl[s].items)
            goto out;
        if (s == F_SIZE) {
            fl[s].canon = calloc((size_t)fl[s].n + 1, sizeof *fl[s].canon);
            if (!fl[s].canon)
                goto out;
            for (int j = 0; j < fl[s].n; j++) {
                struct cmp_size z;
                if (parse_size(in, fl[s].items[j], &z))
                    goto out;
                fl[s].canon[j] = z.canon;
            }
        }
    }
    size_t kept[NF + 1] = {0};   /* [0] rows of the files, [s + 1] passing filters 0..s */
    for (size_t i = 0; i < in->set.n; i++) {
        if (in->file[i] < f0 || in->file[i] >= f1)
            continue;   /* another side's row: left as it is */
        if (clb_row_is_sum(&in->set.v[i])) {
            sel[i] = 0; /* no device's own figure: model scaling's */
            continue;
        }
        kept[0]++;
        int s = 0;
        for (; s < NF; s++) {
            int p = s == F_CACHE ? !cmp_in_cache_out(flt, &in->set.v[i])
                                 : passes(&fl[s], s, field_of(in, i, s));
            if (p < 0)
                goto out;
            if (!p)
                break;
            kept[s + 1]++;   /* rows passing filters 0..s */
        }
        sel[i] = s == NF;
    }
    rc = CLB_OK;
    if (!kept[0]) {
        rc = clb_eusage("no result rows in %s", what);
    } else if (!kept[NF]) {
        int stage = 0;
        while (kept[stage + 1])
            stage++;
        empty_message(in, flt, fl, stage, f0, f1, what);
        rc = CLB_EUSAGE;
    }
out:
    if (rc == CLB_ESYS)
        clb_oom();
    for (int s = 0; s < NF; s++) {
        free(fl[s].items);
        free(fl[s].canon);
        cmp_map_free(&fl[s].cache);
    }
    return rc;
}

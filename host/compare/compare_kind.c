/* clbench compare: what the registry says of a row -- its workload's entry,
 * what the workload's count() says of the row's configuration (device work,
 * host-bound, compute-bound, its main unit) and so the figure the row is
 * about. The table (compare_data.c) and the gate (compare_baseline.c) ask
 * here, so both see a row the same way; no workload is named. */
#include "compare_priv.h"
#include "clb_workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const struct clb_workload *cmp_in_wl(struct cmp_in *in, const char *name)
{
    uint64_t k = CMP_KEY(name);
    in->wls.nk = 1;
    int v = cmp_map_get(&in->wls, &k);
    if (v >= 0)
        return v ? in->wlv[v - 1] : NULL;
    const struct clb_workload *wl = clb_workload_find(name);
    if (wl && CLB_GROW(in->wlv, in->nwl, in->capwl) == 0) {
        in->wlv[in->nwl++] = wl;
        cmp_map_add(&in->wls, &k, (int)in->nwl);
    } else {
        cmp_map_add(&in->wls, &k, 0);   /* a cache only: a failed add asks again */
    }
    return wl;
}

/* What the registry's count() of row i (kernel, type, size, params) says:
 * CMP_RK_* bits, 0 when the workload is unknown, the size does not parse or
 * the count refuses. */
static int count_row(struct cmp_in *in, size_t i)
{
    const struct clb_row *r = &in->set.v[i];
    const struct clb_workload *wl = cmp_in_wl(in, r->workload);
    const struct cmp_size *z = &in->sizes[in->size[i]];
    if (!wl || !wl->count || z->ndims != wl->size_dims)
        return 0;
    struct clb_size size = {.ndims = z->ndims, .total = 1};
    int ovf = 0;
    for (int d = 0; d < z->ndims; d++) {
        size.d[d] = z->d[d];
        size.total = clb_mulz(size.total, z->d[d], &ovf);
    }
    if (ovf)
        return 0;
    struct clb_kvlist kv = {0};
    int p = in->plist[i], rc = CLB_OK;
    for (int j = 0; j < in->plists[p].n && !rc; j++) {
        const struct cmp_kv *x = &in->kv[in->plists[p].start + (size_t)j];
        rc = clb_kvlist_add_pair(&kv, x->key, x->val);
    }
    /* a whole group's row (kernel `*`) is counted as the group: its unit */
    struct clb_query q = {strcmp(r->kernel, "*") ? r->kernel : NULL, r->dtype, &size, &kv, NULL};
    struct clb_counts c = {0};
    if (!rc)
        rc = wl->count(&q, &c);
    clb_kvlist_free(&kv);
    if (rc != CLB_OK)
        return 0;
    return CMP_RK_COUNTED | (c.host_bound ? CMP_RK_HOST : 0) |
           (c.compute_bound ? CMP_RK_COMPUTE : 0) | (c.unit == CLB_UNIT_GFLOPS ? CMP_RK_GFLOPS : 0);
}

int cmp_in_kind(struct cmp_in *in, size_t i)
{
    const struct clb_row *r = &in->set.v[i];
    uint64_t k[5] = {CMP_KEY(r->workload), CMP_KEY(r->kernel), CMP_KEY(r->dtype),
                     CMP_KEY(r->size), CMP_KEY(r->params)};
    in->kinds.nk = 5;
    int v = cmp_map_get(&in->kinds, k);
    return v >= 0 ? v : cmp_map_add(&in->kinds, k, count_row(in, i));
}

/* The figure a row is about (its own metric): the workload's declared
 * figure (figure.y_metric), else its count's main unit (gflops or gbps); for
 * a workload the registry does not know, gbps where the row has it. */
static const char *cmp_own_metric(const struct clb_workload *wl, int kind,
                                  const struct clb_row *r)
{
    if (wl && wl->figure.y_metric)
        return wl->figure.y_metric;   /* launch: latency_us, latency: ns_per_load */
    if (kind & CMP_RK_COUNTED)
        return (kind & CMP_RK_GFLOPS) ? "gflops" : "gbps";
    return isnan(r->gbps) && !isnan(r->gflops) ? "gflops" : "gbps";   /* unknown workload */
}

/* Append a copy of m to the n metrics of *v: its index, -1 on OOM. */
static int add_metric(struct cmp_metric **v, int *n, const struct cmp_metric *m)
{
    struct cmp_metric *nv = realloc(*v, ((size_t)*n + 1) * sizeof *nv);
    if (!nv) {
        clb_oom();
        return -1;
    }
    *v = nv;
    nv[*n] = *m;
    return (*n)++;
}

/* The index of the metric called name among the n metrics of *v, added
 * (cmp_metric_lookup) when absent; -1 with a message. */
static int metric_slot(struct cmp_metric **v, int *n, const char *name)
{
    for (int k = 0; k < *n; k++)
        if (!strcmp((*v)[k].name, name))
            return k;
    struct cmp_metric m;
    return cmp_metric_lookup(name, &m) ? -1 : add_metric(v, n, &m);
}

int cmp_row_metric(struct cmp_in *in, size_t i, const struct cmp_metric *asked,
                   struct cmp_metric **v, int *n)
{
    if (!asked->per_workload)
        return *n ? 0 : add_metric(v, n, asked);
    int kind = cmp_in_kind(in, i);
    if (kind < 0)
        return -1;
    const struct clb_row *r = &in->set.v[i];
    return metric_slot(v, n, cmp_own_metric(cmp_in_wl(in, r->workload), kind, r));
}

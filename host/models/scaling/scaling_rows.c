/* `clbench model scaling`: the rows it starts from (scaling.h). A results
 * file is untrusted: every figure is checked before it is used, and a row
 * that lacks one is named. */
#include "scaling.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Is r a row of a whole job (the aggregate, or the one row of one process)? */
static int whole_job(const struct clb_row *r)
{
    return !strcmp(r->rank, "all") || (!(r->ranks > 1) && !strcmp(r->rank, "0"));
}

/* Does r match the pick (a NULL or empty field: any)? */
static int matches(const struct clb_row *r, const struct sc_pick *p)
{
    char v[64];
    const char *want[2] = {p->rhs, p->links}, *key[2] = {"rhs", "links"};
    if (strcmp(r->status, "ok") || !whole_job(r) || (p->device && !strstr(r->device, p->device)))
        return 0;
    if ((p->workload && strcmp(r->workload, p->workload)) ||
        (p->kernel && strcmp(r->kernel, p->kernel)) || (p->dtype && strcmp(r->dtype, p->dtype)))
        return 0;
    for (int k = 0; k < 2; k++) {
        clb_params_value(r->params, key[k], v, sizeof v);
        if (want[k] && strcmp(v, want[k]))
            return 0;
    }
    return 1;
}

static int distributed(const struct clb_row *r)
{
    char v[16];
    clb_params_value(r->params, "scaling", v, sizeof v);
    return v[0] != 0;
}

int sc_lattice(const char *text, int L[4])
{
    char err[128];
    struct clb_size s;
    if (clb_parse_dims(text, 4, &s, err, sizeof err))
        return -1;
    for (int mu = 0; mu < 4; mu++) {
        if (s.d[mu] < 4 || s.d[mu] > 1000000 || s.d[mu] % 2)
            return -1;
        L[mu] = (int)s.d[mu];
    }
    return 0;
}

/* The lattice a row ran: part= of a distributed row, else its size. */
static int row_lattice(const struct clb_row *r, int L[4])
{
    char v[64];
    clb_params_value(r->params, "part", v, sizeof v);
    return sc_lattice(v[0] ? v : r->size, L);
}

static double sites(const int L[4])
{
    return (double)(L[0] / 2) * L[1] * L[2] * L[3];
}

/* Operator applications (halo exchanges) per repetition: the rows' count,
 * else (rows before it) cg's exchanges or 2 x its iterations, else 1. */
static double applications(const struct clb_row *r)
{
    double v = clb_row_metric(r, "op_applications");
    if (!(v > 0))
        v = clb_row_metric(r, "exchanges");
    if (!(v > 0) && clb_row_metric(r, "applications") > 0)
        v = 2 * clb_row_metric(r, "applications");
    return v > 0 ? v : 1;
}

/* Which field of the candidates differs (they must agree): its name and two
 * of its values (a, b: 64 bytes each), or NULL. */
static const char *ambiguous(const struct clb_row *const *c, int n, char *a, char *b)
{
    static const char *const what[] = {"device", "workload", "kernel", "dtype", "rhs", "links"};
    for (int k = 0; k < 6; k++)
        for (int i = 1; i < n; i++) {
            const struct clb_row *r[2] = {c[0], c[i]};
            char *v[2] = {a, b};
            for (int j = 0; j < 2; j++) {
                const char *col = k == 0 ? r[j]->device : k == 1 ? r[j]->workload
                                  : k == 2 ? r[j]->kernel : k == 3 ? r[j]->dtype : NULL;
                if (col)
                    snprintf(v[j], 64, "%s", col);
                else
                    clb_params_value(r[j]->params, what[k], v[j], 64);
            }
            if (strcmp(a, b))
                return what[k];
        }
    return NULL;
}

/* The candidate whose lattice is L (else the largest). */
static const struct clb_row *by_lattice(const struct clb_row *const *c, int n, const int *L)
{
    const struct clb_row *best = NULL;
    double most = -1;
    for (int i = 0; i < n; i++) {
        int M[4];
        if (row_lattice(c[i], M))
            continue;
        if (L && !memcmp(M, L, sizeof M))
            return c[i];
        if (sites(M) > most) {
            most = sites(M);
            best = c[i];
        }
    }
    return best;
}

/* A figure a row must have: > 0 and finite, else a message naming it. */
static int need(const struct clb_row *r, const char *key, double *v)
{
    *v = clb_row_metric(r, key);
    if (isfinite(*v) && *v > 0)
        return CLB_OK;
    return clb_eusage("model scaling: the 1-rank row of run %s (%s %s %s) has no %s", r->run_id,
                      r->workload, r->kernel, r->size, key);
}

/* The distributed row's chain, per application. */
static int from_dist(const struct clb_row *r, struct clb_sc_dev *d)
{
    double op = applications(r), halo, exposed;
    int rc;
    if ((rc = need(r, "halo_bytes", &d->halo_bytes)) ||
        (rc = need(r, "bus_d2h_gbps", &d->d2h_gbps)) ||
        (rc = need(r, "bus_h2d_gbps", &d->h2d_gbps)) || (rc = need(r, "halo_ms", &halo)))
        return rc;
    exposed = clb_row_metric(r, "halo_exposed_ms");
    if (!(exposed >= 0) || !(r->t_median_s > 0))
        return clb_eusage("model scaling: the 1-rank row of run %s has no exposed halo time "
                          "or time", r->run_id);
    char chain[16];
    clb_metrics_token(r->metrics, "halo_chain", chain, sizeof chain);
    d->pipelined = !strcmp(chain, "pipe") || !strcmp(chain, "shm");
    double pack = clb_row_metric(r, "pack_ms"), in = clb_row_metric(r, "interior_ms");
    double kib = clb_row_metric(r, "chunk_kib");
    d->chunk = kib > 0 ? kib * 1024 : 0;
    d->pack = pack > 0 ? pack / 1e3 / op : 0;
    halo /= 1e3 * op;
    exposed /= 1e3 * op;
    /* the chain after the pack; the interior (rows before these figures:
     * the chain less its exposed part, which the interior hid) */
    d->chain = halo - d->pack > 0 ? halo - d->pack : halo;
    d->in = in >= 0 ? in / 1e3 / op : (halo > exposed ? halo - exposed : 0);
    d->rest = r->t_median_s / op - d->pack - exposed;
    if (!(d->rest > 0) || row_lattice(r, d->part))
        return clb_eusage("model scaling: the 1-rank row of run %s has an unusable time or part",
                          r->run_id);
    return CLB_OK;
}

/* Collect the candidates of one kind (dist: 1-rank distributed; else plain). */
static int candidates(const struct clb_rowset *set, const struct sc_pick *p, int dist,
                      const struct clb_row ***out)
{
    int n = 0;
    *out = calloc(set->n + 1, sizeof **out);
    if (!*out)
        return -1;
    for (size_t i = 0; i < set->n; i++) {
        const struct clb_row *r = &set->v[i];
        if (matches(r, p) && distributed(r) == dist && (!dist || !(r->ranks > 1)))
            (*out)[n++] = r;
    }
    return n;
}

static int refuse_ambiguous(const struct clb_row *const *c, int n, const char *kind)
{
    char a[64], b[64];
    const char *w = ambiguous(c, n, a, b);
    if (!w)
        return CLB_OK;
    return clb_eusage("model scaling: the %s rows differ in %s ('%s', '%s', ...): pick one "
                      "(--device, -w, -k, -t, --param rhs=, --param links=)", kind, w, a, b);
}

/* The median of a figure (> 0) over the N-rank rows of the pick q (at most
 * 64 of them; NAN and *n 0 when none). */
static double median_of(const struct clb_rowset *set, const struct sc_pick *q, const char *key,
                        int *n)
{
    double got[64];
    int k = 0;
    for (size_t i = 0; i < set->n && k < 64; i++)
        if (matches(&set->v[i], q) && set->v[i].ranks > 1 && clb_row_metric(&set->v[i], key) > 0)
            got[k++] = clb_row_metric(&set->v[i], key);
    *n = k;
    if (!k)
        return NAN;
    struct clb_stats st;
    clb_stats_compute(got, (size_t)k, &st);
    return st.median;
}

int sc_rows_pick(const struct clb_rowset *set, const struct sc_pick *p, const int *L,
                 struct sc_rows *out)
{
    memset(out, 0, sizeof *out);
    const struct clb_row **c = NULL;
    int n = candidates(set, p, 1, &c), rc = CLB_OK;
    if (n < 0)
        return CLB_ESYS;
    if (n == 0)
        rc = clb_eusage("model scaling: no 1-rank distributed row (scaling=, ranks 1, ok) matches "
                        "in the results (run: mpirun -np 1 clbench run dslash --param "
                        "scaling=weak)");
    if (rc == CLB_OK && !(rc = refuse_ambiguous(c, n, "1-rank distributed")))
        out->dist = by_lattice(c, n, L);
    free(c);
    if (rc)
        return rc;
    if (!out->dist)
        return clb_eusage("model scaling: no 1-rank distributed row has a usable part=");
    /* the plain rows of that device, workload, kernel, type, rhs and links */
    struct sc_pick q = {out->dist->device, out->dist->workload, out->dist->kernel,
                        out->dist->dtype, NULL, NULL};
    char rhs[16], links[32];
    clb_params_value(out->dist->params, "rhs", rhs, sizeof rhs);
    clb_params_value(out->dist->params, "links", links, sizeof links);
    q.rhs = rhs;
    q.links = links;
    if ((n = candidates(set, &q, 0, &c)) < 0)
        return CLB_ESYS;
    int D[4];
    row_lattice(out->dist, D);
    out->plain = by_lattice(c, n, D);
    free(c);
    if (!out->plain)
        return clb_eusage("model scaling: no plain row (no scaling=) of %s %s %s rhs=%s links=%s "
                          "on '%s' in the results (run the same case without --param "
                          "scaling=)", q.workload, q.kernel, q.dtype, rhs, links, q.device);
    out->shm_gbps = median_of(set, &q, "mpi_gbps", &out->shm_rows);
    out->node[0] = median_of(set, &q, "node_d2h_gbps", &out->node_rows);
    out->node[1] = median_of(set, &q, "node_h2d_gbps", &out->node_rows);
    return CLB_OK;
}

int sc_rows_device(const struct sc_rows *rows, struct clb_sc_dev *d)
{
    memset(d, 0, sizeof *d);
    const struct clb_row *p = rows->plain;
    int L[4], rc = from_dist(rows->dist, d);
    if (rc)
        return rc;
    if (row_lattice(p, L) || !(p->t_median_s > 0) || !(p->bytes > 0))
        return clb_eusage("model scaling: the plain row of run %s has an unusable size, time "
                          "or bytes", p->run_id);
    double op = applications(p);
    d->tau = p->t_median_s / op / sites(L);
    d->plain_gbps = p->bytes / p->t_median_s / 1e9;
    return CLB_OK;
}

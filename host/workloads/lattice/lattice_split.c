/* dslash, cg: the decomposition over ranks and its host pieces (see lattice_split.h). */
#include "lattice_split.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int lat_scaling_of(const char *text)
{
    if (!text || !text[0])
        return LAT_EVERY;
    if (!strcmp(text, "strong"))
        return LAT_STRONG;
    if (!strcmp(text, "weak"))
        return LAT_WEAK;
    return -1;
}

const char *lat_scaling_name(int scaling)
{
    return scaling == LAT_STRONG ? "strong" : scaling == LAT_WEAK ? "weak" : "";
}

void lat_split(int G, int P, int c, int *lo, int *len)
{
    int base = G / P, rem = G % P;
    *len = base + (c < rem ? 1 : 0);
    *lo = c * base + (c < rem ? c : rem);
}

/* Do the local extents along z and t of grid P satisfy >= 3 where there are halos? */
static int grid_ok(const size_t size[4], int scaling, const int P[4])
{
    if (scaling == LAT_WEAK)
        return 1; /* the parts are -s: extents >= 4 */
    for (int mu = 2; mu < 4; mu++) {
        int halo = P[mu] > 1 || (mu == 3 && P[2] == 1);
        if ((size_t)P[mu] > size[mu] || (halo && size[mu] / (size_t)P[mu] < LAT_HALO))
            return 0;
    }
    return 1;
}

/* "3,3,2": the local extents of G over P. */
static void extents_text(int G, int P, char *out, size_t n)
{
    out[0] = 0;
    for (int c = 0; c < P && c < 16; c++) {
        int lo, len;
        lat_split(G, P, c, &lo, &len);
        clb_appendf(out, n, "%s%d", c ? "," : "", len);
    }
    if (P > 16)
        clb_appendf(out, n, ",...");
}

/* "local z extents 3,3,2 and t extents 4,4" of grid P (the split directions). */
static void grid_text(const size_t size[4], const int P[4], char *out, size_t n)
{
    char e[128];
    snprintf(out, n, "grid 1x1x%dx%d: local", P[2], P[3]);
    int first = 1;
    for (int mu = 2; mu < 4; mu++) {
        if (P[mu] == 1 && !(mu == 3 && P[2] == 1))
            continue;
        extents_text((int)size[mu], P[mu], e, sizeof e);
        clb_appendf(out, n, "%s %c extents %s", first ? "" : " and", "xyzt"[mu], e);
        first = 0;
    }
}

int lat_grid(const char *wl, const size_t size[4], int scaling, int n, const char *grid,
             int P[4])
{
    char why[256];
    const char *sep = wl ? ": " : "";
    wl = wl ? wl : "";
    if (grid && grid[0]) {
        long v[4];
        int k = 0;
        const char *p = grid;
        while (k < 4) {
            char *end;
            v[k] = strtol(p, &end, 10);
            if (end == p || v[k] < 1 || v[k] > 1000000)
                break;
            k++;
            p = end;
            if (k < 4 && *p++ != 'x')
                break;
        }
        if (k != 4 || *p) {
            clb_seterr("%s%sgrid=%s is not a grid AxBxCxD (e.g. 1x1x2x2)", wl, sep, grid);
            return CLB_EUSAGE;
        }
        if (v[0] != 1 || v[1] != 1) {
            clb_seterr("%s%sgrid=%s splits x or y; only z and t are split (1x1xAxB)", wl, sep,
                       grid);
            return CLB_EUSAGE;
        }
        if (v[2] * v[3] != n) {
            clb_seterr("%s%sgrid=%s has %ld parts, the job %d rank%s", wl, sep, grid, v[2] * v[3],
                       n,
                       n == 1 ? "" : "s");
            return CLB_EUSAGE;
        }
        for (int d = 0; d < 4; d++)
            P[d] = (int)v[d];
        if (!grid_ok(size, scaling, P)) {
            grid_text(size, P, why, sizeof why);
            clb_seterr("%s%sscaling=%s: lattice %zux%zux%zux%zu over %d rank%s (%s): each must be "
                       ">= %d (the long links reach x +- 3 mu)", wl, sep,
                       lat_scaling_name(scaling),
                       size[0], size[1], size[2], size[3], n, n == 1 ? "" : "s", why,
                       LAT_HALO);
            return CLB_EUSAGE;
        }
        return CLB_OK;
    }
    /* the largest divisor a <= sqrt(n) that works, then smaller, then larger */
    int a0 = 1;
    for (int a = 1; (long)a * a <= n; a++)
        if (n % a == 0)
            a0 = a;
    for (int pass = 0; pass < 2; pass++)
        for (int a = pass ? a0 + 1 : a0; pass ? a <= n : a >= 1; a += pass ? 1 : -1) {
            if (n % a)
                continue;
            int Q[4] = {1, 1, a, n / a};
            if (grid_ok(size, scaling, Q)) {
                memcpy(P, Q, sizeof Q);
                return CLB_OK;
            }
        }
    int Q[4] = {1, 1, 1, n};
    grid_text(size, Q, why, sizeof why);
    clb_seterr("%s%sscaling=%s: lattice %zux%zux%zux%zu cannot be split over %d ranks (%s, and no "
               "z x t grid does better): each must be >= %d (the long links reach x +- 3 mu)",
               wl, sep, lat_scaling_name(scaling), size[0], size[1], size[2], size[3], n, why,
               LAT_HALO);
    return CLB_EUSAGE;
}

int lat_query_part(const struct clb_query *q, int *scaling, size_t L[4],
                   size_t Le[4])
{
    const char *sc = clb_query_param(q, "scaling", "");
    *scaling = lat_scaling_of(sc);
    if (*scaling < 0) {
        clb_seterr("scaling=%s (known: strong, weak; absent: every rank its own lattice)", sc);
        return CLB_EUSAGE;
    }
    for (int d = 0; d < 4; d++)
        L[d] = Le[d] = q->size->d[d];
    if (*scaling == LAT_EVERY)
        return CLB_OK;
    const char *grid = clb_query_param(q, "grid", "");
    int P[4], n = clb_comm()->size, rank = clb_comm()->rank, rc;
    if (grid[0]) { /* a row's grid: its job's size, whatever this process is */
        long a = 0, b = 0;
        if (sscanf(grid, "1x1x%ldx%ld", &a, &b) == 2 && a > 0 && b > 0 && a * b <= 1000000)
            n = (int)(a * b);
        if (rank >= n)
            rank = 0;
    }
    if ((rc = lat_grid(NULL, q->size->d, *scaling, n, grid, P)))
        return rc;
    struct lat_decomp d;
    lat_decomp_init(&d, q->size->d, *scaling, P, rank);
    const char *loc = clb_query_param(q, "part", "");
    struct clb_size part;
    char err[256];
    if (loc[0] && clb_parse_dims(loc, 4, &part, err, sizeof err)) {
        clb_seterr("part=%s: %s", loc, err);
        return CLB_EUSAGE;
    }
    for (int k = 0; k < 4; k++) {
        L[k] = loc[0] ? part.d[k] : (size_t)d.L[k];
        Le[k] = L[k] + (d.dec[k] ? 2 * LAT_HALO : 0);
    }
    return CLB_OK;
}

static int rank_of(const struct lat_decomp *d, const int c[4])
{
    return c[3] * d->P[2] + c[2];
}

void lat_decomp_init(struct lat_decomp *d, const size_t size[4], int scaling, const int P[4],
                     int rank)
{
    memset(d, 0, sizeof *d);
    d->scaling = scaling;
    d->rank = rank;
    d->size = P[0] * P[1] * P[2] * P[3];
    memcpy(d->P, P, sizeof d->P);
    d->c[2] = rank % P[2];
    d->c[3] = rank / P[2];
    for (int mu = 0; mu < 4; mu++) {
        d->G[mu] = (int)size[mu] * (scaling == LAT_WEAK ? P[mu] : 1);
        lat_split(d->G[mu], P[mu], d->c[mu], &d->O[mu], &d->L[mu]);
        d->dec[mu] = mu == 2 ? P[2] > 1 : mu == 3 ? (P[3] > 1 || P[2] == 1) : 0;
        for (int s = 0; s < 2; s++) {
            int c[4];
            memcpy(c, d->c, sizeof c);
            c[mu] = (c[mu] + (s ? 1 : P[mu] - 1)) % P[mu];
            d->nb[mu][s] = rank_of(d, c);
        }
    }
    d->po = (d->O[0] + d->O[1] + d->O[2] + d->O[3]) & 1;
}

void lat_decomp_geoms(const struct lat_decomp *d, struct lat_geom *local,
                      struct lat_geom *ext, int off[4])
{
    int Le[4], pe = 0;
    for (int mu = 0; mu < 4; mu++) {
        off[mu] = d->dec[mu] ? LAT_HALO : 0;
        Le[mu] = d->L[mu] + 2 * off[mu];
        pe += d->O[mu] - off[mu];
    }
    lat_geom_init(local, d->L);
    local->po = d->po;
    lat_geom_init(ext, Le);
    ext->po = ((pe % 2) + 2) % 2;
}

int lat_global_parity(const struct lat_decomp *d, const int x[4])
{
    return (x[0] + x[1] + x[2] + x[3] + d->po) & 1;
}

static void box_add(struct lat_boxes *b, const struct lat_decomp *d, int z0, int z1, int t0,
                    int t1)
{
    if (z1 <= z0 || t1 <= t0)
        return;
    int *q = b->b[b->n];
    q[0] = z0;
    q[1] = z1 - z0;
    q[2] = t0;
    q[3] = t1 - t0;
    b->sites += (size_t)(d->L[0] / 2) * (size_t)d->L[1] * (size_t)q[1] * (size_t)q[3];
    b->ends[b->n++] = (unsigned long)b->sites;
    for (int k = b->n; k < 4; k++)
        b->ends[k] = (unsigned long)b->sites;
}

void lat_boxes_init(const struct lat_decomp *d, struct lat_boxes *in,
                    struct lat_boxes *bd)
{
    memset(in, 0, sizeof *in);
    memset(bd, 0, sizeof *bd);
    int lz = d->L[2], lt = d->L[3], h = LAT_HALO;
    /* interior ranges along z and t */
    int zi0 = d->dec[2] ? h : 0, zi1 = d->dec[2] ? lz - h : lz;
    int ti0 = d->dec[3] ? h : 0, ti1 = d->dec[3] ? lt - h : lt;
    if (zi1 < zi0)
        zi1 = zi0;
    if (ti1 < ti0)
        ti1 = ti0;
    box_add(in, d, zi0, zi1, ti0, ti1);
    /* boundary: the t slabs over all z, then the z slabs within the interior t range */
    if (d->dec[3]) {
        int lo = h < lt ? h : lt, hi = lt - h > lo ? lt - h : lo;
        box_add(bd, d, 0, lz, 0, lo);
        box_add(bd, d, 0, lz, hi, lt);
    }
    if (d->dec[2]) {
        int lo = h < lz ? h : lz, hi = lz - h > lo ? lz - h : lo;
        box_add(bd, d, 0, lo, ti0, ti1);
        box_add(bd, d, hi, lz, ti0, ti1);
    }
}

size_t lat_slab_sites(const struct lat_decomp *d, int mu)
{
    if (!d->dec[mu])
        return 0;
    size_t s = (size_t)(d->L[0] / 2) * (size_t)d->L[1] * LAT_HALO;
    return mu == 3 ? s * (size_t)d->L[2] : mu == 2 ? s * (size_t)d->L[3] : 0;
}

size_t lat_halo_len(const struct lat_decomp *d, int rhs)
{
    return 6 * (size_t)rhs * (lat_slab_sites(d, 3) + lat_slab_sites(d, 2));
}

size_t lat_halo_offset(const struct lat_decomp *d, int rhs, int mu, int side)
{
    size_t st = 3 * (size_t)rhs * lat_slab_sites(d, 3), sz = 3 * (size_t)rhs *
                                                               lat_slab_sites(d, 2);
    return mu == 3 ? (size_t)side * st : 2 * st + (size_t)side * sz;
}

void lat_box_copy(const struct lat_geom *g, int z0, int nz, int t0, int nt, size_t ncomp,
                  size_t cplx, void *field, void *packed, int unpack)
{
    size_t row = (size_t)(g->L[0] / 2) * (size_t)g->L[1] * cplx; /* one (z, t) line: x and y */
    size_t box = row * (size_t)nz * (size_t)nt, comp = g->vh * cplx;
    unsigned char *f = field, *pk = packed;
#pragma omp parallel for collapse(2) schedule(static)
    for (long k = 0; k < (long)ncomp; k++)
        for (long tt = 0; tt < (long)nt; tt++) {
            size_t t = (size_t)(t0 + tt);
            unsigned char *src = f + (size_t)k * comp + (t * (size_t)g->L[2] + (size_t)z0) * row;
            unsigned char *dst = pk + (size_t)k * box + (size_t)tt * (size_t)nz * row;
            /* the nz lines of one t are contiguous in both */
            if (unpack)
                memcpy(src, dst, (size_t)nz * row);
            else
                memcpy(dst, src, (size_t)nz * row);
        }
}

/* ---- fields from the global site index ------------------------------------- */

/* A value of magnitude [0.5, 1.5) and random sign from (seed, k), as clb_fill_*. */
static double hash_value(unsigned long long seed, unsigned long long k)
{
    unsigned long long st = seed * 0x2545F4914F6CDD1DULL ^ (k * 0x9E3779B97F4A7C15ULL);
    unsigned long long r = clb_rand_next(&st);
    double mag = 0.5 + (double)(r >> 11) * (1.0 / 9007199254740992.0);
    return (r & 1) ? -mag : mag;
}

/* The global half-index of the site at x of g placed at O in G. */
static unsigned long long global_index(const int G[4], const int O[4], const int x[4])
{
    unsigned long long c[4];
    for (int d = 0; d < 4; d++) {
        long v = ((long)x[d] + O[d]) % G[d];
        c[d] = (unsigned long long)(v < 0 ? v + G[d] : v);
    }
    return ((c[3] * (unsigned long long)G[2] + c[2]) * (unsigned long long)G[1] + c[1]) *
               (unsigned long long)(G[0] / 2) + c[0] / 2;
}

void lat_fill_global(const struct lat_geom *g, const int G[4], const int O[4], int dbl,
                     void *fat, void *full, void *comp, int vpar, int rhs,
                     unsigned long long vseed, void *v)
{
    unsigned long long vhg =
        (unsigned long long)G[0] * (unsigned long long)G[1] * (unsigned long long)G[2] *
        (unsigned long long)G[3] / 2;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < (long)g->vh; i++) {
        for (int p = 0; p < 2; p++) {
            int x[4];
            lat_coords(g, p, (size_t)i, x);
            unsigned long long ig = global_index(G, O, x);
            for (int mu = 0; mu < 4 && (fat || full || comp); mu++) {
                for (int e = 0; e < 9 && fat; e++) {
                    unsigned long long k = ((unsigned long long)(p * 4 + mu) * 9 + (unsigned)e) *
                                           vhg + ig;
                    lat_put(dbl, fat, lat_link_at(g, 9, p, mu, e, (size_t)i),
                            hash_value(LAT_SEED_FAT, 2 * k),
                            hash_value(LAT_SEED_FAT, 2 * k + 1));
                }
                if (!full && !comp)
                    continue;
                /* lat_fill_long's seed, from the global index */
                unsigned long long st =
                    0x5DEECE66DULL * (ig * 8 + (unsigned long long)(p * 4 + mu) + 1);
                double m[18], det[2];
                lat_random_u3(&st, m);
                lat_det3(m, det);
                for (int e = 0; e < 9 && full; e++)
                    lat_put(dbl, full, lat_link_at(g, LAT_NE_FULL, p, mu, e, (size_t)i),
                            m[2 * e], m[2 * e + 1]);
                for (int e = 0; e < 6 && comp; e++)
                    lat_put(dbl, comp,
                            lat_link_at(g, LAT_NE_COMPRESSED, p, mu, e, (size_t)i),
                            m[2 * e], m[2 * e + 1]);
                if (comp)
                    lat_put(dbl, comp,
                            lat_link_at(g, LAT_NE_COMPRESSED, p, mu, 6, (size_t)i), det[0],
                            det[1]);
            }
            if (v && p == vpar)
                for (int r = 0; r < rhs; r++)
                    for (int c = 0; c < 3; c++) {
                        unsigned long long k = ((unsigned long long)r * 3 + (unsigned)c) * vhg + ig;
                        lat_put(dbl, v, lat_vec_at(g, r, c, (size_t)i),
                                hash_value(vseed, 2 * k), hash_value(vseed, 2 * k + 1));
                    }
        }
    }
}

/* ---- the host halo exchange ----------------------------------------------- */

#define HOST_TAG 700

int lat_host_exchange(const struct lat_decomp *d, const struct lat_geom *ext,
                      size_t ncomp, double *field)
{
    int off[4];
    for (int mu = 0; mu < 4; mu++)
        off[mu] = d->dec[mu] ? LAT_HALO : 0;
    /* per direction: buffers send[back, fwd] and recv[back, fwd] of ncomp slabs */
    double *buf[4][4] = {{0}};
    struct clb_comm_req *req[16] = {0};
    int nreq = 0, rc = CLB_OK;
    size_t cplx = 2 * sizeof(double);
    for (int mu = 2; mu < 4; mu++) {
        if (!d->dec[mu])
            continue;
        size_t n = ncomp * lat_slab_sites(d, mu) * cplx;
        for (int k = 0; k < 4 && rc == CLB_OK; k++)
            if (!(buf[mu][k] = clb_xmalloc(n)))
                rc = CLB_ESYS;
    }
    /* Every rank posts all its messages even after an error (its peers wait
     * for them); the error is reported after. */
    for (int mu = 2; mu < 4; mu++) {
        if (!d->dec[mu] || !buf[mu][3])
            continue;
        size_t n = ncomp * lat_slab_sites(d, mu) * cplx;
        int L = d->L[mu], o = off[mu];
        /* the other direction: its local range */
        int z0 = off[2], nz = d->L[2], t0 = off[3], nt = d->L[3];
        for (int s = 0; s < 2; s++) {
            /* send slot s: what becomes the neighbour's halo on side s: our last three
             * slices for its backward halo (to the forward neighbour), our first three
             * for its forward halo */
            int first = s == 0 ? o + L - LAT_HALO : o;
            if (mu == 3)
                lat_box_copy(ext, z0, nz, first, LAT_HALO, ncomp, cplx, field, buf[mu][s], 0);
            else
                lat_box_copy(ext, first, LAT_HALO, t0, nt, ncomp, cplx, field, buf[mu][s], 0);
        }
        for (int s = 0; s < 2; s++) {
            int to = d->nb[mu][1 - s], from = d->nb[mu][s];
            if (to == d->rank && from == d->rank) {
                memcpy(buf[mu][2 + s], buf[mu][s], n);
                continue;
            }
            int e = clb_comm_irecv(buf[mu][2 + s], n, from, HOST_TAG + 2 * mu + s, &req[nreq++]);
            if (e == CLB_OK)
                e = clb_comm_isend(buf[mu][s], n, to, HOST_TAG + 2 * mu + s, &req[nreq++]);
            if (e && rc == CLB_OK)
                rc = e;
        }
    }
    int e = clb_comm_waitall(req, nreq);
    if (rc == CLB_OK)
        rc = e;
    for (int mu = 2; mu < 4 && rc == CLB_OK; mu++) {
        if (!d->dec[mu])
            continue;
        int L = d->L[mu], o = off[mu];
        int z0 = off[2], nz = d->L[2], t0 = off[3], nt = d->L[3];
        for (int s = 0; s < 2; s++) {
            int first = s == 0 ? 0 : o + L; /* backward halo, forward halo */
            if (mu == 3)
                lat_box_copy(ext, z0, nz, first, LAT_HALO, ncomp, cplx, field,
                             buf[mu][2 + s], 1);
            else
                lat_box_copy(ext, first, LAT_HALO, t0, nt, ncomp, cplx, field,
                             buf[mu][2 + s], 1);
        }
    }
    for (int mu = 0; mu < 4; mu++)
        for (int k = 0; k < 4; k++)
            free(buf[mu][k]);
    return rc;
}

int lat_sum_ranks(const double *mine, int n, int err, double *out, int *nerr)
{
    const struct clb_comm_info *ci = clb_comm();
    size_t len = (size_t)ci->size * (size_t)n + 1;
    double *all = clb_xcalloc(len, sizeof *all);
    if (!all)
        return CLB_ESYS;
    memcpy(all + (size_t)ci->rank * (size_t)n, mine, (size_t)n * sizeof *mine);
    all[len - 1] = err ? 1 : 0;
    int rc = clb_comm_allreduce(all, (int)len, CLB_SUM);
    for (int k = 0; k < n && rc == CLB_OK; k++) {
        double s = 0;
        for (int r = 0; r < ci->size; r++)
            s += all[(size_t)r * (size_t)n + (size_t)k];
        out[k] = s;
    }
    *nerr = rc == CLB_OK ? (int)all[len - 1] : 1;
    free(all);
    return rc;
}

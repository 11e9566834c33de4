/* dslash, cg: the decomposition over ranks and its host pieces (see lattice_split.h). */
#include "lattice_split.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const scaling_names[] = {"", "strong", "weak"}; /* LAT_EVERY.. */

int lat_scaling_of(const char *text)
{
    for (int k = LAT_EVERY; k <= LAT_WEAK; k++)
        if (!strcmp(text ? text : "", scaling_names[k]))
            return k;
    return -1;
}

const char *lat_scaling_name(int scaling)
{
    return scaling >= LAT_EVERY && scaling <= LAT_WEAK ? scaling_names[scaling] : "";
}

void lat_split(int G, int P, int c, int *lo, int *len)
{
    int base = G / P, rem = G % P;
    *len = base + (c < rem ? 1 : 0);
    *lo = c * base + (c < rem ? c : rem);
}

/* The extents of size as ints (clb_sc_grid_*), capped at 10^9. */
static void extents_of(const size_t size[4], int L[4])
{
    for (int mu = 0; mu < 4; mu++)
        L[mu] = size[mu] > 1000000000 ? 1000000000 : (int)size[mu];
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

/* "grid 1x1x1x3: local t extents 3,3,2" (the directions with halos). */
static void grid_text(const size_t size[4], const int P[4], char *out, size_t n)
{
    char e[128];
    int dec[4];
    clb_sc_dirs(P, dec);
    snprintf(out, n, "grid 1x%dx%dx%d: local", P[1], P[2], P[3]);
    int first = 1;
    for (int mu = 1; mu < 4; mu++) {
        if (!dec[mu])
            continue;
        extents_text((int)size[mu], P[mu], e, sizeof e);
        clb_appendf(out, n, "%s %c extents %s", first ? "" : " and", "xyzt"[mu], e);
        first = 0;
    }
}

/* grid text "1xAxBxC" into P; CLB_EUSAGE with a message when it is not one. */
static int parse_grid(const char *wl, const char *sep, const char *grid, int n, int P[4])
{
    long v[4];
    if (clb_sc_grid_parse(grid, v))
        return clb_eusage("%s%sgrid=%s is not a grid 1xAxBxC (e.g. 1x1x2x2)", wl, sep, grid);
    if (v[0] != 1)
        return clb_eusage("%s%sgrid=%s splits x; only y, z and t are split (1xAxBxC)", wl, sep,
                          grid);
    if (v[1] * v[2] * v[3] != n)
        return clb_eusage("%s%sgrid=%s has %ld parts, the job %d rank%s", wl, sep, grid,
                          v[1] * v[2] * v[3], n, n == 1 ? "" : "s");
    for (int d = 0; d < 4; d++)
        P[d] = (int)v[d];
    return CLB_OK;
}

int lat_grid(const char *wl, const size_t size[4], int scaling, int n, const char *grid,
             int P[4])
{
    char why[256];
    const char *sep = wl ? ": " : "";
    int L[4];
    extents_of(size, L);
    wl = wl ? wl : "";
    if (grid && grid[0]) {
        int rc = parse_grid(wl, sep, grid, n, P);
        if (rc)
            return rc;
        if (!clb_sc_grid_ok(L, P, scaling == LAT_WEAK)) {
            grid_text(size, P, why, sizeof why);
            return clb_eusage("%s%sscaling=%s: lattice %zux%zux%zux%zu over %d rank%s (%s): each "
                              "must be >= %d (the long links reach x +- 3 mu)", wl, sep,
                              lat_scaling_name(scaling), size[0], size[1], size[2], size[3], n,
                              n == 1 ? "" : "s", why, LAT_HALO);
        }
        return CLB_OK;
    }
    if (clb_sc_grid_auto(L, n, scaling == LAT_WEAK, P) == 0)
        return CLB_OK;
    int Q[4] = {1, 1, 1, n};
    grid_text(size, Q, why, sizeof why);
    return clb_eusage("%s%sscaling=%s: lattice %zux%zux%zux%zu cannot be split over %d ranks (%s, "
                      "and no y x z x t grid does better): each must be >= %d (the long links "
                      "reach x +- 3 mu)", wl, sep, lat_scaling_name(scaling), size[0], size[1],
                      size[2], size[3], n, why, LAT_HALO);
}

int lat_query_part(const struct clb_query *q, int *scaling, size_t L[4],
                   size_t Le[4])
{
    const char *sc = clb_query_param(q, "scaling", "");
    *scaling = lat_scaling_of(sc);
    if (*scaling < 0)
        return clb_eusage("scaling=%s (known: strong, weak; absent: every rank its own lattice)",
                          sc);
    for (int d = 0; d < 4; d++)
        L[d] = Le[d] = q->size->d[d];
    if (*scaling == LAT_EVERY)
        return CLB_OK;
    const char *grid = clb_query_param(q, "grid", "");
    int P[4], n = clb_comm()->size, rank = clb_comm()->rank, rc;
    if (grid[0]) { /* a row's grid: its job's size, whatever this process is */
        long v[4];
        if (!clb_sc_grid_parse(grid, v) && v[0] == 1 && v[1] * v[2] * v[3] <= 1000000)
            n = (int)(v[1] * v[2] * v[3]); /* each extent <= 10^6: no overflow */
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
    if (loc[0] && clb_parse_dims(loc, 4, &part, err, sizeof err))
        return clb_eusage("part=%s: %s", loc, err);
    for (int k = 0; k < 4; k++) {
        L[k] = loc[0] ? part.d[k] : (size_t)d.L[k];
        Le[k] = L[k] + (d.dec[k] ? 2 * LAT_HALO : 0);
    }
    return CLB_OK;
}

static int rank_of(const struct lat_decomp *d, const int c[4])
{
    return (c[3] * d->P[2] + c[2]) * d->P[1] + c[1];
}

void lat_decomp_init(struct lat_decomp *d, const size_t size[4], int scaling, const int P[4],
                     int rank)
{
    memset(d, 0, sizeof *d);
    d->scaling = scaling;
    d->rank = rank;
    d->size = P[0] * P[1] * P[2] * P[3];
    memcpy(d->P, P, sizeof d->P);
    d->c[1] = rank % P[1];
    d->c[2] = rank / P[1] % P[2];
    d->c[3] = rank / P[1] / P[2];
    clb_sc_dirs(P, d->dec);
    for (int mu = 0; mu < 4; mu++) {
        d->G[mu] = (int)size[mu] * (scaling == LAT_WEAK ? P[mu] : 1);
        lat_split(d->G[mu], P[mu], d->c[mu], &d->O[mu], &d->L[mu]);
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

/* Add the box y in [r[0], r[1]), z in [r[2], r[3]), t in [r[4], r[5]) (empty: nothing). */
static void box_add(struct lat_boxes *b, const struct lat_decomp *d, const int r[6])
{
    if (r[1] <= r[0] || r[3] <= r[2] || r[5] <= r[4])
        return;
    int *q = b->b[b->n];
    size_t sites = (size_t)(d->L[0] / 2);
    for (int k = 0; k < 3; k++) {
        q[2 * k] = r[2 * k];
        q[2 * k + 1] = r[2 * k + 1] - r[2 * k];
        sites *= (size_t)q[2 * k + 1];
    }
    b->sites += sites;
    b->ends[b->n++] = (unsigned long)b->sites;
    for (int k = b->n; k < LAT_MAXBOX; k++)
        b->ends[k] = (unsigned long)b->sites;
}

void lat_boxes_init(const struct lat_decomp *d, struct lat_boxes *in,
                    struct lat_boxes *bd)
{
    memset(in, 0, sizeof *in);
    memset(bd, 0, sizeof *bd);
    int h = LAT_HALO, lo[4], hi[4];
    /* interior ranges along y, z and t */
    for (int mu = 1; mu < 4; mu++) {
        lo[mu] = d->dec[mu] ? h : 0;
        hi[mu] = d->dec[mu] ? d->L[mu] - h : d->L[mu];
        if (hi[mu] < lo[mu])
            hi[mu] = lo[mu];
    }
    int r[6] = {lo[1], hi[1], lo[2], hi[2], lo[3], hi[3]};
    box_add(in, d, r);
    /* boundary: the slabs along t over all y and z, then along z over all y
     * within the interior t range, then along y within the interior z and t */
    for (int mu = 3; mu >= 1; mu--) {
        if (!d->dec[mu])
            continue;
        int L = d->L[mu], a = h < L ? h : L, b = L - h > a ? L - h : a;
        int q[6];
        for (int nu = 1; nu < 4; nu++) {
            q[2 * (nu - 1)] = nu < mu ? 0 : lo[nu];
            q[2 * (nu - 1) + 1] = nu < mu ? d->L[nu] : hi[nu];
        }
        q[2 * (mu - 1)] = 0;
        q[2 * (mu - 1) + 1] = a;
        box_add(bd, d, q);
        q[2 * (mu - 1)] = b;
        q[2 * (mu - 1) + 1] = L;
        box_add(bd, d, q);
    }
}

void lat_boxes_all(const struct lat_decomp *d, struct lat_boxes *all)
{
    memset(all, 0, sizeof *all);
    int r[6] = {0, d->L[1], 0, d->L[2], 0, d->L[3]};
    box_add(all, d, r);
}

size_t lat_slab_sites(const struct lat_decomp *d, int mu)
{
    if (mu < 1 || mu > 3 || !d->dec[mu])
        return 0;
    size_t s = (size_t)(d->L[0] / 2) * LAT_HALO;
    for (int nu = 1; nu < 4; nu++)
        if (nu != mu)
            s *= (size_t)d->L[nu];
    return s;
}

size_t lat_halo_len(const struct lat_decomp *d, int rhs)
{
    return 6 * (size_t)rhs * (lat_slab_sites(d, 3) + lat_slab_sites(d, 2) + lat_slab_sites(d, 1));
}

size_t lat_halo_offset(const struct lat_decomp *d, int rhs, int mu, int side)
{
    /* t, then z, then y */
    size_t o = 0;
    for (int nu = 3; nu > mu; nu--)
        o += 6 * (size_t)rhs * lat_slab_sites(d, nu);
    return o + (size_t)side * 3 * (size_t)rhs * lat_slab_sites(d, mu);
}

void lat_slab_box(int mu, int first, const int lo[4], const int len[4], int b[6])
{
    for (int nu = 1; nu < 4; nu++) {
        b[2 * (nu - 1)] = nu == mu ? first : lo[nu];
        b[2 * (nu - 1) + 1] = nu == mu ? LAT_HALO : len[nu];
    }
}

void lat_box_copy(const struct lat_geom *g, const int b[6], size_t ncomp, size_t cplx,
                  void *field, void *packed, int unpack)
{
    size_t hx = (size_t)(g->L[0] / 2), ly = (size_t)g->L[1], lz = (size_t)g->L[2];
    size_t ny = (size_t)b[1], nz = (size_t)b[3], nt = (size_t)b[5];
    size_t run = hx * ny * cplx; /* x of ny lines of one (z, t): contiguous in both */
    size_t box = run * nz * nt, comp = g->vh * cplx;
    unsigned char *f = field, *pk = packed;
#pragma omp parallel for collapse(2) schedule(static)
    for (long k = 0; k < (long)ncomp; k++)
        for (long tt = 0; tt < (long)nt; tt++)
            for (size_t zz = 0; zz < nz; zz++) {
                size_t t = (size_t)b[4] + (size_t)tt, z = (size_t)b[2] + zz;
                unsigned char *src = f + (size_t)k * comp +
                                     ((t * lz + z) * ly + (size_t)b[0]) * hx * cplx;
                unsigned char *dst = pk + (size_t)k * box + ((size_t)tt * nz + zz) * run;
                if (unpack)
                    memcpy(src, dst, run);
                else
                    memcpy(dst, src, run);
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
                if (full || comp) /* lat_fill_long's seed, from the global index */
                    lat_put_long(g, dbl, full, comp, p, mu, (size_t)i, ig);
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

/* The box of the slab of direction mu whose first slice is `first` on the
 * extended geometry (the other directions: the local range). */
static void ext_slab(const struct lat_decomp *d, int mu, int first, int b[6])
{
    int lo[4], len[4];
    for (int nu = 0; nu < 4; nu++) {
        lo[nu] = d->dec[nu] ? LAT_HALO : 0;
        len[nu] = d->L[nu];
    }
    lat_slab_box(mu, first, lo, len, b);
}

/* Post the messages of direction mu (send slots buf[0..1], receive slots
 * buf[2..3], n bytes each); a slab for this rank itself is copied. */
static int host_post(const struct lat_decomp *d, int mu, double *buf[4], size_t n,
                     struct clb_comm_req **req, int *nreq)
{
    int rc = CLB_OK;
    for (int s = 0; s < 2; s++) {
        int to = d->nb[mu][1 - s], from = d->nb[mu][s];
        if (to == d->rank && from == d->rank) {
            memcpy(buf[2 + s], buf[s], n);
            continue;
        }
        int e = clb_comm_irecv(buf[2 + s], n, from, HOST_TAG + 2 * mu + s, &req[(*nreq)++]);
        if (e == CLB_OK)
            e = clb_comm_isend(buf[s], n, to, HOST_TAG + 2 * mu + s, &req[(*nreq)++]);
        if (e && rc == CLB_OK)
            rc = e;
    }
    return rc;
}

int lat_host_exchange(const struct lat_decomp *d, const struct lat_geom *ext,
                      size_t ncomp, double *field)
{
    /* per direction: buffers send[back, fwd] and recv[back, fwd] of ncomp slabs */
    double *buf[4][4] = {{0}};
    struct clb_comm_req *req[16] = {0};
    int nreq = 0, rc = CLB_OK, b[6];
    size_t cplx = 2 * sizeof(double);
    for (int mu = 1; mu < 4; mu++) {
        size_t n = ncomp * lat_slab_sites(d, mu) * cplx;
        for (int k = 0; k < 4 && rc == CLB_OK && d->dec[mu]; k++)
            if (!(buf[mu][k] = clb_xmalloc(n)))
                rc = CLB_ESYS;
    }
    /* Every rank posts all its messages even after an error (its peers wait
     * for them); the error is reported after. */
    for (int mu = 1; mu < 4; mu++) {
        if (!d->dec[mu] || !buf[mu][3])
            continue;
        size_t n = ncomp * lat_slab_sites(d, mu) * cplx;
        for (int s = 0; s < 2; s++) {
            /* send slot s: what becomes the neighbour's halo on side s: our last three
             * slices for its backward halo (to the forward neighbour), our first three
             * for its forward halo */
            ext_slab(d, mu, s == 0 ? LAT_HALO + d->L[mu] - LAT_HALO : LAT_HALO, b);
            lat_box_copy(ext, b, ncomp, cplx, field, buf[mu][s], 0);
        }
        int e = host_post(d, mu, buf[mu], n, req, &nreq);
        if (e && rc == CLB_OK)
            rc = e;
    }
    int e = clb_comm_waitall(req, nreq);
    if (rc == CLB_OK)
        rc = e;
    for (int mu = 1; mu < 4 && rc == CLB_OK; mu++) {
        if (!d->dec[mu])
            continue;
        for (int s = 0; s < 2; s++) { /* backward halo, forward halo */
            ext_slab(d, mu, s == 0 ? 0 : LAT_HALO + d->L[mu], b);
            lat_box_copy(ext, b, ncomp, cplx, field, buf[mu][2 + s], 1);
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

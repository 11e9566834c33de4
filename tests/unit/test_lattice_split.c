/* The decomposition of dslash/cg over ranks (scaling=strong|weak,
 * host/workloads/lattice/lattice_split.c): slab bounds of uneven splits, the
 * grid choice and its refusals, each rank's part, neighbours and global
 * parity, the interior and boundary boxes, the packed slabs, fields from the
 * global site index, the self exchange of one rank, and the reference of a
 * part with its halos against the reference of the whole lattice, for every
 * rank of several splits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "lattice/lattice_split.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_split(void **state)
{
    (void)state;
    int lo, len;
    const int want8[3][2] = {{0, 3}, {3, 3}, {6, 2}}; /* 8 over 3: 3, 3, 2 */
    for (int c = 0; c < 3; c++) {
        lat_split(8, 3, c, &lo, &len);
        assert_int_equal(lo, want8[c][0]);
        assert_int_equal(len, want8[c][1]);
    }
    const int want10[3][2] = {{0, 4}, {4, 3}, {7, 3}}; /* 10 over 3: 4, 3, 3 */
    for (int c = 0; c < 3; c++) {
        lat_split(10, 3, c, &lo, &len);
        assert_int_equal(lo, want10[c][0]);
        assert_int_equal(len, want10[c][1]);
    }
    /* any split covers the extent once, in order, lengths within one */
    for (int G = 4; G < 40; G++)
        for (int P = 1; P <= G; P++) {
            int next = 0, mn = G, mx = 0;
            for (int c = 0; c < P; c++) {
                lat_split(G, P, c, &lo, &len);
                assert_int_equal(lo, next);
                next += len;
                mn = len < mn ? len : mn;
                mx = len > mx ? len : mx;
            }
            assert_int_equal(next, G);
            assert_true(mx - mn <= 1);
        }
}

static void expect_grid3(const size_t s[4], int scaling, int n, const char *grid, int py, int pz,
                         int pt)
{
    int P[4];
    assert_int_equal(lat_grid("dslash", s, scaling, n, grid, P), CLB_OK);
    assert_int_equal(P[0], 1);
    assert_int_equal(P[1], py);
    assert_int_equal(P[2], pz);
    assert_int_equal(P[3], pt);
}

static void expect_grid(const size_t s[4], int scaling, int n, const char *grid, int pz, int pt)
{
    expect_grid3(s, scaling, n, grid, 1, pz, pt);
}

static void expect_refused(const size_t s[4], int scaling, int n, const char *grid,
                           const char *text)
{
    int P[4];
    assert_int_equal(lat_grid("dslash", s, scaling, n, grid, P), CLB_EUSAGE);
    if (!strstr(clb_lasterr(), text))
        fail_msg("'%s' not in '%s'", text, clb_lasterr());
    assert_null(strchr(clb_lasterr(), '\n'));
}

static void test_grid(void **state)
{
    (void)state;
    const size_t big[4] = {64, 64, 64, 32}, cube[4] = {16, 16, 16, 16}, q8[4] = {8, 8, 8, 8};
    const size_t flat[4] = {8, 8, 4, 32}, q10[4] = {8, 8, 8, 10}, b12[4] = {8, 8, 12, 12};
    expect_grid(big, LAT_STRONG, 1, "", 1, 1);
    /* the fewest halo sites: z faces of 64x64x32x32 are half the t faces of 64^3x16 */
    expect_grid(big, LAT_STRONG, 2, "", 2, 1);
    expect_grid(cube, LAT_STRONG, 4, "", 2, 2); /* ties 1x1x1x4 in halo, has an interior */
    expect_grid(cube, LAT_STRONG, 3, "", 1, 3); /* y, z, t alike: t first */
    expect_grid(b12, LAT_STRONG, 6, "", 2, 3);
    expect_grid3(cube, LAT_STRONG, 8, "", 2, 2, 2); /* ties 1x1x2x4, has an interior */
    /* weak: the parts are -s; one split direction, the smallest face */
    expect_grid(cube, LAT_WEAK, 16, "", 1, 16);
    const size_t w64[4] = {64, 64, 64, 16};
    expect_grid(w64, LAT_WEAK, 2, "", 2, 1); /* z faces 4x smaller than t's */
    expect_grid(q10, LAT_STRONG, 3, "", 1, 3);  /* 4, 3, 3 */
    /* z = 4 cannot be halved (2 < 3): 1x1x1x4 */
    expect_grid(flat, LAT_STRONG, 4, "", 1, 4);
    expect_grid(q8, LAT_WEAK, 3, "", 1, 3);
    expect_grid(q8, LAT_WEAK, 4, "", 1, 4);
    /* t too short for 3 ranks: z takes them */
    const size_t zl[4] = {8, 8, 12, 4};
    expect_grid(zl, LAT_STRONG, 3, "", 3, 1);
    /* y where z and t cannot */
    const size_t yl[4] = {8, 12, 4, 4};
    expect_grid3(yl, LAT_STRONG, 3, "", 3, 1, 1);
    /* a grid given */
    expect_grid(cube, LAT_STRONG, 4, "1x1x1x4", 1, 4);
    expect_grid(cube, LAT_STRONG, 2, "1x1x2x1", 2, 1);
    expect_grid3(cube, LAT_STRONG, 8, "1x2x2x2", 2, 2, 2);
    expect_grid3(q10, LAT_STRONG, 6, "1x2x1x3", 2, 1, 3);
    /* refusals name the local extents */
    expect_refused(q8, LAT_STRONG, 3, "", "local t extents 3,3,2");
    expect_refused(q8, LAT_STRONG, 3, "1x1x1x3", "local t extents 3,3,2");
    expect_refused(q8, LAT_STRONG, 3, "1x3x1x1", "local y extents 3,3,2");
    expect_refused(q8, LAT_STRONG, 3, "", ">= 3");
    expect_refused(cube, LAT_STRONG, 3, "1x1x2x2", "has 4 parts, the job 3 ranks");
    expect_refused(cube, LAT_STRONG, 2, "2x1x1x1", "splits x");
    expect_refused(cube, LAT_STRONG, 2, "1x1x2", "not a grid");
    expect_refused(cube, LAT_STRONG, 2, "1x1x0x2", "not a grid");
    expect_refused(cube, LAT_STRONG, 2, "1x1x1x2x", "not a grid");
    expect_refused(q8, LAT_STRONG, 16, "", "cannot be split over 16 ranks");
    assert_int_equal(lat_scaling_of(""), LAT_EVERY);
    assert_int_equal(lat_scaling_of("strong"), LAT_STRONG);
    assert_int_equal(lat_scaling_of("weak"), LAT_WEAK);
    assert_int_equal(lat_scaling_of("Strong"), -1);
}

static void test_decomp(void **state)
{
    (void)state;
    const size_t s[4] = {8, 8, 10, 10};
    int P[4] = {1, 1, 2, 3};
    struct lat_decomp d;
    /* rank = ct * Pz + cz */
    lat_decomp_init(&d, s, LAT_STRONG, P, 3);
    assert_int_equal(d.c[2], 1);
    assert_int_equal(d.c[3], 1);
    assert_int_equal(d.L[2], 5);
    assert_int_equal(d.L[3], 3);
    assert_int_equal(d.O[2], 5);
    assert_int_equal(d.O[3], 4);
    assert_int_equal(d.po, 1);
    assert_true(d.dec[2] && d.dec[3] && !d.dec[0] && !d.dec[1]);
    assert_int_equal(d.nb[2][0], 2); /* z neighbours: cz 0 of the same t */
    assert_int_equal(d.nb[2][1], 2);
    assert_int_equal(d.nb[3][0], 1); /* t: ct 0 and 2 */
    assert_int_equal(d.nb[3][1], 5);
    /* periodic: the last rank's forward neighbour is the first */
    lat_decomp_init(&d, s, LAT_STRONG, P, 5);
    assert_int_equal(d.nb[3][1], 1);
    assert_int_equal(d.nb[3][0], 3);
    /* weak: the whole lattice grows */
    lat_decomp_init(&d, s, LAT_WEAK, P, 0);
    assert_int_equal(d.G[2], 20);
    assert_int_equal(d.G[3], 30);
    assert_int_equal(d.L[3], 10);
    /* one rank: t exchanged with itself */
    int one[4] = {1, 1, 1, 1};
    lat_decomp_init(&d, s, LAT_STRONG, one, 0);
    assert_true(d.dec[3] && !d.dec[2]);
    assert_int_equal(d.nb[3][0], 0);
    assert_int_equal(d.nb[3][1], 0);
    /* z split only: no halo along t */
    int zonly[4] = {1, 1, 2, 1};
    lat_decomp_init(&d, s, LAT_STRONG, zonly, 1);
    assert_true(d.dec[2] && !d.dec[3]);
    /* y, z and t: rank = (ct * Pz + cz) * Py + cy */
    int yzt[4] = {1, 2, 2, 3};
    lat_decomp_init(&d, s, LAT_STRONG, yzt, 7); /* cy 1, cz 1, ct 1 */
    assert_int_equal(d.c[1], 1);
    assert_int_equal(d.c[2], 1);
    assert_int_equal(d.c[3], 1);
    assert_true(d.dec[1] && d.dec[2] && d.dec[3]);
    assert_int_equal(d.L[1], 4);
    assert_int_equal(d.O[1], 4);
    assert_int_equal(d.nb[1][0], 6);
    assert_int_equal(d.nb[1][1], 6);
    assert_int_equal(d.nb[2][0], 5);
    assert_int_equal(d.nb[3][0], 3);
    assert_int_equal(d.nb[3][1], 11);
    /* the extended geometry: 3 more slices each side along the halo directions */
    struct lat_geom g, e;
    int off[4];
    lat_decomp_init(&d, s, LAT_STRONG, P, 4); /* cz 0, ct 2: O = (0, 0, 0, 7) */
    lat_decomp_geoms(&d, &g, &e, off);
    assert_int_equal(g.L[3], 3);
    assert_int_equal(e.L[3], 9);
    assert_int_equal(e.L[2], 11);
    assert_int_equal(off[2], 3);
    assert_int_equal(off[3], 3);
    assert_int_equal(g.po, 1);
    assert_int_equal(e.po, 1); /* origin (0, 0, -3, 4) */
}

/* Every local site's parity from the part's geometry is that of its global coordinates. */
static void test_global_parity(void **state)
{
    (void)state;
    const size_t s[4] = {4, 6, 8, 10};
    for (int n = 1; n <= 3; n++) {
        int P[4];
        assert_int_equal(lat_grid("t", s, LAT_STRONG, n, "", P), CLB_OK);
        for (int r = 0; r < n; r++) {
            struct lat_decomp d;
            struct lat_geom g, e;
            int off[4];
            lat_decomp_init(&d, s, LAT_STRONG, P, r);
            lat_decomp_geoms(&d, &g, &e, off);
            for (int p = 0; p < 2; p++)
                for (size_t i = 0; i < g.vh; i++) {
                    int x[4];
                    lat_coords(&g, p, i, x);
                    int sum = 0;
                    for (int k = 0; k < 4; k++)
                        sum += x[k] + d.O[k];
                    assert_int_equal(sum & 1, p);
                    assert_int_equal(lat_global_parity(&d, x), p);
                    assert_int_equal(lat_index(&g, x), i);
                }
            /* the extended lattice too (its origin O - off, coordinates wrap) */
            for (int p = 0; p < 2; p++)
                for (size_t i = 0; i < e.vh; i++) {
                    int x[4], sum = 0;
                    lat_coords(&e, p, i, x);
                    for (int k = 0; k < 4; k++)
                        sum += x[k] + d.O[k] - off[k] + 2 * d.G[k];
                    assert_int_equal(sum & 1, p);
                }
        }
    }
}

/* Interior and boundary: every local site once; interior sites' neighbours
 * up to 3 hops along the halo directions are local. */
static void check_boxes(const size_t s[4], int scaling, const int P[4])
{
    for (int r = 0; r < P[1] * P[2] * P[3]; r++) {
        struct lat_decomp d;
        struct lat_boxes in, bd;
        lat_decomp_init(&d, s, scaling, P, r);
        lat_boxes_init(&d, &in, &bd);
        int ly = d.L[1], lz = d.L[2], lt = d.L[3];
        int *seen = calloc((size_t)(ly * lz * lt), sizeof *seen);
        assert_non_null(seen);
        const struct lat_boxes *bs[2] = {&in, &bd};
        for (int w = 0; w < 2; w++) {
            assert_true(bs[w]->n <= LAT_MAXBOX);
            size_t sites = 0;
            for (int k = 0; k < bs[w]->n; k++) {
                const int *b = bs[w]->b[k];
                assert_true(b[1] > 0 && b[3] > 0 && b[5] > 0);
                sites += (size_t)(d.L[0] / 2 * b[1] * b[3] * b[5]);
                assert_int_equal(bs[w]->ends[k], sites);
                for (int y = b[0]; y < b[0] + b[1]; y++)
                    for (int z = b[2]; z < b[2] + b[3]; z++)
                        for (int t = b[4]; t < b[4] + b[5]; t++) {
                            assert_true(y >= 0 && y < ly && z >= 0 && z < lz && t >= 0 && t < lt);
                            seen[(t * lz + z) * ly + y]++;
                            if (w == 0) {
                                if (d.dec[1])
                                    assert_true(y - 3 >= 0 && y + 3 < ly);
                                if (d.dec[2])
                                    assert_true(z - 3 >= 0 && z + 3 < lz);
                                if (d.dec[3])
                                    assert_true(t - 3 >= 0 && t + 3 < lt);
                            }
                        }
            }
            assert_int_equal(bs[w]->sites, sites);
            for (int k = bs[w]->n; k < LAT_MAXBOX; k++)
                assert_int_equal(bs[w]->ends[k], sites);
        }
        for (int k = 0; k < ly * lz * lt; k++)
            assert_int_equal(seen[k], 1);
        assert_int_equal(in.sites + bd.sites, (size_t)(d.L[0] / 2 * ly * lz * lt));
        free(seen);
    }
}

static void test_boxes(void **state)
{
    (void)state;
    const size_t a[4] = {4, 4, 12, 20}, b[4] = {4, 4, 9, 9}, c[4] = {4, 4, 8, 10};
    int P12[4] = {1, 1, 1, 2}, P22[4] = {1, 1, 2, 2}, P13[4] = {1, 1, 1, 3};
    int P11[4] = {1, 1, 1, 1}, P31[4] = {1, 1, 3, 1}, P23[4] = {1, 1, 2, 3};
    check_boxes(a, LAT_STRONG, P12);
    check_boxes(a, LAT_STRONG, P22);
    check_boxes(a, LAT_STRONG, P11);
    check_boxes(a, LAT_STRONG, P23);
    check_boxes(b, LAT_STRONG, P13); /* t 3, 3, 3: no interior */
    check_boxes(b, LAT_STRONG, P31);
    check_boxes(c, LAT_STRONG, P13); /* 4, 3, 3 */
    check_boxes(c, LAT_WEAK, P22);
    const size_t e[4] = {4, 10, 9, 11};
    int P232[4] = {1, 2, 3, 2}, P311[4] = {1, 3, 1, 1};
    check_boxes(e, LAT_STRONG, P232); /* y, z and t: 6 boundary boxes */
    check_boxes(e, LAT_STRONG, P311);
    /* 20 over 2: interior t 3..7 of 10 */
    struct lat_decomp d;
    struct lat_boxes in, bd;
    lat_decomp_init(&d, a, LAT_STRONG, P12, 0);
    lat_boxes_init(&d, &in, &bd);
    assert_int_equal(in.n, 1);
    assert_int_equal(in.b[0][4], 3);
    assert_int_equal(in.b[0][5], 4);
    assert_int_equal(bd.n, 2);
    /* slabs: 3 slices of 2 x 4 x 12 (t), and the halo layout */
    assert_int_equal(lat_slab_sites(&d, 3), 2 * 4 * 12 * 3);
    assert_int_equal(lat_slab_sites(&d, 2), 0);
    assert_int_equal(lat_halo_len(&d, 2), 6 * 2 * 288);
    assert_int_equal(lat_halo_offset(&d, 2, 3, 1), 3 * 2 * 288);
    lat_decomp_init(&d, a, LAT_STRONG, P22, 0); /* part 4 x 4 x 6 x 10 */
    assert_int_equal(lat_slab_sites(&d, 2), 2 * 4 * 3 * 10);
    assert_int_equal(lat_halo_offset(&d, 1, 2, 0), 6 * lat_slab_sites(&d, 3));
    assert_int_equal(lat_halo_offset(&d, 1, 2, 1),
                     6 * lat_slab_sites(&d, 3) + 3 * lat_slab_sites(&d, 2));
    const size_t f[4] = {4, 14, 21, 14};
    check_boxes(f, LAT_STRONG, P232);
    lat_decomp_init(&d, f, LAT_STRONG, P232, 0); /* part 4 x 7 x 7 x 7 */
    lat_boxes_init(&d, &in, &bd);
    assert_int_equal(in.n, 1);
    assert_int_equal(bd.n, 6);
    assert_int_equal(lat_slab_sites(&d, 1), 2 * 3 * 7 * 7);
    assert_int_equal(lat_halo_offset(&d, 2, 1, 1),
                     2 * 6 * (lat_slab_sites(&d, 3) + lat_slab_sites(&d, 2)) +
                         2 * 3 * lat_slab_sites(&d, 1));
    assert_int_equal(lat_halo_len(&d, 2),
                     2 * 6 * (lat_slab_sites(&d, 3) + lat_slab_sites(&d, 2) + lat_slab_sites(&d, 1)));
}

/* Packing a box and unpacking it back; the packed order is a lattice of the box. */
static void test_box_copy(void **state)
{
    (void)state;
    int L[4] = {4, 2, 5, 6};
    struct lat_geom g;
    lat_geom_init(&g, L);
    size_t ncomp = 3, n = ncomp * g.vh;
    double *f = malloc(2 * n * sizeof *f), *back = calloc(2 * n, sizeof *back);
    int ny = 1, nz = 3, nt = 2, y0 = 1, z0 = 1, t0 = 4;
    int bx[6] = {y0, ny, z0, nz, t0, nt};
    size_t box = (size_t)(2 * ny * nz * nt);
    double *pk = malloc(2 * ncomp * box * sizeof *pk);
    assert_non_null(f);
    assert_non_null(back);
    assert_non_null(pk);
    for (size_t k = 0; k < 2 * n; k++)
        f[k] = (double)k;
    lat_box_copy(&g, bx, ncomp, 16, f, pk, 0);
    int Lb[4] = {4, ny, nz, nt};
    struct lat_geom gb;
    lat_geom_init(&gb, Lb);
    for (size_t k = 0; k < ncomp; k++)
        for (size_t j = 0; j < box; j++) {
            int x[4];
            lat_coords(&gb, 0, j, x);
            x[1] += y0;
            x[2] += z0;
            x[3] += t0;
            size_t i = k * g.vh + lat_index(&g, x);
            assert_true(pk[2 * (k * box + j)] == f[2 * i]);
            assert_true(pk[2 * (k * box + j) + 1] == f[2 * i + 1]);
        }
    lat_box_copy(&g, bx, ncomp, 16, back, pk, 1);
    size_t copied = 0;
    for (size_t k = 0; k < 2 * n; k++)
        if (back[k] != 0) {
            assert_true(back[k] == f[k]);
            copied++;
        }
    assert_int_equal(copied, 2 * ncomp * box); /* the box does not hold f's zero element */
    free(f);
    free(back);
    free(pk);
}

/* The whole lattice's fields (from the global index, origin 0). */
struct whole {
    struct lat_geom g;
    double *fat, *lng, *v, *w;
};

static void whole_init(struct whole *w, const int G[4], int rhs)
{
    lat_geom_init(&w->g, G);
    int O[4] = {0, 0, 0, 0};
    w->fat = malloc(8 * 9 * w->g.vh * 2 * sizeof(double));
    w->lng = malloc(8 * 9 * w->g.vh * 2 * sizeof(double));
    w->v = malloc((size_t)rhs * 3 * w->g.vh * 2 * sizeof(double));
    w->w = malloc((size_t)rhs * 3 * w->g.vh * 2 * sizeof(double));
    assert_non_null(w->fat);
    assert_non_null(w->lng);
    assert_non_null(w->v);
    assert_non_null(w->w);
    lat_fill_global(&w->g, G, O, 1, w->fat, w->lng, NULL, 1, rhs, LAT_SEED_V, w->v);
    struct lat_fields f = {1, w->fat, w->lng, w->v, rhs, NULL};
    lat_dslash_ref(&w->g, &f, w->w);
}

static void whole_free(struct whole *w)
{
    free(w->fat);
    free(w->lng);
    free(w->v);
    free(w->w);
}

/* For every rank of a split: the part's fields with halos equal the whole
 * lattice's at the same global sites, and the reference of the part from
 * them equals the whole lattice's reference there. */
static void check_parts(const size_t s[4], int scaling, int n, int rhs, const char *grid)
{
    int P[4];
    assert_int_equal(lat_grid("t", s, scaling, n, grid, P), CLB_OK);
    struct lat_decomp d0;
    lat_decomp_init(&d0, s, scaling, P, 0);
    struct whole w;
    whole_init(&w, d0.G, rhs);
    for (int r = 0; r < n; r++) {
        struct lat_decomp d;
        struct lat_geom g, e;
        int off[4], oe[4];
        lat_decomp_init(&d, s, scaling, P, r);
        lat_decomp_geoms(&d, &g, &e, off);
        for (int k = 0; k < 4; k++)
            oe[k] = d.O[k] - off[k];
        double *fat = malloc(8 * 9 * e.vh * 2 * sizeof(double));
        double *lng = malloc(8 * 9 * e.vh * 2 * sizeof(double));
        double *v = malloc((size_t)rhs * 3 * e.vh * 2 * sizeof(double));
        double *out = malloc((size_t)rhs * 3 * g.vh * 2 * sizeof(double));
        assert_non_null(fat);
        assert_non_null(lng);
        assert_non_null(v);
        assert_non_null(out);
        lat_fill_global(&e, d.G, oe, 1, fat, lng, NULL, 1, rhs, LAT_SEED_V, v);
        /* the fields at every extended site, both parities for the links */
        for (int p = 0; p < 2; p++)
            for (size_t i = 0; i < e.vh; i++) {
                int x[4];
                lat_coords(&e, p, i, x);
                for (int k = 0; k < 4; k++)
                    x[k] += oe[k];
                size_t iw = lat_index(&w.g, x);
                for (int mu = 0; mu < 4; mu++)
                    for (int c = 0; c < 9; c++) {
                        size_t a = lat_link_at(&e, 9, p, mu, c, i);
                        size_t b = lat_link_at(&w.g, 9, p, mu, c, iw);
                        assert_true(fat[2 * a] == w.fat[2 * b] && lng[2 * a] == w.lng[2 * b]);
                        assert_true(fat[2 * a + 1] == w.fat[2 * b + 1]);
                    }
                if (p == 1)
                    for (int q = 0; q < 3 * rhs; q++)
                        assert_true(v[2 * (q * e.vh + i)] == w.v[2 * (q * w.g.vh + iw)]);
            }
        struct lat_fields f = {1, fat, lng, v, rhs, NULL};
        lat_dslash_ref_box(&e, &f, 0, &g, off, 0, out);
        for (size_t i = 0; i < g.vh; i++) {
            int x[4];
            lat_coords(&g, 0, i, x);
            for (int k = 0; k < 4; k++)
                x[k] += d.O[k];
            size_t iw = lat_index(&w.g, x);
            for (int q = 0; q < 3 * rhs; q++)
                for (int re = 0; re < 2; re++)
                    assert_true(fabs(out[2 * (q * g.vh + i) + re] -
                                     w.w[2 * (q * w.g.vh + iw) + re]) < 1e-12);
        }
        free(fat);
        free(lng);
        free(v);
        free(out);
    }
    whole_free(&w);
}

static void test_parts(void **state)
{
    (void)state;
    const size_t a[4] = {4, 4, 4, 10}, b[4] = {4, 4, 8, 8}, c[4] = {4, 4, 4, 4};
    check_parts(a, LAT_STRONG, 1, 2, "");
    check_parts(a, LAT_STRONG, 2, 1, "1x1x1x2");
    check_parts(a, LAT_STRONG, 3, 2, ""); /* 4, 3, 3: an odd origin */
    check_parts(b, LAT_STRONG, 4, 1, ""); /* 1x1x2x2: z and t halos */
    check_parts(c, LAT_WEAK, 2, 1, "");
    check_parts(c, LAT_WEAK, 6, 1, "1x1x2x3");
    const size_t d[4] = {4, 7, 6, 8};
    check_parts(d, LAT_STRONG, 8, 1, "1x2x2x2"); /* y 4, 3 and z, t: odd origins */
}

/* One rank: the halos come from itself (the periodic wrap). */
static void test_self_exchange(void **state)
{
    (void)state;
    const size_t s[4] = {4, 4, 4, 8};
    int P[4] = {1, 1, 1, 1};
    struct lat_decomp d;
    struct lat_geom g, e;
    int off[4], oe[4];
    lat_decomp_init(&d, s, LAT_STRONG, P, 0);
    lat_decomp_geoms(&d, &g, &e, off);
    for (int k = 0; k < 4; k++)
        oe[k] = d.O[k] - off[k];
    int rhs = 2;
    size_t n = (size_t)rhs * 3 * e.vh * 2;
    double *want = malloc(n * sizeof *want), *got = malloc(n * sizeof *got);
    assert_non_null(want);
    assert_non_null(got);
    lat_fill_global(&e, d.G, oe, 1, NULL, NULL, NULL, 1, rhs, LAT_SEED_V, want);
    memcpy(got, want, n * sizeof *got);
    /* wipe the halos, exchange, compare */
    for (int r = 0; r < 3 * rhs; r++)
        for (size_t i = 0; i < e.vh; i++) {
            int x[4];
            lat_coords(&e, 1, i, x);
            if (x[3] < 3 || x[3] >= 3 + d.L[3])
                got[2 * (r * e.vh + i)] = got[2 * (r * e.vh + i) + 1] = 0;
        }
    assert_int_equal(lat_host_exchange(&d, &e, 3 * (size_t)rhs, got), CLB_OK);
    for (int r = 0; r < 3 * rhs; r++)
        for (size_t i = 0; i < e.vh; i++) {
            int x[4];
            lat_coords(&e, 1, i, x);
            /* the odd sites only were exchanged (a field of one parity) */
            assert_true(got[2 * (r * e.vh + i)] == want[2 * (r * e.vh + i)]);
        }
    double mine[3] = {1.5, -2, 3}, out[3];
    int nerr = -1;
    assert_int_equal(lat_sum_ranks(mine, 3, 1, out, &nerr), CLB_OK);
    assert_true(out[0] == 1.5 && out[1] == -2 && out[2] == 3);
    assert_int_equal(nerr, 1);
    free(want);
    free(got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split),         cmocka_unit_test(test_grid),
        cmocka_unit_test(test_decomp),        cmocka_unit_test(test_global_parity),
        cmocka_unit_test(test_boxes),         cmocka_unit_test(test_box_copy),
        cmocka_unit_test(test_parts),         cmocka_unit_test(test_self_exchange),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

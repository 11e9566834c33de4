/* The halo model's arithmetic (host/models/scaling, include/clb_scaling.h):
 * directions with halos, parts, halo and interior sites, the grid with the
 * fewest halo sites, the chain of one exchange, the application, the
 * message step of a node layout and the N-rank prediction, each for fixed
 * inputs against numbers worked out by hand (to rounding). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "clb_scaling.h"

#include <math.h>
#include <string.h>

#define EPS 1e-15
/* cmocka 1.1 has no double assertion: |a - b| <= eps, both printed when not */
#define assert_double_equal(a, b, eps) near(a, b, eps, __LINE__)
static void near(double a, double b, double eps, int line)
{
    if (!(fabs(a - b) <= eps))
        fail_msg("line %d: %.17g != %.17g (within %g)", line, a, b, eps);
}

static void test_geometry(void **state)
{
    (void)state;
    int dec[4], part[4];
    int P1[4] = {1, 1, 1, 1}, Pz[4] = {1, 1, 2, 1}, Pyzt[4] = {1, 2, 3, 2};
    clb_sc_dirs(P1, dec); /* one rank: t with itself */
    assert_true(!dec[0] && !dec[1] && !dec[2] && dec[3]);
    clb_sc_dirs(Pz, dec); /* z only: t wraps on the rank */
    assert_true(!dec[1] && dec[2] && !dec[3]);
    clb_sc_dirs(Pyzt, dec);
    assert_true(dec[1] && dec[2] && dec[3]);
    int L[4] = {64, 64, 64, 32};
    clb_sc_part(L, Pyzt, 0, part); /* 64/2, 64/3 -> 22, 32/2 */
    assert_int_equal(part[1], 32);
    assert_int_equal(part[2], 22);
    assert_int_equal(part[3], 16);
    clb_sc_part(L, Pyzt, 1, part);
    assert_int_equal(part[2], 64);
    /* 64^3 x 16, t halo: 2 x 3 x 32 x 64 x 64 sites; interior 32 x 64 x 64 x 10 */
    int w[4] = {64, 64, 64, 16};
    clb_sc_dirs(P1, dec);
    assert_double_equal(clb_sc_halo_sites(w, dec), 786432, 0);
    assert_double_equal(clb_sc_interior_sites(w, dec), 1310720, 0);
    clb_sc_dirs(Pz, dec); /* a z face: 4 x fewer sites */
    assert_double_equal(clb_sc_halo_sites(w, dec), 196608, 0);
    int q8[4] = {8, 8, 8, 8}, P3[4] = {1, 1, 1, 3};
    assert_false(clb_sc_grid_ok(q8, P3, 0)); /* 3, 3, 2 */
    assert_true(clb_sc_grid_ok(q8, P3, 1));
}

static void expect_auto(const int L[4], int n, int weak, int py, int pz, int pt)
{
    int P[4];
    assert_int_equal(clb_sc_grid_auto(L, n, weak, P), 0);
    assert_int_equal(P[0], 1);
    assert_int_equal(P[1], py);
    assert_int_equal(P[2], pz);
    assert_int_equal(P[3], pt);
}

static void test_grid_auto(void **state)
{
    (void)state;
    int w[4] = {64, 64, 64, 16}, s[4] = {64, 64, 64, 32}, c[4] = {16, 16, 16, 16};
    int q8[4] = {8, 8, 8, 8};
    expect_auto(w, 1, 1, 1, 1, 1);
    expect_auto(w, 2, 1, 1, 2, 1);   /* z faces 4 x smaller than t faces */
    expect_auto(s, 2, 0, 1, 2, 1);
    expect_auto(c, 4, 0, 1, 2, 2);   /* ties 1x1x1x4 in halo; has an interior */
    expect_auto(c, 8, 0, 2, 2, 2);
    expect_auto(q8, 3, 1, 1, 1, 3);   /* weak: one direction, t first */
}

static void test_grid_none(void **state)
{
    (void)state;
    int q8[4] = {8, 8, 8, 8}, P[4];
    assert_int_equal(clb_sc_grid_auto(q8, 16, 0, P), -1);
    assert_int_equal(clb_sc_grid_auto(q8, 3, 0, P), -1); /* 3, 3, 2 every way */
}

static void test_chain(void **state)
{
    (void)state;
    /* one after the other: 1e9 B at 50, none, 25 GB/s, 1 us */
    struct clb_sc_chain a = {1e9, 0, 50, INFINITY, 25, 1e-6, 0};
    assert_double_equal(clb_sc_chain_seconds(&a), 0.02 + 0.04 + 1e-6, EPS);
    /* pipelined: 4 chunks of 2 MB; 40, 200, 80 us per chunk: the sum + 3 x 200 us */
    struct clb_sc_chain b = {8e6, 2e6, 50, 10, 25, 0, 1};
    assert_double_equal(clb_sc_chain_seconds(&b), 4e-5 + 2e-4 + 8e-5 + 3 * 2e-4, EPS);
    /* a chunk larger than the halo: one piece */
    b.chunk = 1e9;
    assert_double_equal(clb_sc_chain_seconds(&b), 4e-5 * 4 + 2e-4 * 4 + 8e-5 * 4, EPS);
    struct clb_sc_chain none = {0, 0, 50, 10, 25, 1e-6, 1};
    assert_double_equal(clb_sc_chain_seconds(&none), 0, 0);
}

static void test_app(void **state)
{
    (void)state;
    struct clb_sc_app a = {1.0, 0.3, 0.1, 0.5, 2};
    assert_double_equal(clb_sc_exposed(&a), 0.2, EPS);
    assert_double_equal(clb_sc_app_seconds(&a), 1.6, EPS);
    assert_double_equal(clb_sc_efficiency(&a), 0.625, EPS);
    a.chain = 0.2; /* hidden behind the interior */
    assert_double_equal(clb_sc_app_seconds(&a), 1.2, EPS);
}

static void test_mid(void **state)
{
    (void)state;
    double face[4] = {0, 0, 1e6, 1e6};
    int off;
    int Pz[4] = {1, 1, 2, 1}, Pt[4] = {1, 1, 1, 16}, P1[4] = {1, 1, 1, 1};
    /* two faces to the one neighbour on the node at 10 GB/s */
    assert_double_equal(clb_sc_mid_seconds(Pz, 8, face, 10, 50, 2e-6, &off), 2e-4, EPS);
    assert_int_equal(off, 2);
    /* 16 ranks in t, 8 a node: rank 3 sends both faces on its node (the
     * slowest); rank 7 one on (1e-4 s) and one off (2e-5 + 2e-6 s) */
    assert_double_equal(clb_sc_mid_seconds(Pt, 8, face, 10, 50, 2e-6, &off), 2e-4, EPS);
    assert_int_equal(off, 3);
    /* one rank a node: every face on the network */
    assert_double_equal(clb_sc_mid_seconds(Pt, 1, face, 10, 50, 2e-6, &off), 2e6 / 5e10 + 2e-6,
                        EPS);
    assert_int_equal(off, 1);
    assert_double_equal(clb_sc_mid_seconds(P1, 8, face, 10, 50, 2e-6, &off), 0, 0);
}

/* A device: part 8^4 (2048 sites; a t halo of 1536 sites, 48 B each; an
 * interior of 512), kernels 1 us a site, the chain exactly its bus model. */
static void dev_init(struct clb_sc_dev *d)
{
    memset(d, 0, sizeof *d);
    d->tau = 1e-6;
    d->plain_gbps = 1000;
    for (int mu = 0; mu < 4; mu++)
        d->part[mu] = 8;
    d->rest = 2.048e-3;
    d->in = 0.512e-3;
    d->pack = 1e-4;
    d->halo_bytes = 73728;
    d->chain = 1e-3;
    d->d2h_gbps = d->h2d_gbps = 0.147456; /* 73728 B each way in 0.5 ms */
}

static void test_predict(void **state)
{
    (void)state;
    struct clb_sc_dev d;
    dev_init(&d);
    struct clb_sc_links k = {8, 10, 100, 50, 2e-6, 0, 0};
    int L[4] = {8, 8, 8, 8}, P1[4] = {1, 1, 1, 1}, Pz[4] = {1, 1, 2, 1};
    struct clb_sc_point p;
    clb_sc_predict(&d, &k, L, 1, P1, &p);
    assert_int_equal(p.n, 1);
    assert_double_equal(p.halo_bytes, 73728, 1e-9);
    /* host-staged: rest + pack + (chain - interior) */
    assert_double_equal(p.t[0], 2.048e-3 + 1e-4 + (1e-3 - 0.512e-3), EPS);
    assert_double_equal(p.share[0], (1e-4 + 0.488e-3) / 2.636e-3, EPS);
    assert_double_equal(p.eff[0], 2.048e-3 / 2.636e-3, EPS);
    /* device to device on one rank: no chain, the pack */
    assert_double_equal(p.t[1], 2.148e-3, EPS);
    /* 2 ranks along z: two faces of 36864 B to the neighbour, at 10 GB/s
     * between the bus steps (host-staged), at 100 GB/s alone */
    clb_sc_predict(&d, &k, L, 1, Pz, &p);
    assert_double_equal(p.halo_bytes, 73728, 1e-9);
    assert_int_equal(p.off_node, 0);
    assert_double_equal(p.t[0], 2.048e-3 + 1e-4 + (1e-3 + 7.3728e-6 - 0.512e-3), EPS);
    assert_double_equal(p.t[1], 2.148e-3, EPS);
    /* no figure for the node's host-staged messages: unknown, not invented */
    k.shm_gbps = NAN;
    clb_sc_predict(&d, &k, L, 1, Pz, &p);
    assert_true(isnan(p.t[0]) && isnan(p.eff[0]));
    assert_double_equal(p.t[1], 2.148e-3, EPS);
    /* strong: the whole 8x8x8x16 over 2 in t: parts 8^4, ideal half the lattice */
    k.shm_gbps = 10;
    int S[4] = {8, 8, 8, 16}, Pt[4] = {1, 1, 1, 2};
    clb_sc_predict(&d, &k, S, 0, Pt, &p);
    assert_int_equal(p.part[3], 8);
    assert_double_equal(p.eff[1], 4096e-6 / 2 / 2.148e-3, EPS);
}

/* The node path: 2 ranks along z on one node, both faces (73728 B) through
 * pinned host memory at the node's rates, no message; on nodes of one rank,
 * host-staged over the network instead; unknown rates: unknown. */
static void test_predict_node(void **state)
{
    (void)state;
    struct clb_sc_dev d;
    dev_init(&d);
    struct clb_sc_links k = {8, 10, 100, 50, 2e-6, 0.147456, 0.147456};
    int L[4] = {8, 8, 8, 8}, P1[4] = {1, 1, 1, 1}, Pz[4] = {1, 1, 2, 1};
    struct clb_sc_point p;
    clb_sc_predict(&d, &k, L, 1, Pz, &p);
    /* one chunk (the row's chunk 0: whole): 0.5 ms down and 0.5 ms up */
    assert_double_equal(p.t[2], 2.048e-3 + 1e-4 + (1e-3 - 0.512e-3), EPS);
    assert_double_equal(p.eff[2], 2.048e-3 / 2.636e-3, EPS);
    /* chunks of 18432 B, pipelined: 4 chunks, 0.25 ms for the first, then 3 x 0.125 */
    d.chunk = 18432;
    clb_sc_predict(&d, &k, L, 1, Pz, &p);
    assert_double_equal(p.t[2], 2.048e-3 + 1e-4 + (0.625e-3 - 0.512e-3), EPS);
    d.chunk = 0;
    /* a node per rank: the bus steps of the 1-rank chain and the network between */
    k.per_node = 1;
    clb_sc_predict(&d, &k, L, 1, Pz, &p);
    assert_double_equal(p.t[2], 2.148e-3 + (1e-3 + 73728 / 50e9 + 2e-6 - 0.512e-3), EPS);
    /* one rank: its own chain, as host-staged */
    clb_sc_predict(&d, &k, L, 1, P1, &p);
    assert_double_equal(p.t[2], p.t[0], EPS);
    k.per_node = 8;
    k.node_d2h_gbps = 0;
    clb_sc_predict(&d, &k, L, 1, Pz, &p);
    assert_true(isnan(p.t[2]) && isnan(p.eff[2]));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_geometry), cmocka_unit_test(test_grid_auto),
        cmocka_unit_test(test_grid_none), cmocka_unit_test(test_chain),
        cmocka_unit_test(test_app),      cmocka_unit_test(test_mid),
        cmocka_unit_test(test_predict),  cmocka_unit_test(test_predict_node),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Host chains of the peak and roofline workloads: half precision rounding,
 * the emulated half fma, the chains' bounds and their sensitivity, and the
 * work-item result the peak kernel must reproduce bit for bit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clbench.h"
#include "peak/peak.h"
#include "roofline/roofline.h"

/* Every half converts to a double and back to itself; NaN stays NaN. */
static void half_roundtrip(void **state)
{
    (void)state;
    for (uint32_t h = 0; h < 65536; h++) {
        double d = clb_half_to_double((uint16_t)h);
        uint16_t back = clb_half_from_double(d);
        if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff))
            assert_true((back & 0x7c00) == 0x7c00 && (back & 0x3ff));
        else if (back != h)
            fail_msg("half 0x%04x -> %g -> 0x%04x", h, d, back);
    }
    assert_true(clb_half_to_double(0x3c00) == 1.0);
    assert_true(clb_half_to_double(0x7bff) == 65504.0);
    assert_true(clb_half_to_double(0x0001) == ldexp(1, -24));
    assert_true(clb_half_to_double(0xc000) == -2.0);
}

/* Round to nearest, ties to even, in the normal and subnormal ranges;
 * overflow to infinity at the tie above 65504. */
static void half_rounding(void **state)
{
    (void)state;
    const double ulp1 = ldexp(1, -10); /* at 1.0 */
    assert_int_equal(clb_half_from_double(1.0 + ulp1 / 2), 0x3c00);         /* tie: even */
    assert_int_equal(clb_half_from_double(1.0 + 3 * ulp1 / 2), 0x3c02);     /* tie: even */
    assert_int_equal(clb_half_from_double(1.0 + ulp1 / 2 + 1e-9), 0x3c01);  /* above the tie */
    assert_int_equal(clb_half_from_double(2.0 - ulp1 / 4), 0x4000);         /* carries */
    assert_int_equal(clb_half_from_double(ldexp(1, -25)), 0x0000);          /* tie to 0 */
    assert_int_equal(clb_half_from_double(ldexp(3, -25)), 0x0002);          /* tie: even */
    assert_int_equal(clb_half_from_double(ldexp(1, -14) - ldexp(1, -26)), 0x0400); /* to normal */
    assert_int_equal(clb_half_from_double(65519.0), 0x7bff);
    assert_int_equal(clb_half_from_double(65520.0), 0x7c00);
    assert_int_equal(clb_half_from_double(-1e9), 0xfc00);
    assert_int_equal(clb_half_from_double(-0.0), 0x8000);
    assert_int_equal(clb_half_from_double(-1.9), 0xbf9a);
}

/* The emulated fma is the half nearest the exact x*y + a (ties to even):
 * no neighbour of the result is closer. */
static void half_fma_nearest(void **state)
{
    (void)state;
    unsigned long long st = 7;
    for (int i = 0; i < 200000; i++) {
        uint16_t x = (uint16_t)(clb_rand_next(&st) >> 48) & 0xbfff; /* |x| < 2 */
        uint16_t y = (uint16_t)(clb_rand_next(&st) >> 48) & 0xbfff;
        uint16_t a = (uint16_t)(clb_rand_next(&st) >> 48) & 0xbfff;
        long double exact = (long double)clb_half_to_double(x) * clb_half_to_double(y) +
                            clb_half_to_double(a);
        uint16_t r = clb_half_fma(x, y, a);
        double rv = clb_half_to_double(r);
        long double err = fabsl(exact - rv);
        /* the neighbours of r in value */
        for (int s = -1; s <= 1; s += 2) {
            uint16_t nb;
            if (rv == 0)
                nb = s > 0 ? 0x0001 : 0x8001;
            else
                nb = (uint16_t)(((r & 0x8000) ? -s : s) + r);
            double nv = clb_half_to_double(nb);
            if (isnan(nv) || isinf(nv))
                continue;
            long double en = fabsl(exact - nv);
            if (en < err || (en == err && (r & 1)))
                fail_msg("fma(0x%04x, 0x%04x, 0x%04x) = 0x%04x, but 0x%04x is nearer", x, y, a, r,
                         nb);
        }
    }
}

/* x*x - 1.9 keeps every type's chain inside [-1.9, 1.71]; one step more or
 * less changes the result (no fixed point). */
static void chains_bounded(void **state)
{
    (void)state;
    float sf[64];
    double sd[64];
    clb_fill_f32(sf, 64, 5);
    clb_fill_f64(sd, 64, 5);
    float af[2] = {(float)CLB_PEAK_ADDEND, 1};
    double ad[2] = {CLB_PEAK_ADDEND, 1};
    uint16_t ah[2] = {clb_half_from_double(CLB_PEAK_ADDEND), 0x3c00};
    for (int i = 0; i < 64; i++) {
        float xf = sf[i];
        double xd = sd[i];
        uint16_t xh = clb_half_from_double(sf[i]);
        for (int k = 0; k < 100000; k++) {
            clb_peak_step(CLB_PEAK_FLOAT, &xf, af);
            clb_peak_step(CLB_PEAK_DOUBLE, &xd, ad);
            clb_peak_step(CLB_PEAK_HALF, &xh, ah);
            double vh = clb_half_to_double(xh);
            if (!(xf >= -1.9f && xf <= 1.72f) || !(xd >= -1.9 && xd <= 1.72) ||
                !(vh >= -1.91 && vh <= 1.72))
                fail_msg("chain %d left [-1.9, 1.71] at step %d: %g %g %g", i, k, xf, xd, vh);
        }
    }
    /* sensitivity: n and n + 1 steps differ, for every type, also long after
     * a 2-adic contraction would have settled (int) */
    uint32_t si[8] = {1, 2, 3, 4, 5, 6, 7, 8}, ai[2] = {0x9e3779b9u, 0x2545f491u};
    const struct { enum clb_peak_type t; const void *seeds, *a; } c[4] = {
        {CLB_PEAK_FLOAT, sf, af}, {CLB_PEAK_DOUBLE, sd, ad}, {CLB_PEAK_INT, si, ai},
        {CLB_PEAK_HALF, NULL, ah}};
    uint16_t sh[8];
    for (int i = 0; i < 8; i++)
        sh[i] = clb_half_from_double(sf[i]);
    for (int t = 0; t < 4; t++) {
        unsigned char r1[8] = {0}, r2[8] = {0};
        const void *seeds = c[t].seeds ? c[t].seeds : sh;
        clb_peak_ref(c[t].t, seeds, 4, 2, 1000, c[t].a, r1);
        clb_peak_ref(c[t].t, seeds, 4, 2, 1001, c[t].a, r2);
        assert_true(memcmp(r1, r2, clb_peak_esize(c[t].t)) != 0);
    }
}

/* clb_peak_ref is the kernel's order: chains step by step, then the sum over
 * accumulators per lane from 0, then over lanes from 0. */
static void peak_ref_order(void **state)
{
    (void)state;
    const int acc = 8, vec = 4;
    float seeds[32], a[2] = {(float)CLB_PEAK_ADDEND, 1}, x[32];
    clb_fill_f32(seeds, 32, 9);
    memcpy(x, seeds, sizeof x);
    for (int k = 0; k < 300; k++)
        for (int i = 0; i < 32; i++)
            x[i] = fmaf(x[i], x[i], a[0]);
    float s[4], r = 0;
    for (int l = 0; l < vec; l++) {
        s[l] = 0;
        for (int j = 0; j < acc; j++)
            s[l] += x[j * vec + l];
    }
    for (int l = 0; l < vec; l++)
        r += s[l];
    float got;
    clb_peak_ref(CLB_PEAK_FLOAT, seeds, acc, vec, 300, a, &got);
    assert_memory_equal(&got, &r, sizeof r);
    /* int: wrap-around x*m + a and a wrap-around sum */
    uint32_t si[4] = {0xffffffffu, 12345u, 0x80000000u, 7u}, ai[2] = {0x9e3779b9u, 0x2545f491u};
    uint32_t ri = 0, gi;
    for (int i = 0; i < 4; i++) {
        uint32_t v = si[i];
        for (int k = 0; k < 50; k++)
            v = v * ai[1] + ai[0];
        ri += v;
    }
    clb_peak_ref(CLB_PEAK_INT, si, 4, 1, 50, ai, &gi);
    assert_int_equal(gi, ri);
}

/* The roofline chain is the peak chain of one element. */
static void roofline_chain(void **state)
{
    (void)state;
    float xf = 0.75f, af = (float)CLB_ROOFLINE_ADDEND, rf, pf = xf;
    double xd = -1.25, ad = CLB_ROOFLINE_ADDEND, rd, pd = xd;
    clb_roofline_ref(0, 0, &xf, 512, &af, &rf);
    clb_roofline_ref(1, 0, &xd, 512, &ad, &rd);
    float cf[2] = {af, 1};
    double cd[2] = {ad, 1};
    for (int k = 0; k < 512; k++) {
        clb_peak_step(CLB_PEAK_FLOAT, &pf, cf);
        clb_peak_step(CLB_PEAK_DOUBLE, &pd, cd);
    }
    assert_memory_equal(&rf, &pf, sizeof pf);
    assert_memory_equal(&rd, &pd, sizeof pd);
    clb_roofline_ref(0, 0, &xf, 0, &af, &rf); /* no flops: a copy */
    assert_memory_equal(&rf, &xf, sizeof xf);
}

/* op=muladd: two roundings a step, never contracted into the fma chain (the
 * map is chaotic: one different rounding shows after 512 steps). */
static void roofline_muladd(void **state)
{
    (void)state;
    float xf = 0.75f, af = (float)CLB_ROOFLINE_ADDEND, fma_f, mad_f, v = xf;
    clb_roofline_ref(0, 0, &xf, 512, &af, &fma_f);
    clb_roofline_ref(0, 1, &xf, 512, &af, &mad_f);
    assert_memory_not_equal(&fma_f, &mad_f, sizeof mad_f);
    for (int k = 0; k < 3; k++) {
        volatile float p = v * v;
        v = p + af;
    }
    clb_roofline_ref(0, 1, &xf, 3, &af, &mad_f);
    assert_memory_equal(&mad_f, &v, sizeof v);
    double xd = -1.25, ad = CLB_ROOFLINE_ADDEND, fma_d, mad_d;
    clb_roofline_ref(1, 0, &xd, 512, &ad, &fma_d);
    clb_roofline_ref(1, 1, &xd, 512, &ad, &mad_d);
    assert_memory_not_equal(&fma_d, &mad_d, sizeof mad_d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(half_roundtrip), cmocka_unit_test(half_rounding),
        cmocka_unit_test(half_fma_nearest), cmocka_unit_test(chains_bounded),
        cmocka_unit_test(peak_ref_order), cmocka_unit_test(roofline_chain),
        cmocka_unit_test(roofline_muladd)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

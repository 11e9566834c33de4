/* Measured ceilings (host/core/ceilings.c) from a fixture CSV
 * (tests/data/ceilings/README.md): the device is chosen by exact name, by a
 * part of it, by a profile's match list or as the only one, ambiguity and
 * absence are refused, and each kind keeps its best candidate of every
 * workload that offers ceilings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

#define FIXTURE CLB_TEST_DATA "/ceilings/fixture.csv"
#define H100 "NVIDIA H100 80GB HBM3"

static void the_h100(const struct clb_ceilings *c)
{
    assert_string_equal(c->device, H100);
    for (int k = 0; k < CLB_NCEILINGS; k++)
        assert_true(c->have[k]);
    /* the best triad (double); not the cache-resident nor the failed copy */
    assert_true(c->c[CLB_CEIL_BW].value == 3076.1);
    assert_string_equal(c->c[CLB_CEIL_BW].row->kernel, "triad");
    assert_true(c->c[CLB_CEIL_TRIAD].value == 3076.1);
    /* roofline's fp32 beats peak's; int rows are no fp32 */
    assert_true(c->c[CLB_CEIL_SP].value == 65000);
    assert_string_equal(c->c[CLB_CEIL_SP].row->workload, "roofline");
    assert_true(c->c[CLB_CEIL_DP].value == 32500);
    assert_string_equal(c->c[CLB_CEIL_DP].row->workload, "peak");
    /* the lower of two memory plateaus: 128..512 MiB at 600, 610, 620 ns */
    const struct clb_ceiling *l = &c->c[CLB_CEIL_LATENCY];
    assert_true(fabs(l->value - 610) < 1e-9);
    assert_true(fabs(l->cycles - 610 * 1.98) < 0.1);
    assert_true(l->clock_mhz == 1980);
    assert_string_equal(l->row->run_id, "6b02-h-4");
    char *o = clb_ceiling_origin(c, CLB_CEIL_BW);
    assert_non_null(o);
    assert_string_equal(o, "measured: stream triad 3076.1 GB/s (double vec=2,ilp=1,local=1024), "
                           "run 6b02-h-1, file " FIXTURE);
    free(o);
    o = clb_ceiling_origin(c, CLB_CEIL_LATENCY);
    assert_non_null(strstr(o, "latency memory plateau 610 ns = 1207.8 cycles at 1980 MHz "
                              "(128 MiB..512 MiB, stride 128 B), run 6b02-h-4"));
    free(o);
}

static void by_name(void **state)
{
    (void)state;
    struct clb_ceilings c;
    struct clb_ceil_pick exact = {H100, NULL, NULL, NULL};
    assert_int_equal(clb_ceilings_load(FIXTURE, &exact, &c), CLB_OK);
    the_h100(&c);
    clb_ceilings_free(&c);
    struct clb_ceil_pick part = {NULL, "h100", NULL, NULL};
    assert_int_equal(clb_ceilings_load(FIXTURE, &part, &c), CLB_OK);
    the_h100(&c);
    clb_ceilings_free(&c);
    struct clb_ceil_pick match = {NULL, NULL, "H200, H100", "h100_sxm"};
    assert_int_equal(clb_ceilings_load(FIXTURE, &match, &c), CLB_OK);
    the_h100(&c);
    clb_ceilings_free(&c);
    /* the K40 has a triad row only */
    struct clb_ceil_pick k40 = {NULL, "K40", NULL, NULL};
    assert_int_equal(clb_ceilings_load(FIXTURE, &k40, &c), CLB_OK);
    assert_string_equal(c.device, "Tesla K40c");
    assert_true(c.have[CLB_CEIL_BW] && c.c[CLB_CEIL_BW].value == 191.0);
    assert_false(c.have[CLB_CEIL_SP] || c.have[CLB_CEIL_DP] || c.have[CLB_CEIL_LATENCY]);
    assert_null(clb_ceiling_origin(&c, CLB_CEIL_SP));
    clb_ceilings_free(&c);
}

static void refused(void **state)
{
    (void)state;
    struct clb_ceilings c;
    struct clb_ceil_pick none = {NULL, NULL, NULL, NULL};
    assert_int_equal(clb_ceilings_load(FIXTURE, &none, &c), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "several devices"));
    assert_non_null(strstr(clb_lasterr(), "'Tesla K40c'"));
    clb_ceilings_free(&c);
    struct clb_ceil_pick both = {NULL, "a", NULL, NULL}; /* in both names */
    assert_int_equal(clb_ceilings_load(FIXTURE, &both, &c), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "--device matches several devices"));
    clb_ceilings_free(&c);
    struct clb_ceil_pick other = {"Tesla C1060", NULL, NULL, NULL};
    assert_int_equal(clb_ceilings_load(FIXTURE, &other, &c), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "no measured rows of device 'Tesla C1060'"));
    clb_ceilings_free(&c);
    struct clb_ceil_pick prof = {NULL, NULL, "Tesla C1060", "tesla_c1060"};
    assert_int_equal(clb_ceilings_load(FIXTURE, &prof, &c), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "no rows of profile tesla_c1060's device"));
    clb_ceilings_free(&c);
    assert_int_equal(clb_ceilings_load(CLB_TEST_DATA "/ceilings/missing.csv", &none, &c),
                     CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "--ceilings"));
    clb_ceilings_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(by_name), cmocka_unit_test(refused)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

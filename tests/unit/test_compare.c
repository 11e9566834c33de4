/* Unit tests of the compare table (host/compare_data.c) on the fixtures of
 * tests/data/compare: columns, lines, best and spread, sweeps, relative values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "clb_compare.h"
#include "clbench.h"

static char gpu[512], cpu[512], ref[512];

static int find_col(const struct cmp_table *t, const char *label)
{
    for (int c = 0; c < t->ncols; c++)
        if (!strcmp(t->cols[c].label, label))
            return c;
    return -1;
}

static int find_line(const struct cmp_table *t, const char *wl, const char *k, const char *dt,
                     const char *sweep)
{
    for (int i = 0; i < t->nlines; i++)
        if (!strcmp(t->lines[i].workload, wl) && !strcmp(t->lines[i].kernel, k) &&
            !strcmp(t->lines[i].dtype, dt) && !strcmp(t->lines[i].sweep, sweep))
            return i;
    return -1;
}

static void build_all(struct cmp_table *t, const struct cmp_filter *f, enum cmp_metric m)
{
    char *files[] = {gpu, cpu, ref};
    assert_int_equal(cmp_build(t, files, 3, f, m), CLB_OK);
}

static void test_columns(void **state)
{
    (void)state;
    struct cmp_table t;
    struct cmp_filter f = {0};
    build_all(&t, &f, CMP_GBPS);
    assert_int_equal(t.ncols, 7);
    int h = find_col(&t, "NVIDIA H100 80GB HBM3");
    assert_true(h >= 0);
    assert_float_equal(t.cols[h].peak_gbs, 3352, 1.0);   /* gbps * 100 / pct_peak_bw */
    assert_true(find_col(&t, "pthread-haswell-AMD EPYC 7B13 64-Core Processor @vm") >= 0);
    assert_true(find_col(&t, "Tesla K20c, \"Kepler\" GK110 (BabelStream 1.0; ECC off)") >= 0);
    int k20x = find_col(&t, "Tesla K20X (Matrix transpose whitepaper)");
    assert_true(k20x >= 0);
    assert_true(t.cols[k20x].reference);
    cmp_free(&t);
}

static void test_best_and_spread(void **state)
{
    (void)state;
    struct cmp_table t;
    struct cmp_filter f = {0};
    build_all(&t, &f, CMP_GBPS);
    int h = find_col(&t, "NVIDIA H100 80GB HBM3");
    int l = find_line(&t, "stream", "copy", "float", "");
    assert_true(l >= 0);
    const struct cmp_cell *c = cmp_cell_at(&t, l, h);
    assert_int_equal(c->n, 2);                     /* two runs of one configuration */
    assert_float_equal(c->best, 3000, 1e-9);
    assert_float_equal(c->min, 2940, 1e-9);
    assert_float_equal(cmp_spread_pct(c), 1.0, 1e-9);
    /* a failed row only: no figure, the status is kept */
    l = find_line(&t, "transpose", "naive", "double", "");
    assert_true(l >= 0);
    c = cmp_cell_at(&t, l, h);
    assert_int_equal(c->n, 0);
    assert_string_equal(c->bad, "failed");
    assert_true(isnan(cmp_value(&t, l, h)));
    cmp_free(&t);
}

static void test_sweep_lines(void **state)
{
    (void)state;
    struct cmp_table t;
    struct cmp_filter f = {.workload = "dslash"};
    build_all(&t, &f, CMP_GFLOPS);
    assert_int_equal(t.nlines, 4);   /* rhs=1..4 swept, vec=1 is not */
    for (int i = 0; i < 4; i++) {
        char want[16];
        snprintf(want, sizeof want, "rhs=%d", i + 1);
        assert_string_equal(t.lines[i].sweep, want);   /* sorted by the swept value */
        assert_string_equal(t.lines[i].sweep_key, "rhs");
        assert_float_equal(t.lines[i].sweep_num, i + 1, 0);
        assert_float_equal(t.lines[i].size_num, 32.0 * 32 * 32 * 16, 0);
    }
    assert_float_equal(cmp_value(&t, 0, 0), 2510, 0.01);
    cmp_free(&t);
}

static void test_relative(void **state)
{
    (void)state;
    struct cmp_table t;
    struct cmp_filter f = {.workload = "transpose", .dtype = "float", .any_size = 1};
    build_all(&t, &f, CMP_GBPS);
    assert_int_equal(cmp_set_relative(&t, "gtx 280"), CLB_OK);
    int k20x = find_col(&t, "Tesla K20X (Matrix transpose whitepaper)");
    int l = find_line(&t, "transpose", "naive", "float", "");
    assert_float_equal(cmp_value(&t, l, k20x), 92.0 / 2.2, 1e-9);
    assert_float_equal(cmp_value(&t, l, t.ref), 1.0, 0);
    assert_int_equal(cmp_set_relative(&t, "whitepaper"), CLB_EUSAGE); /* ambiguous */
    assert_int_equal(cmp_set_relative(&t, "Radeon"), CLB_EUSAGE);    /* no column */
    cmp_free(&t);
}

static void test_empty_selection(void **state)
{
    (void)state;
    struct cmp_table t;
    struct cmp_filter f = {.kernel = "nosuch"};
    char *files[] = {gpu};
    assert_int_equal(cmp_build(&t, files, 1, &f, CMP_GBPS), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "kernel=nosuch"));
    assert_int_equal(cmp_metric_parse("pct_peak"), CMP_PCT_PEAK);
    assert_int_equal(cmp_metric_parse("GBPS"), -1);
}

int main(void)
{
    snprintf(gpu, sizeof gpu, "%s/compare/gpu.csv", CLB_TEST_DATA);
    snprintf(cpu, sizeof cpu, "%s/compare/cpu.csv", CLB_TEST_DATA);
    snprintf(ref, sizeof ref, "%s/compare/reference.csv", CLB_TEST_DATA);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_columns),      cmocka_unit_test(test_best_and_spread),
        cmocka_unit_test(test_sweep_lines),  cmocka_unit_test(test_relative),
        cmocka_unit_test(test_empty_selection),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

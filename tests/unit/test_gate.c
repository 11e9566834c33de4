/* Unit tests of what a line is (cmp_ident, host/compare/compare_ident.c):
 * tuning parameters out of the key and case parameters in it, keys no
 * workload declares kept as case, each device's default size one key with
 * CMP_SIZE_DEFAULT, rows without size_from matched as given, a launch
 * reduced to fit (metric reduced) identified by all it ran, roofline's op a
 * case. And the gate's verdicts on the fixtures of tests/data/gate: the six
 * cases of docs/COMPARE.md, "The gate", and the rules that make it fail closed. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "clb_compare.h"
#include "clb_workload.h"
#include "compare/compare_priv.h"

struct rowspec {
    const char *device, *workload, *kernel, *size, *params, *metrics;
};

/* An input of rows built here (interned as the reader does). */
static void make_in(struct cmp_in *in, const struct rowspec *rs, int n)
{
    memset(in, 0, sizeof *in);
    for (int i = 0; i < n; i++) {
        struct clb_row r;
        clb_row_init(&r);
        r.device = rs[i].device;
        r.workload = rs[i].workload;
        r.kernel = rs[i].kernel;
        r.dtype = "float";
        r.size = rs[i].size;
        r.params = rs[i].params;
        r.metrics = rs[i].metrics;
        r.status = "ok";
        assert_int_equal(clb_rowset_add(&in->set, &r), CLB_OK);
    }
    assert_int_equal(cmp_in_prepare(in), CLB_OK);
}

static void key_of(struct cmp_in *in, size_t row, enum cmp_size_mode mode, uint64_t *k,
                   struct cmp_ident *id)
{
    assert_int_equal(cmp_ident(in, row, mode, id), CLB_OK);
    cmp_ident_key(id, k);
}

static int same_key(struct cmp_in *in, size_t a, size_t b, enum cmp_size_mode mode)
{
    uint64_t ka[CMP_IDENT_NK], kb[CMP_IDENT_NK];
    struct cmp_ident ia, ib;
    key_of(in, a, mode, ka, &ia);
    key_of(in, b, mode, kb, &ib);
    return !memcmp(ka, kb, sizeof ka);
}

static void test_tuning_is_not_identity(void **state)
{
    (void)state;
    static const struct rowspec rs[] = {
        {"A", "stream", "copy", "2^28", "vec=4,ilp=1,local=128", "size_from=rule"},
        {"A", "stream", "copy", "268435456", "local=1024,vec=8,ilp=1", "size_from=rule"},
        {"A", "dslash", "reg", "16x16x16x16", "rhs=1,links=full,local=128", ""},
        {"A", "dslash", "reg", "16x16x16x16", "rhs=2,links=full,local=128", ""},
        {"A", "stream", "copy", "268435456", "vec=4,future_key=1", ""},
        {"A", "nosuchworkload", "k", "1024", "vec=4", ""}};
    struct cmp_in in;
    make_in(&in, rs, 6);
    struct cmp_ident id;
    uint64_t k[CMP_IDENT_NK];
    assert_true(same_key(&in, 0, 1, CMP_SIZE_GIVEN));     /* tuning differs, sizes are one */
    key_of(&in, 1, CMP_SIZE_GIVEN, k, &id);
    assert_string_equal(id.size, "268435456");
    assert_string_equal(id.cases, "");
    assert_string_equal(id.tuning, "ilp=1,local=1024,vec=8");   /* sorted by key */
    assert_int_equal(id.size_default, 1);
    assert_false(same_key(&in, 2, 3, CMP_SIZE_GIVEN));    /* rhs is a case parameter */
    key_of(&in, 3, CMP_SIZE_GIVEN, k, &id);
    assert_string_equal(id.cases, "links=full,rhs=2");
    assert_string_equal(id.tuning, "local=128");
    assert_int_equal(id.size_default, -1);                /* no size_from */
    /* a key the workload does not declare is a case parameter (fail closed) */
    assert_false(same_key(&in, 0, 4, CMP_SIZE_GIVEN));
    key_of(&in, 4, CMP_SIZE_GIVEN, k, &id);
    assert_string_equal(id.cases, "future_key=1");
    /* a workload the registry does not know: every key is a case parameter */
    key_of(&in, 5, CMP_SIZE_GIVEN, k, &id);
    assert_string_equal(id.cases, "vec=4");
    assert_string_equal(id.tuning, "");
    cmp_in_free(&in);
}

static void test_default_sizes(void **state)
{
    (void)state;
    static const struct rowspec rs[] = {
        {"A", "stream", "copy", "268435456", "vec=4", "size_from=rule"},
        {"B", "stream", "copy", "536870912", "vec=8", "size_from=profile"},
        {"B", "stream", "copy", "1048576", "vec=8", "size_from=given"},
        {"A", "stream", "copy", "1048576", "vec=8", "size_from=quick"},
        {"B", "stream", "copy", "536870912", "vec=8", ""}};
    struct cmp_in in;
    make_in(&in, rs, 5);
    assert_false(same_key(&in, 0, 1, CMP_SIZE_GIVEN));
    assert_true(same_key(&in, 0, 1, CMP_SIZE_DEFAULT));   /* each device's default size */
    struct cmp_ident id;
    uint64_t k[CMP_IDENT_NK];
    key_of(&in, 1, CMP_SIZE_DEFAULT, k, &id);
    assert_string_equal(id.size, "default");
    assert_string_equal(id.row_size, "536870912");
    assert_false(same_key(&in, 0, 2, CMP_SIZE_DEFAULT));  /* a given size is not a default */
    assert_true(same_key(&in, 2, 3, CMP_SIZE_DEFAULT));   /* given and quick: as given */
    assert_false(same_key(&in, 0, 4, CMP_SIZE_DEFAULT));  /* no size_from: as given */
    assert_true(same_key(&in, 0, 4, CMP_SIZE_ANY));
    key_of(&in, 4, CMP_SIZE_ANY, k, &id);
    assert_string_equal(id.size, "any");
    cmp_in_free(&in);
}

/* A launch reduced to fit the device is what ran: all its params are its
 * identity, never that of the row that ran as asked; roofline's op is a case
 * parameter (another step is another measurement). */
static void test_reduced_and_op(void **state)
{
    (void)state;
    static const struct rowspec rs[] = {
        {"A", "stream", "copy", "1048576", "vec=4,ilp=1,local=128", "size_from=rule"},
        {"A", "stream", "copy", "1048576", "vec=4,ilp=1,local=32", "reduced=1;size_from=rule"},
        {"A", "stream", "copy", "1048576", "local=32,ilp=1,vec=4", "size_from=rule;reduced=1"},
        {"A", "stream", "copy", "1048576", "vec=8,ilp=1,local=32", "reduced=1"},
        {"A", "stream", "copy", "1048576", "vec=4,ilp=1,local=32", "reduced=0"},
        {"A", "roofline", "fma", "65536", "flops=8,vec=8,ilp=4", ""},
        {"A", "roofline", "fma", "65536", "flops=8,vec=4,ilp=4,op=muladd", ""},
        {"A", "roofline", "fma", "65536", "flops=8,vec=8,ilp=4,op=muladd", ""},
        {"A", "blockeq", "recip", "4096", "partitions=4,tile=32x1", ""},
        {"A", "blockeq", "recip", "4096", "partitions=4", ""}};
    struct cmp_in in;
    make_in(&in, rs, 10);
    struct cmp_ident id;
    uint64_t k[CMP_IDENT_NK];
    assert_false(same_key(&in, 0, 1, CMP_SIZE_GIVEN));   /* reduced: not the asked launch */
    key_of(&in, 1, CMP_SIZE_GIVEN, k, &id);
    assert_string_equal(id.cases, "ilp=1,local=32,vec=4 [reduced]");
    assert_string_equal(id.tuning, "");
    assert_int_equal(id.reduced, 1);
    assert_true(same_key(&in, 1, 2, CMP_SIZE_GIVEN));    /* reduced the same way */
    assert_false(same_key(&in, 1, 3, CMP_SIZE_GIVEN));   /* another launch, reduced */
    assert_true(same_key(&in, 0, 4, CMP_SIZE_GIVEN));    /* reduced=0: as asked */
    key_of(&in, 4, CMP_SIZE_GIVEN, k, &id);
    assert_int_equal(id.reduced, 0);
    assert_false(same_key(&in, 5, 6, CMP_SIZE_GIVEN));   /* fma against muladd */
    assert_true(same_key(&in, 6, 7, CMP_SIZE_GIVEN));    /* vec is tuning */
    key_of(&in, 7, CMP_SIZE_GIVEN, k, &id);
    assert_string_equal(id.cases, "flops=8,op=muladd");
    /* a key only a reduction writes is declared a case row key */
    assert_false(same_key(&in, 8, 9, CMP_SIZE_GIVEN));
    key_of(&in, 8, CMP_SIZE_GIVEN, k, &id);
    assert_string_equal(id.cases, "partitions=4,tile=32x1");
    cmp_in_free(&in);
}

static char *fx(const char *name)
{
    static char paths[4][512];
    static int k;
    char *p = paths[k++ % 4];
    snprintf(p, 512, "%s/gate/%s", CLB_TEST_DATA, name);
    return p;
}

/* The gate's six cases (docs/COMPARE.md, "The gate"), through cmp_baseline. */
static void test_gate_cases(void **state)
{
    (void)state;
    const struct cmp_metric *m = cmp_metric_find("gbps");
    struct cmp_filter f = {0};
    struct cmp_gate g = {.threshold = 5};
    struct cmp_delta d;
    char *one[1];
    one[0] = fx("nothing.csv");
    assert_int_equal(cmp_baseline(&d, one, 1, fx("base.csv"), &f, m, &g), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "nothing in common"));
    one[0] = fx("tuned.csv");
    assert_int_equal(cmp_baseline(&d, one, 1, fx("base.csv"), &f, m, &g), CLB_OK);
    assert_int_equal(d.failed, 1);
    assert_string_equal(d.v[d.worst].tuned, "local 128→1024");
    cmp_delta_free(&d);
    one[0] = fx("missing.csv");
    assert_int_equal(cmp_baseline(&d, one, 1, fx("base.csv"), &f, m, &g), CLB_OK);
    assert_int_equal(d.count[CMP_D_MISSING], 1);
    assert_int_equal(d.failed, 1);
    cmp_delta_free(&d);
    struct cmp_gate allow = {.threshold = 5, .allow_missing = 1};
    assert_int_equal(cmp_baseline(&d, one, 1, fx("base.csv"), &f, m, &allow), CLB_OK);
    assert_int_equal(d.failed, 0);
    cmp_delta_free(&d);
    one[0] = fx("otherdev.csv");
    assert_int_equal(cmp_baseline(&d, one, 1, fx("base.csv"), &f, m, &g), CLB_EUSAGE);
    struct cmp_gate x = {.threshold = 5, .cross_device = 1};
    assert_int_equal(cmp_baseline(&d, one, 1, fx("base.csv"), &f, m, &x), CLB_OK);
    assert_int_equal(d.compared, 5);
    assert_int_equal(d.failed, 0);
    cmp_delta_free(&d);
    one[0] = fx("noise.csv");
    struct cmp_gate two = {.threshold = 2}, strict = {.threshold = 2, .strict = 1};
    assert_int_equal(cmp_baseline(&d, one, 1, fx("base.csv"), &f, m, &two), CLB_OK);
    assert_int_equal(d.count[CMP_D_NOISE], 1);
    assert_int_equal(d.failed, 0);
    cmp_delta_free(&d);
    assert_int_equal(cmp_baseline(&d, one, 1, fx("base.csv"), &f, m, &strict), CLB_OK);
    assert_int_equal(d.failed, 1);
    cmp_delta_free(&d);
    one[0] = fx("identical.csv");
    assert_int_equal(cmp_baseline(&d, one, 1, fx("base.csv"), &f, m, &g), CLB_OK);
    assert_int_equal(d.compared, 5);
    assert_int_equal(d.failed, 0);
    cmp_delta_free(&d);
}

/* What keeps the gate from passing by accident, beyond the six cases: a
 * skipped line is missing, a failed one fails even with --allow-missing, a
 * launch reduced in the new run leaves its baseline lines missing (even
 * faster), and the refusals name what each side has. */
static void test_fail_closed(void **state)
{
    (void)state;
    const struct cmp_metric *m = cmp_metric_find("gbps");
    struct cmp_filter f = {0};
    struct cmp_gate g = {.threshold = 5}, allow = {.threshold = 5, .allow_missing = 1};
    struct cmp_delta d;
    char *one[1] = {fx("skipped.csv")};
    assert_int_equal(cmp_baseline(&d, one, 1, fx("base.csv"), &f, m, &g), CLB_OK);
    assert_int_equal(d.count[CMP_D_MISSING], 1);
    assert_int_equal(d.compared, 4);
    assert_int_equal(d.failed, 1);
    cmp_delta_free(&d);
    assert_int_equal(cmp_baseline(&d, one, 1, fx("base.csv"), &f, m, &allow), CLB_OK);
    assert_int_equal(d.failed, 0);
    cmp_delta_free(&d);
    one[0] = fx("failed.csv");
    assert_int_equal(cmp_baseline(&d, one, 1, fx("base.csv"), &f, m, &allow), CLB_OK);
    assert_int_equal(d.count[CMP_D_LOST], 1);
    assert_int_equal(d.failed, 1);
    cmp_delta_free(&d);
    one[0] = fx("reduced.csv");
    assert_int_equal(cmp_baseline(&d, one, 1, fx("base.csv"), &f, m, &g), CLB_OK);
    assert_int_equal(d.count[CMP_D_MISSING], 2);
    assert_int_equal(d.count[CMP_D_NEW], 2);
    assert_int_equal(d.count[CMP_D_IMPROVED] + d.count[CMP_D_REGRESSED], 0);
    assert_int_equal(d.compared, 3);
    assert_int_equal(d.failed, 2);
    cmp_delta_free(&d);
    one[0] = fx("reduced_again.csv");
    assert_int_equal(cmp_baseline(&d, one, 1, fx("reduced.csv"), &f, m, &g), CLB_OK);
    assert_int_equal(d.compared, 5);
    assert_int_equal(d.failed, 0);
    cmp_delta_free(&d);
    one[0] = fx("nothing.csv");
    assert_int_equal(cmp_baseline(&d, one, 1, fx("base.csv"), &f, m, &allow), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "the baseline has stream, dot, dslash; the new files "
                                          "have transpose"));
    one[0] = fx("otherdev.csv");
    assert_int_equal(cmp_baseline(&d, one, 1, fx("base.csv"), &f, m, &allow), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "Gate Test GPU A"));
    assert_non_null(strstr(clb_lasterr(), "Gate Test GPU B"));
    /* rows without size_from do not match another device's default size */
    struct cmp_gate x = {.threshold = 5, .cross_device = 1};
    one[0] = fx("unmarked.csv");
    assert_int_equal(cmp_baseline(&d, one, 1, fx("base.csv"), &f, m, &x), CLB_OK);
    assert_int_equal(d.count[CMP_D_MISSING], 3);
    assert_int_equal(d.failed, 3);
    cmp_delta_free(&d);
}

/* Two ways the gate passed a run it must fail: a group
 * that stopped in set-up (one `kernel=*` error row) left its lines "missing
 * (allowed)"; the baseline's own rows on the new side won every line. */
static void test_gate_holes(void **state)
{
    (void)state;
    const struct cmp_metric *m = cmp_metric_find("gbps");
    struct cmp_filter f = {0};
    struct cmp_gate allow = {.threshold = 5, .allow_missing = 1}, g = {.threshold = 5};
    struct cmp_delta d;
    char *one[1] = {fx("groupfail.csv")};
    assert_int_equal(cmp_baseline(&d, one, 1, fx("base.csv"), &f, m, &allow), CLB_OK);
    assert_int_equal(d.count[CMP_D_LOST], 2);
    assert_int_equal(d.count[CMP_D_MISSING], 0);
    assert_int_equal(d.failed, 2);
    int grp = 0;
    for (int i = 0; i < d.n; i++)
        grp += d.v[i].group_failed && d.v[i].state == CMP_D_LOST;
    assert_int_equal(grp, 2);
    cmp_delta_free(&d);
    /* the baseline's own run in the new file: refused, the 50 % regression found */
    one[0] = fx("withbase.csv");
    assert_int_equal(cmp_baseline(&d, one, 1, fx("base.csv"), &f, m, &g), CLB_OK);
    assert_int_equal(d.refused, 5);
    assert_string_equal(d.refused_ids, "b1");
    assert_int_equal(d.count[CMP_D_REGRESSED], 1);
    assert_int_equal(d.failed, 1);
    cmp_delta_free(&d);
    /* nothing but the baseline's own rows: refused whole */
    one[0] = fx("base.csv");
    assert_int_equal(cmp_baseline(&d, one, 1, fx("base.csv"), &f, m, &g), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "a run cannot be its own baseline"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_tuning_is_not_identity),
                                       cmocka_unit_test(test_default_sizes),
                                       cmocka_unit_test(test_reduced_and_op),
                                       cmocka_unit_test(test_gate_cases),
                                       cmocka_unit_test(test_fail_closed),
                                       cmocka_unit_test(test_gate_holes)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

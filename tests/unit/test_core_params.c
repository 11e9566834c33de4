/* Parsing of counts, sizes, lists and key=value parameters; device specs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "clb_cl.h"
#include "clb_params.h"
#include "clbench.h"

static void counts(void **state)
{
    (void)state;
    size_t v;
    assert_int_equal(clb_parse_count("4096", &v), CLB_OK);
    assert_int_equal(v, 4096);
    assert_int_equal(clb_parse_count("16K", &v), CLB_OK);
    assert_int_equal(v, 16384);
    assert_int_equal(clb_parse_count("1M", &v), CLB_OK);
    assert_int_equal(v, 1u << 20);
    assert_int_equal(clb_parse_count("2^28", &v), CLB_OK);
    assert_int_equal(v, 1u << 28);
    const char *bad[] = {"", "-5", "abc", "12x", "1MB", "2^", "2^99", "1^5", "99999999999999999999G"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_not_equal(clb_parse_count(bad[i], &v), CLB_OK);
}

static void dims(void **state)
{
    (void)state;
    struct clb_size s;
    char err[256];
    assert_int_equal(clb_parse_dims("1000x3000", 2, &s, err, sizeof err), CLB_OK);
    assert_int_equal(s.ndims, 2);
    assert_int_equal(s.d[0], 1000);
    assert_int_equal(s.d[1], 3000);
    assert_int_equal(s.total, 3000000);
    assert_int_equal(clb_parse_dims("16x16x16x8", 4, &s, err, sizeof err), CLB_OK);
    assert_int_equal(s.total, 16 * 16 * 16 * 8);
    assert_int_equal(clb_parse_dims("2^20", 1, &s, err, sizeof err), CLB_OK);
    const char *bad2[] = {"1000", "1000x", "x1000", "0x5", "-3x4", "axb", "1x2x3", ""};
    for (size_t i = 0; i < sizeof bad2 / sizeof *bad2; i++) {
        err[0] = 0;
        assert_int_equal(clb_parse_dims(bad2[i], 2, &s, err, sizeof err), CLB_EUSAGE);
        assert_non_null(strstr(err, "size"));
    }
    assert_int_equal(clb_parse_dims("-5", 1, &s, err, sizeof err), CLB_EUSAGE);
    assert_non_null(strstr(err, "'-5'"));
}

static void int_lists(void **state)
{
    (void)state;
    long v[64];
    char err[256];
    assert_int_equal(clb_parse_int_list("1,2,4", 0, 100, v, 64, err, sizeof err), 3);
    assert_int_equal(v[2], 4);
    assert_int_equal(clb_parse_int_list("1..8", 0, 100, v, 64, err, sizeof err), 8);
    assert_int_equal(v[7], 8);
    assert_int_equal(clb_parse_int_list("1..64:*2", 0, 100, v, 64, err, sizeof err), 7);
    assert_int_equal(v[6], 64);
    assert_int_equal(clb_parse_int_list("0..32:8", 0, 100, v, 64, err, sizeof err), 5);
    assert_int_equal(v[4], 32);
    assert_int_equal(clb_parse_int_list("3,8..10", 0, 100, v, 64, err, sizeof err), 4);
    assert_int_equal(clb_parse_int_list("200", 0, 100, v, 64, err, sizeof err), -1);
    assert_non_null(strstr(err, "out of range"));
    const char *bad[] = {"", "a", "1,,2", "5..1", "1..", "..3", "1..8:*1", "1..8:0", "2,x"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(clb_parse_int_list(bad[i], 0, 100, v, 64, err, sizeof err), -1);
    assert_int_equal(clb_parse_int_list("1..100", 0, 100, v, 8, err, sizeof err), -1);
}

/* Values at the ends of a long: the fuzzer once found -2^63 negated and a
 * step past LONG_MAX; both must be refused or stop cleanly, with no overflow. */
static void int_list_extremes(void **state)
{
    (void)state;
    long v[64];
    char err[256];
    assert_int_equal(clb_parse_int_list("-8^21", LONG_MIN, LONG_MAX, v, 64, err, sizeof err), -1);
    assert_int_equal(clb_parse_int_list("-2^62", LONG_MIN, LONG_MAX, v, 64, err, sizeof err), 1);
    assert_true(v[0] == -(1L << 62));
    assert_int_equal(clb_parse_int_list("1..9223372036854775807:9223372036854775807", LONG_MIN,
                                        LONG_MAX, v, 64, err, sizeof err), 1);
    assert_int_equal(clb_parse_int_list("2..2^62:*2^62", LONG_MIN, LONG_MAX, v, 64, err,
                                        sizeof err), 1);
    assert_int_equal(clb_parse_int_list("-9223372036854775807..9223372036854775807:2^62",
                                        LONG_MIN, LONG_MAX, v, 64, err, sizeof err), 4);
    assert_true(v[3] == (1L << 62) + 1);
    assert_int_equal(clb_parse_int_list("-3..-1", -10, 10, v, 64, err, sizeof err), 3);
    assert_int_equal(v[2], -1);
}

static void kvlist(void **state)
{
    (void)state;
    struct clb_kvlist l = {0};
    assert_int_equal(clb_kvlist_add(&l, "vec=4"), CLB_OK);
    assert_int_equal(clb_kvlist_add(&l, "ilp=1,2"), CLB_OK);
    assert_int_equal(clb_kvlist_add(&l, "vec=8"), CLB_OK); /* later wins */
    assert_string_equal(clb_kvlist_get(&l, "vec"), "8");
    assert_string_equal(clb_kvlist_get(&l, "ilp"), "1,2");
    assert_null(clb_kvlist_get(&l, "local"));
    assert_int_equal(clb_kvlist_add(&l, "novalue"), CLB_EUSAGE);
    assert_int_equal(clb_kvlist_add(&l, "=3"), CLB_EUSAGE);
    assert_int_equal(clb_kvlist_add(&l, "k="), CLB_EUSAGE);
    clb_kvlist_free(&l);
    int n;
    char **parts = clb_split("a, b,,c", &n);
    assert_int_equal(n, 3);
    assert_string_equal(parts[1], "b");
    assert_null(parts[3]);
    free(parts);
}

static void device_specs(void **state)
{
    (void)state;
    struct clb_devinfo d[3];
    memset(d, 0, sizeof d);
    strcpy(d[0].name, "pthread-haswell-AMD EPYC");
    d[0].type = CL_DEVICE_TYPE_CPU;
    strcpy(d[1].name, "NVIDIA H100 80GB HBM3");
    d[1].type = CL_DEVICE_TYPE_GPU;
    d[1].pidx = 1;
    strcpy(d[2].name, "Intel(R) FPGA Emulation Device");
    d[2].type = CL_DEVICE_TYPE_ACCELERATOR;
    d[2].pidx = 2;
    for (int i = 0; i < 3; i++)
        d[i].type_name = clb_device_type_name(d[i].type, "", d[i].name);
    assert_int_equal(clb_select_device(d, 3, NULL), 1);      /* GPU first */
    assert_int_equal(clb_select_device(d, 1, NULL), 0);      /* else the CPU */
    assert_int_equal(clb_select_device(d, 3, "2"), 2);
    assert_int_equal(clb_select_device(d, 3, "1:0"), 1);
    assert_int_equal(clb_select_device(d, 3, "cpu"), 0);
    assert_int_equal(clb_select_device(d, 3, "accelerator"), 2);
    assert_int_equal(clb_select_device(d, 3, "h100"), 1);    /* substring, any case */
    assert_int_equal(clb_select_device(d, 3, "7"), -1);
    assert_non_null(strstr(clb_lasterr(), "out of range"));
    assert_int_equal(clb_select_device(d, 3, "5:0"), -1);
    assert_int_equal(clb_select_device(d, 3, "radeon"), -1);
    assert_non_null(strstr(clb_lasterr(), "'radeon'"));
    assert_int_equal(clb_select_device(d, 1, "gpu"), -1);
}

static void slugs_and_lists(void **state)
{
    (void)state;
    char *s = clb_slug("NVIDIA H100 80GB HBM3");
    assert_string_equal(s, "nvidia-h100-80gb-hbm3");
    free(s);
    s = clb_slug("cpu-haswell-Intel(R) Xeon(R)");
    assert_string_equal(s, "cpu-haswell-intel-r-xeon-r");
    free(s);
    s = clb_slug("(((");
    assert_string_equal(s, "device");
    free(s);
    assert_true(clb_list_has("float,double", "double"));
    assert_false(clb_list_has("float,double", "doub"));
    float f[1000];
    clb_fill_f32(f, 1000, 7);
    for (int i = 0; i < 1000; i++)
        assert_true(f[i] != 0 && f[i] > -1.5f && f[i] < 1.5f);
}

/* clb_seterr may quote the message it replaces; clb_errseq counts the
 * messages set, which is how a caller tells a callee's silent failure from
 * one that said why (never by the message's text). */
static void error_messages(void **state)
{
    (void)state;
    clb_seterr("cannot read '%s'", "x.csv");
    unsigned long seq = clb_errseq();
    clb_seterr("--ceilings: %s", clb_lasterr());
    assert_string_equal(clb_lasterr(), "--ceilings: cannot read 'x.csv'");
    assert_int_equal(clb_errseq(), seq + 1);
    assert_int_equal(clb_oom(), CLB_ESYS);
    assert_string_equal(clb_lasterr(), CLB_OOM);
    assert_int_equal(clb_errseq(), seq + 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(counts),       cmocka_unit_test(dims),
        cmocka_unit_test(int_lists), cmocka_unit_test(int_list_extremes),    cmocka_unit_test(kvlist),
        cmocka_unit_test(device_specs), cmocka_unit_test(slugs_and_lists),
        cmocka_unit_test(error_messages)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

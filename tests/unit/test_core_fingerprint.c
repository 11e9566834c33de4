/* The fingerprint of a kernel's source (host/core/fingerprint.c; the metric
 * fp): its visible text -- comments and blanks out, the file's other
 * kernels' bodies emptied -- so that a comment changes nothing, a rewritten
 * kernel changes itself alone and a shared helper changes every kernel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/core.h"

static const char *const base =
    "#define T float\n"
    "inline T twice(T x) { return 2 * x; }\n"
    "/* the first kernel */\n"
    "__kernel void a(__global T *o) { o[0] = twice(1); }\n"
    "__kernel __attribute__((reqd_work_group_size(8, 8, 1)))\n"
    "void b(__global T *o) { if (1) { o[1] = 2; } }\n"
    "kernel void c(__global T *o) { o[2] = 3; }\n";

static void isolation(void **state)
{
    (void)state;
    uint64_t a = clb_fp_source(base, "a"), b = clb_fp_source(base, "b");
    uint64_t c = clb_fp_source(base, "c");
    assert_true(a != b && b != c && a != c);
    /* comments and blanks change nothing */
    const char *commented =
        "#define T float\n"
        "inline T twice(T x)   {   return 2 * x; }  // the helper\n"
        "\n"
        "__kernel void a(__global T *o)\n{\n    o[0] = twice(1);   /* as before */\n}\n"
        "__kernel __attribute__((reqd_work_group_size(8, 8, 1)))\n"
        "void b(__global T *o) { if (1) { o[1] = 2; } }\n"
        "kernel void c(__global T *o) { o[2] = 3; }\n";
    assert_true(clb_fp_source(commented, "a") == a);
    assert_true(clb_fp_source(commented, "b") == b);
    /* b rewritten: b changes, a and c do not */
    const char *b2 =
        "#define T float\n"
        "inline T twice(T x) { return 2 * x; }\n"
        "__kernel void a(__global T *o) { o[0] = twice(1); }\n"
        "__kernel __attribute__((reqd_work_group_size(8, 8, 1)))\n"
        "void b(__global T *o) { if (1) { o[1] = 4; } }\n"
        "kernel void c(__global T *o) { o[2] = 3; }\n";
    assert_true(clb_fp_source(b2, "b") != b);
    assert_true(clb_fp_source(b2, "a") == a);
    assert_true(clb_fp_source(b2, "c") == c);
    /* a shared helper changed: every kernel */
    const char *h2 =
        "#define T float\n"
        "inline T twice(T x) { return x + x; }\n"
        "__kernel void a(__global T *o) { o[0] = twice(1); }\n"
        "__kernel __attribute__((reqd_work_group_size(8, 8, 1)))\n"
        "void b(__global T *o) { if (1) { o[1] = 2; } }\n"
        "kernel void c(__global T *o) { o[2] = 3; }\n";
    assert_true(clb_fp_source(h2, "a") != a);
    assert_true(clb_fp_source(h2, "c") != c);
    /* a kernel the text does not define by that name (a macro makes it):
     * the whole text, which any change changes */
    uint64_t m = clb_fp_source(base, "made_by_a_macro");
    assert_true(clb_fp_source(b2, "made_by_a_macro") != m);
}

static void options(void **state)
{
    (void)state;
    assert_true(clb_fp_options("-DT=float -DTILE=32") == clb_fp_options("-DT=float  -DTILE=32"));
    assert_true(clb_fp_options("-DT=float -DTILE=32") != clb_fp_options("-DT=float -DTILE=64"));
    assert_true(clb_fp_options(NULL) == clb_fp_options(""));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(isolation), cmocka_unit_test(options)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The registers and spills a build log reports for one kernel
 * (clb_parse_ptxas_log, host/core/cl_kernel_info.c): ptxas's lines as
 * CUDA 13's ptxas -v printed them for cl/dslash.cl (sm_90), the form NVIDIA's
 * OpenCL build log takes under -cl-nv-verbose; and logs that are not that. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "clb_cl.h"

static const char LOG[] =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function 'dslash_dist' for 'sm_90'\n"
    "ptxas info    : Function properties for dslash_dist\n"
    "    2824 bytes stack frame, 4180 bytes spill stores, 4184 bytes spill loads\n"
    "ptxas info    : Used 255 registers, used 0 barriers, 2824 bytes cumulative stack size\n"
    "ptxas info    : Compile time = 2630.404 ms\n"
    "ptxas info    : Function properties for _Z13get_global_idj\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Compiling entry function 'dslash' for 'sm_90'\n"
    "ptxas info    : Function properties for dslash\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 183 registers, used 0 barriers\n"
    "ptxas info    : Function properties for _Z13get_global_idj\n"
    "    0 bytes stack frame, 16 bytes spill stores, 0 bytes spill loads\n";

static void entry_of_its_own_name(void **state)
{
    (void)state;
    long regs, spill;
    clb_parse_ptxas_log(LOG, "dslash", &regs, &spill);
    assert_int_equal(regs, 183);
    assert_int_equal(spill, 0); /* not the 16 of the function it calls after it */
    clb_parse_ptxas_log(LOG, "dslash_dist", &regs, &spill);
    assert_int_equal(regs, 255);
    assert_int_equal(spill, 4180);
}

static void unknown_where_the_log_does_not_say(void **state)
{
    (void)state;
    long regs, spill;
    clb_parse_ptxas_log(LOG, "dslash_par", &regs, &spill); /* no such entry */
    assert_int_equal(regs, -1);
    assert_int_equal(spill, -1);
    clb_parse_ptxas_log(LOG, "dslash_", &regs, &spill); /* a prefix is not the name */
    assert_int_equal(regs, -1);
    clb_parse_ptxas_log("", "dslash", &regs, &spill);
    assert_int_equal(regs, -1);
    clb_parse_ptxas_log(NULL, "dslash", &regs, &spill);
    assert_int_equal(spill, -1);
    /* PoCL's and Rusticl's logs say nothing of the kind */
    clb_parse_ptxas_log("warning: unused variable 'x'\n", "dslash", &regs, &spill);
    assert_int_equal(regs, -1);
    assert_int_equal(spill, -1);
}

static void cut_or_odd_logs(void **state)
{
    (void)state;
    long regs, spill;
    /* cut after the entry line: nothing to read */
    clb_parse_ptxas_log("ptxas info    : Compiling entry function 'dslash' for 'sm_90'\n",
                        "dslash", &regs, &spill);
    assert_int_equal(regs, -1);
    assert_int_equal(spill, -1);
    /* cut inside the figures; a number too long for a count; no digits */
    clb_parse_ptxas_log("Compiling entry function 'dslash'\n 12 bytes spill stores\nUsed ",
                        "dslash", &regs, &spill);
    assert_int_equal(regs, -1);
    assert_int_equal(spill, 12);
    clb_parse_ptxas_log("Compiling entry function 'dslash'\n 99999999999999999999 bytes spill "
                        "stores\nUsed 1234567890123 registers\n", "dslash", &regs, &spill);
    assert_int_equal(regs, -1);
    assert_int_equal(spill, -1);
    clb_parse_ptxas_log("Compiling entry function 'dslash'\nx bytes spill stores\nUsed  registers",
                        "dslash", &regs, &spill);
    assert_int_equal(regs, -1);
    assert_int_equal(spill, -1);
    /* the figures of the next entry are not this one's */
    clb_parse_ptxas_log("Compiling entry function 'dslash'\nCompiling entry function 'b'\n"
                        " 8 bytes spill stores\nUsed 40 registers\n", "dslash", &regs, &spill);
    assert_int_equal(regs, -1);
    assert_int_equal(spill, -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(entry_of_its_own_name),
        cmocka_unit_test(unknown_where_the_log_does_not_say),
        cmocka_unit_test(cut_or_odd_logs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

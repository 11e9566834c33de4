/* The timer check of a case's runs (host/core/timer.c): events against the
 * host clock of the same runs. The healthy figures are ANCHORS' (PoCL and an
 * H100: far below the wall for short kernels, close to it for long ones);
 * the broken ones are Mesa Rusticl's constant timestamps and their kin. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "core/timer.h"

static struct clb_device dev(double res_s, double launch_s)
{
    struct clb_device d;
    memset(&d, 0, sizeof d);
    d.info.timer_res_s = res_s;
    d.launch_s = launch_s;
    return d;
}

/* n runs of `ev` event seconds and `wall` host seconds each */
static int check(const struct clb_device *d, double ev, double wall, int n, const char *want)
{
    double e[64], w[64];
    for (int i = 0; i < n; i++) {
        e[i] = ev;
        w[i] = wall;
    }
    struct clb_buf why = {0};
    int bad = clb_timer_check(d, e, w, n, &why);
    if (want)
        assert_non_null(strstr(clb_buf_str(&why), want));
    else
        assert_int_equal(why.len, 0);
    clb_buf_free(&why);
    return bad;
}

static void healthy(void **state)
{
    (void)state;
    struct clb_device pocl = dev(1e-9, 20e-6), h100 = dev(1e-6, 10e-6);
    /* short kernels: the launch overhead dominates the wall (ratio 0.19, 0.43) */
    assert_int_equal(check(&pocl, 19e-6, 100e-6, 20, NULL), 0);
    assert_int_equal(check(&h100, 4.3e-6, 10e-6, 20, NULL), 0);
    /* long kernels: close to the wall (0.98, 0.93) */
    assert_int_equal(check(&pocl, 9.8e-3, 10e-3, 20, NULL), 0);
    assert_int_equal(check(&h100, 0.93e-3, 1e-3, 20, NULL), 0);
    /* a loaded host: the wall 20 x the kernel is still no proof of a false timer */
    assert_int_equal(check(&pocl, 1.1e-3, 23e-3, 20, NULL), 0);
    /* one run on the loaded 2-core CI machine: 123 us of events, 132 ms of wall */
    assert_int_equal(check(&pocl, 123e-6, 132e-3, 1, NULL), 0);
    /* a device that reports a resolution of 0 but real events */
    struct clb_device zero = dev(0, 20e-6);
    assert_int_equal(check(&zero, 1e-3, 1.1e-3, 5, NULL), 0);
}

static void broken(void **state)
{
    (void)state;
    /* Rusticl on llvmpipe: START -> END = 1 ns for runs of tens of ms */
    struct clb_device rusticl = dev(0, 400e-6);
    assert_int_equal(check(&rusticl, 1e-9, 60e-3, 5, "events read"), 1);
    /* zero */
    struct clb_device pocl = dev(1e-9, 20e-6);
    assert_int_equal(check(&pocl, 0, 1e-3, 5, "an event read 0"), 1);
    /* below the resolution the device reports */
    struct clb_device coarse = dev(1e-6, 10e-6);
    assert_int_equal(check(&coarse, 0.2e-6, 20e-6, 5, "below the timer's resolution"), 1);
    /* longer than the run that contains it */
    assert_int_equal(check(&pocl, 2e-3, 1e-3, 5, "it cannot take longer"), 1);
}

/* Short runs and runs that are mostly launch overhead never meet the
 * "far below" rule, however small their events. */
static void short_runs(void **state)
{
    (void)state;
    struct clb_device d = dev(0, 400e-6);
    assert_int_equal(check(&d, 1e-9, 0.5e-3, 5, NULL), 0);      /* below 1 ms */
    assert_int_equal(check(&d, 1e-9, 5e-3, 5, NULL), 0);        /* < 20 launch overheads */
    struct clb_device unmeasured = dev(0, NAN);
    assert_int_equal(check(&unmeasured, 1e-9, 60e-3, 5, NULL), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(healthy), cmocka_unit_test(broken),
                                       cmocka_unit_test(short_runs)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Energy sources: the wrap-around arithmetic, NVML through a fake library
 * (energy counter, and power integration where the counter is missing), a
 * device NVML does not know, and RAPL under a fake sysfs tree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/energy.h"
#include "clbench.h"

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

static void delta(void **state)
{
    (void)state;
    assert_float_equal(clb_energy_delta(10, 25, 100), 15, 0);
    assert_float_equal(clb_energy_delta(90, 5, 100), 15, 0);  /* wrapped at 100 */
    assert_float_equal(clb_energy_delta(90, 5, 0), 0, 0);     /* no range known: nothing */
}

static void nvml_counter(void **state)
{
    (void)state;
    char *why = NULL;
    struct clb_energy *e = clb_energy_open_nvml(FAKE_NVML, "0000:3b:00.0", &why);
    assert_non_null(e);
    assert_string_equal(clb_energy_source(e), "nvml");
    assert_float_equal(clb_energy_idle_w(e), 250, 1e-9);
    double a, b;
    assert_int_equal(clb_energy_read(e, &a), CLB_OK);
    sleep_s(0.2);
    assert_int_equal(clb_energy_read(e, &b), CLB_OK);
    assert_true(b - a > 0.15 * 250 && b - a < 0.5 * 250); /* ~50 J in 0.2 s at 250 W */
    clb_energy_close(e);

    /* a board NVML does not know: no source, and a reason */
    e = clb_energy_open_nvml(FAKE_NVML, "0000:99:00.0", &why);
    assert_null(e);
    assert_non_null(why);
    assert_non_null(strstr(why, "0000:99:00.0"));
    free(why);
    why = NULL;
    e = clb_energy_open_nvml("/nonexistent/libnvidia-ml.so.1", "0000:3b:00.0", &why);
    assert_null(e);
    assert_non_null(why);
    free(why);
}

static void nvml_sampled(void **state)
{
    (void)state;
    setenv("FAKE_NVML_NO_ENERGY", "1", 1);
    char *why = NULL;
    struct clb_energy *e = clb_energy_open_nvml(FAKE_NVML, "0000:3b:00.0", &why);
    assert_non_null(e);
    double a, b;
    assert_int_equal(clb_energy_read(e, &a), CLB_OK);
    sleep_s(0.3);
    assert_int_equal(clb_energy_read(e, &b), CLB_OK);
    /* 10 ms samples of 250 W over 0.3 s: ~75 J (a loaded machine samples less often) */
    assert_true(b - a > 20 && b - a < 120);
    clb_energy_close(e);
    unsetenv("FAKE_NVML_NO_ENERGY");
}

/* A board still drawing power after earlier work (a run that had just
 * ended: the committed H100 suite read 280 W "idle" 2 s after the previous
 * run, its own transfers then drew 120 W): the idle figure waits for the
 * readings to settle, and is not given when they do not. */
static void nvml_idle_settles(void **state)
{
    (void)state;
    char *why = NULL;
    setenv("FAKE_NVML_FALL", "0.3", 1);   /* 300 W falling to 90 W, tau 0.3 s */
    struct clb_energy *e = clb_energy_open_nvml(FAKE_NVML, "0000:3b:00.0", &why);
    assert_non_null(e);
    double idle = clb_energy_idle_w(e);
    assert_true(idle >= 90 && idle < 100);   /* the board at rest, not 300 W */
    clb_energy_close(e);
    setenv("FAKE_NVML_FALL", "10", 1);    /* still falling after the longest wait */
    e = clb_energy_open_nvml(FAKE_NVML, "0000:3b:00.0", &why);
    assert_non_null(e);
    assert_true(isnan(clb_energy_idle_w(e)));
    assert_non_null(clb_energy_idle_why(e));
    assert_non_null(strstr(clb_energy_idle_why(e), "did not settle"));
    clb_energy_close(e);
    unsetenv("FAKE_NVML_FALL");
}

static void write_num(const char *path, unsigned long long v)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "%llu\n", v);
    fclose(f);
}

static void rapl(void **state)
{
    (void)state;
    char root[] = "/tmp/clb-rapl-XXXXXX", p[256];
    assert_non_null(mkdtemp(root));
    const char *zones[] = {"intel-rapl:0", "intel-rapl:1", "intel-rapl:0:0"};
    for (int i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/%s", root, zones[i]);
        assert_int_equal(mkdir(p, 0755), 0);
        snprintf(p, sizeof p, "%s/%s/energy_uj", root, zones[i]);
        write_num(p, 999000000ULL);
        snprintf(p, sizeof p, "%s/%s/max_energy_range_uj", root, zones[i]);
        write_num(p, 1000000000ULL);
    }
    char *why = NULL;
    struct clb_energy *e = clb_energy_open_rapl(root, &why);
    assert_non_null(e);
    assert_string_equal(clb_energy_source(e), "rapl");
    double a, b;
    assert_int_equal(clb_energy_read(e, &a), CLB_OK);
    /* package 0 wraps: 999 J -> 1 J is 2 J; package 1 +3 J; the sub-zone is not counted */
    snprintf(p, sizeof p, "%s/intel-rapl:0/energy_uj", root);
    write_num(p, 1000000ULL);
    snprintf(p, sizeof p, "%s/intel-rapl:1/energy_uj", root);
    write_num(p, 1002000000ULL);
    snprintf(p, sizeof p, "%s/intel-rapl:0:0/energy_uj", root);
    write_num(p, 5ULL);
    assert_int_equal(clb_energy_read(e, &b), CLB_OK);
    assert_float_equal(b - a, 2 + 3, 1e-9);
    clb_energy_close(e);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    assert_int_equal(system(cmd), 0);
    /* no powercap tree: no source, a reason */
    assert_null(clb_energy_open_rapl("/nonexistent/powercap", &why));
    assert_non_null(why);
    free(why);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(delta), cmocka_unit_test(nvml_counter),
                                       cmocka_unit_test(nvml_sampled),
                                       cmocka_unit_test(nvml_idle_settles), cmocka_unit_test(rapl)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

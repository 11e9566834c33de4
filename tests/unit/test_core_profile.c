/* Profiles: parsing with inih, refusals with file:line: reason, the shipped
 * profiles' figures, matching a device by name, platform, compute units and
 * clock, the generic profile. Fixtures: tests/data/profiles/. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clb_cl.h"
#include "clb_profile.h"
#include "clbench.h"

#define DATA CLB_TEST_DATA "/profiles/"
#define BAD DATA "bad/"

static struct clb_profiles shipped; /* platforms/, loaded once per run */

static int load(void **state)
{
    (void)state;
    return clb_profiles_load(clb_profiles_dir(NULL), &shipped) == CLB_OK ? 0 : -1;
}

static int unload(void **state)
{
    (void)state;
    clb_profiles_free(&shipped);
    return 0;
}

static void parses_good(void **state)
{
    (void)state;
    struct clb_profile p;
    assert_int_equal(clb_profile_parse_file(DATA "good.ini", &p), CLB_OK);
    assert_string_equal(p.id, "good");
    assert_string_equal(p.name, "Test GPU");
    assert_float_equal(p.peak_bandwidth_gbs, 100.5, 0);
    assert_float_equal(p.partitions, 8, 0);
    assert_true(isnan(p.peak_gflops_sp)); /* unknown stays unknown */
    assert_string_equal(clb_profile_tuning(&p, "stream", "vec", NULL), "4");
    assert_string_equal(clb_profile_tuning(&p, "stream", "vec", ""), "4");
    /* one type's value first, the workload's otherwise */
    assert_string_equal(clb_profile_tuning(&p, "stream", "vec", "double"), "2");
    assert_string_equal(clb_profile_tuning(&p, "stream", "vec", "float"), "4");
    assert_string_equal(clb_profile_tuning(&p, "copy2d", "tile", "double"), "32x8");
    assert_null(clb_profile_tuning(&p, "stream", "tile", NULL));
    assert_null(clb_profile_tuning(&p, "stream", "ve", NULL)); /* whole keys only */
    assert_null(clb_profile_tuning(&p, "str", "vec", NULL));
    assert_string_equal(clb_profile_model(&p, "index_cycles"), "36");
    clb_profile_free(&p);
}

static void refuse(const char *file, const char *what)
{
    struct clb_profile p;
    assert_int_equal(clb_profile_parse_file(file, &p), CLB_EUSAGE);
    const char *msg = clb_lasterr();
    assert_non_null(strstr(msg, file));
    if (!strstr(msg, what))
        fail_msg("'%s' does not mention '%s'", msg, what);
}

static void refuses_bad(void **state)
{
    (void)state;
    refuse(BAD "bad_key.ini", ":4: unknown key 'warp_size'");
    refuse(BAD "unknown_key.ini", ":3: unknown key 'peak_bandwith_gbs' in [device]");
    refuse(BAD "bad_num.ini", ":4: peak_bandwidth_gbs = 'fast' is not a number in");
    refuse(BAD "nonnumeric.ini", ":3: peak_bandwidth_gbs = 'fast' is not a number in 0.001..1e+07");
    /* every numeric key has a declared range: no nan, inf, sign, hex, zero divisor */
    refuse(BAD "bad_nan.ini", ":3: peak_bandwidth_gbs = 'nan'");
    refuse(BAD "bad_inf.ini", ":3: peak_bandwidth_gbs = 'inf'");
    refuse(BAD "bad_negzero.ini", ":3: compute_units = '-0'");
    refuse(BAD "bad_huge.ini", ":3: peak_gflops_sp = '1e308'");
    refuse(BAD "bad_zero_width.ini", ":4: partition_width_bytes = '0'");
    refuse(BAD "bad_hex.ini", ":3: l2_kb = '0x10'");
    /* a line longer than inih's buffer is refused, not split into a second key */
    refuse(BAD "long_line.ini", ":3: line longer than");
    refuse(BAD "no_device.ini", "no [device] section");
    refuse(BAD "bad_section.ini", ":4: unknown section [gpu]");
    refuse(BAD "unknown_section.ini", ":4: unknown section [memmory]");
    refuse(BAD "bad_tuning.ini", ":4: tuning key 'tile' must be <workload>.<parameter>");
    refuse(BAD "missing.ini", "cannot read");
}

static void refuses_bad_dirs(void **state)
{
    (void)state;
    struct clb_profiles ps;
    /* names compare without case; the message names the second file */
    assert_int_equal(clb_profiles_load(DATA "dup", &ps), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "duplicate profile name 'same device'"));
    assert_non_null(strstr(clb_lasterr(), "b.ini"));
    assert_int_equal(clb_profiles_load(DATA "nonexistent", &ps), CLB_EUSAGE);
    /* [tuning] keys are checked against the workload registry, like --param */
    assert_int_equal(clb_profiles_load(DATA "tuning_workload", &ps), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "t.ini:6: [tuning] streem.vec: unknown workload 'streem'"));
    assert_int_equal(clb_profiles_load(DATA "tuning_key", &ps), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "t.ini:4: [tuning] stream.vek: stream has no parameter 'vek'"));
    assert_non_null(strstr(clb_lasterr(), "vec"));
    /* a per-type key names a type the workload takes */
    assert_int_equal(clb_profiles_load(DATA "tuning_type", &ps), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "t.ini:5: [tuning] stream.vec.half: stream does not take type 'half'"));
    assert_int_equal(clb_profiles_load(DATA "tuning_ok", &ps), CLB_OK);
    clb_profiles_free(&ps);
}

/* A FIFO named like a profile is refused (not read: it would block). */
static void refuses_fifo(void **state)
{
    (void)state;
    struct clb_profiles ps;
    char dir[] = "/tmp/clb-fifo-XXXXXX", fifo[64];
    assert_non_null(mkdtemp(dir));
    snprintf(fifo, sizeof fifo, "%s/x.ini", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(clb_profiles_load(dir, &ps), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "not a regular file"));
    unlink(fifo);
    rmdir(dir);
}

/* The shown type and the -d cpu|gpu|accelerator match agree; a device that
 * claims several types (Oclgrind: all of them) is an emulator, never chosen
 * by default or by a type. */
static void device_types(void **state)
{
    (void)state;
    assert_string_equal(clb_device_type_name(CL_DEVICE_TYPE_GPU, "NVIDIA CUDA", "H100"), "gpu");
    assert_string_equal(clb_device_type_name(CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT,
                                             "Portable Computing Language", "cpu"), "cpu");
    assert_string_equal(clb_device_type_name(0xf, "Oclgrind", "Oclgrind Simulator"), "emulator");
    assert_string_equal(clb_device_type_name(CL_DEVICE_TYPE_CPU, "Oclgrind", "x"), "emulator");
    assert_string_equal(clb_device_type_name(CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_CPU, "X", "Y"),
                        "emulator");
    struct clb_devinfo d[3];
    memset(d, 0, sizeof d);
    const char *names[3] = {"Oclgrind Simulator", "pthread-haswell", "Other CPU"};
    const char *types[3] = {"emulator", "cpu", "cpu"};
    for (int i = 0; i < 3; i++) {
        strcpy(d[i].name, names[i]);
        d[i].type_name = types[i];
        d[i].index = i;
    }
    assert_int_equal(clb_select_device(d, 3, NULL), 1);    /* the emulator is never the default */
    assert_int_equal(clb_select_device(d, 3, "cpu"), 1);
    assert_int_equal(clb_select_device(d, 3, "gpu"), -1);
    assert_int_equal(clb_select_device(d, 3, "0"), 0);     /* by index it is allowed */
    assert_int_equal(clb_select_device(d, 3, "oclgrind"), 0);
    assert_int_equal(clb_select_device(d, 1, NULL), -1);   /* only an emulator: refuse */
    assert_non_null(strstr(clb_lasterr(), "-d"));
}

static struct clb_devinfo dev(const char *name, const char *platform, unsigned cus)
{
    struct clb_devinfo d;
    memset(&d, 0, sizeof d);
    strcpy(d.name, name);
    strcpy(d.platform_name, platform);
    d.compute_units = cus;
    d.global_mem = 1ull << 32;
    d.cache_size = 1 << 20;
    return d;
}

static void matches_shipped(void **state)
{
    (void)state;
    const struct clb_profiles *ps = &shipped;
    struct clb_devinfo d = dev("NVIDIA H100 80GB HBM3", "NVIDIA CUDA", 132);
    d.global_mem = 85031714816ull;   /* as the H100 80GB HBM3 reports it (85.0 GB) */
    const struct clb_profile *p = clb_profiles_match(ps, &d);
    assert_non_null(p);
    assert_string_equal(p->id, "h100_sxm");
    assert_float_equal(p->peak_bandwidth_gbs, 3352, 0);
    d = dev("pthread-haswell-AMD EPYC", "Portable Computing Language", 2);
    assert_string_equal(clb_profiles_match(ps, &d)->id, "pocl_cpu");
    d = dev("cpu-skylake-avx512-Intel(R) Xeon(R)", "Portable Computing Language", 16);
    assert_string_equal(clb_profiles_match(ps, &d)->id, "pocl_cpu");
    d = dev("cpu-x86", "Some Other CL", 16); /* PoCL's name, another platform */
    assert_null(clb_profiles_match(ps, &d));
    d = dev("Radeon RX 7900", "AMD APP", 48);
    assert_null(clb_profiles_match(ps, &d));
    assert_non_null(clb_profiles_find(ps, "h200"));
    assert_null(clb_profiles_find(ps, "nope"));

    struct clb_profile g;
    clb_profile_generic(&g, &d);
    assert_string_equal(g.id, "generic");
    assert_string_equal(g.name, "Radeon RX 7900");
    assert_float_equal(g.compute_units, 48, 0);
    assert_true(isnan(g.peak_bandwidth_gbs)); /* never invented */
    assert_true(isnan(clb_profile_peak_gflops(&g, "double")));
    clb_profile_free(&g);
}

static const char *match(const char *name, const char *platform, unsigned cus, unsigned mhz)
{
    struct clb_devinfo d;
    memset(&d, 0, sizeof d);
    clb_strlcpy(d.name, name, sizeof d.name);
    clb_strlcpy(d.platform_name, platform, sizeof d.platform_name);
    d.compute_units = cus;
    d.clock_mhz = mhz;
    const struct clb_profile *p = clb_profiles_match(&shipped, &d);
    return p ? p->id : "generic";
}

static void shipped_figures(void **state)
{
    (void)state;
    static const struct { const char *id; double bw, sp, dp; } want[] = {
        {"tesla_c1060", 102.4, 933, 78},     {"tesla_k20", 208, 3520, 1170},
        {"tesla_k20x", 250, 3950, 1310},     {"tesla_k40", 288, 4290, 1430},
        {"xeon_phi_5110p", 320, 2022, 1011}, {"xeon_phi_7120p", 352, 2416, 1208},
        {"h100_sxm", 3352, 66900, 33500},    {"h200", 4800, 66900, 33500},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const struct clb_profile *p = clb_profiles_find(&shipped, want[i].id);
        assert_non_null(p);
        assert_true(p->peak_bandwidth_gbs == want[i].bw);
        assert_true(p->peak_gflops_sp == want[i].sp);
        assert_true(p->peak_gflops_dp == want[i].dp);
        assert_false(isnan(p->compute_units) || isnan(p->core_clock_mhz) || isnan(p->tdp_w));
        /* The peak follows from the memory clock and bus width, within 1%. */
        double calc = p->memory_clock_mhz * 2 * p->bus_width_bits / 8 / 1000;
        if (!isnan(calc))
            assert_true(fabs(calc - p->peak_bandwidth_gbs) / p->peak_bandwidth_gbs < 0.01);
    }
    /* PoCL claims no peaks: they come from nowhere on a CPU. */
    const struct clb_profile *pocl = clb_profiles_find(&shipped, "pocl_cpu");
    assert_non_null(pocl);
    assert_true(isnan(pocl->peak_bandwidth_gbs));
    /* The model figures the models read. */
    const struct clb_profile *c = clb_profiles_find(&shipped, "tesla_c1060");
    assert_string_equal(clb_profile_model(c, "blockeq.index_cycles"), "36");
    assert_string_equal(clb_profile_model(c, "blockeq.transfer_cycles"), "1.625");
    assert_string_equal(clb_profile_tuning(c, "blockeq", "partitions", NULL), "1,2,4,8,16,30,32");
    assert_string_equal(clb_profile_model(clb_profiles_find(&shipped, "tesla_k20"),
                                          "stream_triad_gbs"), "151.7");
}

static void matching(void **state)
{
    (void)state;
    assert_string_equal(match("Tesla K20c", "NVIDIA CUDA", 13, 705), "tesla_k20");
    assert_string_equal(match("Tesla K20m", "NVIDIA CUDA", 13, 705), "tesla_k20");
    assert_string_equal(match("Tesla K20Xm", "NVIDIA CUDA", 14, 732), "tesla_k20x");
    assert_string_equal(match("Tesla K40m", "NVIDIA CUDA", 15, 745), "tesla_k40");
    assert_string_equal(match("Tesla K40c", "NVIDIA CUDA", 15, 875), "tesla_k40");
    assert_string_equal(match("Tesla C1060", "NVIDIA CUDA", 30, 1296), "tesla_c1060");
    assert_string_equal(match("NVIDIA H100 80GB HBM3", "NVIDIA CUDA", 132, 1980), "h100_sxm");
    assert_string_equal(match("NVIDIA H200", "NVIDIA CUDA", 132, 1980), "h200");
    assert_string_equal(match("pthread-haswell-AMD EPYC 7B13 64-Core Processor",
                              "Portable Computing Language", 2, 2450), "pocl_cpu");
    assert_string_equal(match("cpu-haswell-AMD EPYC 7B13 64-Core Processor",
                              "Portable Computing Language", 16, 3000), "pocl_cpu");
    /* A "cpu-" name on another platform is not PoCL. */
    assert_string_equal(match("cpu-haswell-x", "Intel(R) OpenCL", 16, 3000), "generic");
    assert_string_equal(match("Tesla V100-SXM2-16GB", "NVIDIA CUDA", 80, 1530), "generic");
}

/* A device as its driver reports it: memory in GB and PCI device id (0:
 * unknown), and how the profile matched. */
static const char *match_how(const char *name, unsigned cus, unsigned mhz, double gb, unsigned pci,
                             struct clb_match *m)
{
    struct clb_devinfo d;
    memset(&d, 0, sizeof d);
    clb_strlcpy(d.name, name, sizeof d.name);
    clb_strlcpy(d.platform_name, "NVIDIA CUDA", sizeof d.platform_name);
    d.compute_units = cus;
    d.clock_mhz = mhz;
    d.global_mem = (cl_ulong)(gb * 1e9);
    d.pci_device = pci;
    const struct clb_profile *p = clb_profiles_match_how(&shipped, &d, m);
    return p ? p->id : "generic";
}

/* A name is not enough: the H100 PCIe and NVL are not the SXM (114 SMs; 94
 * GB), whose 3352 GB/s they would have been given by "H100"; the PCI device
 * id (sysfs) tells the H200 NVL from the H200 SXM. A match by the name alone
 * (the device reports none of the rest) is loose, and says so. */
static void distinguishes(void **state)
{
    (void)state;
    struct clb_match m;
    assert_string_equal(match_how("NVIDIA H100 80GB HBM3", 132, 1980, 85.03, 0x2330, &m), "h100_sxm");
    assert_false(m.loose);
    assert_int_equal(m.n, 1);
    assert_string_equal(match_how("NVIDIA H100 PCIe", 114, 1755, 85.0, 0x2331, &m), "generic");
    assert_string_equal(match_how("NVIDIA H100 NVL", 132, 1785, 99.9, 0x2321, &m), "generic");
    assert_string_equal(match_how("NVIDIA H100 80GB HBM3", 132, 1980, 85.03, 0x2331, &m), "generic");
    assert_string_equal(match_how("NVIDIA H200", 132, 1980, 150.11, 0x2335, &m), "h200");
    assert_false(m.loose);
    assert_string_equal(match_how("NVIDIA H200 NVL", 132, 1785, 150.11, 0x233b, &m), "generic");
    assert_string_equal(match_how("NVIDIA H200", 0, 0, 0, 0, &m), "h200");   /* the name only */
    assert_true(m.loose);
    assert_non_null(strstr(m.how, "name only"));

    struct clb_profiles ps;
    assert_int_equal(clb_profiles_load(DATA "several", &ps), CLB_OK);
    struct clb_devinfo d = dev("Foo Bar 9", "Any", 4);
    const struct clb_profile *p = clb_profiles_match_how(&ps, &d, &m);
    assert_non_null(p);
    assert_string_equal(p->id, "foo_bar");   /* the longer name */
    assert_int_equal(m.n, 2);
    assert_string_equal(m.other->id, "foo");
    clb_profiles_free(&ps);
}

/* Every Xeon Phi card reports the same name: compute units and clock decide. */
static void xeon_phi(void **state)
{
    (void)state;
    const char *name = "Intel(R) Many Integrated Core Acceleration Card";
    const char *plat = "Intel(R) OpenCL";
    assert_string_equal(match(name, plat, 236, 1052), "xeon_phi_5110p");
    assert_string_equal(match(name, plat, 240, 1238), "xeon_phi_7120p");
    assert_string_equal(match(name, plat, 240, 1100), "generic");   /* SE10P */
    assert_string_equal(match(name, plat, 236, 1238), "generic");
    assert_string_equal(match(name, plat, 224, 1100), "generic");   /* 3120 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parses_good),     cmocka_unit_test(refuses_bad),
        cmocka_unit_test(refuses_bad_dirs), cmocka_unit_test(refuses_fifo),
        cmocka_unit_test(matches_shipped), cmocka_unit_test(device_types),
        cmocka_unit_test(shipped_figures), cmocka_unit_test(matching),
        cmocka_unit_test(xeon_phi),        cmocka_unit_test(distinguishes),
    };
    return cmocka_run_group_tests(tests, load, unload);
}

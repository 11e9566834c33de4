/* Unit tests of clbench compare (host/compare) on the fixtures of
 * tests/data/compare: columns and the files they come from, lines, best and
 * spread, sweeps, sizes in one canonical form, --any-size without the
 * cache-resident rows, relative values, filters and their messages, the peak
 * that belongs to a row's unit (through the registry's counts), the escaping
 * of names, the gnuplot input of crafted names (tests/fuzz/plot_oracle.h),
 * the baseline gate and the JSON document. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "clb_compare.h"
#include "clb_workload.h"
#include "clbench.h"
#include "../fuzz/plot_oracle.h"

static char *fx(const char *name)
{
    static char paths[16][512];
    static int k;
    char *p = paths[k++ % 16];
    snprintf(p, 512, "%s/compare/%s", CLB_TEST_DATA, name);
    return p;
}

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

static const struct cmp_metric *M(const char *name)
{
    const struct cmp_metric *m = cmp_metric_find(name);
    assert_non_null(m);
    return m;
}

static void build_all(struct cmp_table *t, const struct cmp_filter *f, const char *metric)
{
    char *files[] = {fx("gpu.csv"), fx("cpu.csv"), fx("reference.csv")};
    assert_int_equal(cmp_build(t, files, 3, f, M(metric)), CLB_OK);
}

static void test_columns(void **state)
{
    (void)state;
    struct cmp_table t;
    struct cmp_filter f = {0};
    build_all(&t, &f, "gbps");
    assert_int_equal(t.ncols, 7);
    int h = find_col(&t, "NVIDIA H100 80GB HBM3");
    assert_true(h >= 0);
    assert_float_equal(t.cols[h].peak_gbs, 3352, 1.0);   /* gbps * 100 / pct_peak_bw */
    assert_int_equal(t.cols[h].nfiles, 1);
    assert_true(find_col(&t, "pthread-haswell-AMD EPYC 7B13 64-Core Processor @vm") >= 0);
    assert_true(find_col(&t, "Tesla K20c, \"Kepler\" GK110 (BabelStream 1.0; ECC off)") >= 0);
    int k20x = find_col(&t, "Tesla K20X (Matrix transpose whitepaper)");
    assert_true(k20x >= 0);
    assert_true(t.cols[k20x].reference);
    assert_float_equal(t.cols[k20x].peak_gbs, 250, 0.5);   /* the tesla_k20x profile */
    cmp_free(&t);
    /* a column built from two files lists both */
    char *two[] = {fx("gpu.csv"), fx("regressed.csv")};
    assert_int_equal(cmp_build(&t, two, 2, &f, M("gbps")), CLB_OK);
    assert_int_equal(t.ncols, 1);
    assert_int_equal(t.cols[0].nfiles, 2);
    assert_non_null(strstr(t.cols[0].files[0], "gpu.csv"));
    assert_non_null(strstr(t.cols[0].files[1], "regressed.csv"));
    cmp_free(&t);
}

static void test_best_and_spread(void **state)
{
    (void)state;
    struct cmp_table t;
    struct cmp_filter f = {0};
    build_all(&t, &f, "gbps");
    int h = find_col(&t, "NVIDIA H100 80GB HBM3");
    int l = find_line(&t, "stream", "copy", "float", "");
    assert_true(l >= 0);
    const struct cmp_cell *c = cmp_cell_at(&t, l, h);
    assert_int_equal(c->n, 2);   /* two runs of one configuration */
    assert_float_equal(c->best, 3000, 1e-9);
    assert_float_equal(c->worst, 2940, 1e-9);
    assert_float_equal(cmp_spread_pct(c), 1.0, 1e-9);
    /* a failed row only: no figure, the status is kept */
    l = find_line(&t, "transpose", "naive", "double", "");
    assert_true(l >= 0);
    c = cmp_cell_at(&t, l, h);
    assert_int_equal(c->n, 0);
    assert_string_equal(c->bad, "failed");
    assert_true(isnan(cmp_value(&t, l, h)));
    /* a column without rows on a line: the empty cell */
    c = cmp_cell_at(&t, l, find_col(&t, "Tesla K20X (Matrix transpose whitepaper)"));
    assert_int_equal(c->n + c->nbad, 0);
    cmp_free(&t);
}

static void test_sweep_lines(void **state)
{
    (void)state;
    struct cmp_table t;
    struct cmp_filter f = {.workload = "dslash"};
    build_all(&t, &f, "gflops");
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
    f.sweep = "none";
    build_all(&t, &f, "gflops");
    assert_int_equal(t.nlines, 1);
    assert_float_equal(cmp_value(&t, 0, 0), 5600, 0.01);
    cmp_free(&t);
}

static void test_relative(void **state)
{
    (void)state;
    struct cmp_table t;
    struct cmp_filter f = {.workload = "transpose", .dtype = "float", .any_size = 1};
    build_all(&t, &f, "gbps");
    assert_int_equal(cmp_set_relative(&t, "gtx 280"), CLB_OK);
    int k20x = find_col(&t, "Tesla K20X (Matrix transpose whitepaper)");
    int l = find_line(&t, "transpose", "naive", "float", "");
    assert_float_equal(cmp_value(&t, l, k20x), 92.0 / 2.2, 1e-9);
    assert_float_equal(cmp_value(&t, l, t.ref), 1.0, 0);
    assert_int_equal(cmp_set_relative(&t, "whitepaper"), CLB_EUSAGE);   /* ambiguous */
    assert_int_equal(cmp_set_relative(&t, "Radeon"), CLB_EUSAGE);       /* no column */
    cmp_free(&t);
}

static void test_filters(void **state)
{
    (void)state;
    struct cmp_table t;
    char *files[] = {fx("gpu.csv"), fx("cpu.csv")};
    /* case-insensitive */
    struct cmp_filter f = {.workload = "STREAM", .kernel = "Copy", .dtype = "FLOAT"};
    assert_int_equal(cmp_build(&t, files, 2, &f, M("gbps")), CLB_OK);
    assert_int_equal(t.nlines, 1);
    assert_string_equal(t.lines[0].kernel, "copy");
    cmp_free(&t);
    /* an empty selection names the filter and what it could have matched */
    struct cmp_filter w = {.workload = "strem"};
    assert_int_equal(cmp_build(&t, files, 2, &w, M("gbps")), CLB_EUSAGE);
    assert_string_equal(clb_lasterr(), "no rows for --workload strem (workloads in these files: "
                                       "stream, transpose, dslash)");
    struct cmp_filter k = {.workload = "stream", .kernel = "nosuch"};
    assert_int_equal(cmp_build(&t, files, 2, &k, M("gbps")), CLB_EUSAGE);
    assert_string_equal(clb_lasterr(), "no rows for --kernel nosuch (kernels in these files with "
                                       "--workload stream: copy, triad)");
    struct cmp_filter s = {.size = "2^27"};
    assert_int_equal(cmp_build(&t, files, 2, &s, M("gbps")), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "(sizes in these files: 268435456, 8192x8192, "
                                          "32x32x32x16)"));
    assert_null(cmp_metric_find("GBPS"));
    assert_non_null(cmp_metric_find("pct_peak"));
}

static void test_sizes(void **state)
{
    (void)state;
    struct cmp_table t;
    char *files[] = {fx("sizes.csv")};
    struct cmp_filter f = {0};
    assert_int_equal(cmp_build(&t, files, 1, &f, M("gbps")), CLB_OK);
    assert_int_equal(t.nlines, 2);   /* 1M = 2^20, and 2^28 = 256M = 268435456 */
    assert_string_equal(t.lines[0].size, "1048576");
    assert_string_equal(t.lines[1].size, "268435456");
    assert_int_equal(cmp_cell_at(&t, 1, 0)->n, 3);
    assert_float_equal(cmp_value(&t, 1, 0), 12, 0);
    cmp_free(&t);
    /* the size filter compares canonical sizes */
    struct cmp_filter s = {.size = "256m"};
    assert_int_equal(cmp_build(&t, files, 1, &s, M("gbps")), CLB_OK);
    assert_int_equal(t.nlines, 1);
    cmp_free(&t);
    /* --any-size leaves the cache-resident rows out, unless asked */
    struct cmp_filter a = {.any_size = 1};
    assert_int_equal(cmp_build(&t, files, 1, &a, M("gbps")), CLB_OK);
    assert_int_equal(t.nlines, 1);
    assert_string_equal(t.lines[0].size, "any");
    assert_float_equal(cmp_value(&t, 0, 0), 12, 0);
    cmp_free(&t);
    a.include_cache = 1;
    assert_int_equal(cmp_build(&t, files, 1, &a, M("gbps")), CLB_OK);
    assert_float_equal(cmp_value(&t, 0, 0), 90, 0);
    cmp_free(&t);
    /* a device whose every selected row is cache-resident keeps them (marked C):
     * a device is never left out without a word */
    struct cmp_filter c = {.any_size = 1, .size = "1M"};
    assert_int_equal(cmp_build(&t, files, 1, &c, M("gbps")), CLB_OK);
    assert_int_equal(t.nlines, 1);
    assert_float_equal(cmp_value(&t, 0, 0), 90, 0);
    assert_int_equal(cmp_cell_at(&t, 0, 0)->ncache, cmp_cell_at(&t, 0, 0)->n);
    assert_int_equal(t.cache_out, 1);
    cmp_free(&t);
}

/* ---- the peak of a row's unit -------------------------------------------- */

/* A test workload (not in the registry of clbench): "h2d" is host work. */
static int xfer_count(const struct clb_query *q, struct clb_counts *out)
{
    if (!q->kernel || (strcmp(q->kernel, "dev") && strcmp(q->kernel, "dev2") &&
                       strcmp(q->kernel, "h2d"))) {
        clb_seterr("unknown kernel");
        return CLB_EUSAGE;
    }
    int ovf = 0;
    size_t b = clb_mulz(q->size->total, 4, &ovf);
    int rc = clb_count_done(q, ovf, out, b, 0, b, b, CLB_UNIT_GBPS);
    out->host_bound = !strcmp(q->kernel, "h2d");
    return rc;
}
static const struct clb_workload xfer = {.name = "unit_xfer", .dtypes = "float",
                                         .size_dims = 1, .count = xfer_count};

/* The gnuplot input of a figure: its chart (cmp_fig_chart) rendered. */
static int plot_script(const struct cmp_fig *g, int svg, int index, struct clb_chart_text *pt)
{
    struct clb_chart c;
    int rc = cmp_fig_chart(g, &c);
    if (rc)
        memset(pt, 0, sizeof *pt);
    else
        rc = clb_chart_gnuplot(&c, &(struct clb_chart_out){svg, index}, pt);
    clb_chart_free(&c);
    return rc;
}

static int figure(const struct cmp_table *t, const char *wl, struct clb_chart_text *pt)
{
    int lines[64], cols[16];
    struct cmp_fig g = {.lines = lines, .cols = cols};
    assert_true(t->nlines <= 64 && t->ncols <= 16);
    int rc = cmp_fig_collect(&g, t, wl, NULL, 0);
    return rc ? rc : plot_script(&g, 1, 1, pt);
}

static void test_peak_by_unit(void **state)
{
    (void)state;
    struct cmp_table t;
    char *files[] = {fx("peaks.csv")};
    struct cmp_filter f = {0};
    assert_int_equal(cmp_build(&t, files, 1, &f, M("gbps")), CLB_OK);
    assert_float_equal(t.cols[0].peak_gbs, 1000, 1e-6);
    assert_int_equal(t.lines[find_line(&t, "stream", "copy", "float", "")].device_bound, 1);
    assert_int_equal(t.lines[find_line(&t, "unit_xfer", "dev", "float", "")].device_bound, 1);
    assert_int_equal(t.lines[find_line(&t, "unit_xfer", "h2d", "float", "")].device_bound, 0);
    assert_int_equal(t.lines[find_line(&t, "notregistered", "k", "float", "")].device_bound, 0);
    struct clb_chart_text pt;
    /* stream: the peak over its one group */
    assert_int_equal(figure(&t, "stream", &pt), CLB_OK);
    assert_string_equal(clb_buf_str(&pt.peaks), "x\tPeak Test GPU peak 1000 GB/s\n"
                                                "-0.5\t1000\n0.5\t1000\n");
    assert_non_null(strstr(clb_buf_str(&pt.script), "'fig1.peak.dat' index 0"));
    clb_chart_text_free(&pt);
    /* dev, h2d, dev2: the peak over the device groups only, not over h2d */
    assert_int_equal(figure(&t, "unit_xfer", &pt), CLB_OK);
    assert_string_equal(clb_buf_str(&pt.peaks), "x\tPeak Test GPU peak 1000 GB/s\n"
                                                "-0.5\t1000\n0.5\t1000\n\n"
                                                "1.5\t1000\n2.5\t1000\n");
    clb_chart_text_free(&pt);
    /* a workload the registry does not know: no peak line */
    assert_int_equal(figure(&t, "notregistered", &pt), CLB_OK);
    assert_int_equal(pt.peaks.len, 0);
    assert_null(strstr(clb_buf_str(&pt.script), "peak.dat"));
    clb_chart_text_free(&pt);
    cmp_free(&t);
    /* GFlop/s has no peak; % of peak has the 100 % line */
    assert_int_equal(cmp_build(&t, files, 1, &f, M("pct_peak")), CLB_OK);
    assert_int_equal(figure(&t, "unit_xfer", &pt), CLB_OK);
    assert_non_null(strstr(clb_buf_str(&pt.peaks), "x\tpeak bandwidth\n-0.5\t100\n"));
    clb_chart_text_free(&pt);
    cmp_free(&t);
}

/* ---- escaping --------------------------------------------------------------- */

static const char *esc(const char *s, int flags)
{
    static struct clb_buf b;
    return cmp_esc_tmp(&b, s, flags);
}

static void test_escape(void **state)
{
    (void)state;
    assert_string_equal(esc("NVIDIA H100 ±", 0), "NVIDIA H100 ±");
    assert_string_equal(esc("a\nb\rc\td\x1b[31m\x7f", 0), "a\\nb\\rc\\td\\x1b[31m\\x7f");
    assert_string_equal(esc("back\\slash", 0), "back\\\\slash");
    assert_string_equal(esc("bad \xff\xfe \xc3", 0), "bad \\xff\\xfe \\xc3");
    assert_string_equal(esc("\xc2\x85 \xe2\x80\xae", 0), "\\u0085 \\u202e");
    assert_string_equal(esc("\xed\xa0\x80", 0), "\\xed\\xa0\\x80");   /* a surrogate */
    assert_string_equal(esc("a|b", 0), "a|b");
    assert_string_equal(esc("a|b", CMP_ESC_MD), "a\\|b");
    assert_string_equal(esc("say \"hi\"\n\\", CMP_ESC_DATA), "say \\042hi\\042\\\\n\\\\\\\\");
    assert_string_equal(esc(" lead", CMP_ESC_DATA), "\\040lead");
    assert_string_equal(esc("a&#x202e;", CMP_ESC_DATA | CMP_ESC_SVG), "a&#x26;#x202e;");
    assert_string_equal(esc("a&b", CMP_ESC_DATA), "a&b");   /* a PNG shows '&' as it is */
    assert_string_equal(esc("", CMP_ESC_DATA), "(empty)");
    struct clb_buf b = {0};
    cmp_esc(&b, "it's `id` @x $(id) #c \\ \"q\"\n", CMP_ESC_GP);
    assert_string_equal(clb_buf_str(&b), "'it'.\"'\".'s `id` @x $(id) #c \\\\ \"q\"\\n'");
    assert_null(oracle_script(b.s, b.len));
    clb_buf_free(&b);
    cmp_slug(&b, "../../x y");
    assert_string_equal(clb_buf_str(&b), "______x_y");
    b.len = 0;
    cmp_slug(&b, "");
    assert_string_equal(clb_buf_str(&b), "_");
    b.len = 0;
    cmp_slug(&b, "a-very-long-workload-name-of-forty-characters");
    assert_int_equal(b.len, CMP_SLUG_MAX);
    clb_buf_free(&b);
}

/* A message with two escaped arguments says both (`compare DIR` once
 * suggested the pattern without DIR, both arguments sharing one escape
 * buffer). */
static void test_two_escaped(void **state)
{
    (void)state;
    char dir[] = "/tmp/clb_cmp_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *odd = NULL;
    assert_true(asprintf(&odd, "%s/a\nb", dir) > 0);
    assert_int_equal(mkdir(odd, 0700), 0);
    struct cmp_table t;
    char *files[] = {odd};
    assert_int_equal(cmp_build(&t, files, 1, &(struct cmp_filter){0}, M("gbps")), CLB_EUSAGE);
    char *want = NULL;
    assert_true(asprintf(&want, "'%s/a\\nb' is a directory, not a results file (try "
                                "'%s/a\\nb/*.csv')", dir, dir) > 0);
    assert_string_equal(clb_lasterr(), want);
    cmp_free(&t);
    /* the helper: each argument its own buffer, all alive until freed */
    struct cmp_esc_args a = {0};
    clb_seterr("%s and %s and %s", cmp_esc_arg(&a, "x\ty", 0), cmp_esc_arg(&a, "z|w", CMP_ESC_MD),
               cmp_esc_arg(&a, "", 0));
    cmp_esc_args_free(&a);
    assert_string_equal(clb_lasterr(), "x\\ty and z\\|w and ");
    rmdir(odd);
    rmdir(dir);
    free(odd);
    free(want);
}

/* Every figure of the crafted fixture: the script and the data pass the oracle. */
static void test_crafted_plot(void **state)
{
    (void)state;
    char *files[] = {fx("crafted.csv"), fx("inject.csv")};
    struct cmp_filter f = {0};
    struct cmp_table t;
    assert_int_equal(cmp_build(&t, files, 2, &f, M("gbps")), CLB_OK);
    int *lines = calloc((size_t)t.nlines, sizeof *lines), *cols = calloc((size_t)t.ncols, sizeof *cols);
    const char *done[16];
    int ndone = 0;
    for (int i = 0; i < t.nlines; i++) {
        int seen = 0;
        for (int k = 0; k < ndone; k++)
            seen |= !strcmp(done[k], t.lines[i].workload);
        if (seen)
            continue;
        done[ndone++] = t.lines[i].workload;
        for (int rel = 0; rel < 2; rel++) {
            t.ref = rel ? 0 : -1;
            struct cmp_fig g = {.lines = lines, .cols = cols};
            struct clb_chart_text pt;
            if (cmp_fig_collect(&g, &t, t.lines[i].workload, NULL, 0))
                continue;
            assert_int_equal(plot_script(&g, rel, i + 1, &pt), CLB_OK);
            const char *why = oracle_script(pt.script.s, pt.script.len);
            if (why)
                fail_msg("%s in:\n%s", why, pt.script.s);
            why = oracle_data(clb_buf_str(&pt.data), pt.data.len);
            if (why)
                fail_msg("%s in:\n%s", why, clb_buf_str(&pt.data));
            why = oracle_data(clb_buf_str(&pt.peaks), pt.peaks.len);
            if (why)
                fail_msg("%s in:\n%s", why, clb_buf_str(&pt.peaks));
            if (!rel)   /* column labels are data (relative: in the y label, quoted) */
                assert_null(strstr(pt.script.s, "PWNED_dev"));
            clb_chart_text_free(&pt);
        }
    }
    free(lines);
    free(cols);
    cmp_free(&t);
}

/* ---- measured ceilings and the figures of rows -------------------------------- */

static void test_measured(void **state)
{
    (void)state;
    struct cmp_table t;
    char *files[] = {fx("ceil.csv")};
    struct cmp_filter f = {0};
    assert_int_equal(cmp_build(&t, files, 1, &f, M("pct_measured_peak")), CLB_OK);
    int a = find_col(&t, "Ceil Test GPU"), b = find_col(&t, "No Ceiling CPU");
    assert_true(a >= 0 && b >= 0);
    assert_float_equal(t.cols[a].ceil[CLB_CEIL_BW], 1000, 1e-9);
    assert_float_equal(t.cols[a].ceil[CLB_CEIL_SP], 20000, 1e-9);
    assert_float_equal(t.cols[a].ceil[CLB_CEIL_DP], 10000, 1e-9);
    assert_string_equal(t.cols[a].ceil_what[CLB_CEIL_BW], "stream triad");
    assert_true(isnan(t.cols[b].ceil[CLB_CEIL_BW]) && isnan(t.cols[b].ceil[CLB_CEIL_SP]));
    assert_int_equal(t.cols[a].lacks, 0);
    assert_int_equal(t.cols[b].lacks, (1u << CLB_CEIL_BW) | (1u << CLB_CEIL_SP));
    assert_string_equal(t.untyped, "int");
    /* GB/s against the bandwidth, GFlop/s against the type's compute ceiling */
    assert_float_equal(cmp_value(&t, find_line(&t, "stream", "copy", "float", ""), a), 90, 1e-9);
    assert_float_equal(cmp_value(&t, find_line(&t, "peak", "fma", "double", ""), a), 100, 1e-9);
    assert_float_equal(cmp_value(&t, find_line(&t, "roofline", "fma", "float", "flops=0"), a), 80,
                       1e-9);
    assert_float_equal(cmp_value(&t, find_line(&t, "roofline", "fma", "float", "flops=128"), a),
                       75, 1e-9);
    assert_float_equal(cmp_value(&t, find_line(&t, "dslash", "reg", "float", ""), a), 7.5, 1e-9);
    assert_true(isnan(cmp_value(&t, find_line(&t, "dslash", "reg", "float", ""), b)));
    assert_int_equal(find_line(&t, "peak", "mad", "int", ""), -1);
    cmp_free(&t);
}

/* The roofline of a column and the staircase of a workload: exact roofs and
 * ridge, and every script and data file through the oracle, crafted names too. */
static void test_row_figures(void **state)
{
    (void)state;
    struct cmp_table t;
    char *files[] = {fx("ceil.csv"), fx("evilceil.csv")};
    struct cmp_filter f = {.plot = 1};
    assert_int_equal(cmp_build(&t, files, 2, &f, M("gbps")), CLB_OK);
    int a = find_col(&t, "Ceil Test GPU"), b = find_col(&t, "No Ceiling CPU");
    struct cmp_fig g = {0};
    struct clb_chart_text pt;
    assert_int_equal(cmp_fig_points(&g, &t, CMP_FIG_ROOFLINE, "roofline", a), CLB_OK);
    assert_int_equal(plot_script(&g, 1, 3, &pt), CLB_OK);
    /* x from the smallest intensity (stream triad: 2 flops per 12 bytes) halved to the
     * largest (the fp32 ridge, 20) doubled */
    assert_string_equal(clb_buf_str(&pt.peaks),
                        "x\tmeasured fp32 roof: 1000 GB/s (stream triad), 20000 GFlop/s (peak fma)\n"
                        "0.08333333333\t83.33333333\n20\t20000\n40\t20000\n\n\n"
                        "x\tmeasured fp64 roof: 1000 GB/s (stream triad), 10000 GFlop/s (peak fma)\n"
                        "0.08333333333\t83.33333333\n10\t10000\n40\t10000\n\n\n"
                        "x\tfp32 ridge point: 20.00 flop/byte (20000 GFlop/s / 1000 GB/s)\n20\t20000\n\n\n"
                        "x\tfp64 ridge point: 10.00 flop/byte (10000 GFlop/s / 1000 GB/s)\n10\t10000\n");
    /* each line: x, y, the box's x0, x1, y0 (bars only), the label */
    assert_string_equal(clb_buf_str(&pt.data),
                        "x\troofline float\tx0\tx1\ty0\tlabel\n1\t800\t1\t1\t800\t\n"
                        "16\t15000\t16\t16\t15000\t\n\n\n"
                        "x\tstream float\tx0\tx1\ty0\tlabel\n"
                        "0.1666666667\t166.667\t0.1666666667\t0.1666666667\t166.667\t\n\n\n"
                        "x\tdslash float\tx0\tx1\ty0\tlabel\n0.8\t1500\t0.8\t0.8\t1500\t\n");
    assert_non_null(strstr(pt.script.s, "set logscale x 2\n"));
    assert_non_null(strstr(pt.script.s, "set logscale y 10\n"));
    clb_chart_text_free(&pt);
    /* no roofline rows: no roofline figure */
    assert_int_equal(cmp_fig_points(&g, &t, CMP_FIG_ROOFLINE, "roofline", b), CLB_EUSAGE);
    assert_int_equal(cmp_fig_points(&g, &t, CMP_FIG_STAIRS, "latency", -1), CLB_OK);
    assert_int_equal(plot_script(&g, 1, 3, &pt), CLB_OK);
    assert_non_null(strstr(pt.data.s, "x\tNo Ceiling CPU: chase stride=64\tx0\tx1\ty0\tlabel\n"
                                      "1024\t6\t1024\t1024\t6\t\n4096\t6\t4096\t4096\t6\t\n"));
    assert_non_null(strstr(pt.script.s, "set format x '%.0b %BB'\n"));
    clb_chart_text_free(&pt);
    /* every figure, crafted names included, through the oracle */
    for (int c = -1; c < t.ncols; c++) {
        if (c < 0 ? cmp_fig_points(&g, &t, CMP_FIG_STAIRS, "latency", -1)
                  : cmp_fig_points(&g, &t, CMP_FIG_ROOFLINE, "roofline", c))
            continue;
        assert_int_equal(plot_script(&g, 1, c + 2, &pt), CLB_OK);
        const char *why = oracle_script(pt.script.s, pt.script.len);
        if (why)
            fail_msg("%s in:\n%s", why, pt.script.s);
        if ((why = oracle_data(clb_buf_str(&pt.data), pt.data.len)))
            fail_msg("%s in:\n%s", why, clb_buf_str(&pt.data));
        if ((why = oracle_data(clb_buf_str(&pt.peaks), pt.peaks.len)))
            fail_msg("%s in:\n%s", why, clb_buf_str(&pt.peaks));
        assert_null(strstr(pt.script.s, "PWNED_ckernel"));   /* names are data */
        assert_null(strstr(pt.script.s, "PWNED_cparam"));
        clb_chart_text_free(&pt);
    }
    cmp_free(&t);
}

/* ---- the baseline ------------------------------------------------------------ */

static void test_baseline(void **state)
{
    (void)state;
    struct cmp_delta d;
    struct cmp_filter f = {0};
    struct cmp_gate g5 = {.threshold = 5}, g2 = {.threshold = 2}, s2 = {.threshold = 2, .strict = 1};
    char *reg[] = {fx("regressed.csv")};
    assert_int_equal(cmp_baseline(&d, reg, 1, fx("base.csv"), &f, M("gbps"), &g5), CLB_OK);
    assert_int_equal(d.failed, 1);
    assert_int_equal(d.count[CMP_D_REGRESSED], 1);
    assert_int_equal(d.by_device, 0);
    assert_true(d.worst >= 0);
    const struct cmp_dline *w = &d.v[d.worst];
    assert_string_equal(w->kernel, "triad");
    assert_string_equal(w->dtype, "double");
    assert_string_equal(w->cases, "");        /* vec is a tuning parameter */
    assert_string_equal(w->cur.tuning, "vec=2");
    assert_string_equal(w->tuned, "");
    assert_float_equal(w->delta_pct, -10, 0.01);
    assert_int_equal(w->state, CMP_D_REGRESSED);
    /* the failed transpose naive double: no figure in the baseline */
    assert_int_equal(d.count[CMP_D_NOFIGURE], 1);
    cmp_delta_free(&d);
    /* -3 %: within 5 %; beyond 2 % but inside the runs' spread (the two runs
     * of the baseline, 2 % apart, and each run's own); --strict fails it */
    char *within[] = {fx("within.csv")};
    assert_int_equal(cmp_baseline(&d, within, 1, fx("base.csv"), &f, M("gbps"), &g5), CLB_OK);
    assert_int_equal(d.failed, 0);
    assert_int_equal(d.count[CMP_D_NOISE], 0);
    cmp_delta_free(&d);
    assert_int_equal(cmp_baseline(&d, within, 1, fx("base.csv"), &f, M("gbps"), &g2), CLB_OK);
    assert_int_equal(d.failed, 0);
    assert_int_equal(d.count[CMP_D_NOISE], 1);
    cmp_delta_free(&d);
    assert_int_equal(cmp_baseline(&d, within, 1, fx("base.csv"), &f, M("gbps"), &s2), CLB_OK);
    assert_int_equal(d.failed, 1);
    cmp_delta_free(&d);
    /* another device: refused, unless --cross-device; cpu.csv is a v1 file
     * (no size_from): its sizes match as given, and do here */
    char *cpu[] = {fx("cpu.csv")};
    struct cmp_filter s = {.workload = "stream"};
    assert_int_equal(cmp_baseline(&d, cpu, 1, fx("base.csv"), &s, M("gbps"), &g5), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "another device"));
    struct cmp_gate x = {.threshold = 5, .cross_device = 1};
    assert_int_equal(cmp_baseline(&d, cpu, 1, fx("base.csv"), &s, M("gbps"), &x), CLB_OK);
    assert_int_equal(d.compared, 4);
    assert_int_equal(d.count[CMP_D_REGRESSED], 4);
    assert_int_equal(d.unmarked[0], 8);
    for (int i = 0; i < d.n; i++)
        assert_non_null(strstr(d.v[i].tuned, "→8"));   /* vec=8 against vec=4 or 2 */
    cmp_delta_free(&d);
    /* an empty baseline selection */
    struct cmp_filter none = {.workload = "dslash"};
    assert_int_equal(cmp_baseline(&d, cpu, 1, fx("base.csv"), &none, M("gbps"), &g5), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "no rows for --workload dslash"));
}

/* ---- JSON --------------------------------------------------------------------- */

static json_t *parse_json(int (*print)(const void *, FILE *), const void *what)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    assert_non_null(m);
    assert_int_equal(print(what, m), CLB_OK);
    fclose(m);
    json_error_t err;
    json_t *j = json_loads(text, 0, &err);
    if (!j)
        fail_msg("not JSON (%s): %s", err.text, text);
    free(text);
    return j;
}

static int print_table(const void *t, FILE *f) { return cmp_print_json(t, f); }
static int print_delta(const void *d, FILE *f) { return cmp_delta_print_json(d, f); }

static void test_json(void **state)
{
    (void)state;
    struct cmp_table t;
    char *files[] = {fx("gpu.csv"), fx("crafted.csv")};
    struct cmp_filter f = {0};
    assert_int_equal(cmp_build(&t, files, 2, &f, M("gbps")), CLB_OK);
    json_t *j = parse_json(print_table, &t);
    assert_string_equal(json_string_value(json_object_get(j, "schema")), "clbench-compare-2");
    json_t *cols = json_object_get(j, "columns"), *lines = json_object_get(j, "lines");
    assert_int_equal(json_array_size(cols), (size_t)t.ncols);
    assert_int_equal(json_array_size(lines), (size_t)t.nlines);
    /* raw names (valid UTF-8 kept, JSON-escaped by jansson; other bytes U+FFFD) */
    assert_string_equal(json_string_value(json_object_get(json_array_get(cols, 2), "device")),
                        "Evil2\nsecond line\x1b[31m red\x1b[0m\r\t");
    assert_string_equal(json_string_value(json_object_get(json_array_get(cols, 3), "device")),
                        "Evil3 \xe2\x80\xae rtl \xef\xbf\xbd\xef\xbf\xbd");
    json_t *l0 = json_array_get(lines, 0), *v = json_array_get(json_object_get(l0, "values"), 0);
    assert_string_equal(json_string_value(json_object_get(l0, "kernel")), "copy");
    assert_float_equal(json_real_value(json_object_get(v, "value")), 3000, 1e-9);
    assert_float_equal(json_real_value(json_object_get(v, "spread_pct")), 1.0, 1e-9);
    assert_int_equal(json_integer_value(json_object_get(v, "runs")), 2);
    assert_string_equal(json_string_value(json_object_get(v, "status")), "ok");
    /* a column without rows on the line: null */
    assert_true(json_is_null(json_array_get(json_object_get(l0, "values"), 1)));
    json_decref(j);
    cmp_free(&t);
    struct cmp_delta d;
    char *reg[] = {fx("regressed.csv")};
    struct cmp_gate g5 = {.threshold = 5};
    assert_int_equal(cmp_baseline(&d, reg, 1, fx("base.csv"), &f, M("gbps"), &g5), CLB_OK);
    j = parse_json(print_delta, &d);
    assert_int_equal(json_integer_value(json_object_get(j, "failed")), 1);
    assert_int_equal(json_array_size(json_object_get(j, "lines")), (size_t)d.n);
    json_decref(j);
    cmp_delta_free(&d);
}

int main(void)
{
    clb_workload_register(&xfer);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_columns),     cmocka_unit_test(test_best_and_spread),
        cmocka_unit_test(test_sweep_lines), cmocka_unit_test(test_relative),
        cmocka_unit_test(test_filters),     cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_peak_by_unit), cmocka_unit_test(test_escape),
        cmocka_unit_test(test_crafted_plot), cmocka_unit_test(test_baseline),
        cmocka_unit_test(test_json),        cmocka_unit_test(test_measured),
        cmocka_unit_test(test_row_figures), cmocka_unit_test(test_two_escaped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

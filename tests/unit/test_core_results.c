/* Results CSV: round trip through libcsv, header checks, reader errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clb_results.h"
#include "clbench.h"

static char dir[64];

static int make_dir(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/clb_test_XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd);
}

static void path_in(char *buf, size_t n, const char *name) { snprintf(buf, n, "%s/%s", dir, name); }

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static void sample_row(struct clb_row *r)
{
    clb_row_init(r);
    strcpy(r->run_id, "r1");
    strcpy(r->device, "Tesla \"C1060\", rev 2");       /* comma and quotes */
    strcpy(r->platform, "NVIDIA CUDA");
    strcpy(r->workload, "stream");
    strcpy(r->kernel, "copy");
    strcpy(r->dtype, "float");
    strcpy(r->size, "1048576");
    strcpy(r->params, "vec=4,ilp=1");
    strcpy(r->status, "ok");
    strcpy(r->detail, "line one\nline two; x=\"y\"");  /* newline inside a field */
    r->warmup = 3;
    r->reps = 20;
    r->bytes = 8388608;
    r->t_median = 0.00025;
    r->gbps = 33.554432;
}

static void round_trip(void **state)
{
    (void)state;
    char path[128];
    path_in(path, sizeof path, "sub/dir/rt.csv"); /* directories are created */
    struct clb_writer w;
    assert_int_equal(clb_writer_open(&w, path), CLB_OK);
    struct clb_row r, r2;
    sample_row(&r);
    assert_int_equal(clb_writer_put(&w, &r), CLB_OK);
    sample_row(&r2);
    strcpy(r2.kernel, "triad");
    r2.flops = 2097152;
    assert_int_equal(clb_writer_put(&w, &r2), CLB_OK);
    clb_writer_close(&w);
    assert_int_equal(strncmp(slurp(path), CLB_CSV_HEADER "\n", strlen(CLB_CSV_HEADER) + 1), 0);

    struct clb_row *rows;
    size_t n;
    assert_int_equal(clb_results_read(path, &rows, &n), CLB_OK);
    assert_int_equal(n, 2);
    assert_string_equal(rows[0].device, r.device);
    assert_string_equal(rows[0].params, r.params);
    assert_string_equal(rows[0].detail, r.detail);
    assert_int_equal(rows[0].reps, 20);
    assert_float_equal(rows[0].bytes, 8388608, 0);
    assert_float_equal(rows[0].gbps, 33.5544, 1e-3);
    assert_true(isnan(rows[0].flops));
    assert_true(isnan(rows[0].pct_peak_bw));
    assert_string_equal(rows[1].kernel, "triad");
    assert_float_equal(rows[1].flops, 2097152, 0);
    free(rows);

    /* Appending to the file again keeps one header. */
    assert_int_equal(clb_writer_open(&w, path), CLB_OK);
    assert_int_equal(clb_writer_put(&w, &r), CLB_OK);
    clb_writer_close(&w);
    assert_int_equal(clb_results_read(path, &rows, &n), CLB_OK);
    assert_int_equal(n, 3);
    free(rows);
}

static void refuses_other_header(void **state)
{
    (void)state;
    char path[128];
    path_in(path, sizeof path, "other.csv");
    const char *text = "a,b,c\n1,2,3\n";
    write_text(path, text);
    struct clb_writer w;
    assert_int_equal(clb_writer_open(&w, path), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "another header"));
    assert_string_equal(slurp(path), text); /* untouched */
    struct clb_row *rows;
    size_t n;
    assert_int_equal(clb_results_read(path, &rows, &n), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "not a clbench"));
}

static void empty_file_gets_header(void **state)
{
    (void)state;
    char path[128];
    path_in(path, sizeof path, "empty.csv");
    write_text(path, "");
    struct clb_writer w;
    assert_int_equal(clb_writer_open(&w, path), CLB_OK);
    clb_writer_close(&w);
    assert_string_equal(slurp(path), CLB_CSV_HEADER "\n");
}

static void reader_errors(void **state)
{
    (void)state;
    char path[128];
    struct clb_row *rows;
    size_t n;
    path_in(path, sizeof path, "missing.csv");
    assert_int_equal(clb_results_read(path, &rows, &n), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "cannot read"));

    path_in(path, sizeof path, "nonnum.csv");
    char text[4096];
    snprintf(text, sizeof text,
             "%s\nr,t,h,p,d,gpu,drv,prof,stream,copy,float,1,,,,3,20,100,0,1,1,1,1,0,fast,1,,,,ok,\n",
             CLB_CSV_HEADER);
    write_text(path, text);
    assert_int_equal(clb_results_read(path, &rows, &n), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "gbps"));
    assert_non_null(strstr(clb_lasterr(), ":2:"));

    /* warmup and reps must be whole counts that fit an int (the fuzzer once
     * found 2.1e12 converted to int) */
    const char *counts[] = {"2.1e12", "-1", "1.5", "inf"};
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
        path_in(path, sizeof path, "count.csv");
        snprintf(text, sizeof text,
                 "%s\nr,t,h,p,d,gpu,drv,prof,stream,copy,float,1,,,,3,%s,100,0,1,1,1,1,0,1,1,,,,ok,\n",
                 CLB_CSV_HEADER, counts[i]);
        write_text(path, text);
        assert_int_equal(clb_results_read(path, &rows, &n), CLB_EUSAGE);
        assert_non_null(strstr(clb_lasterr(), "reps is not a count"));
    }

    path_in(path, sizeof path, "short.csv");
    snprintf(text, sizeof text, "%s\nr,t,h\n", CLB_CSV_HEADER);
    write_text(path, text);
    assert_int_equal(clb_results_read(path, &rows, &n), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "fields"));

    path_in(path, sizeof path, "quote.csv");
    snprintf(text, sizeof text, "%s\n\"unterminated,1\n", CLB_CSV_HEADER);
    write_text(path, text);
    assert_int_equal(clb_results_read(path, &rows, &n), CLB_EUSAGE);
}

static void unwritable(void **state)
{
    (void)state;
    struct clb_writer w;
    if (getuid() == 0) /* root writes anywhere: use a path under a regular file instead */
        assert_int_equal(clb_writer_open(&w, "/dev/null/x.csv"), CLB_EUSAGE);
    else
        assert_int_equal(clb_writer_open(&w, "/proc/x.csv"), CLB_EUSAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip), cmocka_unit_test(refuses_other_header),
        cmocka_unit_test(empty_file_gets_header), cmocka_unit_test(reader_errors),
        cmocka_unit_test(unwritable)};
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}

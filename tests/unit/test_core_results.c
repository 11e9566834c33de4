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

static const char *header_nl(int version)
{
    static char buf[3][1024];
    snprintf(buf[version - 1], sizeof buf[0], "%s\n", clb_csv_header(version));
    return buf[version - 1];
}

static void sample_row(struct clb_row *r)
{
    clb_row_init(r);
    r->run_id = "r1";
    r->device = "Tesla \"C1060\", rev 2";       /* comma and quotes */
    r->platform = "NVIDIA CUDA";
    r->workload = "stream";
    r->kernel = "copy";
    r->dtype = "float";
    r->size = "1048576";
    r->params = "vec=4,ilp=1";
    r->status = "ok";
    r->detail = "line one\nline two; x=\"y\"";  /* newline inside a field */
    r->warmup = 3;
    r->reps = 20;
    r->bytes = 8388608;
    r->t_median_s = 0.00025;
    r->gbps = 33.554432;
    r->clbench_version = "0.2.0";
    r->ranks = 1;
    r->rank = "0";
    r->metrics = "ns_per_load=1.5;clock_from=profile;cache_resident=1";
}

static void same_row(const struct clb_row *a, const struct clb_row *b, int ncols);

static void read_ok(const char *path, struct clb_rowset *s)
{
    memset(s, 0, sizeof *s);
    assert_int_equal(clb_results_read(path, s), CLB_OK);
}

static int read_status(const char *path)
{
    struct clb_rowset s;
    memset(&s, 0, sizeof s);
    int rc = clb_results_read(path, &s);
    clb_rowset_free(&s);
    return rc;
}

static void round_trip(void **state)
{
    (void)state;
    char path[128];
    path_in(path, sizeof path, "sub/dir/rt.csv"); /* directories are created */
    struct clb_writer w;
    assert_int_equal(clb_writer_open(&w, path, CLB_FORMAT_CSV), CLB_OK);
    struct clb_row r, r2;
    sample_row(&r);
    assert_int_equal(clb_writer_put(&w, &r), CLB_OK);
    sample_row(&r2);
    r2.kernel = "triad";
    r2.flops = 2097152;
    assert_int_equal(clb_writer_put(&w, &r2), CLB_OK);
    clb_writer_close(&w);
    assert_int_equal(strncmp(slurp(path), header_nl(3), strlen(header_nl(3))), 0);

    struct clb_rowset set;
    read_ok(path, &set);
    struct clb_row *rows = set.v;
    assert_int_equal(set.n, 2);
    assert_int_equal(set.version, 3);
    assert_string_equal(rows[0].metrics, r.metrics);
    assert_float_equal(clb_row_metric(&rows[0], "ns_per_load"), 1.5, 0);
    assert_true(clb_row_flag(&rows[0], "cache_resident"));
    assert_true(isnan(clb_row_metric(&rows[0], "clock_from"))); /* a token */
    assert_string_equal(rows[0].device, r.device);
    assert_string_equal(rows[0].params, r.params);
    assert_string_equal(rows[0].detail, r.detail);
    assert_float_equal(rows[0].reps, 20, 0);
    assert_float_equal(rows[0].bytes, 8388608, 0);
    assert_float_equal(rows[0].gbps, 33.5544, 1e-3);
    assert_true(isnan(rows[0].flops));
    assert_true(isnan(rows[0].pct_peak_bw));
    assert_string_equal(rows[0].clbench_version, "0.2.0");
    assert_float_equal(rows[0].ranks, 1, 0);
    assert_string_equal(rows[0].rank, "0");
    assert_true(isnan(rows[0].energy_j));
    assert_string_equal(rows[0].power_source, "");
    assert_string_equal(rows[1].kernel, "triad");
    assert_float_equal(rows[1].flops, 2097152, 0);
    clb_rowset_free(&set);

    /* Appending to the file again keeps one header. */
    assert_int_equal(clb_writer_open(&w, path, CLB_FORMAT_CSV), CLB_OK);
    assert_int_equal(clb_writer_put(&w, &r), CLB_OK);
    clb_writer_close(&w);
    read_ok(path, &set);
    assert_int_equal(set.n, 3);
    clb_rowset_free(&set);
}

/* The header is made from the column table: v1 is a prefix of v2, v2 of v3. */
static void headers(void **state)
{
    (void)state;
    assert_string_equal(clb_csv_header(3) + strlen(clb_csv_header(2)), ",metrics");
    assert_int_equal(clb_schema_ncols(3), CLB_NCOLS);
    assert_int_equal(clb_schema_ncols(4), 0);
    assert_string_equal(clb_csv_header(1),
        "run_id,timestamp,host,platform,device,device_type,driver,profile,"
        "workload,kernel,dtype,size,params,local_size,global_size,warmup,reps,"
        "bytes,flops,t_min_s,t_median_s,t_mean_s,t_max_s,t_stddev_s,"
        "gbps,gbps_best,gflops,pct_peak_bw,model,status,detail");
    assert_string_equal(clb_csv_header(2) + strlen(clb_csv_header(1)),
        ",clbench_version,ranks,rank,energy_j,avg_power_w,power_source");
}

/* A file of an older schema (v1 or v2) holding two rows: its rows are read
 * with empty newer columns and metrics derived from detail; appending is
 * refused with a pointer to the upgrade; the upgrade keeps every old field
 * byte for byte and fills metrics from detail. */
static void old_schema(int version)
{
    char path[128];
    path_in(path, sizeof path, version == 1 ? "v1.csv" : "v2.csv");
    struct clb_row r;
    sample_row(&r);
    r.detail = "loads=64 ns_per_load=612.5; cycles=1212.7 clock_mhz=1980; llc=52428800; "
               "cache_resident (1 MB < 4 x 50 MB), of_copy=0.98 tol=1e-05 x=1:2 gcd(a,N)=3";
    char *line = clb_row_format(&r, version);
    assert_non_null(line);
    char text[8192];
    snprintf(text, sizeof text, "%s%s%s", header_nl(version), line, line);
    free(line);
    write_text(path, text);
    const char *derived = "loads=64;ns_per_load=612.5;cycles=1212.7;clock_mhz=1980;"
                          "llc_bytes=52428800;of_copy=0.98;tol=1e-05;cache_resident=1";
    struct clb_rowset set;
    read_ok(path, &set);
    assert_int_equal(set.version, version);
    assert_int_equal(set.n, 2);
    assert_string_equal(set.v[1].detail, r.detail);
    assert_string_equal(set.v[1].clbench_version, version == 1 ? "" : "0.2.0");
    assert_true(version == 2 || isnan(set.v[1].ranks));
    assert_string_equal(set.v[1].metrics, derived);
    assert_float_equal(clb_row_metric(&set.v[1], "llc_bytes"), 52428800, 0);
    clb_rowset_free(&set);

    struct clb_writer w;
    assert_int_equal(clb_writer_open(&w, path, CLB_FORMAT_CSV), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "clbench results upgrade"));
    assert_string_equal(slurp(path), text); /* untouched */

    int already, from;
    size_t rows;
    assert_int_equal(clb_results_upgrade(path, &already, &from, &rows), CLB_OK);
    assert_int_equal(already, 0);
    assert_int_equal(from, version);
    assert_int_equal(rows, 2);
    /* each old line is kept whole, the new columns appended */
    char want[8192];
    line = clb_row_format(&r, version);
    line[strlen(line) - 1] = 0;
    const char *gap = version == 1 ? ",,,,,," : "";
    snprintf(want, sizeof want, "%s%s%s,%s\n%s%s,%s\n", header_nl(3), line, gap, derived, line,
             gap, derived);
    free(line);
    assert_string_equal(slurp(path), want);
    read_ok(path, &set);
    assert_int_equal(set.version, 3);
    assert_int_equal(set.n, 2);
    assert_string_equal(set.v[0].device, r.device);
    assert_string_equal(set.v[0].detail, r.detail);
    assert_string_equal(set.v[0].metrics, derived);
    clb_rowset_free(&set);
    assert_int_equal(clb_results_upgrade(path, &already, &from, &rows), CLB_OK);
    assert_int_equal(already, 1);
    assert_int_equal(from, 3);
    assert_int_equal(clb_writer_open(&w, path, CLB_FORMAT_CSV), CLB_OK);
    clb_writer_close(&w);
}

static void v1_files(void **state)
{
    (void)state;
    old_schema(1);
    /* a file that does not parse is not rewritten */
    char path[128], text[4096];
    path_in(path, sizeof path, "v1bad.csv");
    snprintf(text, sizeof text, "%sr,t,h\n", header_nl(1));
    write_text(path, text);
    int already, from;
    size_t rows;
    assert_int_equal(clb_results_upgrade(path, &already, &from, &rows), CLB_EUSAGE);
    assert_string_equal(slurp(path), text);
}

static void v2_files(void **state)
{
    (void)state;
    old_schema(2);
}

/* The last line without a newline (a torn row): appending is refused, so
 * no row is ever glued to it, and the file is left as it was. */
static void torn_last_line(void **state)
{
    (void)state;
    char path[128], text[4096];
    path_in(path, sizeof path, "torn.csv");
    snprintf(text, sizeof text, "%sr1,2026", header_nl(3));
    write_text(path, text);
    struct clb_writer w;
    assert_int_equal(clb_writer_open(&w, path, CLB_FORMAT_CSV), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "newline"));
    assert_string_equal(slurp(path), text);

    /* torn by another writer after we opened: the row is refused */
    path_in(path, sizeof path, "torn2.csv");
    assert_int_equal(clb_writer_open(&w, path, CLB_FORMAT_CSV), CLB_OK);
    FILE *f = fopen(path, "a");
    fputs("half,a,row", f);
    fclose(f);
    struct clb_row r;
    sample_row(&r);
    assert_int_equal(clb_writer_put(&w, &r), CLB_ESYS);
    clb_writer_close(&w);
    snprintf(text, sizeof text, "%shalf,a,row", header_nl(3));
    assert_string_equal(slurp(path), text);
}

/* Links planted at the names the temporary header file takes first
 * (.<out>.<pid>-0, -1: clb_replace_open) are never written through, only
 * stepped over. */
static void planted_link(void **state)
{
    (void)state;
    char path[128], victim[128], tmp[2][256];
    path_in(path, sizeof path, "new.csv");
    path_in(victim, sizeof victim, "victim.txt");
    write_text(victim, "precious\n");
    for (int i = 0; i < 2; i++) {
        path_in(tmp[i], sizeof tmp[i], "");
        snprintf(tmp[i] + strlen(tmp[i]), 64, ".new.csv.%ld-%d", (long)getpid(), i);
        assert_int_equal(symlink(victim, tmp[i]), 0);
    }
    struct clb_writer w;
    assert_int_equal(clb_writer_open(&w, path, CLB_FORMAT_CSV), CLB_OK);
    clb_writer_close(&w);
    assert_string_equal(slurp(victim), "precious\n");
    assert_string_equal(slurp(path), header_nl(3));
    for (int i = 0; i < 2; i++)
        unlink(tmp[i]);
}

static void refuses_other_header(void **state)
{
    (void)state;
    char path[128];
    path_in(path, sizeof path, "other.csv");
    const char *text = "a,b,c\n1,2,3\n";
    write_text(path, text);
    struct clb_writer w;
    assert_int_equal(clb_writer_open(&w, path, CLB_FORMAT_CSV), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "another header"));
    assert_string_equal(slurp(path), text); /* untouched */
    assert_int_equal(read_status(path), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "not a clbench"));
}

static void empty_file_gets_header(void **state)
{
    (void)state;
    char path[128];
    path_in(path, sizeof path, "empty.csv");
    write_text(path, "");
    struct clb_writer w;
    assert_int_equal(clb_writer_open(&w, path, CLB_FORMAT_CSV), CLB_OK);
    clb_writer_close(&w);
    assert_string_equal(slurp(path), header_nl(3));
}

/* A data row of schema v3 with one column replaced. */
static void row_with(char *text, size_t n, int col, const char *value)
{
    const char *cols[38] = {"r", "t", "h", "p", "d", "gpu", "drv", "prof", "stream", "copy",
                            "float", "1", "", "", "", "3", "20", "100", "0", "1", "1", "1", "1",
                            "0", "1", "1", "", "", "", "ok", "", "0.2.0", "1", "0", "", "", "",
                            "a=1"};
    snprintf(text, n, "%s", header_nl(3));
    for (int i = 0; i < 38; i++)
        snprintf(text + strlen(text), n - strlen(text), "%s%s", i == col ? value : cols[i],
                 i < 37 ? "," : "\n");
}

static void reader_errors(void **state)
{
    (void)state;
    char path[128];
    path_in(path, sizeof path, "missing.csv");
    assert_int_equal(read_status(path), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "cannot read"));

    /* numeric columns hold what clbench writes: decimal, finite, >= 0 */
    char text[4096];
    const char *bad_nums[] = {"fast", "inf", "nan", "-1", "0x10", "1e999", "+3", ""};
    for (size_t i = 0; bad_nums[i][0]; i++) {
        path_in(path, sizeof path, "nonnum.csv");
        row_with(text, sizeof text, 24, bad_nums[i]);
        write_text(path, text);
        assert_int_equal(read_status(path), CLB_EUSAGE);
        assert_non_null(strstr(clb_lasterr(), "gbps"));
        assert_non_null(strstr(clb_lasterr(), ":2:"));
    }
    row_with(text, sizeof text, 24, "1.5e+02");
    write_text(path, text);
    assert_int_equal(read_status(path), CLB_OK);

    /* warmup, reps and ranks must be whole counts that fit an int (the fuzzer
     * once found 2.1e12 converted to int) */
    const char *counts[] = {"2.1e12", "-1", "1.5", "inf"};
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
        path_in(path, sizeof path, "count.csv");
        row_with(text, sizeof text, 16, counts[i]);
        write_text(path, text);
        assert_int_equal(read_status(path), CLB_EUSAGE);
        assert_non_null(strstr(clb_lasterr(), "reps is not"));
    }
    row_with(text, sizeof text, 29, "great");
    write_text(path, text);
    assert_int_equal(read_status(path), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "status"));

    path_in(path, sizeof path, "short.csv");
    snprintf(text, sizeof text, "%sr,t,h\n", header_nl(2));
    write_text(path, text);
    assert_int_equal(read_status(path), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "fields"));

    path_in(path, sizeof path, "quote.csv");
    snprintf(text, sizeof text, "%s\"unterminated,1\n", header_nl(2));
    write_text(path, text);
    assert_int_equal(read_status(path), CLB_EUSAGE);

    /* a NUL byte inside a field is refused, not cut */
    path_in(path, sizeof path, "nul.csv");
    row_with(text, sizeof text, 4, "dev@ice");
    FILE *f = fopen(path, "wb");
    size_t len = strlen(text);
    *strchr(text + strlen(header_nl(3)), '@') = 0;
    fwrite(text, 1, len, f);
    fclose(f);
    assert_int_equal(read_status(path), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "NUL"));

    /* a UTF-8 byte order mark before the header is skipped */
    path_in(path, sizeof path, "bom.csv");
    row_with(text, sizeof text, 4, "dev");
    char bom[4200];
    snprintf(bom, sizeof bom, "\xEF\xBB\xBF%s", text);
    write_text(path, bom);
    struct clb_rowset set;
    read_ok(path, &set);
    assert_int_equal(set.n, 1);
    assert_string_equal(set.v[0].run_id, "r");
    clb_rowset_free(&set);

    /* only regular files are read: a directory, a device */
    assert_int_equal(read_status(dir), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "regular file"));
    assert_int_equal(read_status("/dev/zero"), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "regular file"));
}

/* JSON Lines: one object per row with the column names; no header. */
static void json_lines(void **state)
{
    (void)state;
    char path[128];
    path_in(path, sizeof path, "rows.jsonl");
    assert_int_equal(clb_format_of_path(path), CLB_FORMAT_JSON);
    assert_int_equal(clb_format_of_path("x.csv"), CLB_FORMAT_CSV);
    struct clb_writer w;
    assert_int_equal(clb_writer_open(&w, path, CLB_FORMAT_JSON), CLB_OK);
    struct clb_row r;
    sample_row(&r);
    assert_int_equal(clb_writer_put(&w, &r), CLB_OK);
    assert_int_equal(clb_writer_put(&w, &r), CLB_OK);
    clb_writer_close(&w);
    const char *text = slurp(path);
    assert_int_equal(text[0], '{');
    const char *nl = strchr(text, '\n');
    assert_non_null(nl);
    assert_non_null(strstr(text, "\"device\":\"Tesla \\\"C1060\\\", rev 2\""));
    assert_non_null(strstr(text, "\"detail\":\"line one\\nline two; x=\\\"y\\\"\""));
    assert_non_null(strstr(text, "\"reps\":20,"));
    assert_non_null(strstr(text, "\"flops\":null"));
    assert_non_null(strstr(text, "\"metrics\":{\"ns_per_load\":1.5,\"clock_from\":\"profile\","
                                 "\"cache_resident\":1}"));
    assert_non_null(strstr(nl + 1, "\"run_id\":\"r1\""));
    /* read back as it was written */
    struct clb_rowset set;
    read_ok(path, &set);
    assert_int_equal(set.n, 2);
    assert_int_equal(set.version, 3);
    same_row(&r, &set.v[1], CLB_NCOLS);
    clb_rowset_free(&set);
    /* appending to a file that is not JSON Lines of clbench rows is refused,
     * the file byte-identical: CSV, a compare --json document, another log */
    const char *foreign[] = {"run_id,x\n", "{\"schema\":\"clbench-compare-1\",\"lines\":[]}\n",
                             "{\"run_id\":\"r\"}\n", "{\"level\":\"info\"}\n{\"a\":1}\n", "{\n"};
    for (size_t i = 0; i < sizeof foreign / sizeof *foreign; i++) {
        path_in(path, sizeof path, "notjson.jsonl");
        write_text(path, foreign[i]);
        assert_int_equal(clb_writer_open(&w, path, CLB_FORMAT_JSON), CLB_EUSAGE);
        assert_non_null(strstr(clb_lasterr(), "choose another file"));
        assert_string_equal(slurp(path), foreign[i]);
    }
}

/* A line of a JSON Lines file of schema v2 (no metrics key), from a row. */
static char *json_v2(const struct clb_row *r)
{
    char *line = clb_row_json(r);
    char *m = strstr(line, ",\"metrics\":");
    assert_non_null(m);
    strcpy(m, "}\n");
    return line;
}

/* JSON Lines of schema v2: read with derived metrics, appending refused with
 * the upgrade pointer, upgraded to v3 with every value kept; and the
 * reader's refusals, each with file:line. */
static void json_lines_read(void **state)
{
    (void)state;
    char path[128], text[8192];
    path_in(path, sizeof path, "v2.jsonl");
    struct clb_row r;
    sample_row(&r);
    r.detail = "loads=4 ns_per_load=2.5; llc=1024";
    char *line = json_v2(&r);
    snprintf(text, sizeof text, "%s%s", line, line);
    free(line);
    write_text(path, text);
    struct clb_rowset set;
    read_ok(path, &set);
    assert_int_equal(set.version, 2);
    assert_int_equal(set.n, 2);
    assert_string_equal(set.v[0].metrics, "loads=4;ns_per_load=2.5;llc_bytes=1024");
    clb_rowset_free(&set);
    struct clb_writer w;
    assert_int_equal(clb_writer_open(&w, path, CLB_FORMAT_JSON), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), "clbench results upgrade"));
    assert_string_equal(slurp(path), text);
    int already, from;
    size_t n;
    assert_int_equal(clb_results_upgrade(path, &already, &from, &n), CLB_OK);
    assert_int_equal(from, 2);
    assert_int_equal(n, 2);
    read_ok(path, &set);
    assert_int_equal(set.version, 3);
    r.metrics = "loads=4;ns_per_load=2.5;llc_bytes=1024";
    same_row(&r, &set.v[1], CLB_NCOLS);
    clb_rowset_free(&set);
    assert_int_equal(clb_writer_open(&w, path, CLB_FORMAT_JSON), CLB_OK);
    clb_writer_close(&w);

    struct { const char *text, *says; } bad[] = {
        {"{\"run_id\":1}\n", ":1: not a clbench row of schema v1: no key 'timestamp'"},
        {"{}\n", ":1: not a clbench row of schema v1: no key 'run_id'"},
        {"{\"run_id\":\"a\",\n", ":1: malformed JSON"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        path_in(path, sizeof path, "bad.jsonl");
        write_text(path, bad[i].text);
        assert_int_equal(read_status(path), CLB_EUSAGE);
        if (!strstr(clb_lasterr(), bad[i].says))
            fail_msg("'%s' says '%s'", bad[i].text, clb_lasterr());
    }
    /* a value of the wrong kind, a negative figure, a bad metric, a duplicate
     * key, an unknown key, a mixed file: each refused at its line */
    line = clb_row_json(&r);
    struct { const char *from, *to, *says; } edits[] = {
        {"\"reps\":20", "\"reps\":\"20\"", ":2: column reps is not a number"},
        {"\"reps\":20", "\"reps\":-20", ":2: column reps is not a non-negative"},
        {"\"reps\":20", "\"reps\":2.5", ":2: column reps is not a count"},
        {"\"rank\":\"0\"", "\"rank\":0", ":2: column rank is not a string"},
        {"\"reps\":20", "\"reps\":20,\"reps\":21", ":2: malformed JSON"},
        {"\"reps\":20", "\"reps\":20,\"speed\":1", ":2: not a clbench row: key 'speed'"},
        {"\"status\":\"ok\"", "\"status\":\"great\"", ":2: column status is not a status"},
        {"\"ns_per_load\":2.5", "\"ns_per_load\":[1]", ":2: not a clbench row (an array"},
        {"\"ns_per_load\":2.5", "\"ns_per_load\":{}", ":2: not a clbench row (objects nested"},
        {"\"ns_per_load\":2.5", "\"ns_per_load\":true", ":2: column metrics is not an object"},
        {"\"ns_per_load\":2.5", "\"Ns\":2.5", ":2: column metrics is not key=value"},
        {"\"ns_per_load\":2.5", "\"ns\":\"a b\"", ":2: column metrics is not key=value"},
        {",\"metrics\":{\"loads\":4,\"ns_per_load\":2.5,\"llc_bytes\":1024}", "",
         ":2: a row of schema v2 after rows of schema v3"},
    };
    for (size_t i = 0; i < sizeof edits / sizeof *edits; i++) {
        const char *at = strstr(line, edits[i].from);
        if (!at)
            fail_msg("no '%s' in %s", edits[i].from, line);
        snprintf(text, sizeof text, "%s%.*s%s%s", line, (int)(at - line), line, edits[i].to,
                 at + strlen(edits[i].from));
        path_in(path, sizeof path, "edit.jsonl");
        write_text(path, text);
        assert_int_equal(read_status(path), CLB_EUSAGE);
        if (!strstr(clb_lasterr(), edits[i].says))
            fail_msg("edit %zu says '%s', expected '%s'", i, clb_lasterr(), edits[i].says);
    }
    /* a line that is JSON but not an object */
    snprintf(text, sizeof text, "%s\"a row\"\n", line);
    write_text(path, text);
    assert_int_equal(read_status(path), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), ":2: malformed JSON"));
    /* blank lines (LF, CRLF, at the start and the end) are skipped, as in CSV */
    snprintf(text, sizeof text, "\n\r\n%s\n\r\n%s\n\n", line, line);
    write_text(path, text);
    struct clb_rowset set2;
    read_ok(path, &set2);
    assert_int_equal(set2.n, 2);
    clb_rowset_free(&set2);
    free(line);
    /* a line longer than any row is refused before it is parsed */
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputc('{', f);
    for (size_t i = 0; i < CLB_MAX_LINE_BYTES; i++)
        fputc(' ', f);
    fputs("}\n", f);
    fclose(f);
    assert_int_equal(read_status(path), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), ":1: a line longer than the 1 MiB"));
}

static void unwritable(void **state)
{
    (void)state;
    struct clb_writer w;
    if (getuid() == 0) /* root writes anywhere: use a path under a regular file instead */
        assert_int_equal(clb_writer_open(&w, "/dev/null/x.csv", CLB_FORMAT_CSV), CLB_EUSAGE);
    else
        assert_int_equal(clb_writer_open(&w, "/proc/x.csv", CLB_FORMAT_CSV), CLB_EUSAGE);
}

/* The grammar: what the reader accepts and refuses, lookups, building. */
static void metrics_grammar(void **state)
{
    (void)state;
    const char *why;
    const char *good[] = {"", "a=1", "ns_per_load=612.5;cycles=1212.7", "x=-0.5e-3", "f=.5",
                          "clock_from=CL_DEVICE_MAX_CLOCK_FREQUENCY", "t=1.2.3", "k9_=inf"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        assert_int_equal(clb_metrics_check(good[i], &why), CLB_OK);
    const char *bad[] = {"a", "a=", "=1", "A=1", "1a=1", "a=1;", ";a=1", "a=1;;b=2", "a=1 ",
                         "a=1,b=2", "a b=1", "a=x y", "a=1;a=2", "a=1e999", "a=\"1\"", "a=1\n",
                         "k012345678901234567890123456789012345678901234567890123456789012345=1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        why = NULL;
        assert_int_equal(clb_metrics_check(bad[i], &why), CLB_EUSAGE);
        assert_non_null(why);
    }
    const char *t = "ns_per_load=612.5;clock_from=profile;cache_resident=1;zero=0";
    assert_float_equal(clb_metrics_num(t, "ns_per_load"), 612.5, 0);
    assert_true(isnan(clb_metrics_num(t, "clock_from")));
    assert_true(isnan(clb_metrics_num(t, "ns_per")));       /* whole keys only */
    assert_true(isnan(clb_metrics_num(t, "load")));
    assert_true(clb_metrics_flag(t, "cache_resident"));
    assert_false(clb_metrics_flag(t, "zero"));
    assert_false(clb_metrics_flag(t, "absent"));
    assert_true(isnan(clb_metrics_num("a=1;;", "a")) == 0); /* found before the break */

    struct clb_buf b = {0};
    assert_int_equal(clb_metrics_set(&b, "ns_per_load", 612.5), CLB_OK);
    assert_int_equal(clb_metrics_set(&b, "llc_bytes", 52428800.0), CLB_OK);
    assert_int_equal(clb_metrics_set(&b, "nothing", NAN), CLB_OK);   /* not recorded */
    assert_int_equal(clb_metrics_set_token(&b, "clock_from", "profile"), CLB_OK);
    assert_int_equal(clb_metrics_set(&b, "ns_per_load", 1.0 / 3), CLB_OK); /* replaced */
    assert_string_equal(clb_buf_str(&b), "llc_bytes=52428800;clock_from=profile;"
                                         "ns_per_load=0.333333333");
    assert_int_equal(clb_metrics_set(&b, "Bad", 1), CLB_EUSAGE);
    assert_int_equal(clb_metrics_set_token(&b, "t", "12"), CLB_EUSAGE);   /* a number */
    assert_int_equal(clb_metrics_set_token(&b, "t", "a b"), CLB_EUSAGE);
    assert_int_equal(clb_metrics_check(clb_buf_str(&b), &why), CLB_OK);
    clb_buf_free(&b);

    /* figures of old details: whole words key=number only */
    char *m = clb_metrics_from_detail("a=1 b=2x c=3; d=4,e=5 f=(6) g=7:8 x/h=9 i=1e999 a=2 "
                                      "K=1 llc=64 cache_resident");
    assert_string_equal(m, "a=1;c=3;d=4;e=5;llc_bytes=64;cache_resident=1");
    free(m);
    m = clb_metrics_from_detail("");
    assert_string_equal(m, "");
    free(m);

    /* params: whole keys, whole numbers */
    struct clb_row r;
    clb_row_init(&r);
    r.params = "ws=1024,stride=64x,vec=-2,big=1e400,e=,kws=3";
    r.metrics = "ns_per_load=2;tok=abc";
    assert_float_equal(clb_row_param(&r, "ws"), 1024, 0);
    assert_float_equal(clb_row_param(&r, "vec"), -2, 0);
    assert_true(isnan(clb_row_param(&r, "stride")));   /* "64x" is not a number */
    assert_true(isnan(clb_row_param(&r, "big")));
    assert_true(isnan(clb_row_param(&r, "e")));
    assert_true(isnan(clb_row_param(&r, "w")));
    assert_float_equal(clb_row_param(&r, "kws"), 3, 0);
    struct clb_buf lacks = {0};
    assert_true(clb_row_has(&r, "ws,vec", "ns_per_load", NULL));
    assert_true(clb_row_has(&r, NULL, NULL, NULL));
    assert_false(clb_row_has(&r, "ws,stride", "ns_per_load", &lacks));
    assert_string_equal(clb_buf_str(&lacks), "params stride");
    lacks.len = 0;
    assert_false(clb_row_has(&r, "ws", "tok", &lacks));
    assert_string_equal(clb_buf_str(&lacks), "metric tok");
    clb_buf_free(&lacks);

    const char *src;
    size_t k = clb_reference_source("BabelStream 1.0 (OpenCL), ECC on", &src);
    assert_int_equal(k, strlen("BabelStream 1.0"));
    assert_memory_equal(src, "BabelStream 1.0", k);
}

/* A metrics field outside the grammar is refused with file:line. */
static void metrics_column(void **state)
{
    (void)state;
    char path[128], text[4096];
    path_in(path, sizeof path, "met.csv");
    row_with(text, sizeof text, CLB_C_metrics, "a=1;a=2");
    write_text(path, text);
    assert_int_equal(read_status(path), CLB_EUSAGE);
    assert_non_null(strstr(clb_lasterr(), ":2: column metrics"));
    assert_non_null(strstr(clb_lasterr(), "twice"));
    row_with(text, sizeof text, CLB_C_metrics, "ns_per_load=2;cache_resident=1");
    write_text(path, text);
    struct clb_rowset set;
    read_ok(path, &set);
    assert_float_equal(clb_row_metric(&set.v[0], "ns_per_load"), 2, 0);
    clb_rowset_free(&set);
}

/* ---- property: parse(write(x)) = x, and the upgrade keeps every byte ------ */

static unsigned long long rng = 88172645463325252ull;
static unsigned rnd(unsigned n)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (unsigned)(rng % n);
}

/* Text of any bytes but NUL, biased to what CSV and the reader may get wrong:
 * blanks of every kind at the edges, quotes, separators, line breaks, bytes
 * that are not UTF-8, a byte order mark. */
static const char *rnd_text(struct clb_arena *a)
{
    static const char *const atoms[] = {" ", "\t", "\r", "\n", "\r\n", "\v", "\f", ",", "\"",
                                        "\"\"", ";", "=", "x", "ok", "\xff", "\xc3", "\xef\xbb\xbf",
                                        "\x01", "\x7f", "\\", "#", "'", "a b"};
    char buf[256];
    size_t n = 0, k = rnd(8);
    buf[0] = 0;
    for (size_t i = 0; i < k; i++) {
        const char *t = atoms[rnd(sizeof atoms / sizeof *atoms)];
        memcpy(buf + n, t, strlen(t) + 1);
        n += strlen(t);
    }
    return clb_arena_str(a, buf, n);
}

static void rnd_row(struct clb_row *r, struct clb_arena *a)
{
    static const char *const st[] = {"ok", "failed", "skipped", "error", "reference"};
    /* metrics as the writer prints them (JSON keeps their values, and the
     * reader prints numbers in that form again) */
    static const char *const met[] = {"", "a=1", "ns_per_load=1.5;t=x.y", "z=-0.002;k=CL_X;e=1e-05"};
    clb_row_init(r);
    for (int i = 0; i < CLB_NCOLS; i++) {
        char *p = (char *)r + clb_columns[i].offset;
        if (clb_columns[i].kind == CLB_COL_STR)
            *(const char **)p = rnd_text(a);
        else if (clb_columns[i].kind != CLB_COL_MET && rnd(3))
            *(double *)p = rnd(2) || clb_columns[i].kind == CLB_COL_COUNT ||
                                   clb_columns[i].kind == CLB_COL_EXACT
                               ? (double)rnd(100000)
                               : (double)rnd(1000) / 64.0;
    }
    r->status = st[rnd(5)];
    r->metrics = met[rnd(4)];
}

static void same_row(const struct clb_row *a, const struct clb_row *b, int ncols)
{
    for (int i = 0; i < ncols; i++)
        if (CLB_COL_TEXT(clb_columns[i].kind)) {
            const char *x = clb_row_str(a, i), *y = clb_row_str(b, i);
            if (strcmp(x, y))
                fail_msg("column %s: wrote '%s' (%zu bytes), read '%s' (%zu bytes)",
                         clb_columns[i].name, x, strlen(x), y, strlen(y));
        }
    for (int i = 0; i < ncols; i++)
        if (!CLB_COL_TEXT(clb_columns[i].kind)) {
            double x = clb_row_num(a, i), y = clb_row_num(b, i);
            char tx[64], ty[64];   /* the numbers as the CSV writer prints them */
            snprintf(tx, sizeof tx, "%.6g", x);
            snprintf(ty, sizeof ty, "%.6g", y);
            if (strcmp(tx, ty))
                fail_msg("column %s: wrote %s, read %s", clb_columns[i].name, tx, ty);
        }
}

static void write_rows(const char *path, const struct clb_row *rows, int n, int version)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fprintf(f, "%s\n", clb_csv_header(version));
    for (int i = 0; i < n; i++) {
        char *line = clb_row_format(&rows[i], version);
        fputs(line, f);
        free(line);
    }
    fclose(f);
}

#define PROP_ROWS 400
static void lossless_property(void **state)
{
    (void)state;
    struct clb_arena a = {0};
    static struct clb_row rows[PROP_ROWS];
    for (int i = 0; i < PROP_ROWS; i++)
        rnd_row(&rows[i], &a);
    char path[128];
    for (int v = 1; v <= CLB_SCHEMA; v++) {
        path_in(path, sizeof path, "prop.csv");
        write_rows(path, rows, PROP_ROWS, v);
        int already, from;
        size_t n;
        assert_int_equal(clb_results_upgrade(path, &already, &from, &n), CLB_OK);
        assert_int_equal(n, PROP_ROWS);
        struct clb_rowset set;
        read_ok(path, &set);
        assert_int_equal(set.n, PROP_ROWS);
        for (int i = 0; i < PROP_ROWS; i++)
            same_row(&rows[i], &set.v[i], v < CLB_SCHEMA ? clb_schema_ncols(v) : CLB_NCOLS);
        clb_rowset_free(&set);
    }
    /* JSON Lines: the same, for text that is UTF-8 (the writer makes any other
     * byte '?': JSON strings are UTF-8) */
    for (int i = 0; i < PROP_ROWS; i++)
        for (int c = 0; c < CLB_NCOLS; c++)
            if (clb_columns[c].kind == CLB_COL_STR) {
                char *t = (char *)clb_arena_str(&a, clb_row_str(&rows[i], c),
                                                strlen(clb_row_str(&rows[i], c)));
                for (unsigned char *q = (unsigned char *)t; *q; q++)
                    *q = *q >= 0x80 ? '?' : *q;
                *(const char **)((char *)&rows[i] + clb_columns[c].offset) = t;
            }
    path_in(path, sizeof path, "prop.jsonl");
    unlink(path);
    struct clb_writer w;
    assert_int_equal(clb_writer_open(&w, path, CLB_FORMAT_JSON), CLB_OK);
    for (int i = 0; i < PROP_ROWS; i++)
        assert_int_equal(clb_writer_put(&w, &rows[i]), CLB_OK);
    clb_writer_close(&w);
    struct clb_rowset set;
    read_ok(path, &set);
    assert_int_equal(set.n, PROP_ROWS);
    for (int i = 0; i < PROP_ROWS; i++)
        same_row(&rows[i], &set.v[i], CLB_NCOLS);
    clb_rowset_free(&set);
    clb_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip),      cmocka_unit_test(headers),
        cmocka_unit_test(v1_files),        cmocka_unit_test(v2_files),
        cmocka_unit_test(metrics_grammar), cmocka_unit_test(metrics_column),
        cmocka_unit_test(torn_last_line), cmocka_unit_test(lossless_property),
        cmocka_unit_test(planted_link),    cmocka_unit_test(refuses_other_header),
        cmocka_unit_test(empty_file_gets_header), cmocka_unit_test(reader_errors),
        cmocka_unit_test(json_lines), cmocka_unit_test(json_lines_read),
        cmocka_unit_test(unwritable)};
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}

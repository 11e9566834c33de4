/* results/reference/ *.csv: every file is clbench CSV (our header, libcsv
 * readable), every row a published figure with its source. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clb_results.h"
#include "clbench.h"

#define REFDIR CLB_TEST_DATA "/../../results/reference"

struct seen { int c1060_f, c1060_d, one_block, k20x_naive, k40_triad, h2d, c1060_lat, k40_sp; };

static void check_row(const char *file, const struct clb_row *r, struct seen *s)
{
    /* a figure: gbps or model; a latency (no rate) in the metrics, as its rows have it
     * (in these v2 files the reader derives them from the detail) */
    int latency = !isnan(clb_row_metric(r, "ns_per_load")) && !isnan(clb_row_metric(r, "cycles"));
    if (strcmp(r->status, "reference") || !r->detail[0] || !r->workload[0] || !r->kernel[0] ||
        !r->device[0] || (isnan(r->gbps) && isnan(r->model) && !latency))
        fail_msg("%s: row %s/%s on %s is not a sourced reference figure", file, r->workload,
                 r->kernel, r->device);
    if (strcmp(r->workload, "blockeq") == 0 && strcmp(r->size, "512x512") == 0) {
        if (strcmp(r->dtype, "float") == 0 && fabs(r->model - 54.3553) < 1e-9)
            s->c1060_f++;
        if (strcmp(r->dtype, "double") == 0 && fabs(r->model - 54.5904) < 1e-9)
            s->c1060_d++;
    }
    if (strcmp(r->workload, "blockeq") == 0 && r->gbps == 3.1 && r->model == 3.22)
        s->one_block++;
    if (strcmp(r->device, "Tesla K20X") == 0 && strcmp(r->kernel, "naive") == 0 &&
        r->gbps == 92.0 && strcmp(r->size, "2048x2048") == 0)
        s->k20x_naive++;
    if (strcmp(r->device, "Tesla K40c (ECC off)") == 0 && strcmp(r->kernel, "triad") == 0 &&
        r->gbps == 217.4 && strcmp(r->dtype, "double") == 0)
        s->k40_triad++;
    if (strcmp(r->kernel, "pinned_h2d") == 0 && r->gbps == 12.6 && r->model == 15.5)
        s->h2d++;
    if (strcmp(r->workload, "latency") == 0 && strcmp(r->device, "Tesla C1060") == 0 &&
        (clb_row_metric(r, "cycles") == 400 || clb_row_metric(r, "cycles") == 600))
        s->c1060_lat++;
    if (strcmp(r->workload, "peak") == 0 && strcmp(r->device, "Tesla K40") == 0 &&
        strcmp(r->dtype, "float") == 0 && r->model == 4290)
        s->k40_sp++;
}

static void every_file(void **state)
{
    (void)state;
    DIR *d = opendir(REFDIR);
    assert_non_null(d);
    struct dirent *e;
    int files = 0;
    size_t total = 0;
    struct seen s = {0};
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".csv"))
            continue;
        char path[1024], line[2048];
        snprintf(path, sizeof path, "%s/%s", REFDIR, e->d_name);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        assert_non_null(fgets(line, sizeof line, f));
        fclose(f);
        line[strcspn(line, "\r\n")] = 0;
        /* v2 (as committed) or v3 (after `clbench results upgrade`) */
        if (strcmp(line, clb_csv_header(2)) && strcmp(line, clb_csv_header(3)))
            fail_msg("%s: not the v2 or v3 header", e->d_name);
        struct clb_rowset set;
        memset(&set, 0, sizeof set);
        if (clb_results_read(path, &set) != CLB_OK)
            fail_msg("%s", clb_lasterr());
        size_t n = set.n;
        assert_true(n > 0);
        for (size_t i = 0; i < n; i++)
            check_row(e->d_name, &set.v[i], &s);
        clb_rowset_free(&set);
        total += n;
        files++;
    }
    closedir(d);
    assert_true(files >= 4);
    assert_true(total >= 40);
    assert_int_equal(s.c1060_f, 1);
    assert_int_equal(s.c1060_d, 1);
    assert_int_equal(s.one_block, 1);
    assert_int_equal(s.k20x_naive, 1);
    assert_int_equal(s.k40_triad, 1);
    assert_int_equal(s.h2d, 1);
    assert_int_equal(s.c1060_lat, 2);
    assert_int_equal(s.k40_sp, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(every_file)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

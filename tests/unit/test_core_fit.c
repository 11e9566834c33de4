/* host/core/fit.c: what fits a work-group limit, how the studies' tiles
 * shrink, and the summary's reduction lines (the parts that need no device;
 * tests/cli/test_tiles_fit.sh runs the fitting on PoCL). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "clb_fit.h"

static const struct clb_wg_limit rusticl = {32, {1024, 1024, 1024}, 32768,
                                            "CL_KERNEL_WORK_GROUP_SIZE"};

static void fits_names_the_limit(void **state)
{
    (void)state;
    char why[192];
    size_t a[2] = {32, 8}, b[2] = {32, 1}, c[1] = {2048};
    assert_false(clb_wg_fits(&rusticl, 2, a, 0, why, sizeof why));
    assert_string_equal(why, "work-groups of 32x8 need 256 work-items; "
                             "CL_KERNEL_WORK_GROUP_SIZE allows 32");
    assert_true(clb_wg_fits(&rusticl, 2, b, 0, why, sizeof why));
    assert_false(clb_wg_fits(&rusticl, 2, b, 40000, why, sizeof why));
    assert_non_null(strstr(why, "40000 B of local memory; 32768 B are left"));
    struct clb_wg_limit wide = {4096, {1024, 1024, 64}, 1 << 20, "x"};
    assert_false(clb_wg_fits(&wide, 1, c, 0, why, sizeof why));
    assert_non_null(strstr(why, "2048 work-items in dimension 0; the device allows 1024"));
}

/* Shrink until it fits, as clb_fit_tile does between builds. */
static void shrink_until(struct clb_tile *t, const struct clb_wg_limit *l, char *seq, size_t n)
{
    char why[192];
    seq[0] = 0;
    for (int i = 0; i < 64 && !clb_wg_fits(l, t->dims, t->local, t->own_local, why, sizeof why);
         i++) {
        assert_true(clb_shrink_rows(NULL, t, l));
        char one[32];
        clb_tile_rows_text(NULL, t, one, sizeof one);
        snprintf(seq + strlen(seq), n - strlen(seq), "%s%s", seq[0] ? " " : "", one);
    }
}

static void rows_first_then_side(void **state)
{
    (void)state;
    char seq[256];
    /* too many work-items: fewer rows of the same tile */
    struct clb_tile t = {2, {32, 8, 1}, 0, {32, 8, 0}, 0};
    shrink_until(&t, &rusticl, seq, sizeof seq);
    assert_string_equal(seq, "32x4 32x2 32x1");
    /* a side above the per-dimension limit (7, odd): half the side and rows */
    struct clb_wg_limit seven = {7, {7, 7, 7}, 1 << 20, "CLBENCH_MAX_WORK_GROUP"};
    t = (struct clb_tile){2, {32, 8, 1}, 0, {32, 8, 0}, 0};
    shrink_until(&t, &seven, seq, sizeof seq);
    assert_string_equal(seq, "16x4 8x2 4x1");
    /* one row of 32 still too many (24, not a power of two): half the side first */
    struct clb_wg_limit l24 = {24, {1024, 1024, 1024}, 1 << 20, "x"};
    t = (struct clb_tile){2, {32, 8, 1}, 0, {32, 8, 0}, 0};
    shrink_until(&t, &l24, seq, sizeof seq);
    assert_string_equal(seq, "16x4 16x2 16x1");
    /* ROWS must divide SIDE: 24x6 -> 24x4 -> 24x3 ... */
    struct clb_wg_limit fifty = {50, {64, 64, 64}, 1 << 20, "x"};
    t = (struct clb_tile){2, {24, 6, 1}, 0, {24, 6, 0}, 0};
    shrink_until(&t, &fifty, seq, sizeof seq);
    assert_string_equal(seq, "24x4 24x3 24x2");
}

static void local_memory_halves_side_and_rows(void **state)
{
    (void)state;
    char seq[256];
    /* a padded 1024 x 1025 float tile in 1 MiB: half the side and the rows
     * (each work-item keeps its share), then fewer rows for 4096 items */
    struct clb_wg_limit pocl = {4096, {4096, 4096, 4096}, 1 << 20, "x"};
    struct clb_tile t = {2, {1024, 256, 1}, 0, {1024, 256, 4}, 1024 * 1025 * 4};
    shrink_until(&t, &pocl, seq, sizeof seq);
    assert_string_equal(seq, "512x128 256x64 256x32 256x16");
    assert_int_equal(t.own_local, 256 * 257 * 4);
    struct clb_tile one = {2, {1, 1, 1}, 0, {1, 1, 0}, 0};
    assert_false(clb_shrink_rows(NULL, &one, &pocl)); /* nothing smaller than 1x1 */
}

static void summary_one_line_per_reduction(void **state)
{
    (void)state;
    static const struct clb_workload wl = {.name = "copy2d"};
    struct clb_notes notes = {0};
    struct clb_env env = {.wl = &wl, .notes = &notes};
    for (int i = 0; i < 3; i++) { /* three types, one line */
        struct clb_fit f = {.what = "tile"};
        strcpy(f.asked, "32x8");
        strcpy(f.got, "32x1");
        clb_fit_record(&env, &f, "CL_KERNEL_WORK_GROUP_SIZE allows 32");
        assert_true(f.reduced);
    }
    struct clb_fit same = {.what = "local"};
    strcpy(same.asked, "64");
    strcpy(same.got, "64");
    clb_fit_record(&env, &same, "");
    assert_false(same.reduced);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    clb_fit_summary(&notes, out);
    fclose(out);
    assert_string_equal(text, "\nreduced to fit this device:\n  copy2d: tile 32x8 reduced to "
                              "32x1 (CL_KERNEL_WORK_GROUP_SIZE allows 32)\n");
    free(text);
    text = NULL;
    out = open_memstream(&text, &len);
    clb_fit_summary(&notes, out); /* printed once, then forgotten */
    fclose(out);
    assert_string_equal(text, "");
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fits_names_the_limit),
        cmocka_unit_test(rows_first_then_side),
        cmocka_unit_test(local_memory_halves_side_and_rows),
        cmocka_unit_test(summary_one_line_per_reduction),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

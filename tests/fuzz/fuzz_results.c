/* libFuzzer: the results reader (clb_results_read: CSV and JSON Lines, told
 * apart by content), and the writer against it: every row read is written
 * again as schema v3 and must read back with every text field byte for byte
 * (parse(write(x)) = x). */
#include "clb_results.h"
#include "clbench.h"
#include "fuzz_common.h"

/* The rows written as a v3 CSV file and read back: the same text. */
static void round_trip(const struct clb_rowset *set)
{
    static char path[] = "/tmp/fuzz-results-rt-XXXXXX.csv";
    static int fd = -1;
    if (fd < 0 && (fd = mkstemps(path, 4)) < 0)
        return;
    FILE *f = fopen(path, "wb");
    if (!f)
        return;
    fprintf(f, "%s\n", clb_csv_header(3));
    for (size_t i = 0; i < set->n; i++) {
        char *line = clb_row_format(&set->v[i], 3);
        if (line)
            fputs(line, f);
        free(line);
        free(clb_row_format(&set->v[i], 1));   /* and the older schemas format too */
        free(clb_row_format(&set->v[i], 2));
    }
    fclose(f);
    struct clb_rowset back;
    memset(&back, 0, sizeof back);
    if (clb_results_read(path, &back) != CLB_OK || back.n != set->n) {
        fprintf(stderr, "fuzz_results: %zu rows written, read back: %s\n", set->n, clb_lasterr());
        abort();
    }
    for (size_t i = 0; i < set->n; i++)
        for (int c = 0; c < CLB_NCOLS; c++)
            if (CLB_COL_TEXT(clb_columns[c].kind) &&
                strcmp(clb_row_str(&set->v[i], c), clb_row_str(&back.v[i], c))) {
                fprintf(stderr, "fuzz_results: row %zu column %s changed\n", i + 1,
                        clb_columns[c].name);
                abort();
            }
    clb_rowset_free(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, ".csv");
    if (!path)
        return 0;
    struct clb_rowset set;
    memset(&set, 0, sizeof set);
    if (clb_results_read(path, &set) == CLB_OK)
        round_trip(&set);
    clb_rowset_free(&set);
    return 0;
}

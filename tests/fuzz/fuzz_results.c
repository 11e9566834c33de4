/* libFuzzer: the results CSV reader (clb_results_read). */
#include "clb_results.h"
#include "clbench.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, ".csv");
    if (!path)
        return 0;
    struct clb_row *rows;
    size_t n;
    if (clb_results_read(path, &rows, &n) == CLB_OK) {
        /* every row read must format back into a line */
        for (size_t i = 0; i < n; i++)
            free(clb_row_format(&rows[i]));
        free(rows);
    }
    return 0;
}

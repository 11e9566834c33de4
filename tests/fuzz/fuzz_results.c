/* libFuzzer: the results CSV reader (clb_results_read). */
#include "clb_results.h"
#include "clbench.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, ".csv");
    if (!path)
        return 0;
    struct clb_rowset set;
    memset(&set, 0, sizeof set);
    if (clb_results_read(path, &set) == CLB_OK) {
        /* every row read must format back into a line of either schema */
        for (size_t i = 0; i < set.n; i++) {
            free(clb_row_format(&set.v[i], 2));
            free(clb_row_format(&set.v[i], 1));
        }
    }
    clb_rowset_free(&set);
    return 0;
}

/* libFuzzer: the profile parser (clb_profile_parse_file, inih underneath). */
#include "clb_profile.h"
#include "clbench.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, ".ini");
    if (!path)
        return 0;
    struct clb_profile p;
    if (clb_profile_parse_file(path, &p) == CLB_OK) {
        /* the lookups a run makes on a parsed profile */
        clb_profile_tuning(&p, "stream", "vec", "double");
        clb_profile_model(&p, "index_cycles");
        clb_profile_peak_gflops(&p, "double");
        clb_profile_free(&p);
    }
    return 0;
}

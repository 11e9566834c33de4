/* libFuzzer: the option, size and parameter parsers. The first byte picks
 * the parser and its arguments; the rest is the text. */
#include <limits.h>

#include "clb_params.h"
#include "clbench.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned sel = data[0];
    char *s = fuzz_str(data + 1, size - 1);
    if (!s)
        return 0;
    char err[256];
    switch (sel % 5) {
    case 0: {
        size_t v;
        clb_parse_count(s, &v);
        break;
    }
    case 1: {
        /* sizes as -s takes them: counts, extents, bytes with units divided by
         * an element size of 0 (refused), 1, 4 or 12 */
        struct clb_size sz;
        static const size_t units[] = {0, 1, 4, 12};
        if (clb_parse_size(s, 1 + (int)((sel / 5) % 4), units[(sel / 20) % 4], &sz, err,
                           sizeof err) == 0) {
            char text[128];
            clb_size_text(&sz, text, sizeof text);
            struct clb_size again;
            if (clb_parse_dims(text, sz.ndims, &again, err, sizeof err) || again.total != sz.total)
                abort(); /* the canonical text reads back as the same size */
        }
        break;
    }
    case 2: {
        long out[64];
        long lo = (sel & 0x20) ? -1000 : 0, hi = (sel & 0x40) ? 1000000000L : 64;
        if (sel & 0x80) { /* the whole range of a long: overflow at both ends */
            lo = LONG_MIN;
            hi = LONG_MAX;
        }
        clb_parse_int_list(s, lo, hi, out, 1 + (int)((sel / 5) % 64), err, sizeof err);
        break;
    }
    case 3: {
        /* several --param options, separated by newlines, then lookups */
        struct clb_kvlist l = {0};
        for (char *save, *kv = strtok_r(s, "\n", &save); kv; kv = strtok_r(NULL, "\n", &save))
            clb_kvlist_add(&l, kv);
        for (size_t i = 0; i < l.n; i++)
            clb_kvlist_get(&l, l.v[i].key);
        clb_kvlist_get(&l, "vec");
        clb_kvlist_free(&l);
        break;
    }
    default: {
        int n;
        char **v = clb_split(s, &n);
        free(v);
        break;
    }
    }
    free(s);
    return 0;
}

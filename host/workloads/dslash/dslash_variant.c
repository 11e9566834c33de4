/* dslash: the rules of the kernel variants (dslash.h): which k and passes
 * a case gets, and what best= names. Pure functions, unit tested
 * (tests/unit/test_dslash_variant.c). */
#include "dslash.h"

#include <stdlib.h>
#include <string.h>

const char *const dsl_kernel_names[DSL_NK] = {"reg", "cache", "regcache", "best"};

int dsl_divisor_upto(int rhs, int cap)
{
    int d = cap < rhs ? cap : rhs;
    while (d > 1 && rhs % d)
        d--;
    return d < 1 ? 1 : d;
}

int dsl_reg_passes(const long *passes, int np, int rhs, int out[DSL_MAX_RHS + 1])
{
    int n = 0;
    for (int i = 0; i < np; i++) {
        int per = passes[i] <= 0 ? 0 : dsl_divisor_upto(rhs, (int)passes[i]);
        int seen = 0;
        for (int j = 0; j < n; j++)
            seen |= out[j] == per;
        if (!seen && n <= DSL_MAX_RHS)
            out[n++] = per;
    }
    return n;
}

/* One VARIANT: reg, cache or regcacheK (K in 1..8). */
static int variant(const char *v, size_t len, int *kind, int *k)
{
    *k = len == 9 && strncmp(v, "regcache", 8) == 0 ? v[8] - '0' : 0;
    if (*k >= 1 && *k <= DSL_MAX_RHS) {
        *kind = DSL_REGCACHE;
        return 0;
    }
    *k = 0;
    for (*kind = DSL_REG; *kind <= DSL_CACHE; (*kind)++)
        if (strlen(dsl_kernel_names[*kind]) == len && !strncmp(v, dsl_kernel_names[*kind], len))
            return 0;
    return -1;
}

int dsl_best_for(const char *spec, int rhs, int *kind, int *k)
{
    int any = -1, anyk = 0;
    *kind = -1;
    *k = 0;
    for (const char *p = spec && *spec ? spec : NULL; p;) { /* every entry, an empty one too */
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *colon = memchr(p, ':', len);
        int r = 0, kd, kk;
        const char *v = p;
        if (colon) {
            r = colon == p + 1 && p[0] >= '1' && p[0] <= '0' + DSL_MAX_RHS ? p[0] - '0' : -1;
            v = colon + 1;
        }
        if (r < 0 || variant(v, len - (size_t)(v - p), &kd, &kk))
            return clb_eusage("dslash: parameter best: '%.*s' is not reg, cache or regcacheK, nor "
                              "R:one of them (R, K in 1..%d), e.g. 1:reg,8:regcache4",
                              (int)len, p, DSL_MAX_RHS);
        if (r == rhs) {
            *kind = kd;
            *k = kk;
        } else if (!r) {
            any = kd;
            anyk = kk;
        }
        p = end ? end + 1 : NULL;
    }
    if (*kind < 0 && any >= 0) {
        *kind = any;
        *k = anyk;
    }
    return CLB_OK;
}

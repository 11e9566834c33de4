/* Host references of the transpose workload: see transpose.h. */
#include "transpose.h"

#include <string.h>

size_t clb_tr_out_width(enum clb_tr_map map, size_t n, size_t m)
{
    return (map == CLB_TR_COPY || map == CLB_TR_FINE) ? m : n;
}

int clb_tr_source(enum clb_tr_map map, size_t n, size_t m, size_t tile, size_t p, size_t q,
                  size_t *i, size_t *j)
{
    *i = *j = 0;
    switch (map) {
    case CLB_TR_COPY:
        *i = p;
        *j = q;
        break;
    case CLB_TR_TRANSPOSE:
        *i = q;
        *j = p;
        break;
    case CLB_TR_FINE:
        /* Same tile, local (r, c) <- local (c, r). */
        *i = p / tile * tile + q % tile;
        *j = q / tile * tile + p % tile;
        break;
    case CLB_TR_COARSE:
        /* Output tile (P, Q) is input tile (Q, P), local (r, c) kept. */
        *i = q / tile * tile + p % tile;
        *j = p / tile * tile + q % tile;
        break;
    default:
        return 0;
    }
    return *i < n && *j < m;
}

size_t clb_tr_check(enum clb_tr_map map, size_t n, size_t m, size_t tile, size_t esize,
                    const void *in, const void *out, long long *first)
{
    const unsigned char *src = in, *dst = out;
    const size_t w = clb_tr_out_width(map, n, m), rows = n * m / w;
    unsigned char poison[16];
    memset(poison, 0xFF, sizeof poison);
    size_t bad = 0;
    long long first_bad = -1;
#pragma omp parallel for reduction(+ : bad) schedule(static)
    for (long long p = 0; p < (long long)rows; p++) {
        for (size_t q = 0; q < w; q++) {
            size_t i, j;
            const unsigned char *want = poison;
            if (clb_tr_source(map, n, m, tile, (size_t)p, q, &i, &j))
                want = src + (i * m + j) * esize;
            if (memcmp(dst + ((size_t)p * w + q) * esize, want, esize) != 0) {
                bad++;
                long long idx = p * (long long)w + (long long)q;
#pragma omp critical(clb_tr_first)
                if (first_bad < 0 || idx < first_bad)
                    first_bad = idx;
            }
        }
    }
    *first = first_bad;
    return bad;
}

void clb_tr_order(enum clb_tr_order order, size_t k, size_t gx, size_t gy, size_t g, size_t *x,
                  size_t *y)
{
    switch (order) {
    case CLB_TR_COLS:
        *x = g / gy;
        *y = g % gy;
        break;
    case CLB_TR_DIAG:
        *y = g % gy;
        *x = (g / gy + *y) % gx;
        break;
    case CLB_TR_BANDS: {
        if (k > gy) /* one band: column-major (and k * gx cannot overflow) */
            k = gy;
        if (k < 1)
            k = 1;
        size_t band = g / (k * gx), y0 = band * k;
        size_t h = gy - y0 < k ? gy - y0 : k; /* the last band may be lower */
        size_t r = g - band * k * gx;
        *x = r / h;
        *y = y0 + r % h;
        break;
    }
    default: /* CLB_TR_ROWS */
        *x = g % gx;
        *y = g / gx;
        break;
    }
}

size_t clb_tr_persist_groups(size_t ntiles, size_t slots)
{
    if (ntiles == 0 || slots == 0)
        return 1;
    size_t rounds = (ntiles + slots - 1) / slots;
    return (ntiles + rounds - 1) / rounds;
}

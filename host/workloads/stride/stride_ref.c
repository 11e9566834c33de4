/* Pure host logic of the stride workload: primes for the default sizes and
 * the gather kernel's index tables (see stride.h). */
#include "stride.h"

static int is_prime(uint64_t n)
{
    if (n < 2)
        return 0;
    if (n % 2 == 0)
        return n == 2;
    for (uint64_t d = 3; d * d <= n; d += 2)
        if (n % d == 0)
            return 0;
    return 1;
}

uint64_t clb_prime_at_most(uint64_t n)
{
    for (; n >= 2; n--)
        if (is_prime(n))
            return n;
    return 0;
}

uint64_t clb_gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Incremental sums: no products, so nothing overflows for any stride < 2^32. */
static void multiples_mod(uint64_t step, uint64_t n, size_t count, uint32_t *out)
{
    uint64_t v = 0;
    step %= n;
    for (size_t k = 0; k < count; k++) {
        out[k] = (uint32_t)v;
        v += step;
        if (v >= n)
            v -= n;
    }
}

void clb_stride_tables(uint64_t n, uint64_t stride, size_t local, size_t groups, uint32_t *gbase,
                       uint32_t *lbase)
{
    uint64_t s = stride % n;
    multiples_mod(s, n, local, lbase);
    multiples_mod((uint64_t)local % n * s % n, n, groups, gbase);
}

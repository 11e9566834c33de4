/* Host logic of stride: primes for the default sizes and the gather kernel's
 * index tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>

#include "stride/stride.h"

static void primes(void **state)
{
    (void)state;
    assert_int_equal(clb_prime_at_most(100), 97);
    assert_int_equal(clb_prime_at_most(97), 97);
    assert_int_equal(clb_prime_at_most(2), 2);
    assert_int_equal(clb_prime_at_most(1), 0);
    assert_int_equal(clb_prime_at_most(262144), 262139);
    assert_int_equal(clb_prime_at_most(1u << 28), 268435399);
    assert_int_equal(clb_gcd(1024, 262144), 1024);
    assert_int_equal(clb_gcd(257, 262139), 1);
    assert_int_equal(clb_gcd(0, 5), 5);
}

/* (gbase[i/L] + lbase[i%L]) mod n must be (i*stride) mod n for every i. */
static void stride_tables(void **state)
{
    (void)state;
    const uint64_t ns[] = {2, 7, 64, 997, 1024};
    const uint64_t strides[] = {1, 2, 3, 33, 1024, 5000, 1u << 24};
    const size_t locals[] = {1, 7, 256};
    for (size_t a = 0; a < sizeof ns / sizeof *ns; a++)
        for (size_t b = 0; b < sizeof strides / sizeof *strides; b++)
            for (size_t c = 0; c < sizeof locals / sizeof *locals; c++) {
                uint64_t n = ns[a], s = strides[b];
                size_t L = locals[c], G = (size_t)((n + L - 1) / L);
                uint32_t *gb = malloc(G * sizeof *gb), *lb = malloc(L * sizeof *lb);
                assert_non_null(gb);
                assert_non_null(lb);
                clb_stride_tables(n, s, L, G, gb, lb);
                for (uint64_t i = 0; i < n; i++) {
                    uint64_t j = (uint64_t)gb[i / L] + lb[i % L];
                    if (j >= n)
                        j -= n;
                    assert_int_equal(j, i * s % n);
                }
                free(gb);
                free(lb);
            }
    /* the largest N accepted: the table values stay below 2^32 */
    uint32_t gb[3], lb[4];
    uint64_t n = 4294967291u; /* the largest prime below 2^32 */
    clb_stride_tables(n, 1u << 24, 4, 3, gb, lb);
    for (uint64_t i = 0; i < 12; i++) {
        uint64_t j = (uint64_t)gb[i / 4] + lb[i % 4];
        assert_int_equal(j >= n ? j - n : j, i * (1u << 24) % n);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(primes), cmocka_unit_test(stride_tables)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

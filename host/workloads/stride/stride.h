/* Pure host logic of the stride workload (stride_ref.c), kept apart from the
 * OpenCL code so the unit tests can check it: primes for the default sizes and
 * the index arithmetic of the gather kernel. */
#ifndef CLB_STRIDE_H
#define CLB_STRIDE_H

#include <stddef.h>
#include <stdint.h>

/* Largest prime <= n (n >= 2); 0 for n < 2. Trial division: fine up to 2^40. */
uint64_t clb_prime_at_most(uint64_t n);
uint64_t clb_gcd(uint64_t a, uint64_t b);
/* stride's index tables for n < 2^32 and work-groups of L items (see
 * cl/stride.cl): gbase[g] = (g*L*stride) mod n for g < groups and
 * lbase[l] = (l*stride) mod n for l < L, so that
 * (i*stride) mod n = (gbase[i/L] + lbase[i%L]) mod n. */
void clb_stride_tables(uint64_t n, uint64_t stride, size_t local, size_t groups, uint32_t *gbase,
                       uint32_t *lbase);

#endif

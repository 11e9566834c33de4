/* Pure host logic of the access-pattern workloads stride and matmul
 * (host/access.c), kept apart from the OpenCL code so the unit tests can
 * check it. */
#ifndef CLB_ACCESS_H
#define CLB_ACCESS_H

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

/* C = A * B for n x n row-major float matrices, accumulated in double
 * (blocked, OpenMP). */
void clb_matmul_ref(const float *a, const float *b, double *c, size_t n);

/* The tolerance of a float matmul against a double reference, per element:
 *   |c_ij - ref_ij| <= 2 * sqrt(n) * u * S_ij,  u = 2^-24,
 * S_ij = sum_k |a_ik| |b_kj|, bounded from above by
 * min(rowsum|A|_i * colmax|B|_j, rowmax|A|_i * colsum|B|_j).
 * The worst-case bound is n*u*S (Higham's gamma_n); rounding errors of random
 * data grow like sqrt(n)*u (Higham and Mary's probabilistic bound), which is
 * what this uses. Returns the number of elements outside it, the first of them
 * in *first (-1 if none) and max |err|/tol in *worst. */
long clb_matmul_check(const float *a, const float *b, const double *ref, const float *got,
                      size_t n, long *first, double *worst);

#endif

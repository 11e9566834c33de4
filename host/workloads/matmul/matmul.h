/* Pure host logic of the matmul workload (matmul_ref.c), kept apart from the
 * OpenCL code so the unit tests can check it: the reference product and the
 * tolerance of a float result. */
#ifndef CLB_MATMUL_H
#define CLB_MATMUL_H

#include <stddef.h>

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
 * in *first (-1 if none) and max |err|/tol in *worst; -1 when out of host
 * memory. */
long clb_matmul_check(const float *a, const float *b, const double *ref, const float *got,
                      size_t n, long *first, double *worst);

#endif

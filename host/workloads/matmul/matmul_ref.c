/* Pure host logic of the matmul workload: the reference product and its
 * tolerance (see matmul.h). */
#include "matmul.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Blocks: a B panel of KB x JB floats (256 KiB) and a C block of IB x JB
 * doubles (128 KiB) stay in a core's L2 while the i loop reuses them. */
enum { IB = 32, KB = 128, JB = 512 };

void clb_matmul_ref(const float *a, const float *b, double *c, size_t n)
{
    memset(c, 0, n * n * sizeof *c);
    long nib = (long)((n + IB - 1) / IB);
#pragma omp parallel for schedule(dynamic)
    for (long ib = 0; ib < nib; ib++) {
        size_t i0 = (size_t)ib * IB, i1 = i0 + IB < n ? i0 + IB : n;
        for (size_t k0 = 0; k0 < n; k0 += KB) {
            size_t k1 = k0 + KB < n ? k0 + KB : n;
            for (size_t j0 = 0; j0 < n; j0 += JB) {
                size_t j1 = j0 + JB < n ? j0 + JB : n;
                for (size_t i = i0; i < i1; i++) {
                    double *ci = c + i * n;
                    for (size_t k = k0; k < k1; k++) {
                        double aik = a[i * n + k];
                        const float *bk = b + k * n;
                        for (size_t j = j0; j < j1; j++)
                            ci[j] += aik * (double)bk[j];
                    }
                }
            }
        }
    }
}

long clb_matmul_check(const float *a, const float *b, const double *ref, const float *got,
                      size_t n, long *first, double *worst)
{
    /* the rows' sums and maxima of |A|, the columns' of |B|: one block */
    double *rs = calloc(4 * n, sizeof *rs), *rm = rs + n, *cs = rm + n, *cm = cs + n;
    long bad = 0, fst = -1;
    double wst = 0;
    if (!rs) {
        bad = -1;
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < n; k++) {
            double x = fabs((double)a[i * n + k]), y = fabs((double)b[i * n + k]);
            rs[i] += x;
            rm[i] = x > rm[i] ? x : rm[i];
            cs[k] += y; /* b row i, column k */
            cm[k] = y > cm[k] ? y : cm[k];
        }
    const double factor = 2.0 * sqrt((double)n) * ldexp(1.0, -24);
#pragma omp parallel for reduction(+ : bad) reduction(max : wst) schedule(static)
    for (long i = 0; i < (long)n; i++) {
        for (size_t j = 0; j < n; j++) {
            size_t e = (size_t)i * n + j;
            double s1 = rs[i] * cm[j], s2 = rm[i] * cs[j];
            double tol = factor * (s1 < s2 ? s1 : s2);
            double err = fabs((double)got[e] - ref[e]);
            double r = tol > 0 ? err / tol : (err > 0 ? INFINITY : 0);
            if (!(err <= tol)) { /* also catches NaN */
                bad++;
                r = isnan(err) ? INFINITY : r;
#pragma omp critical
                if (fst < 0 || (long)e < fst)
                    fst = (long)e;
            }
            wst = r > wst ? r : wst;
        }
    }
out:
    free(rs);
    *first = fst;
    *worst = wst;
    return bad;
}

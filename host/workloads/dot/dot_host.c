/* Host-side pieces of the dot workload (see dot.h). */
#include "dot.h"

#include <math.h>
#include <omp.h>

/* ---- compensated reference -------------------------------------------- */

/* A running sum with its correction term (Neumaier / TwoSum). */
struct csum {
    double s, c;
};

static void two_sum_add(struct csum *a, double v)
{
    double t = a->s + v;
    /* TwoSum: the exact rounding error of s + v whatever their magnitudes */
    double bp = t - a->s;
    double err = (a->s - (t - bp)) + (v - bp);
    a->s = t;
    a->c += err;
}

/* Exact product a*b = p + e (Dekker's TwoProduct with Veltkamp's split;
 * exact while no overflow or underflow occurs, true for our data). */
static void two_prod(double a, double b, double *p, double *e)
{
    const double split = 134217729.0; /* 2^27 + 1 */
    double t = split * a;
    double ah = t - (t - a), al = a - ah;
    t = split * b;
    double bh = t - (t - b), bl = b - bh;
    *p = a * b;
    *e = ((ah * bh - *p) + ah * bl + al * bh) + al * bl;
}

#define REF_CHUNK 65536

void clb_dot_reference(const void *x, const void *y, size_t n, int dbl, struct clb_dotref *r)
{
    struct csum total = {0, 0};
    double abs_total = 0;
    long nchunks = (long)((n + REF_CHUNK - 1) / REF_CHUNK);
#pragma omp parallel
    {
        struct csum mine = {0, 0};
        double mine_abs = 0;
#pragma omp for schedule(static)
        for (long k = 0; k < nchunks; k++) {
            size_t end = (size_t)(k + 1) * REF_CHUNK < n ? (size_t)(k + 1) * REF_CHUNK : n;
            for (size_t i = (size_t)k * REF_CHUNK; i < end; i++) {
                if (dbl) {
                    double p, e;
                    two_prod(((const double *)x)[i], ((const double *)y)[i], &p, &e);
                    two_sum_add(&mine, p);
                    mine.c += e;
                    mine_abs += fabs(p);
                } else {
                    /* 24 x 24 bits: the product is exact in double */
                    double p = (double)((const float *)x)[i] * (double)((const float *)y)[i];
                    two_sum_add(&mine, p);
                    mine_abs += fabs(p);
                }
            }
        }
#pragma omp critical
        {
            two_sum_add(&total, mine.s);
            total.c += mine.c;
            abs_total += mine_abs;
        }
    }
    r->sum = total.s + total.c;
    r->abs = abs_total;
}

double clb_dot_tolerance(size_t depth, int dbl, double abs)
{
    double u = dbl ? ldexp(1.0, -53) : ldexp(1.0, -24);
    return 8.0 * u * sqrt((double)(depth ? depth : 1)) * abs;
}

/* ---- CPU dot products -------------------------------------------------- */

/* One block in the element type, vectorized by the compiler (x == y: the
 * sum of squares, one vector read). */
#define CLB_DOT_BLOCK_FN(name, T)                                               \
    static double name(const T *x, const T *y, size_t n)                        \
    {                                                                           \
        T s = 0;                                                                \
        if (x == y) {                                                           \
            _Pragma("omp simd reduction(+ : s)") for (size_t i = 0; i < n; i++) \
                s += x[i] * x[i];                                               \
        } else {                                                                \
            _Pragma("omp simd reduction(+ : s)") for (size_t i = 0; i < n; i++) \
                s += x[i] * y[i];                                               \
        }                                                                       \
        return s;                                                               \
    }
CLB_DOT_BLOCK_FN(block_f32, float)
CLB_DOT_BLOCK_FN(block_f64, double)

static double block(const void *x, const void *y, size_t start, size_t len, int dbl)
{
    if (dbl)
        return block_f64((const double *)x + start, (const double *)y + start, len);
    return block_f32((const float *)x + start, (const float *)y + start, len);
}

double clb_dot_cpu(const void *x, const void *y, size_t n, int dbl, int threads)
{
    long nblocks = (long)((n + CLB_DOT_BLOCK - 1) / CLB_DOT_BLOCK);
    double total = 0;
    int nt = threads > 0 ? threads : omp_get_max_threads();
#pragma omp parallel for num_threads(nt) reduction(+ : total) schedule(static)
    for (long b = 0; b < nblocks; b++) {
        size_t start = (size_t)b * CLB_DOT_BLOCK;
        size_t len = n - start < CLB_DOT_BLOCK ? n - start : CLB_DOT_BLOCK;
        total += block(x, y, start, len, dbl);
    }
    return total;
}

/* ---- chunks and shares --------------------------------------------------- */

size_t clb_dot_pow2(size_t n)
{
    if (n == 0)
        return 0;
    size_t p = 1;
    while (p <= n / 2)
        p *= 2;
    return p;
}

int clb_dot_chunks(size_t n, long queues, long min_chunk, size_t *off)
{
    if (n == 0)
        return 0;
    size_t mc = min_chunk > 0 ? (size_t)min_chunk : 1;
    size_t k = n / mc;
    k = k < 1 ? 1 : queues > 0 && k > (size_t)queues ? (size_t)queues : k;
    for (size_t q = 0; q < k; q++) {
        /* q*n/k without overflow for any n < 2^63 and k <= 2^31 */
        size_t b = (n / k) * q + (n % k) * q / k;
        off[q] = b & ~(size_t)3;
    }
    off[k] = n;
    return (int)k;
}

double clb_dot_share(double r_dev, double r_cpu)
{
    if (!(r_dev > 0))
        return 0;
    if (!(r_cpu > 0))
        return 1;
    return r_dev / (r_dev + r_cpu);
}

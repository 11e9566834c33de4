/* lattice: geometry, U(3) links and the float64 Dslash reference (see lattice.h). */
#include "lattice.h"

#include <math.h>
#include <string.h>

int lat_bad_extent(const size_t L[4])
{
    for (int d = 0; d < 4; d++)
        if (L[d] < 4 || L[d] % 2)
            return d + 1;
    return 0;
}

void lat_geom_init(struct lat_geom *g, const int L[4])
{
    memcpy(g->L, L, sizeof g->L);
    g->vh = (size_t)L[0] * (size_t)L[1] * (size_t)L[2] * (size_t)L[3] / 2;
    g->po = 0;
}

void lat_coords(const struct lat_geom *g, int p, size_t i, int x[4])
{
    size_t hx = (size_t)g->L[0] / 2;
    size_t rest = i / hx;
    x[1] = (int)(rest % (size_t)g->L[1]);
    rest /= (size_t)g->L[1];
    x[2] = (int)(rest % (size_t)g->L[2]);
    x[3] = (int)(rest / (size_t)g->L[2]);
    x[0] = 2 * (int)(i % hx) + ((x[1] + x[2] + x[3] + p + g->po) & 1);
}

static int wrap(int v, int L)
{
    v %= L;
    return v < 0 ? v + L : v;
}

size_t lat_index(const struct lat_geom *g, const int x[4])
{
    int c[4];
    for (int d = 0; d < 4; d++)
        c[d] = wrap(x[d], g->L[d]);
    return (((size_t)c[3] * (size_t)g->L[2] + (size_t)c[2]) * (size_t)g->L[1] + (size_t)c[1]) *
               ((size_t)g->L[0] / 2) +
           (size_t)c[0] / 2;
}

/* ---- small complex helpers on (re, im) pairs ---------------------------- */

static double uniform(unsigned long long *st) /* [-1, 1) */
{
    return (double)(clb_rand_next(st) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

/* <a, b> = sum conj(a_k) b_k over 3 complex entries */
static void cdot(const double *a, const double *b, double out[2])
{
    out[0] = out[1] = 0;
    for (int k = 0; k < 3; k++) {
        out[0] += a[2 * k] * b[2 * k] + a[2 * k + 1] * b[2 * k + 1];
        out[1] += a[2 * k] * b[2 * k + 1] - a[2 * k + 1] * b[2 * k];
    }
}

static void normalize(double *a)
{
    double n[2];
    cdot(a, a, n);
    double s = 1.0 / sqrt(n[0]);
    for (int k = 0; k < 6; k++)
        a[k] *= s;
}

/* conj(a x b) times the complex factor f */
static void conj_cross(const double *a, const double *b, const double f[2], double out[6])
{
    for (int k = 0; k < 3; k++) {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        /* (a x b)_k = a_i b_j - a_j b_i */
        double re = a[2 * i] * b[2 * j] - a[2 * i + 1] * b[2 * j + 1] -
                    (a[2 * j] * b[2 * i] - a[2 * j + 1] * b[2 * i + 1]);
        double im = a[2 * i] * b[2 * j + 1] + a[2 * i + 1] * b[2 * j] -
                    (a[2 * j] * b[2 * i + 1] + a[2 * j + 1] * b[2 * i]);
        im = -im; /* conjugate */
        out[2 * k] = f[0] * re - f[1] * im;
        out[2 * k + 1] = f[0] * im + f[1] * re;
    }
}

void lat_random_u3(unsigned long long *state, double m[18])
{
    double *r0 = m, *r1 = m + 6;
    for (int k = 0; k < 12; k++)
        m[k] = uniform(state);
    normalize(r0);
    double d[2];
    cdot(r0, r1, d); /* r1 -= <r0, r1> r0 */
    for (int k = 0; k < 3; k++) {
        r1[2 * k] -= d[0] * r0[2 * k] - d[1] * r0[2 * k + 1];
        r1[2 * k + 1] -= d[0] * r0[2 * k + 1] + d[1] * r0[2 * k];
    }
    normalize(r1);
    double phi = 3.14159265358979323846 * uniform(state);
    double ph[2] = {cos(phi), sin(phi)};
    conj_cross(r0, r1, ph, m + 12);
}

void lat_rebuild_row2(const double m[12], const double det[2], double row2[6])
{
    conj_cross(m, m + 6, det, row2);
}

void lat_det3(const double m[18], double det[2])
{
    /* det = row2 . (row0 x row1) = conj(conj(row0 x row1)) . row2 */
    double one[2] = {1, 0}, cc[6];
    conj_cross(m, m + 6, one, cc);
    det[0] = det[1] = 0;
    for (int k = 0; k < 3; k++) {
        double a = cc[2 * k], b = -cc[2 * k + 1]; /* (row0 x row1)_k */
        det[0] += a * m[12 + 2 * k] - b * m[12 + 2 * k + 1];
        det[1] += a * m[12 + 2 * k + 1] + b * m[12 + 2 * k];
    }
}

void lat_put(int dbl, void *p, size_t k, double re, double im)
{
    if (dbl) {
        ((double *)p)[2 * k] = re;
        ((double *)p)[2 * k + 1] = im;
    } else {
        ((float *)p)[2 * k] = (float)re;
        ((float *)p)[2 * k + 1] = (float)im;
    }
}

void lat_put_long(const struct lat_geom *g, int dbl, void *full, void *comp, int p, int mu,
                  size_t i, unsigned long long k)
{
    unsigned long long st = 0x5DEECE66DULL * (k * 8 + (unsigned long long)(p * 4 + mu) + 1);
    double m[18], det[2];
    lat_random_u3(&st, m);
    lat_det3(m, det);
    for (int e = 0; e < 9 && full; e++)
        lat_put(dbl, full, lat_link_at(g, LAT_NE_FULL, p, mu, e, i), m[2 * e], m[2 * e + 1]);
    for (int e = 0; e < 7 && comp; e++) /* rows 0 and 1, then det */
        lat_put(dbl, comp, lat_link_at(g, LAT_NE_COMPRESSED, p, mu, e, i),
                e < 6 ? m[2 * e] : det[0], e < 6 ? m[2 * e + 1] : det[1]);
}

void lat_fill_long(const struct lat_geom *g, int dbl, void *full, void *comp)
{
#pragma omp parallel for schedule(static)
    for (long i = 0; i < (long)g->vh; i++)
        for (int p = 0; p < 2; p++)
            for (int mu = 0; mu < 4; mu++)
                lat_put_long(g, dbl, full, comp, p, mu, (size_t)i, (unsigned long long)i);
}

/* ---- the reference ------------------------------------------------------- */

static double get(int dbl, const void *p, size_t k)
{
    return dbl ? ((const double *)p)[k] : (double)((const float *)p)[k];
}

/* Link (p, mu) of site i as 18 doubles. */
static void load_link(const struct lat_geom *g, int dbl, const void *links, int p, int mu,
                      size_t i, double m[18])
{
    for (int e = 0; e < 9; e++) {
        size_t k = lat_link_at(g, LAT_NE_FULL, p, mu, e, i);
        m[2 * e] = get(dbl, links, 2 * k);
        m[2 * e + 1] = get(dbl, links, 2 * k + 1);
    }
}

/* acc += sign * M v (adj = 0) or sign * M^dag v (adj = 1), for every rhs. */
static void apply(const struct lat_geom *g, const struct lat_fields *f, const double m[18],
                  int adj, double sign, size_t nb, double *acc)
{
    for (int r = 0; r < f->rhs; r++) {
        double v[6];
        for (int c = 0; c < 3; c++) {
            size_t k = lat_vec_at(g, r, c, nb);
            v[2 * c] = f->v64 ? f->v64[2 * k] : get(f->dbl, f->v, 2 * k);
            v[2 * c + 1] = f->v64 ? f->v64[2 * k + 1] : get(f->dbl, f->v, 2 * k + 1);
        }
        for (int i = 0; i < 3; i++) {
            double re = 0, im = 0;
            for (int j = 0; j < 3; j++) {
                int e = adj ? 3 * j + i : 3 * i + j;
                double a = m[2 * e], b = adj ? -m[2 * e + 1] : m[2 * e + 1];
                re += a * v[2 * j] - b * v[2 * j + 1];
                im += a * v[2 * j + 1] + b * v[2 * j];
            }
            acc[6 * r + 2 * i] += sign * re;
            acc[6 * r + 2 * i + 1] += sign * im;
        }
    }
}

/* The sum at site i of parity p: its own links (parity p) forward, the
 * neighbours' links (parity 1 - p) backward. */
static void site(const struct lat_geom *g, const struct lat_fields *f, int p, size_t i,
                 double *acc)
{
    int x[4], y[4];
    lat_coords(g, p, i, x);
    memset(acc, 0, (size_t)f->rhs * 6 * sizeof *acc);
    double m[18];
    for (int mu = 0; mu < 4; mu++) {
        for (int hop = 1; hop <= 3; hop += 2) {
            const void *links = hop == 1 ? f->fat : f->lng;
            memcpy(y, x, sizeof y);
            y[mu] = x[mu] + hop;
            load_link(g, f->dbl, links, p, mu, i, m);
            apply(g, f, m, 0, 1.0, lat_index(g, y), acc);
            y[mu] = x[mu] - hop; /* the link of the other-parity site x - hop*mu */
            size_t nb = lat_index(g, y);
            load_link(g, f->dbl, links, 1 - p, mu, nb, m);
            apply(g, f, m, 1, -1.0, nb, acc);
        }
    }
}

/* The fields of right-hand sides r0 .. r0 + 7 (at most; f's rhs are read in
 * blocks of 8 so that the accumulators stay on the stack). */
static void rhs_block(const struct lat_geom *g, const struct lat_fields *f, int r0,
                      struct lat_fields *part)
{
    *part = *f;
    part->rhs = f->rhs - r0 < 8 ? f->rhs - r0 : 8;
    size_t vstride = (size_t)r0 * 3 * g->vh * 2;
    if (f->v64)
        part->v64 = f->v64 + vstride;
    else
        part->v = f->dbl ? (const void *)((const double *)f->v + vstride)
                         : (const void *)((const float *)f->v + vstride);
}

void lat_dslash_ref(const struct lat_geom *g, const struct lat_fields *f, double *w)
{
    lat_dslash_ref_parity(g, f, 0, w);
}

void lat_dslash_ref_parity(const struct lat_geom *g, const struct lat_fields *f, int p,
                             double *w)
{
    /* the whole lattice is the box at the origin, written in its own layout */
    static const int origin[4] = {0, 0, 0, 0};
    lat_dslash_ref_box(g, f, p, g, origin, 0, w);
}

void lat_dslash_ref_box(const struct lat_geom *g, const struct lat_fields *f, int p,
                          const struct lat_geom *b, const int off[4], int out_g, double *w)
{
    size_t stride = out_g ? g->vh : b->vh; /* between the vectors of w */
#pragma omp parallel
    {
        double acc[8 * 6];
        struct lat_fields part;
        for (int r0 = 0; r0 < f->rhs; r0 += 8) {
            rhs_block(g, f, r0, &part);
#pragma omp for schedule(static)
            for (long i = 0; i < (long)b->vh; i++) {
                int x[4];
                lat_coords(b, p, (size_t)i, x);
                for (int d = 0; d < 4; d++)
                    x[d] += off[d];
                size_t ig = lat_index(g, x), io = out_g ? ig : (size_t)i;
                site(g, &part, p, ig, acc);
                for (int r = 0; r < part.rhs; r++)
                    for (int c = 0; c < 3; c++) {
                        size_t k = ((size_t)(r0 + r) * 3 + (size_t)c) * stride + io;
                        w[2 * k] = acc[6 * r + 2 * c];
                        w[2 * k + 1] = acc[6 * r + 2 * c + 1];
                    }
            }
        }
    }
}

double lat_rebuild_error(const struct lat_geom *g, int dbl, const void *full,
                         const void *comp)
{
    double worst = 0;
#pragma omp parallel for reduction(max : worst) schedule(static)
    for (long i = 0; i < (long)g->vh; i++)
        for (int p = 0; p < 2; p++)
            for (int mu = 0; mu < 4; mu++) {
                double m[12], det[2], row2[6];
                for (int e = 0; e < 7; e++) {
                    size_t k = lat_link_at(g, LAT_NE_COMPRESSED, p, mu, e, (size_t)i);
                    double *dst = e < 6 ? &m[2 * e] : det;
                    dst[0] = get(dbl, comp, 2 * k);
                    dst[1] = get(dbl, comp, 2 * k + 1);
                }
                lat_rebuild_row2(m, det, row2);
                for (int q = 12; q < 18; q++) { /* the reals of row 2 */
                    size_t k = 2 * lat_link_at(g, LAT_NE_FULL, p, mu, q / 2, (size_t)i) + q % 2;
                    double dv = fabs(get(dbl, full, k) - row2[q - 12]);
                    if (!(dv <= worst)) /* NaN propagates as a failure */
                        worst = isnan(dv) ? INFINITY : dv;
                }
                /* rows 0 and 1 are copies: they must agree exactly */
                for (int e = 0; e < 6; e++) {
                    size_t kc = lat_link_at(g, LAT_NE_COMPRESSED, p, mu, e, (size_t)i);
                    size_t kf = lat_link_at(g, LAT_NE_FULL, p, mu, e, (size_t)i);
                    if (get(dbl, comp, 2 * kc) != get(dbl, full, 2 * kf) ||
                        get(dbl, comp, 2 * kc + 1) != get(dbl, full, 2 * kf + 1))
                        worst = INFINITY;
                }
            }
    return worst;
}
